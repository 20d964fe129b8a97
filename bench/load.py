"""Load benchmark: the real bot.py under many live games, against a do-nothing bot's floor.

    .venv/bin/python bench/load.py             # N in {50, 500}, R in {10, 50, 100} (~13 min)
    .venv/bin/python bench/load.py --quick     # N=20, R in {20, 50}: under two minutes
    .venv/bin/python bench/load.py --sizes 50 --rates 50 --bot-env NUDGE_AFTER_SECONDS=3600

The real bot runs as a subprocess (through tests/fakediscord/run_bot.py) against the wire-level
fake Discord, which runs in this process. N channels each host one live game (UNO and the other
four in turn, human players only, opened with /newgame, Join, Start; a turn timer, if /newgame
offers one, is off). Clicks go out at a steady R per second: a seeded policy picks a game, a
player who may act, a legal move and a route (a public table button, the table's picker, "My
hand", or the DM hand) and clicks through it; a finished game is replaced by a new one. The bot
is a black box: its database is only read (read-only) to know whose turn it is.

The very same clicks go to bench/nullbot.py (one DynamicItem answering every click with a
deferred update), at the same offsets, on bot-authored copies of the same messages: the floor of
discord.py plus the fake on this machine. Both bots stay connected to the fake, which routes its
dispatches to one or the other. Per (N, R) the real bot is clicked continuously at R: an
unmeasured warm-up (`--warmup-seconds`, 90 s: its turn reminders and other wall-clock timers
reach the steady state of that pace), then the measured clicks on the same beat; its CPU and
REST calls are counted over exactly their time (clicks / R seconds from the first). Then the
real bot is paused (SIGSTOP: it neither runs nor loads the machine) while the floor replays the
last `--warmup` warm-up clicks (unmeasured) and the measured ones, and resumed (SIGCONT) after.
`--alternate` is the harness before: blocks of about 3 s, real bot then floor in turns, each
window of the real bot ending once it is idle (it sees rate R less than half the time).

The benchmark's event loop runs the fake, the click driver and the floor's replay; the fake
stamps each answer on it. While a click awaits its answer the driver does no blocking work
(reading the bot's database, loading a game, the policy): it waits until no click is in flight
(`--prepare-in-flight`: as before, any time). How late that loop ran a 2 ms timer is reported
for the real bot's and the floor's windows.

Reported per (N, R): click-to-answer percentiles of both bots and their ratio (for p99 with a
bootstrap interval: how much of a p99 is which clicks happened to be slow), click-to-table-
updated for the real bot, CPU per click of both processes (/proc/<pid>/stat), REST calls per
applied move by route, and errors. Also: one game's table edits answered 429 (retry after 4 s)
while other games are clicked (with a control run just before); start-up time to the first
answered click with an empty database and with many stored games; resident memory with 0 and N
live games. Output is Markdown, to paste into the README.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shlex
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.loadgen.report import render
from bench.loadgen.scenarios import Options, run_size, run_startup

DEFAULT_SIZES = (50, 500)
DEFAULT_RATES = (10.0, 50.0, 100.0)
QUICK_SIZES = (20,)
QUICK_RATES = (20.0, 50.0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small sizes: under two minutes")
    parser.add_argument("--sizes", type=int, nargs="+", help="numbers of live games (N)")
    parser.add_argument("--rates", type=float, nargs="+", help="clicks per second (R)")
    parser.add_argument("--clicks", type=int, help="measured clicks per (N, R) (default 1000)")
    parser.add_argument(
        "--warmup",
        type=int,
        help="unmeasured clicks the floor replays before its measured ones (its warm-up; "
        "default 100); with --alternate, the unmeasured clicks before each cell, both bots",
    )
    parser.add_argument(
        "--warmup-seconds",
        type=float,
        help="the real bot's unmeasured warm-up at R before the measured clicks, continuous "
        "with them (default 90, 10 with --quick). Reminders, posted 20 s into an unplayed "
        "turn, take a while to settle: at N=500, 50/s, 0.22-0.26 posted per move after 45 s "
        "(nine runs), 0.26-0.31 after 90 or 180 s (three). Not with --alternate",
    )
    parser.add_argument(
        "--alternate",
        action="store_true",
        help="the harness before: the real bot and the floor clicked in turns, blocks of "
        "about 3 s (the real bot sees rate R under half the time; its timers fire as at a "
        "slower pace and its leftover work runs during the floor's turns)",
    )
    parser.add_argument(
        "--prepare-in-flight",
        action="store_true",
        help="the harness before: the driver prepares the next clicks (database reads, the "
        "policy) on the fake's event loop even while a click awaits its answer, delaying "
        "the stamp of the real bot's answers",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the click policy and of the bot's deals"
    )
    parser.add_argument(
        "--bot-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment setting for the real bot (repeatable)",
    )
    parser.add_argument(
        "--bot-root",
        type=Path,
        help="run the bot of another checkout (e.g. a `git archive` of a commit); "
        "default: this repository",
    )
    parser.add_argument("--rate-429", type=float, help="click rate of the 429 scenario")
    parser.add_argument("--no-429", action="store_true", help="skip the 429 scenario")
    parser.add_argument("--stored", type=int, help="stored games for start-up (default 10000)")
    parser.add_argument("--stored-active", type=int, help="of which active (default 1000)")
    parser.add_argument("--startup-runs", type=int, help="start-ups per database (default 3)")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up runs")
    parser.add_argument(
        "--no-games", action="store_true", help="skip the live games (start-up only)"
    )
    parser.add_argument(
        "--postgresql",
        nargs="?",
        const="throwaway",
        metavar="URL",
        help="store the bot's games in PostgreSQL: a server's URL, or none to start a "
        "throwaway server (durable settings) with the system's PostgreSQL; the start-up "
        "runs (SQLite files) are skipped",
    )
    parser.add_argument("--workdir", type=Path, help="keep databases and bot logs here")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument(
        "--phases",
        action="store_true",
        help="the bot stamps each step of an applied move's click path (RUN_BOT_PHASES): "
        "where its answer time goes, beside the floor's",
    )
    parser.add_argument(
        "--loop-profile",
        action="store_true",
        help="time every callback of the benchmark's event loop and report, for the clicks "
        "in flight, how long the driver, the fake and the rest held the loop (costs a "
        "little time per callback, in both bots' windows alike)",
    )
    parser.add_argument(
        "--stamp-in-fake",
        action="store_true",
        help="the harness before: stamp answers on the fake's event loop, where the bot's own "
        "edits delay them, rather than in a forwarder process of their own",
    )
    parser.add_argument(
        "--bound",
        action="store_true",
        help="also replay the clicks to bench/boundbot.py: the floor plus what the issue makes "
        "each applied move cost (a durable commit before the answer, one table edit after); "
        "what the targets leave for everything else",
    )
    parser.add_argument("--verbose", action="store_true", help="log the driver's issues")
    args = parser.parse_args(argv)
    quick = args.quick
    args.sizes = args.sizes or list(QUICK_SIZES if quick else DEFAULT_SIZES)
    args.rates = args.rates or list(QUICK_RATES if quick else DEFAULT_RATES)
    args.clicks = args.clicks or (300 if quick else 1000)
    args.warmup = args.warmup if args.warmup is not None else (40 if quick else 100)
    if args.warmup_seconds is None:
        args.warmup_seconds = 10.0 if quick else 90.0
    args.rate_429 = args.rate_429 or (20.0 if quick else 50.0)
    args.stored = args.stored if args.stored is not None else (2000 if quick else 10_000)
    args.stored_active = args.stored_active if args.stored_active is not None else args.stored // 10
    args.startup_runs = args.startup_runs or (1 if quick else 3)
    for item in args.bot_env:
        if "=" not in item:
            parser.error(f"--bot-env takes KEY=VALUE, not {item!r}")
    return args


async def main_async(args: argparse.Namespace, workdir: Path) -> dict:
    opts = Options(
        workdir=workdir,
        bot_env=dict(item.split("=", 1) for item in args.bot_env),
        seed=args.seed,
        clicks=args.clicks,
        warmup=args.warmup,
        world=max(args.sizes or [0]),
        phases=args.phases,
        warmup_seconds=args.warmup_seconds,
        alternate=args.alternate,
        gate=not args.prepare_in_flight,
        loop_profile=args.loop_profile,
        bound=args.bound,
        stamp=not args.stamp_in_fake,
    )
    if args.bot_root is not None:
        opts.bot_root = args.bot_root.resolve()
    server = None
    # RUN_BOT_SQLITE_SYNCHRONOUS (harness only, e.g. NORMAL): what the durable commit costs.
    synchronous = opts.bot_env.get("RUN_BOT_SQLITE_SYNCHRONOUS", "FULL").upper()
    database = f"SQLite (WAL, synchronous={synchronous})"
    if synchronous != "FULL":
        database += ": not the bot's setting, a measure of what FULL costs"
    if args.postgresql:
        opts.postgresql = args.postgresql
        if args.postgresql == "throwaway":
            from tests.pgserver import Server, find_bin

            bindir = find_bin()
            if bindir is None:
                raise SystemExit("PostgreSQL is not installed (initdb not found).")
            server = Server(bindir, durable=True).start()
            opts.postgresql = server.url
        database = "PostgreSQL (fsync on, default settings, on this machine)"
        args.no_startup = True
    try:
        results = await _measure(args, opts)
    finally:
        if server is not None:
            server.close()
    results["database"] = database
    results["stamped_by"] = opts.stamped_by
    return results


async def _measure(args: argparse.Namespace, opts: Options) -> dict:
    started = time.monotonic()
    load_before = os.getloadavg()[0]
    sizes = []
    failures = []  # a stage that failed is reported, and the next ones still run
    for i, n in enumerate([] if args.no_games else args.sizes):
        rate_429 = None if args.no_429 or i > 0 else args.rate_429
        try:
            sizes.append(await run_size(n, args.rates, opts, rate_429=rate_429))
        except Exception as error:
            logging.exception("N=%s failed", n)
            failures.append(f"N={n}: {type(error).__name__}: {error}")
    startup = []
    if not args.no_startup:
        try:
            startup = await run_startup(opts, args.stored, args.stored_active, args.startup_runs)
        except Exception as error:
            logging.exception("start-up failed")
            failures.append(f"start-up: {type(error).__name__}: {error}")
    return {
        "sizes": sizes,
        "failures": failures,
        "startup": startup,
        "stored": (args.stored, args.stored_active),
        "seconds": time.monotonic() - started,
        "load": (load_before, os.getloadavg()[0]),
    }


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING)
    logging.getLogger("fakediscord").setLevel(logging.ERROR)
    command = "python bench/load.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        results = asyncio.run(main_async(args, args.workdir))
    else:
        with tempfile.TemporaryDirectory(prefix="loadbench-") as tmp:
            results = asyncio.run(main_async(args, Path(tmp)))
    print(render(command.strip(), args, results))
    if args.json is not None:
        args.json.write_text(json.dumps(_raw(results), indent=1, default=str))


def _raw(results: dict) -> dict:
    """The figures without the click-by-click records (they hold fake messages)."""
    from bench.loadgen.report import cell_figures, move_phases

    return {
        "seconds": results["seconds"],
        "cells": [cell_figures(c) for s in results["sizes"] for c in s.cells],
        # Each measured click: what it was and how long each bot took to answer (ms), to see
        # what the slowest ones have in common.
        "clicks": [
            {
                "n": c.n,
                "rate": c.rate,
                "at": k.at,
                "kind": k.kind,
                "route": k.route,
                "applied": k.applied,
                "bot": k.latency * 1000 if k.latency is not None else None,
                "floor": floor.get(id(k)),
                "bound": bound.get(id(k)),
                # How much later the fake's own loop got to the bot's / the floor's answer
                # than the forwarder that stamped it (ms; None: stamped by the fake itself).
                "fake_delay": delays.get(k.interaction_id),
                "fake_delay_floor": floor_delays.get(id(k)),
                "steps": {name: t * 1000 for name, t in steps.get(id(k), {}).items()} or None,
            }
            for s in results["sizes"]
            for c in s.cells
            for floor in [_floor_latencies(c)]
            for bound in [_floor_latencies(c, bound=True)]
            for steps in [move_phases(c, s.phases)]
            for delays in [{i: d * 1000 for i, d in s.answer_delays.items()}]
            for floor_delays in [_floor_delays(c, delays)]
            for k in c.measured
        ],
        "memory": [
            {"n": s.n, "rss_zero": s.rss_zero, "rss_setup": s.rss_setup, "rss_live": s.rss_live}
            for s in results["sizes"]
        ],
        "startup": [asdict(r) for r in results["startup"]],
    }


def _floor_delays(cell: Any, delays: dict[int, float]) -> dict[int, float]:
    """The fake's delay (ms) in getting to each floor answer, by the replayed click's identity."""
    items = cell.null.items if cell.null else []
    return {id(i.click): delays[i.ix.id] for i in items if i.ix and i.ix.id in delays}


def _floor_latencies(cell: Any, *, bound: bool = False) -> dict[int, float]:
    """The floor's (or with `bound`, boundbot's) answer time (ms) for each click it replayed,
    by the click's identity."""
    replayed = cell.bound if bound else cell.null
    items = replayed.items if replayed else []
    return {id(i.click): i.latency * 1000 for i in items if i.latency is not None}


if __name__ == "__main__":
    main()
