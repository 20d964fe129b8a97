"""Search over the worlds a seat considers possible (determinized Monte Carlo).

The Hard bots share this loop; each game supplies the pieces that know its rules:

- ``sample_world(view, rng)``: a complete ``Game`` consistent with everything the seat has seen
  (its hand, the public view and history), with the cards it cannot see dealt at random from
  the cards it knows to be unseen. Never built from the real game's state.
- ``rollout(game, rng)``: plays the sampled game on (to its end or a horizon) with a fast
  policy for every seat.
- ``value(game, player)``: how good the result is for ``player`` (higher is better).

Budgets are counted in rollouts, not seconds: the engine has no clock, and a counted budget
keeps a bot's choice reproducible from its seed. Each game tunes its counts so a decision
stays within its time target on the benchmark machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from engine.bots.base import Rand
from engine.core import Game, IllegalAction

SampleWorld = Callable[[dict[str, Any], Rand], Game]
Rollout = Callable[[Game, Rand], None]
Value = Callable[[Game, str], float]


def saved_game(kind: str, view: dict[str, Any], state: dict[str, Any], rng: Rand) -> dict[str, Any]:
    """A sampled world as ``Game.from_dict`` takes it: the game's public part from the view,
    ``state`` (the hidden part dealt by the sampler) and a fresh seed for its shuffles."""
    return {
        "kind": kind,
        "players": list(view["players"]),
        "options": {},
        "rng": rng.randrange(1 << 62),
        "finished": view["finished"],
        "winners": list(view["winners"]),
        "scores": dict(view["scores"]),
        "state": state,
    }


def best_by_sampling(
    player: str,
    view: dict[str, Any],
    candidates: Sequence[str],
    rng: Rand,
    *,
    sample_world: SampleWorld,
    rollout: Rollout,
    value: Value,
    rollouts: int,
) -> str:
    """The candidate action id with the best mean value over sampled worlds.

    Each round samples one world and tries every candidate in a copy of it (common random
    worlds make the comparison fair: all candidates face the same hidden cards). A candidate
    the sampled world refuses scores nothing that round. Ties go to the earliest candidate,
    so callers list their heuristic's favourite first.
    """
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    rounds = max(1, rollouts // len(candidates))
    for _ in range(rounds):
        world = sample_world(view, rng)
        for i, action_id in enumerate(candidates):
            trial = world.copy()
            try:
                trial.apply(player, action_id)
            except IllegalAction:
                continue
            rollout(trial, rng)
            totals[i] += value(trial, player)
            counts[i] += 1
    best = 0
    best_mean = float("-inf")
    for i in range(len(candidates)):
        if counts[i] == 0:
            continue
        mean = totals[i] / counts[i]
        if mean > best_mean:
            best, best_mean = i, mean
    return candidates[best]


def paired_best(
    player: str,
    view: dict[str, Any],
    candidates: list[str],
    rng: Rand,
    *,
    sample_world: SampleWorld,
    rollout: Rollout,
    value: Value,
    rollouts: int,
    sure: float = 1.0,
    drop: float = 1.0,
    check_every: int = 6,
) -> str:
    """The first candidate (the heuristic's favourite), unless another does clearly better.

    Like ``best_by_sampling``, the candidates are tried in the same sampled worlds, but
    the comparison is paired and raced: every ``check_every`` worlds a challenger whose mean
    gain over the favourite, world by world, is below minus ``drop`` standard errors is
    dropped, so the budget (``rollouts`` in all) goes to the moves still in contention. A
    challenger replaces the favourite only when its mean gain exceeds ``sure`` standard
    errors: sampling noise then rarely overrules a sound heuristic, while a real improvement
    still shows.
    """
    gains: list[list[float]] = [[] for _ in candidates]
    alive = list(range(1, len(candidates)))
    spent = worlds = 0
    while alive and spent + 1 + len(alive) <= rollouts:
        world = sample_world(view, rng)
        base = _played_out(world, player, candidates[0], rng, rollout, value)
        spent += 1 + len(alive)
        if base is None:
            break  # cannot happen: every candidate is legal in every consistent world
        for i in list(alive):
            score = _played_out(world, player, candidates[i], rng, rollout, value)
            if score is None:
                alive.remove(i)
            else:
                gains[i].append(score - base)
        worlds += 1
        if worlds % check_every == 0:
            alive = [i for i in alive if not _clearly_worse(gains[i], drop)]
    best, best_gain = candidates[0], 0.0
    for i in range(1, len(candidates)):
        mean, error = _mean_and_error(gains[i])
        if len(gains[i]) >= 2 and mean > sure * error and mean > best_gain:
            best, best_gain = candidates[i], mean
    return best


def _played_out(
    world: Game, player: str, action_id: str, rng: Rand, rollout: Rollout, value: Value
) -> float | None:
    """The value of ``action_id`` in a copy of ``world`` played on (None if refused)."""
    trial = world.copy()
    try:
        trial.apply(player, action_id)
    except IllegalAction:
        return None
    rollout(trial, rng)
    return value(trial, player)


def _clearly_worse(gains: list[float], drop: float) -> bool:
    mean, error = _mean_and_error(gains)
    return mean < -drop * error


def _mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error (0 and 0 for fewer than two values)."""
    n = len(values)
    if n < 2:
        return 0.0, 0.0
    mean = sum(values) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
