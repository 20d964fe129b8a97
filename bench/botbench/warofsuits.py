"""A War of Suits bot strength: win rates with 95% intervals, point margins, decision times.

Targets (issue "Bots worth playing against", 2 players, on this machine):
- Normal wins at least 65% of games against Basic;
- Hard wins at least 55% of games against Normal;
- decision time: Normal p99 under 5 ms, Hard p99 under 300 ms.

Baselines: **Random** plays a uniformly random legal action. **Basic**, a plausible casual
player, sends a random card into battle, then in its window doubles when a double wins (a
random winning one), else plays an Ace whenever it has one (to claim, to answer, or to stop a
tie), else accepts the loss (or reinforces a tie). A drawn game (equal points) counts as half
a win. Seats rotated (each level plays Red and Black equally often), seeds fixed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from bench.botbench.common import (
    level_plan,
    mean_ci,
    print_decision_times,
    random_policy,
    rate,
    rotated_games,
    standard_seats,
)
from engine import Action
from engine.cards import value

KIND = "warofsuits"


# -- baselines -------------------------------------------------------------------------------
def basic(view: dict[str, Any], actions: list[Action], rng: random.Random) -> str:
    """Basic: a random card, then a winning double or an Ace whenever it has one."""
    ids = [a.id for a in actions]
    if view["phase"] == "choose":
        return rng.choice(ids)
    if view["phase"] == "react":
        me = view["window"][0]
        other = next(p for p in view["players"] if p != me)
        gap = view["totals"][other] - view["totals"][me]
        winning = [i for i in ids if i.startswith("double:") and value(i.split(":")[1]) > gap]
        if winning:
            return rng.choice(winning)
    aces = [i for i in ids if i.startswith("ace:")]
    if aces:
        return rng.choice(aces)
    return "reinforce" if "reinforce" in ids else "accept"


SEATS = standard_seats(KIND, random_policy, basic)


# -- measuring -------------------------------------------------------------------------------
@dataclass
class Tally:
    """One level's results over a series of games against one opponent."""

    games: int = 0
    wins: float = 0.0  # a draw counts half
    draws: int = 0
    margins: list[float] = field(default_factory=list)  # the level's points minus the other's
    times: list[float] = field(default_factory=list)


def series(me: str, them: str, games: int, seed: int) -> Tally:
    """``games`` games of ``me`` against ``them``, sides swapped every game."""
    tally = Tally()
    for played in rotated_games(KIND, [SEATS[me], SEATS[them]], games, seed):
        game = played.game
        mine = played.player(me)
        other = next(p for p in played.players if p != mine)
        tally.games += 1
        if not game.winners:
            tally.draws += 1
            tally.wins += 0.5
        elif mine in game.winners:
            tally.wins += 1
        tally.margins.append(game.scores[mine] - game.scores[other])
        tally.times += played.times.get(me, [])
    return tally


def run(quick: bool, seed: int) -> None:
    normal_games = 200 if quick else 2000
    hard_games = 16 if quick else 200
    hard_vs_normal = 30 if quick else 1000
    plan = level_plan(normal_games, hard_games, hard_vs_normal)
    print("| level | against | games | win rate [95% CI] | draws | mean point margin [95% CI] |")
    print("|---|---|---|---|---|---|")
    times: dict[str, list[float]] = {"normal": [], "hard": []}
    started = time.perf_counter()
    for n, (me, them, games) in enumerate(plan):
        tally = series(me, them, games, seed * 1_000_000 + n * 100_000)
        times[me] += tally.times
        m, lo, hi = mean_ci(tally.margins)
        print(
            f"| {me} | {them} | {tally.games} | {rate(tally.wins, tally.games)} | "
            f"{tally.draws} | {m:+.1f} [{lo:+.1f}, {hi:+.1f}] |",
            flush=True,
        )
    print_decision_times(KIND, times, started)
