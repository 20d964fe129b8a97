"""Shared tools for the bot benchmarks: play seated policies, time decisions, intervals.

A seat's policy has the ``engine.bots`` shape: ``(view, actions, rng) -> action id``, and is
given only its own seat's ``view(player)`` and ``legal_actions(player)``.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import engine
import engine.bots
from engine import Action, Game

Policy = Callable[[dict[str, Any], list[Action], random.Random], str]


@dataclass
class Seat:
    label: str  # e.g. "normal", "basic"
    policy: Policy


@dataclass
class Played:
    game: Game
    players: list[str]  # seat order of this game
    labels: dict[str, str]  # player -> seat label
    times: dict[str, list[float]] = field(default_factory=dict)  # label -> decision seconds
    history: list[tuple[str, str]] = field(default_factory=list)  # (player, action id)

    def player(self, label: str) -> str:
        """The player in the seat labelled ``label`` (the first, if several are)."""
        return next(p for p in self.players if self.labels[p] == label)


def play(
    kind: str,
    seats: Sequence[Seat],
    seed: int,
    options: dict[str, Any] | None = None,
    max_moves: int = 200_000,
    on_move: Callable[[Game, str, str], None] | None = None,
) -> Played:
    """One complete game; seat i is ``seats[i]``. Each seat gets its own seeded RNG."""
    players = [f"p{i}" for i in range(len(seats))]
    game = engine.new_game(kind, players, seed=seed, options=options)
    labels = {p: s.label for p, s in zip(players, seats, strict=True)}
    policies = {p: s.policy for p, s in zip(players, seats, strict=True)}
    rngs = {p: random.Random(seed * 1_000_003 + i) for i, p in enumerate(players)}
    order = random.Random(seed)  # who moves first when several may act
    played = Played(game, players, labels)
    moves = 0
    while not game.finished:
        able = [p for p in game.actors() if game.legal_actions(p)]
        if not able:
            raise AssertionError(f"{kind}: nobody can act")
        player = able[0] if len(able) == 1 else order.choice(able)
        view = game.view(player)
        actions = game.legal_actions(player)
        start = time.perf_counter()
        action = policies[player](view, actions, rngs[player])
        played.times.setdefault(labels[player], []).append(time.perf_counter() - start)
        if on_move is not None:
            on_move(game, player, action)
        game.apply(player, action)
        played.history.append((player, action))
        moves += 1
        if moves > max_moves:
            raise AssertionError(f"{kind}: game did not end in {max_moves} moves")
    return played


_CPU_TIMES: dict[tuple[str, str], list[float]] = {}


def level(kind: str, name: str) -> Policy:
    """A bot level of ``kind`` as a seat's policy. It also records each decision's processor
    time (``cpu_times``), which, unlike the wall-clock times ``play`` records, does not grow
    when other work shares the machine's cores."""
    times = _CPU_TIMES.setdefault((kind, name), [])

    def policy(view: dict[str, Any], actions: list[Action], rng: random.Random) -> str:
        start = time.process_time()
        action = engine.bots.choose(kind, name, view, actions, rng)
        times.append(time.process_time() - start)
        return action

    return policy


def cpu_times(kind: str, name: str) -> list[float]:
    """Processor seconds per decision of the level's seats so far."""
    return _CPU_TIMES.setdefault((kind, name), [])


def rotations(seats: Sequence[Seat], games: int) -> list[list[Seat]]:
    """Seat orders for ``games`` games: every seat takes every position equally often."""
    n = len(seats)
    return [list(seats[i % n :]) + list(seats[: i % n]) for i in range(games)]


def rotated_games(kind: str, seats: Sequence[Seat], games: int, seed: int) -> Iterator[Played]:
    """``games`` games with the seats rotated (``rotations``); game i is played with seed
    ``seed + i``."""
    for i, order in enumerate(rotations(seats, games)):
        yield play(kind, order, seed=seed + i)


