"""Drawing under a misbehaving Discord: an old table whose repost Discord fails."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table, controls
from tests.discord.test_turn_clocks import a_move, current


def versions(message: Any) -> set[int]:
    return {
        int(c.custom_id.split(":")[2]) for c in controls(message) if c.custom_id.startswith("g:")
    }


@pytest.mark.parametrize(
    "status, message",
    [(503, "Service Unavailable"), (429, "You are being rate limited.")],
)
async def test_an_old_table_whose_repost_fails_is_still_edited(
    simcord_env: Any, status: int, message: str
) -> None:
    """The table was posted 51 minutes ago, so the next move reposts it (edits of messages
    over an hour old are limited, not those of a 51-minute-old one). Discord fails the
    channel's new messages for three minutes (a 503 outage of message creation, or a 429
    discord.py gives up on) while edits still go through. For those minutes the table is
    never edited: every pass (the move's, each retry, the catch-up) tries the repost
    first, fails, and leaves the table showing the turn before (whose turn it is, the top
    card, buttons of an older version) although an edit would land. A channel locked by
    its moderators (403) gets exactly that fallback (``Presenter._draw_table`` edits the
    old table instead); before, a repost failing for any other reason did not. Now it
    falls back the same way, and the repost is tried again later."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    session = await table.session()
    table_id = session.row.table_message_id
    assert session.row.table_posted_at is not None and table_id is not None
    posted = session.row.table_posted_at - 51 * 60
    await env.bot.store.set_table_message(table.game_id, table_id, posted)
    session.row.table_posted_at = posted
    env.inject_error(
        "POST", f"/channels/{table.channel.id}/messages", status=status, message=message, times=None
    )
    player = await current(table)
    await table.act(player, await a_move(table, player), via="dm")
    await env.advance_time(120)
    session = await table.session()
    assert session.row.table_message_id == table_id  # not reposted: posts fail
    shown = env.backend.get_message(table.channel.id, table_id)
    assert versions(shown) == {session.version}, (
        f"2 minutes after the move the table still shows version {versions(shown)}; the game "
        f"is at {session.version}"
    )


async def test_an_old_table_whose_closing_edit_fails_for_two_minutes_stops_reading_as_live(
    simcord_env: Any,
) -> None:
    """The table is over 50 minutes old, so the next move posts a fresh one at the bottom
    and edits the old one to "The table moved down ⬇️" (no embed, no buttons). Discord fails
    edits of that old message with 5xx for two minutes. The closing edit is a presenter job,
    tried 5, 10, 15... s apart, six times (105 s), then dropped; the game stores only the new
    table's id, so no catch-up ever knows of the old one. Once Discord is back the old
    message still shows the turn as it was, its countdown and live-looking buttons, for
    good, right above the real table. That was before; now its closing edit
    is tried minutes apart for about an hour, and made once Discord works again."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    session = await table.session()
    old_id = session.row.table_message_id
    assert session.row.table_posted_at is not None
    session.row.table_posted_at -= 3600  # posted an hour ago: reposted at the next move
    env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/{old_id}", times=None)
    player = await current(table)
    await table.act(player, await a_move(table, player), via="dm")
    await env.advance_time(120)
    assert (await table.session()).row.table_message_id != old_id  # posted again
    env.backend.faults.clear()  # Discord is back
    await env.advance_time(600)
    old = env.backend.get_message(table.channel.id, old_id)
    text = old.content or ""
    assert "moved down" in text and not old.components, (
        f"the old table still reads as live ({len(old.components)} rows of buttons, "
        f"content {text[:60]!r}, {len(old.embeds)} embed(s))"
    )
