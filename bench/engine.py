"""Engine speed: complete random games per second and actions per second for every game.

    .venv/bin/python bench/engine.py            # about a minute
    .venv/bin/python bench/engine.py --quick    # a few seconds

For UNO at 2, 4 and 10 players it also prints the cost of a save + load (``to_dict`` and
``engine.load``, through JSON) per action and the size of a saved 4-player game, and, if
``rlcard`` is installed (``pip install rlcard==1.2.0``, the ``bench`` extra), the time per
action of RLCard's UNO game class measured the same way in the same run.

The policy is random: a random actor among those with a legal action, then a random legal
action; for a Pick action a random valid choice found by trial (``engine.testing.choose``).
Times include creating each game, as RLCard's include ``init_game``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.rng import Rng
from engine.testing import choose

UNO_OPTIONS = {"target": 100}  # low target: a match to 500 is several rounds long


def random_game(kind: str, players: list[str], seed: int, options: dict[str, Any]) -> int:
    """Play one complete game with the random policy; the number of actions."""
    game = engine.new_game(kind, players, seed=seed, options=options)
    rnd = random.Random(seed)
    pick_rng = Rng(seed)
    actions = 0
    while not game.finished:
        able = [(p, acts) for p in game.actors() if (acts := game.legal_actions(p))]
        player, acts = able[int(rnd.random() * len(able))]
        action = acts[int(rnd.random() * len(acts))]
        if action.pick is None:
            game.apply(player, action.id)
        else:
            game.apply(player, choose(game, player, pick_rng))
        actions += 1
    return actions


def measure(kind: str, n: int, seconds: float, options: dict[str, Any]) -> tuple[float, float]:
    """(games per second, actions per second) over about ``seconds``."""
    players = [f"p{i}" for i in range(n)]
    games = actions = 0
    start = time.perf_counter()
    while True:
        actions += random_game(kind, players, games, options)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, actions / elapsed


def save_load_cost(n: int, seconds: float) -> float:
    """Microseconds for to_dict -> JSON -> engine.load, per action, over random UNO games."""
    players = [f"p{i}" for i in range(n)]
    spent = 0.0
    count = seed = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        game = engine.new_game("uno", players, seed=seed, options=UNO_OPTIONS)
        rnd = random.Random(seed)
        seed += 1
        while not game.finished and time.perf_counter() < deadline:
            able = [(p, acts) for p in game.actors() if (acts := game.legal_actions(p))]
            player, acts = able[int(rnd.random() * len(able))]
            game.apply(player, acts[int(rnd.random() * len(acts))].id)
            t0 = time.perf_counter()
            game = engine.load(json.loads(json.dumps(game.to_dict())))
            spent += time.perf_counter() - t0
            count += 1
    return spent / max(count, 1) * 1e6


def saved_size(n: int, games: int = 20) -> int:
    """The largest saved state (compact JSON bytes) seen over a few random UNO games."""
    players = [f"p{i}" for i in range(n)]
    largest = 0
    for seed in range(games):
        game = engine.new_game("uno", players, seed=seed, options=UNO_OPTIONS)
        rnd = random.Random(seed)
        while not game.finished:
            size = len(json.dumps(game.to_dict(), separators=(",", ":")))
            largest = max(largest, size)
            able = [(p, acts) for p in game.actors() if (acts := game.legal_actions(p))]
            player, acts = able[int(rnd.random() * len(able))]
            game.apply(player, acts[int(rnd.random() * len(acts))].id)
    return largest


def rlcard_us_per_action(seconds: float, n: int = 4) -> float | None:
    """RLCard 1.2.0's UnoGame: init_game, then get_legal_actions + step until is_over."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=n)
    game.np_random = np.random.RandomState(0)
    rnd = random.Random(0)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(rnd.random() * len(legal))])
            actions += 1
    return (time.perf_counter() - start) / actions * 1e6


def implemented(kind: str) -> bool:
    try:
        engine.new_game(kind, [f"p{i}" for i in range(engine.GAMES[kind].min_players)])
    except NotImplementedError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a run of a few seconds")
    args = parser.parse_args()
    slot = 0.4 if args.quick else 5.0

    print(f"UNO (options {UNO_OPTIONS}, random policy)")
    for n in (2, 4, 10):
        gps, aps = measure("uno", n, slot, UNO_OPTIONS)
        cost = save_load_cost(n, slot / 2)
        print(
            f"  {n:2d} players: {gps:8.1f} games/s {aps:10.0f} actions/s "
            f"{1e6 / aps:6.2f} us/action   save+load {cost:6.1f} us/action"
        )
    print(f"  saved 4-player game: at most {saved_size(4, 3 if args.quick else 20)} bytes of JSON")
    rl = rlcard_us_per_action(slot)
    if rl is None:
        print("  RLCard: not installed (pip install rlcard==1.2.0 to compare)")
    else:
        _, aps = measure("uno", 4, slot, UNO_OPTIONS)
        print(f"  4 players: ours {1e6 / aps:.2f} us/action, RLCard 1.2.0 UnoGame {rl:.2f}")

    print("Other games (random policy)")
    for kind, cls in engine.GAMES.items():
        if kind == "uno":
            continue
        if not implemented(kind):
            print(f"  {kind}: skipped (not implemented yet)")
            continue
        n = cls.min_players
        gps, aps = measure(kind, n, slot / 2, {})
        print(f"  {kind} ({n} players): {gps:8.1f} games/s {aps:10.0f} actions/s")


if __name__ == "__main__":
    main()