def standard_seats(kind: str, random_seat: Policy, basic: Policy) -> dict[str, Seat]:
    """The seats a benchmark measures: the Random and Basic baselines and the Normal and Hard
    levels of ``kind``."""
    return {
        "random": Seat("random", random_seat),
        "basic": Seat("basic", basic),
        "normal": Seat("normal", level(kind, "normal")),
        "hard": Seat("hard", level(kind, "hard")),
    }


def level_plan(
    normal_games: int, hard_games: int, hard_vs_normal: int
) -> list[tuple[str, str, int]]:
    """The series of a 2-player benchmark: (level, against, games)."""
    return [
        ("normal", "random", normal_games),
        ("normal", "basic", normal_games),
        ("hard", "random", hard_games),
        ("hard", "basic", hard_games),
        ("hard", "normal", hard_vs_normal),
    ]


T = TypeVar("T")
OneAgainst = Callable[[Seat, Seat, int, int, list[float]], T]


def level_rows(
    one_against: OneAgainst[T],
    seats: dict[str, Seat],
    games: tuple[int, int, int],
    base: int,
    times: dict[str, list[float]],
) -> dict[str, tuple[T, T, T | None]]:
    """One bot seat against the other seats all of one baseline: Normal against Random and
    Basic, Hard against Random, Basic and Normal. ``games`` is (Normal's games, Hard's games,
    Hard's games against Normal); seeds follow ``base`` in steps of 100,000; decision times
    go to ``times[level]``."""
    normal_games, hard_games, hard_vs_normal = games
    normal, hard = seats["normal"], seats["hard"]
    return {
        "normal": (
            one_against(normal, seats["random"], normal_games, base + 100_000, times["normal"]),
            one_against(normal, seats["basic"], normal_games, base + 200_000, times["normal"]),
            None,
        ),
        "hard": (
            one_against(hard, seats["random"], hard_games, base + 300_000, times["hard"]),
            one_against(hard, seats["basic"], hard_games, base + 400_000, times["hard"]),
            one_against(hard, normal, hard_vs_normal, base + 500_000, times["hard"]),
        ),
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (``wins`` may count halves for draws)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """(mean, low, high) with a normal-approximation 95% interval."""
    if not values:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, m, m)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (m, m - half, m + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def timing(values: Sequence[float]) -> str:
    """Decision time as "p50 0.12 ms · p99 1.4 ms"."""
    p50, p99 = percentile(values, 0.5) * 1e3, percentile(values, 0.99) * 1e3
    return f"p50 {p50:.2f} ms · p99 {p99:.2f} ms"


def cpu_timing(kind: str, name: str) -> str:
    """Processor time per decision of a level (``cpu_times``) as "CPU p50 … · p99 …"."""
    p50, p99 = (percentile(cpu_times(kind, name), q) * 1e3 for q in (0.5, 0.99))
    return f"CPU p50 {p50:.2f} ms · p99 {p99:.2f} ms"


def print_decision_times(kind: str, times: dict[str, list[float]], started: float) -> None:
    """The closing table of decision times (wall clock and processor) per level, the load
    average and the seconds since ``started`` (a ``time.perf_counter()``)."""
    print()
    print("| level | decisions | decision time (wall clock) | processor time |")
    print("|---|---|---|---|")
    for name, values in times.items():
        print(f"| {name} | {len(values)} | {timing(values)} | {timing(cpu_times(kind, name))} |")
    print(f"\nLoad average at the end: {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


def rate(wins: float, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins / n:6.1%} [{lo:.1%}, {hi:.1%}] of {n}" if n else "n/a"


def random_policy(view: dict[str, Any], actions: list[Action], rng: random.Random) -> str:
    """Baseline Random for games without Pick actions: a uniformly random legal action."""
    action = rng.choice(actions)
    if action.pick is not None:
        raise ValueError("random_policy cannot complete a Pick action; use the game's own")
    return action.id
