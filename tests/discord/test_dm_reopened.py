"""A player's DMs closed mid-game (they block the bot, or turn off DMs from server members:
Discord answers 50007), then opened again: tried again at their next click in the channel."""

from __future__ import annotations

from typing import Any

from cogs import ids
from tests.discord.driver import Table, message_text
from tests.discord.restarts import graceful_restart


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


async def player_with_closed_dms(env: Any, channel: str = "games") -> tuple[Table, str, Any]:
    """A 2-player UNO game whose player to move has closed their DMs (every post or edit
    refused); the game, that player and their DM hand as it was. Their move (the next
    ``some_move``) changes their hand, so the bot tries their DM then."""
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0, channel_name=channel)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    other = mover
    dm = table.dm_message(other)
    assert dm is not None
    close_dms(env, dm.channel.id)
    return table, other, dm


async def reopened_after_a_refusal(env: Any) -> tuple[Table, str]:
    """The player's DMs closed, her move's edit of her DM hand refused (her seat marked
    DMs-closed), then her DMs open again and she presses My hand in the channel; the game
    and that player."""
    table, other, _dm = await player_with_closed_dms(env)
    await table.some_move(via="picker")
    await env.bot.presenter.idle()
    assert (await table.session()).seat(int(other)).dm_closed  # type: ignore[union-attr]
    env.backend.faults.clear()  # she opens her DMs again
    member = table.members[other]
    await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
    return table, other


async def hand_and_dm(table: Table, player: str) -> tuple[list[str], str]:
    """The player's hand as the game holds it, and their DM's text as it shows now."""
    hand = (await table.game()).view(player)["hand"]
    shown = table.dm_message(player)
    assert shown is not None
    return hand, message_text(shown)


async def test_a_dm_reopened_mid_game_is_brought_up_to_date(simcord_env) -> None:
    """Bea closes her DMs for a moment: the edit of her DM hand is refused (50007), the
    channel is told once to use My hand, and her seat is marked DMs-closed. Before, nothing
    ever cleared that mark: with her DMs open again, her DM kept showing the hand from before
    (seven cards, one of them played long ago) for the rest of the game. Now her next click
    in the channel (My hand) tries her DM again."""
    env = simcord_env
    table, other = await reopened_after_a_refusal(env)
    for _ in range(4):
        await table.some_move(via="picker")
        await env.advance_time(30)
    await env.bot.presenter.idle()
    hand, text = await hand_and_dm(table, other)
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
    table, other, dm = await player_with_closed_dms(env)
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


async def test_a_dm_reopened_mid_game_stays_open_after_a_restart(simcord_env, make_bot) -> None:
    """Bea blocks the bot for a moment (her DM hand's edit is refused, her seat is marked
    DMs-closed), unblocks it and presses My hand: her DM hand is edited again. Before, that
    successful *edit* never cleared the stored mark (only a freshly *sent* DM did): after
    the next restart, or on another shard, her DM stopped following the game again. Now the
    mark is cleared whenever the retried DM lands, edited or sent."""
    env = simcord_env
    table, other = await reopened_after_a_refusal(env)
    await env.advance_time(5)
    await env.bot.presenter.idle()
    before = (await table.game()).view(other)["hand"]
    shown = table.dm_message(other)
    assert shown is not None and f"({len(before)} card" in message_text(shown)  # edited again
    seats = await env.bot.store.seats(table.game_id)
    stored = next(s for s in seats if s.user_id == int(other))
    # What a restart would load: her DMs still marked closed.
    await graceful_restart(env, make_bot)
    await env.settle()
    for _ in range(3):
        await table.some_move(via="picker")
        await env.advance_time(10)
    await env.bot.presenter.idle()
    hand, text = await hand_and_dm(table, other)
    assert f"({len(hand)} card" in text, (
        f"after a restart {other}'s reopened DM stopped following the game "
        f"(stored dm_closed={stored.dm_closed}): she holds {len(hand)} cards, her DM says "
        f"{text.splitlines()[1:3]}"
    )


async def test_closed_dm_retries_are_forgotten_once_their_games_are_over(simcord_env) -> None:
    """A bot hosts hundreds of thousands of games over weeks, so what it keeps per game must
    go when the game is over (tests/discord/test_growth_games.py). ``Presenter.retry_dm``
    notes, per (game, member), when a closed DM was last tried (``_dm_retried``) and that
    one is being tried (``_dm_retrying``), and nothing ever removes those notes: every game
    where a member with closed DMs pressed My hand leaves an entry behind for the life of
    the process (before). Now they are dropped when the game is over."""
    env = simcord_env
    presenter = env.bot.presenter
    games = 3
    for i in range(games):
        table = await Table.start(env, "uno", 2, channel_name=f"g{i}", seed=7)
        game = await table.game()
        mover = next(p for p in game.actors() if game.legal_actions(p))
        other = next(p for p in table.members if p != mover)
        dm = table.dm_message(other)
        assert dm is not None
        close_dms(env, dm.channel.id)
        await table.some_move(via="picker")
        await presenter.idle()
        member = table.members[other]
        await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
        await presenter.idle()
        host = next(iter(table.members.values()))
        await host.slash(table.channel, "endgame")
        await presenter.idle()
        assert not (await table.session()).row.is_open
    await env.settle()
    left = {"_dm_retried": len(presenter._dm_retried), "_dm_retrying": len(presenter._dm_retrying)}
    assert max(left.values()) == 0, f"after {games} ended games the presenter still keeps {left}"
