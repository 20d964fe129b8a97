"""/leave and /back between two moves. Before, each seat change was kept as a line for the
next move's log (``clocks["noted"]``), however many: a loop pushed every earlier move off the
table's Recent list and into /replay for good. Now the log keeps a member's net change between
two moves."""

from __future__ import annotations

import pytest

from tests.discord.driver import Table, message_text
from tests.discord.test_turn_clocks import a_move, current

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_leave_back_loop_floods_the_next_moves_log(simcord_env) -> None:
    """ann, bea and cy play UNO (no turn timer). While the player to move thinks, another
    member leaves and comes back twenty times. Every change appends a line to the game's
    stored clocks (rewritten whole each time) and, once the player moves, all forty lines
    ("ann left the game: a bot plays their seat." / "ann is back...") are that move's log:
    the table's Recent list shows only them and the move, the moves before it pushed out for
    everyone, and /replay keeps all forty. A leave undone by a back before any move should
    leave no line (at most the member's net change between two moves)."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=5)
    await env.bot.presenter.idle()
    mover = await current(table)
    toggler = next(m for p, m in table.members.items() if p != mover)
    for _ in range(20):
        asked = await toggler.slash(table.channel, "leave")
        await toggler.click(asked.response, label="Leave the game")
        back = await toggler.slash(table.channel, "back")
        assert "Welcome back" in (back.response.content or "")
    session = await table.session()
    noted = session.row.clocks.get("noted", [])
    await table.act(mover, await a_move(table, mover), via="table")
    await env.bot.presenter.idle()
    shown = message_text(table.table_message())
    lines = shown.count("left the game") + shown.count("is back")
    assert len(noted) <= 2 and lines <= 2, (
        f"{len(noted)} seat lines kept for the next move; {lines} shown on the table:\n{shown}"
    )
