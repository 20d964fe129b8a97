"""Haymaker bot strength: win rates with 95% intervals, how games end, decision times.

Targets (issue "Bots worth playing against", 2 players, on this machine):
- Normal wins at least 65% of games against Basic;
- Hard wins at least 55% of games against Normal;
- decision time: Normal p99 under 5 ms, Hard p99 under 300 ms.

Baselines: **Random** plays a uniformly random legal action; for a haymaker or a block it
picks a random valid choice (a random number of random cards, tried until valid; failing that,
random cards of one suit, or random cards until the block is enough). **Basic**, a plausible
casual player, makes a random attack (any card, a random haymaker from a random suit, or a pass
when allowed, uniformly among the offered moves), blocks whenever it can (random cards until
the block reaches the attack), else takes the hit. A draw (equal discard piles) counts as half
a win. Seats rotated (each level attacks first equally often), seeds fixed.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.botbench.common import (
    level_plan,
    print_decision_times,
    rate,
    rotated_games,
    standard_seats,
)
from engine import Action
from engine.cards import suit, value

KIND = "haymaker"


# -- baselines -------------------------------------------------------------------------------
def random_haymaker(cards: list[str], rng: random.Random) -> list[str]:
    """Two or more random cards of a random suit that has two or more."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        groups.setdefault(suit(c), []).append(c)
    pool = groups[rng.choice(sorted(s for s, cs in groups.items() if len(cs) >= 2))]
    return rng.sample(pool, rng.randrange(2, len(pool) + 1))


def random_block(cards: list[str], need: int, rng: random.Random) -> list[str]:
    """Random cards, one at a time, until they add up to ``need``."""
    shuffled = rng.sample(cards, len(cards))
    chosen: list[str] = []
    for c in shuffled:
        chosen.append(c)
        if sum(value(x) for x in chosen) >= need:
            break
    return chosen


def random_policy(view: dict[str, Any], actions: list[Action], rng: random.Random) -> str:
    """Random: a uniformly random legal action; a random valid choice for a pick."""
    action = rng.choice(actions)
    pick = action.pick
    if pick is None:
        return action.id
    for _ in range(20):
        chosen = rng.sample(pick.options, rng.randrange(pick.min, pick.max + 1))
        if action.id == "haymaker" and len({suit(c) for c in chosen}) == 1:
            return f"{action.id}:{'.'.join(chosen)}"
        if action.id == "block" and sum(value(c) for c in chosen) >= view["attack"]["strength"]:
            return f"{action.id}:{'.'.join(chosen)}"
    if action.id == "haymaker":
        chosen = random_haymaker(pick.options, rng)
    else:
        chosen = random_block(pick.options, view["attack"]["strength"], rng)
    return f"{action.id}:{'.'.join(chosen)}"


def basic(view: dict[str, Any], actions: list[Action], rng: random.Random) -> str:
    """Basic: a random attack; blocks whenever it can (a random sufficient block)."""
    if view["phase"] == "attack":
        action = rng.choice(actions)
        if action.pick is not None:
            assert action.id == "haymaker"
            return f"haymaker:{'.'.join(random_haymaker(action.pick.options, rng))}"
        return action.id
    block = next((a for a in actions if a.id == "block"), None)
    if block is None or block.pick is None:
        return "hit"
    chosen = random_block(block.pick.options, view["attack"]["strength"], rng)
    return f"block:{'.'.join(chosen)}"


SEATS = standard_seats(KIND, random_policy, basic)


# -- measuring -------------------------------------------------------------------------------
@dataclass
class Tally:
    """One level's results over a series of games against one opponent."""

    games: int = 0
    wins: float = 0.0  # a draw counts half
    ways: Counter[str] = field(default_factory=Counter)  # how the level's wins came
    turns: int = 0  # moves in all games
    times: list[float] = field(default_factory=list)


def series(me: str, them: str, games: int, seed: int) -> Tally:
    """``games`` games of ``me`` against ``them``; who attacks first alternates."""
    tally = Tally()
    for played in rotated_games(KIND, [SEATS[me], SEATS[them]], games, seed):
        game = played.game
        mine = played.player(me)
        tally.games += 1
        tally.turns += len(played.history)
        if not game.winners:
            tally.wins += 0.5
            tally.ways["draw"] += 1
        elif mine in game.winners:
            tally.wins += 1
            tally.ways[game.reason or "?"] += 1
        tally.times += played.times.get(me, [])
    return tally


def run(quick: bool, seed: int) -> None:
    normal_games = 200 if quick else 2000
    hard_games = 20 if quick else 300
    hard_vs_normal = 40 if quick else 1000
    plan = level_plan(normal_games, hard_games, hard_vs_normal)
    print(
        "| level | against | games | win rate [95% CI] | its wins by knockout / technical "
        "knockout / decision, draws | moves per game |"
    )
    print("|---|---|---|---|---|---|")
    times: dict[str, list[float]] = {"normal": [], "hard": []}
    started = time.perf_counter()
    for n, (me, them, games) in enumerate(plan):
        tally = series(me, them, games, seed * 1_000_000 + n * 100_000)
        times[me] += tally.times
        ways = tally.ways
        how = (
            f"{ways['knockout']} / {ways['technical knockout']} / {ways['decision']}, "
            f"{ways['draw']}"
        )
        print(
            f"| {me} | {them} | {tally.games} | {rate(tally.wins, tally.games)} | {how} | "
            f"{tally.turns / tally.games:.1f} |",
            flush=True,
        )
    print_decision_times(KIND, times, started)
