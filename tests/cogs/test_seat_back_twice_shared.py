"""I'm back pressed in two processes at once (a DM press and /back). Before, the second found
the clocks changed, reloaded and noted its back again: an "is back" line, in the log and
/replay, for a member who as far as the log told never left. Now a seat already so (the
other process made the same change, with its note) is noted once."""

from __future__ import annotations

import time

from db import SeatChange


async def test_im_back_pressed_in_two_processes_writes_no_back_line_for_a_member_who_played(
    two,
) -> None:
    """Bob plays his seat at the last move (the deal), then leaves: the next move's log is to
    say "Bob left". He presses **I'm back** in his DM (shard 0) and `/back` in the channel
    (its shard) at once; both processes find a bot in his seat. The first back drops the
    "left" line (net: no change since the move). The second finds the clocks changed,
    reloads, and notes its back again on clocks with no line: "Bob is back and plays their
    own seat again." goes into the next move's log and /replay, of a member who, as far as
    the log tells, never left."""
    dm_shard, channel_shard, game_id = two
    member = 101
    s = await dm_shard.get(game_id)
    assert s is not None
    await dm_shard.change_seat(s, SeatChange(member, True, "normal", "left", 0), time.time())
    dm_copy = await dm_shard.get(game_id)
    channel_copy = await channel_shard.get(game_id)
    assert dm_copy is not None and channel_copy is not None
    assert all(c.seat(member).is_bot for c in (dm_copy, channel_copy))  # type: ignore[union-attr]
    back = SeatChange(member, False, None, None, 0)
    await dm_shard.change_seat(dm_copy, back, time.time())
    await channel_shard.change_seat(channel_copy, back, time.time())
    row = await dm_shard.store.get_game(game_id)
    assert row is not None
    noted = row.clocks.get("noted", [])
    assert noted == [], f"the next move's log will say {noted!r} of a member who never left"
