"""A member's net seat change between two moves. Before, back, leave and back again (from a
seat a bot played at the last move) left no "is back" line; now a change that undoes the
member's last one since the move drops both, and the next writes its own."""

from __future__ import annotations

import pytest

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import a_move, current

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def _leave(member, table) -> None:
    asked = await member.slash(table.channel, "leave")
    await member.click(asked.response, label="Leave the game")


async def test_back_leave_back_between_moves_loses_the_back_line(simcord_env) -> None:
    """ann, bea and cy play UNO. cy leaves; a move is made (its log says "cy left the game:
    a bot plays their seat."). Before the next move cy presses /back, /leave and /back: she
    plays her own seat again, so the next move's log should say she is back. ``note_seat``
    replaced her "is back" line with a "left" one at the /leave, then took that "left" line
    for a leave since the last move and dropped it at the second /back: no line at all, and
    the table's Recent list and /replay go on saying a bot plays her seat."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=5)
    await env.bot.presenter.idle()
    mover = await current(table)
    toggler_id = next(p for p in table.members if p != mover)
    toggler = table.members[toggler_id]
    await _leave(toggler, table)
    await table.act(mover, await a_move(table, mover), via="table")
    await env.settle()
    session = await table.session()
    assert not session.row.clocks.get("noted"), session.row.clocks
    seat = session.seat(int(toggler_id))
    assert seat is not None and seat.is_bot

    back = await toggler.slash(table.channel, "back")
    assert "Welcome back" in (back.response.content or "")
    await _leave(toggler, table)
    back = await toggler.slash(table.channel, "back")
    assert "Welcome back" in (back.response.content or "")

    session = await table.session()
    seat = session.seat(int(toggler_id))
    assert seat is not None and not seat.is_bot  # she plays her own seat
    noted = session.row.clocks.get("noted", [])
    assert any(line.startswith(f"{toggler_id} is back") for line in noted), (
        f"the next move's log says nothing of her return: {noted!r}"
    )
