"""Rate limits when an old table is posted again: the old one must not go on reading as live."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import a_move, current


async def test_an_old_table_whose_closing_edit_met_a_429_stops_reading_as_live(
    simcord_env: Any,
) -> None:
    """The table is over 50 minutes old, so the next move posts a fresh one at the bottom
    and edits the old one to "The table moved down ⬇️" (no embed, no buttons). That edit is
    answered 429 once. Before, ``Presenter.post_table`` swallowed the error and never tried
    again: the old message kept the old turn, the old cards, its countdown and live-looking
    buttons for good, right above the real table. Now the closing edit is tried again later,
    as the presenter's other edits are."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    session = await table.session()
    old_id = session.row.table_message_id
    assert session.row.table_posted_at is not None
    session.row.table_posted_at -= 3600  # posted an hour ago: its edits are limited
    env.inject_error(
        "PATCH",
        f"/channels/{table.channel.id}/messages/{old_id}",
        status=429,
        message="You are being rate limited.",
        times=1,
    )
    player = await current(table)
    await table.act(player, await a_move(table, player), via="dm")
    await env.advance_time(5)
    assert (await table.session()).row.table_message_id != old_id  # posted again
    await env.advance_time(120)
    old = env.backend.get_message(table.channel.id, old_id)
    text = old.content or ""
    assert "moved down" in text and not old.components, (
        f"the old table still reads as live ({len(old.components)} rows of buttons, "
        f"content {text[:60]!r}, {len(old.embeds)} embed(s))"
    )
