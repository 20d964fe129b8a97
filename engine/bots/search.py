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

from collections.abc import Callable, Sequence
from typing import Any

from engine.bots.base import Rand
from engine.core import Game, IllegalAction

SampleWorld = Callable[[dict[str, Any], Rand], Game]
Rollout = Callable[[Game, Rand], None]
Value = Callable[[Game, str], float]


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
