"""Two processes sharing one PostgreSQL database: a write worked out from a copy of a game
that another process changed since (at the same version: a seat handed to a bot) is refused,
so it cannot undo that change. Before: only the version was checked, and a timed-out move
from process one seated a member again who had just left through process two."""

from __future__ import annotations

import time

import pytest

import engine
from db import SeatChange, StaleVersion


async def test_a_timed_out_move_from_an_older_copy_cannot_undo_a_leave(two) -> None:
    one, other, game_id = two
    mine = await one.get(game_id)  # process one's copy, checked (its timer fires)
    assert mine is not None and mine.game is not None
    player = mine.game.actors()[0]
    action = mine.game.legal_actions(player)[0].id
    # Meanwhile the player leaves through process two: a bot takes the seat, same version.
    theirs = await other.get(game_id)
    assert theirs is not None
    left = SeatChange(int(player), True, "normal", "left", 0)
    await other.change_seat(theirs, left, time.time())
    with pytest.raises(StaleVersion):
        await one.apply(mine, int(player), action, time.time(), timed_out=True)
    seat = next(s for s in await one.store.seats(game_id) if s.user_id == int(player))
    assert seat.is_bot and seat.away == "left" and seat.strikes == 0
    # Judged again on the game as it is now, the clock finds a bot seat (no strike to give).
    fresh = await one.get(game_id)
    assert fresh is not None and fresh.seat(int(player)).is_bot  # type: ignore[union-attr]


async def test_a_move_from_an_older_copy_cannot_drop_a_bot_seats_clock(two) -> None:
    one, other, game_id = two
    mine = await one.get(game_id)
    assert mine is not None and mine.game is not None
    mover = mine.game.actors()[0]
    action = mine.game.legal_actions(mover)[0].id
    leaver = next(s.user_id for s in mine.seats if str(s.user_id) != mover)
    theirs = await other.get(game_id)
    assert theirs is not None
    await other.change_seat(theirs, SeatChange(leaver, True, "normal", "left", 0), time.time())
    with pytest.raises(StaleVersion):
        await one.apply(mine, int(mover), action, time.time())
    # Judged again from the game as stored, the move's clocks wake the bot when it is due.
    fresh = await one.get(game_id)
    assert fresh is not None
    await one.apply(fresh, int(mover), action, time.time())
    row = await one.store.get_game(game_id)
    assert row is not None and row.state is not None
    game = engine.load(row.state)
    if game.legal_actions(str(leaver)):
        assert "bot" in row.clocks, row.clocks


async def test_a_clock_change_from_an_older_copy_is_refused(two) -> None:
    one, other, game_id = two
    mine = await one.get(game_id)
    theirs = await other.get(game_id)
    assert mine is not None and theirs is not None and mine.game is not None
    leaver = int(mine.game.actors()[0])
    await other.change_seat(theirs, SeatChange(leaver, True, "normal", "left", 0), time.time())
    assert not await one.set_clocks(mine, {"nudge": {str(leaver): time.time() + 20}})
    row = await one.store.get_game(game_id)
    assert row is not None and "bot" in row.clocks, row.clocks
