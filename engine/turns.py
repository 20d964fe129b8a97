"""Seat arithmetic shared by the turn-based games."""

from __future__ import annotations

from collections.abc import Callable


def next_seat(
    seat: int, count: int, direction: int = 1, skip: Callable[[int], bool] | None = None
) -> int:
    """The next seat clockwise (``direction`` 1) or anticlockwise (-1).

    ``skip(seat)`` marks seats to pass over (players who are out); if every other seat is
    skipped, ``seat`` itself is returned.
    """
    nxt = seat
    for _ in range(count):
        nxt = (nxt + direction) % count
        if skip is None or not skip(nxt) or nxt == seat:
            return nxt
    return seat
