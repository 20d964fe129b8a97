"""Why the end post says a game was won by forfeit: the seat that decided it."""

from __future__ import annotations

from cogs.sessions import forfeit_reason
from db.rows import SeatRow


def seat(user: int, away: str | None) -> SeatRow:
    return SeatRow(1, user, user, f"p{user}", away is not None, None, None, False, away=away)


def test_the_reason_is_the_winning_seats_own() -> None:
    """One member left, another timed out, and the timed-out member's bot won. Before, the
    post said "a player left the game" whenever anyone had left. Now it gives the reason of
    the seat that won; in a draw, a leaver's if there is one."""
    seats = [seat(1, None), seat(2, "left"), seat(3, "timeout")]
    assert forfeit_reason(seats, ["3"]) == (
        "a player was away and a bot played their seat to the end."
    )
    assert forfeit_reason(seats, ["2"]) == "a player left the game."
    assert forfeit_reason(seats, []) == "a player left the game."
