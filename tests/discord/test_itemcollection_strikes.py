"""docs/rules/common.md promises, at every table: "After three timed-out turns in a row, a bot
plays your seat" and "Making a move yourself resets your strikes"; and a game whose last member
"ran out of time three turns in a row" ends as abandoned.

In the Item Collection Game the negotiation's own clock presses Ready for a member who is away
("Time's up: the clock moves for ..."). Before, that move counted as the member's own and
reset their strikes to 0 every round: an absent member was never handed to a bot, and a game
whose only member walked away was never abandoned. Now the clock's move leaves strikes alone.
"""

from __future__ import annotations

from tests.discord.driver import Table

TIMER = 30


async def test_an_absent_item_collection_member_reaches_three_strikes(simcord_env) -> None:
    table = await Table.start(simcord_env, "itemcollection", 1, seed=7, turn_timer=TIMER, bots=3)
    (ann,) = table.members
    timed_out_turns = 0
    most_strikes = 0
    for _ in range(60):
        session = await table.session()
        if session.row.status != "active":
            break
        seat = session.seat(int(ann))
        assert seat is not None
        if seat.is_bot:
            break
        most_strikes = max(most_strikes, seat.strikes)
        await simcord_env.advance_time(TIMER + 1)
        log = (await table.session()).public_log
        timed_out_turns = max(
            timed_out_turns, sum(f"{ann} ran out of time" in line for line in log)
        )
    session = await table.session()
    seat = session.seat(int(ann))
    log = session.public_log
    # ann never touched the game: every one of her turns was timed out, three at least.
    moves = await table.bot.store.moves(table.game_id)
    her_turns = [a for _, user, a in moves if str(user) == ann and not a.startswith("ready")]
    assert len(her_turns) >= 3, her_turns
    # What the page says: after three timed-out turns in a row a bot plays the seat (and,
    # ann being the only member, the game ends as abandoned).
    abandoned = session.row.status == "cancelled" and session.row.ended_reason == "abandoned"
    assert (seat is not None and seat.is_bot) or abandoned, (
        f"ann still plays her own seat after {len(her_turns)} timed-out moves; "
        f"strikes now {seat and seat.strikes}, at most {most_strikes}; the game is "
        f"{session.row.status}; log: {log[-6:]}"
    )
