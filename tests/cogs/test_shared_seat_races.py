"""Two processes on one PostgreSQL change one seat at once (no move in between).

Before, ``Store.set_seat`` checked the game's revision only for the clocks it stores; the seat
itself was written whatever happened since the copy it was worked out from. So a seat change
decided on an outdated copy undid one another process stored just before: a member the host kicked
(``/kick`` in the channel, the channel's shard) who presses **I'm back** in their DM at the same
moment (DM clicks go to shard 0) was seated again, although "a kicked member cannot return".
"""

from __future__ import annotations

import time

import pytest

from db import SeatChange, SeatRemoved


async def test_a_kicked_member_pressing_im_back_at_the_same_moment_stays_kicked(two) -> None:
    channel_shard, dm_shard, game_id = two
    member = 101
    # Bob left earlier: a bot plays his seat.
    s = await channel_shard.get(game_id)
    assert s is not None
    await channel_shard.change_seat(s, SeatChange(member, True, "normal", "left", 0), time.time())

    # Both processes load the game (Seats._come_back and Seats.kick, under their own locks).
    dm_copy = await dm_shard.get(game_id)
    host_copy = await channel_shard.get(game_id)
    assert dm_copy is not None and host_copy is not None
    seat = dm_copy.seat(member)
    assert seat is not None and seat.is_bot and seat.away == "left"  # _come_back's checks pass

    # The host's /kick is stored first...
    await channel_shard.change_seat(
        host_copy, SeatChange(member, True, "normal", "kicked", 0), time.time()
    )
    # ...then Bob's "I'm back", decided on the copy from before the kick: refused.
    with pytest.raises(SeatRemoved):
        await dm_shard.change_seat(dm_copy, SeatChange(member, False, None, None, 0), time.time())
    seat = dm_copy.seat(member)
    assert seat is not None and seat.away == "kicked", "the copy was brought up to date"

    stored = next(x for x in await channel_shard.store.seats(game_id) if x.user_id == member)
    assert stored.away == "kicked" and stored.is_bot, (
        f"the kick was undone by an I'm back decided before it: {stored}"
    )
