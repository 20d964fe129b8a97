"""A player's DMs closed mid-game (they block the bot, or turn off DMs from server members:
Discord answers 50007), then opened again: tried again at their next click in the channel."""

from __future__ import annotations

from typing import Any

from cogs import ids
from tests.discord.driver import Table, message_text


def close_dms(env: Any, channel_id: int) -> None:
    """The member blocks the bot: every post or edit in their DM is refused (50007)."""
    for method in ("PATCH", "POST"):
        env.inject_error(
            method,
            f"/channels/{channel_id}/messages*",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )


async def test_a_dm_reopened_mid_game_is_brought_up_to_date(simcord_env) -> None:
    """Bea closes her DMs for a moment: the edit of her DM hand is refused (50007), the
    channel is told once to use My hand, and her seat is marked DMs-closed. Before, nothing
    ever cleared that mark: with her DMs open again, her DM kept showing the hand from before
    (seven cards, one of them played long ago) for the rest of the game. Now her next click
    in the channel (My hand) tries her DM again."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    other = next(p for p in table.members if p != mover)
    dm = table.dm_message(other)
    assert dm is not None
    close_dms(env, dm.channel.id)
    await table.some_move(via="picker")
    await env.bot.presenter.idle()
    assert (await table.session()).seat(int(other)).dm_closed  # type: ignore[union-attr]
    env.backend.faults.clear()  # she opens her DMs again
    member = table.members[other]
    await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
    for _ in range(4):
        await table.some_move(via="picker")
        await env.advance_time(30)
    await env.bot.presenter.idle()
    hand = (await table.game()).view(other)["hand"]
    shown = table.dm_message(other)
    assert shown is not None
    text = message_text(shown)
    assert f"({len(hand)} card" in text, (
        f"{other} holds {len(hand)} cards; her DM, open again, still says: "
        f"{text.splitlines()[2] if len(text.splitlines()) > 2 else text}"
    )


async def test_dms_still_closed_are_tried_now_and_then_without_a_second_notice(
    simcord_env: Any,
) -> None:
    """Bea's DMs stay closed and she plays with My hand, pressing it every turn: her DM is
    tried again at most every five minutes, and the channel is told only once."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    other = next(p for p in table.members if p != mover)
    dm = table.dm_message(other)
    assert dm is not None
    close_dms(env, dm.channel.id)
    await table.some_move(via="picker")
    await env.bot.presenter.idle()
    member = table.members[other]
    since = len(env.http_requests)
    for _ in range(6):  # a My hand press a minute, six minutes
        await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
        await env.advance_time(60)
    await env.bot.presenter.idle()
    tries = [r for r in env.http_requests[since:] if f"/channels/{dm.channel.id}/" in r.path]
    assert 1 <= len(tries) <= 2, f"{len(tries)} tries of a closed DM in six minutes"
    notices = [
        m for m in table.public_messages() if "can't send you direct messages" in message_text(m)
    ]
    assert len(notices) == 1, [message_text(m) for m in notices]
    assert (await table.session()).seat(int(other)).dm_closed  # type: ignore[union-attr]
