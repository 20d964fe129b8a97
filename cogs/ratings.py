"""Skill ratings from a game's outcome with openskill (a maintained Weng-Lin rating library for
multiplayer games with placings), not hand-written Elo. Pure: no Discord, no SQL.

The model is Bradley-Terry with full pairing: every member is compared with every other, so
shared places (an Item Collection win for two, a draw) are rated right. openskill's
Plackett-Luce, tried first, gave the player *after* two tied winners the winners' own gain
(ranks 1, 1, 3, 4 -> 25.9, 25.9, 25.9, 22.2); Bradley-Terry gives 30.3, 30.3, 22.4, 17.1.

Who is rated: members only (bots never), and only in a game with at least two members; it
still counts as played otherwise. A member whose seat a bot was playing at the end (they left,
were kicked or timed out) is placed last, below everyone who stayed, and cannot win; if
nobody who stayed won, the best placed of them win by forfeit (``sessions.forfeit_winners``),
so the stats and the ratings tell the same story.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
MIN_GAMES = 3  # rated games before a member appears on a leaderboard
SCALE = 40  # shown rating = 1000 + 40 x (mu - 3 sigma): starts at 1000


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate leaderboards rank by."""
        return self.mu - 3 * self.sigma


def fresh() -> Rating:
    r = MODEL.rating()
    return Rating(r.mu, r.sigma)


def shown(ordinal: float | None) -> int:
    """The rating players see: 1000 for a newcomer, rising as they win."""
    return round(1000 + SCALE * (ordinal or 0.0))


def places(placings: list[list[str]], members: list[str], away: set[str]) -> dict[str, int]:
    """Each member's place (1 = best, ties share) among the members only; members who were
    away at the end come last together."""
    ranked: dict[str, int] = {}
    place = 1
    for group in placings:
        here = [p for p in group if p in members and p not in away]
        for p in here:
            ranked[p] = place
        place += len(here)
    for p in members:
        if p not in ranked:
            ranked[p] = place
    return ranked


def rate(previous: Mapping[str, Rating | None], ranks: Mapping[str, int]) -> dict[str, Rating]:
    """New ratings of the members in ``ranks`` (2 or more), from their previous ones."""
    players = list(ranks)
    teams = [[MODEL.rating(*(astuple(previous.get(p)) or ()))] for p in players]
    rated = MODEL.rate(teams, ranks=[ranks[p] for p in players])
    return {p: Rating(team[0].mu, team[0].sigma) for p, team in zip(players, rated, strict=True)}


def astuple(rating: Rating | None) -> tuple[float, float] | None:
    return (rating.mu, rating.sigma) if rating is not None else None
