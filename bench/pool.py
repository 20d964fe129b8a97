"""Pool several runs of the load benchmark: one figure per (N, R) from all their clicks.

    .venv/bin/python bench/load.py --sizes 500 --rates 50 --no-429 --no-startup --json /tmp/r1.json
    ...                                                                       (more runs)
    .venv/bin/python bench/pool.py /tmp/r1.json /tmp/r2.json /tmp/r3.json

One run's p99 rests on its ten slowest clicks, and this machine drifts between runs; whether a
ratio target is met is better judged on the clicks of several runs together. Prints, per (N, R)
and harness mode (continuous or `--alternate`; `--prepare-in-flight`): runs, clicks, both bots'
p50 and p99 over all the runs' clicks, their ratios (p99 with a 90% bootstrap interval), CPU per
click (all the runs' CPU over all their clicks), REST calls per applied move beyond the answers
(all the calls over all the moves; reminders' posts and deletes apart), the event loop's lag
while clicks awaited their answers (p99, each bot's window) and the cells' time.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.loadgen.report import ANSWER_ROUTE
from bench.loadgen.stats import percentile, ratio, ratio_interval


@dataclass
class Pooled:
    runs: int = 0
    bot: list[float] = field(default_factory=list)  # ms, each answered click
    floor: list[float] = field(default_factory=list)
    bound: list[float] = field(default_factory=list)  # --bound: boundbot's answers
    bound_cpu: float = 0.0
    bound_clicks: int = 0
    clicks: int = 0  # the cells' click counts, for the bot's CPU per click
    floor_clicks: int = 0  # the clicks the floor replayed (slash commands are not)
    bot_cpu: float = 0.0  # seconds, as the runs store it
    floor_cpu: float = 0.0
    moves: int = 0
    calls: int = 0  # REST calls beyond the answers
    posts: int = 0  # of which new channel messages (reminders, announcements)
    deletes: int = 0  # of which channel messages deleted (reminders)
    lag_bot: list[float] = field(default_factory=list)  # ms, loop lag while clicks flew
    lag_floor: list[float] = field(default_factory=list)
    seconds: float = 0.0  # the cells' wall time


def mode(cell: dict[str, Any]) -> str:
    """The harness mode a cell was measured in (runs before the modes: alternate)."""
    name = cell.get("mode", "alternate")
    return name if cell.get("gated", False) else f"{name}, prepare in flight"


def pool(runs: Iterable[dict[str, Any]]) -> dict[tuple[int, float, str], Pooled]:
    """The runs' cells and clicks (``bench/load.py --json`` output), grouped by (N, R, mode)."""
    out: dict[tuple[int, float, str], Pooled] = {}
    for run in runs:
        modes = {}
        for cell in run["cells"]:
            key = (cell["n"], float(cell["rate"]), mode(cell))
            modes[key[:2]] = key
            p = out.setdefault(key, Pooled())
            p.runs += 1
            p.clicks += cell["clicks"]
            p.bot_cpu += cell["cpu_per_click"] * cell["clicks"]
            # The floor's CPU per click is over the clicks it replayed (``measured``).
            replayed = cell.get("measured", cell["clicks"])
            p.floor_clicks += replayed
            p.floor_cpu += cell["null_cpu_per_click"] * replayed
            p.moves += cell["moves"]
            if cell.get("bound"):
                p.bound_clicks += cell["bound"]["clicks"]
                p.bound_cpu += cell["bound"]["cpu_per_click"] * cell["bound"]["clicks"]
            p.calls += sum(v for k, v in cell["routes"].items() if k != ANSWER_ROUTE)
            p.posts += cell["routes"].get("POST channel message (new)", 0)
            p.deletes += cell["routes"].get("DELETE channel message", 0)
            lag = cell.get("lag_flight_us", {})
            p.lag_bot += [v / 1000 for v in lag.get("bot", [])]
            p.lag_floor += [v / 1000 for v in lag.get("floor", [])]
            p.seconds += cell.get("seconds", 0.0)
        for click in run["clicks"]:
            p = out[modes[(click["n"], float(click["rate"]))]]
            if click["bot"] is not None:
                p.bot.append(click["bot"])
            if click["floor"] is not None:
                p.floor.append(click["floor"])
            if click.get("bound") is not None:
                p.bound.append(click["bound"])
    return out


