"""Bot strength: win rates with 95% intervals against baselines, and decision times.

    .venv/bin/python bench/bots.py                # every game, full size (long)
    .venv/bin/python bench/bots.py --quick        # every game, small samples (minutes)
    .venv/bin/python bench/bots.py uno haymaker   # some games

Seats are rotated and seeds fixed, so a run is reproducible. Baselines (written here, in
``bench/botbench/<game>.py``): Random (a uniformly random legal action) and Basic (a plausible
casual player, as issue "Bots worth playing against" defines it per game).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

KINDS = ("uno", "warofsuits", "haymaker", "ihaveit", "itemcollection")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"games to measure ({', '.join(KINDS)})")
    parser.add_argument("--quick", action="store_true", help="small samples")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument(
        "--uno-hard-games",
        type=int,
        help="UNO games per Hard series (default 200: hours on two cores)",
    )
    args = parser.parse_args()
    unknown = sorted(set(args.games) - set(KINDS))
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    for kind in args.games or KINDS:
        module = importlib.import_module(f"bench.botbench.{kind}")
        print(f"\n## {kind}\n", flush=True)
        extra = {"hard_games": args.uno_hard_games} if kind == "uno" and args.uno_hard_games else {}
        module.run(quick=args.quick, seed=args.seed, **extra)


if __name__ == "__main__":
    main()
