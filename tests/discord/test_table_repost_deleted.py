"""The table repost's fallback (a failing post edits the old table instead). Before, it
edited a table Discord had just said was deleted: one more refused call in every pass while
posts failed; now a table found deleted is not edited again in that pass."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import a_move, current

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_deleted_table_is_not_edited_again_when_its_repost_fails(
    simcord_env: Any,
) -> None:
    """A moderator deletes the table; Discord fails the channel's new messages (503) for a
    while. The next move's pass edits the table (404: deleted), so it posts a new one,
    which fails; the fallback then edits the deleted table again (404 again, suppressed).
    Each pass makes two calls that Discord refuses where the first already told it the
    message is gone."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    table_id = (await table.session()).row.table_message_id
    env.backend.delete_message(table.channel.id, table_id)
    env.inject_error("POST", f"/channels/{table.channel.id}/messages", status=503, times=None)
    start = len(env.http_requests)
    player = await current(table)
    await table.act(player, await a_move(table, player), via="dm")
    await env.advance_time(1)  # the move's own pass, before any retry
    edits = [
        r
        for r in env.http_requests[start:]
        if r.method == "PATCH" and r.path.endswith(f"/messages/{table_id}")
    ]
    assert len(edits) <= 1, f"{len(edits)} edits of the deleted table in the move's one pass"