def render(pooled: dict[tuple[int, float, str], Pooled]) -> str:
    lines = [
        "| N | R/s | mode | runs | clicks | bot p50 | p99 | floor p50 | p99 | ratio p50 "
        "| ratio p99 (90% interval) | CPU per click bot / floor "
        "| REST per move beyond the answer (posts, deletes) "
        "| loop lag p99 in flight, bot / floor | cell (s) |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (n, rate, name), p in sorted(pooled.items()):
        b50, b99 = percentile(p.bot, 50), percentile(p.bot, 99)
        f50, f99 = percentile(p.floor, 50), percentile(p.floor, 99)
        low, high = ratio_interval(p.bot, p.floor, 99)
        interval = f" ({low:.2f}–{high:.2f})" if low == low and high == high else ""
        cpu_bot = p.bot_cpu * 1000 / p.clicks if p.clicks else float("nan")
        cpu_floor = p.floor_cpu * 1000 / p.floor_clicks if p.floor_clicks else float("nan")
        rest = "–"
        if p.moves:
            rest = f"{p.calls / p.moves:.2f} ({p.posts / p.moves:.2f}, {p.deletes / p.moves:.2f})"
        lag = f"{_ms(percentile(p.lag_bot, 99))} / {_ms(percentile(p.lag_floor, 99))}"
        lines.append(
            f"| {n} | {rate:g} | {name} | {p.runs} | {len(p.bot)} | {b50:.1f} | {b99:.1f} "
            f"| {f50:.1f} | {f99:.1f} | {ratio(b50, f50)} | {ratio(b99, f99, 2)}{interval} "
            f"| {cpu_bot:.1f} / {cpu_floor:.1f} ({ratio(cpu_bot, cpu_floor)}) | {rest} "
            f"| {lag} | {p.seconds / p.runs:.0f} |"
        )
    bounded = [(key, p) for key, p in sorted(pooled.items()) if p.bound]
    if bounded:
        lines += [
            "",
            "The bound (`--bound`: the floor plus a durable commit and a table edit per move):",
            "",
            "| N | R/s | mode | runs | clicks | bound p50 | p99 | bound/floor p99 (90% interval) "
            "| bot/floor p99 | CPU per click bound / floor / bot | bound/floor CPU "
            "| bot/floor CPU |",
            "|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|",
        ]
    for (n, rate, name), p in bounded:
        f99, b99 = percentile(p.floor, 99), percentile(p.bot, 99)
        low, high = ratio_interval(p.bound, p.floor, 99)
        cpu_bot = p.bot_cpu * 1000 / p.clicks if p.clicks else float("nan")
        cpu_floor = p.floor_cpu * 1000 / p.floor_clicks if p.floor_clicks else float("nan")
        cpu_bound = p.bound_cpu * 1000 / p.bound_clicks if p.bound_clicks else float("nan")
        lines.append(
            f"| {n} | {rate:g} | {name} | {p.runs} | {len(p.bound)} "
            f"| {percentile(p.bound, 50):.1f} | {percentile(p.bound, 99):.1f} "
            f"| {ratio(percentile(p.bound, 99), f99, 2)} ({low:.2f}–{high:.2f}) "
            f"| {ratio(b99, f99, 2)} | {cpu_bound:.1f} / {cpu_floor:.1f} / {cpu_bot:.1f} "
            f"| {ratio(cpu_bound, cpu_floor)} | {ratio(cpu_bot, cpu_floor)} |"
        )
    return "\n".join(lines)


def _ms(value: float) -> str:
    return "–" if value != value else f"{value:.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="bench/load.py --json files")
    args = parser.parse_args(argv)
    print(render(pool(json.loads(path.read_text()) for path in args.runs)))


if __name__ == "__main__":
    main()
