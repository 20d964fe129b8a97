"""A moderator deletes a running game's table message (a purge of the channel, say). The bot
hears of no deletion (no message events), so the table comes back when the bot next needs it:
a move's redraw, or the turn reminder, which replies to the table and which Discord refuses
when the table is gone.

The simulator does not refuse a reply to a deleted message, so this file adds Discord's check:
a post whose ``message_reference`` (with ``fail_if_not_exists``) names a message the channel
no longer has is refused with 400 / 50035, as Discord does.
"""

from __future__ import annotations

from typing import Any

import pytest

from cogs import ids
from tests.discord.driver import controls
from tests.discord.rest_checks import add_check, invalid_form
from tests.discord.test_dm_reopened import player_with_closed_dms


@pytest.fixture
def discord_checks_replies(simcord_env, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Discord's own check: a reply must answer a message that exists. Returns the refusals."""
    refused: list[str] = []

    def check(backend: Any, method: str, path: str, body: Any) -> None:
        reference = body.get("message_reference") if isinstance(body, dict) else None
        if method == "POST" and reference and reference.get("fail_if_not_exists", True):
            channel_id = int(path.split("/")[2])
            if int(reference["message_id"]) not in backend.messages.get(channel_id, {}):
                refused.append(path)
                raise invalid_form("message_reference", "Unknown message")

    add_check(monkeypatch, check)
    return refused


async def test_a_deleted_table_comes_back_with_the_turn_reminder(
    simcord_env, discord_checks_replies
) -> None:
    """Bea's DMs are closed, so the bot told her to press **My hand** on the table. It is her
    turn (no turn timer) when a moderator purges the channel, table included. Before, the
    table came back only after a move, which only bea could make: an hour later the channel
    had no table and no My hand, and her turn reminder linked to the deleted message. Now
    the reminder replies to the table; Discord refuses it, the table is posted again, and
    the reminder follows, linking to it, with a My hand button of its own."""
    env = simcord_env
    table, bea, _dm = await player_with_closed_dms(env)
    await table.some_move(via="picker")  # bea's move: her DMs are marked closed
    for _ in range(6):  # until it is bea's turn again
        session = await table.session()
        if session.hosted.awaited(session.game) == [bea]:  # type: ignore[arg-type]
            break
        await table.some_move(via="picker")
    await env.bot.presenter.idle()
    session = await table.session()
    assert session.seat(int(bea)).dm_closed  # type: ignore[union-attr]
    assert session.hosted.awaited(session.game) == [bea]  # type: ignore[arg-type]
    env.backend.delete_message(table.channel.id, table.table_message().id)
    for _ in range(12):  # an hour
        await env.advance_time(300)
    await env.bot.presenter.idle()
    assert discord_checks_replies, "no reminder was refused: the test no longer tests a purge"
    hand_button = ids.hand(table.game_id)
    public = table.public_messages()
    tables = [m for m in public if any(c.custom_id == hand_button for c in controls(m))]
    tables = [m for m in tables if "your turn" not in (m.content or "")]
    reminders = [m for m in public if "your turn" in (m.content or "")]
    linked = {m.id for m in tables}
    assert tables, "an hour after the table was deleted, no table in the channel"
    assert reminders and all(any(f"/{i})" in m.content for i in linked) for m in reminders), [
        m.content for m in reminders
    ]
    assert any(c.custom_id == hand_button for c in controls(reminders[-1]))


async def test_the_turn_reminder_offers_my_hand(simcord_env) -> None:
    """The reminder pings the player whose turn it is: its My hand button shows their hand
    and moves right there, as the table's does (a player whose DMs are closed has no other
    way to play should the table be gone)."""
    env = simcord_env
    table, _bea, _dm = await player_with_closed_dms(env)
    await table.some_move(via="picker")
    game = await table.game()
    (awaited,) = table.bot.sessions.cached(table.game_id).hosted.awaited(game)
    await env.advance_time(60)  # past NUDGE_AFTER_SECONDS
    reminders = [m for m in table.public_messages() if "your turn" in (m.content or "")]
    assert reminders and f"<@{awaited}>" in reminders[-1].content
    hand_button = ids.hand(table.game_id)
    assert any(c.custom_id == hand_button for c in controls(reminders[-1]))
    result = await table.members[awaited].click(reminders[-1], custom_id=hand_button)
    assert result.ephemeral and result.response is not None
    assert f"Game #{table.game_id}" in result.response.content
    moves = [c.custom_id for c in controls(result.response) if c.custom_id]
    assert any(i.startswith(f"g:{table.game_id}:") for i in moves), moves  # their moves
