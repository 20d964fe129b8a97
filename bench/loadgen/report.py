"""The benchmark's figures as Markdown tables, ready to paste into the README."""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

from bench.loadgen.driver import MOVED_ON, STALE
from bench.loadgen.proc import REPO_ROOT
from bench.loadgen.scenarios import Cell, Result429, SizeResult, StartupRun
from bench.loadgen.stats import ms, percentile, ratio, ratio_interval
from tests.fakediscord.run_bot import PHASES

ANSWER_ROUTE = "answer (interaction callback)"
OUTSIDE = "outside the handler (discord.py, the wire, the fake)"
WHOLE = "the whole answer"


def _latencies(cell: Cell) -> tuple[list[float], list[float]]:
    real = [c.latency for c in cell.measured if c.latency is not None]
    null = [i.latency for i in cell.null.items if i.latency is not None] if cell.null else []
    return real, null


def cell_figures(cell: Cell) -> dict[str, Any]:
    real, null = _latencies(cell)
    answered = {"bot": real, "floor": null}
    table = [c.table_latency for c in cell.moves if c.table_latency is not None]
    moves = len(cell.moves)
    null_clicks = len(cell.null.items) if cell.null else 0
    by_kind = {}
    for label, kinds in (
        ("applying", ("move",)),
        ("picker", ("open", "step")),
        ("lobby", ("lobby",)),
    ):
        mine = [c for c in cell.measured if c.kind in kinds]
        real_k = [c.latency for c in mine if c.latency is not None]
        null_k = [
            i.latency
            for i in (cell.null.items if cell.null else [])
            if i.click.kind in kinds and i.latency is not None
        ]
        by_kind[label] = {
            "clicks": len(mine),
            "real": {q: percentile(real_k, q) for q in (50, 99)},
            "null": {q: percentile(null_k, q) for q in (50, 99)},
        }
    bound: dict[str, Any] = {}
    if cell.bound is not None:
        items = cell.bound.items
        latencies = [i.latency for i in items if i.latency is not None]
        moved = [i.latency for i in items if i.click.kind == "move" and i.click.applied]
        bound = {
            "clicks": len(items),
            "unanswered": len(items) - len(latencies),
            "all": {q: percentile(latencies, q) for q in (50, 95, 99)},
            "moves": {q: percentile([x for x in moved if x is not None], q) for q in (50, 99)},
            "ratio_p99_interval": ratio_interval(latencies, null, 99),
            "cpu_per_click": cell.bound_cpu / len(items) if items else float("nan"),
            "drift": _drift(items, cell.null.items if cell.null else []),
        }
    return {
        "bound": bound,
        "n": cell.n,
        "rate": cell.rate,
        "by_kind": by_kind,
        "clicks": len(cell.clicks),
        "measured": len(cell.measured),
        "moves": moves,
        "achieved_rate": len(cell.clicks) / cell.elapsed if cell.elapsed else 0.0,
        "late": cell.late,
        "settled": cell.settled,
        "null_late": cell.null.late if cell.null else 0,
        "real": {q: percentile(real, q) for q in (50, 95, 99, 100)},
        "null": {q: percentile(null, q) for q in (50, 95, 99, 100)},
        "ratio_p99_interval": ratio_interval(real, null, 99),
        "table": {q: percentile(table, q) for q in (50, 95, 99)},
        "cpu_per_click": cell.bot_cpu / len(cell.clicks) if cell.clicks else float("nan"),
        "cpu_per_move": cell.bot_cpu / moves if moves else float("nan"),
        "null_cpu_per_click": cell.null_cpu / null_clicks if null_clicks else float("nan"),
        "own_cpu_share": cell.own_cpu / cell.wall if cell.wall else 0.0,
        "null_own_cpu_share": cell.null_own_cpu / cell.null_wall if cell.null_wall else 0.0,
        "unanswered": sum(1 for c in cell.clicks if c.latency is None),
        "null_unanswered": null_clicks - len(null),
        "routes": dict(cell.routes),
        "by_move_route": {r: dict(c) for r, c in cell.by_move_route.items()},
        "by_move_kind": {k: dict(c) for k, c in cell.by_move_kind.items()},
        "http_errors": dict(cell.http_errors),
        "went_wrong": cell.went_wrong,
        "tracebacks": dict(cell.tracebacks),
        "null_tracebacks": dict(cell.null_tracebacks),
        "issues": dict(cell.issues),
        "clicks_by_kind": dict(Counter(f"{c.kind}/{c.route}" for c in cell.clicks)),
        "mode": cell.mode,
        "gated": cell.gated,
        "warm_seconds": cell.warm_seconds,
        "warm_clicks": len(cell.warm),
        "seconds": cell.seconds,
        "wall": cell.wall,
        "null_wall": cell.null_wall,
        "lag": {
            name: {q: percentile(values, q) for q in (50, 99, 100)} | {"samples": len(values)}
            for name, values in (
                ("bot", cell.lag_bot),
                ("floor", cell.lag_floor),
                ("bot_flight", cell.lag_bot_flight),
                ("floor_flight", cell.lag_floor_flight),
            )
        },
        # The samples due while a click awaited its answer, in µs, to pool runs.
        "lag_flight_us": {
            "bot": [round(v * 1e6) for v in cell.lag_bot_flight],
            "floor": [round(v * 1e6) for v in cell.lag_floor_flight],
        },
        "loop_profile": {
            phase: {
                who: {
                    "callbacks": len(took),
                    "per_click": sum(took) / max(1, len(answered[phase])),
                    "p99": percentile(took, 99),
                    "max": max(took),
                }
                for who, took in by_who.items()
            }
            for phase, by_who in cell.loop_profile.items()
        },
        "bot_cpu_in_floor": cell.bot_cpu_in_floor,
        "bot_calls_in_floor": cell.bot_calls_in_floor,
    }


def render(command: str, args: argparse.Namespace, results: dict[str, Any]) -> str:
    sizes: list[SizeResult] = results["sizes"]
    cells = [c for s in sizes for c in s.cells]
    figures = [cell_figures(c) for c in cells]
    out: list[str] = ["", "## Load benchmark", ""]
    out += _header(command, args, results)
    for failure in results.get("failures", []):
        out += [f"**Failed:** {failure}", ""]
    out += _latency_table(figures)
    out += _kind_table(figures)
    out += _cpu_table(figures)
    out += _bound_table(figures)
    out += _rest_table(figures)
    out += _move_route_table(figures)
    out += _move_kind_table(figures)
    out += _error_table(figures)
    out += _harness_table(figures)
    out += _phase_table(sizes)
    results_429 = [s.result_429 for s in sizes if s.result_429 is not None]
    for r in results_429:
        out += _table_429(r)
    if results["startup"]:
        out += _startup_table(results["startup"], *results["stored"])
    out += _memory_table(sizes)
    out += _notes(figures, sizes)
    return "\n".join(out)


def _header(command: str, args: argparse.Namespace, results: dict[str, Any]) -> list[str]:
    root = Path(args.bot_root).resolve() if args.bot_root else REPO_ROOT
    return [
        f"Command: `{command}`",
        "",
        f"Bot: {_describe_tree(root)}; Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs shared with other work (load average "
        f"{results['load'][0]:.1f} at the start, {results['load'][1]:.1f} at the end); "
        f"{results['seconds']:.0f} s in all. Database: {results.get('database', 'SQLite')}. "
        f"{args.clicks} measured clicks per (N, R) after {_warmup(args)}; "
        f"seed {args.seed} (the click policy and the bot's deals). Times in ms; the do-nothing "
        "bot (`bench/nullbot.py`) gets the same clicks "
        "on copies of the same messages at the same offsets. Answers stamped as they reach "
        f"{results.get('stamped_by', 'the fake')}.{_fake_delays(results['sizes'])}",
        "",
    ]


def _fake_delays(sizes: list[Any]) -> str:
    """What a stamp on the fake's own loop would have added, for each bot's measured clicks."""
    bot, floor = [], []
    for size in sizes:
        delays = size.answer_delays
        for cell in size.cells:
            bot += [delays[k.interaction_id] for k in cell.measured if k.interaction_id in delays]
            items = cell.null.items if cell.null else []
            floor += [delays[i.ix.id] for i in items if i.ix is not None and i.ix.id in delays]
    if not bot or not floor:
        return ""
    return (
        " The fake's own loop got to the answers later by (ms, p50 / p99): "
        f"the bot's {percentile(bot, 50) * 1000:.2f} / {percentile(bot, 99) * 1000:.2f}, the "
        f"floor's {percentile(floor, 50) * 1000:.2f} / {percentile(floor, 99) * 1000:.2f}."
    )


def _warmup(args: argparse.Namespace) -> str:
    if getattr(args, "alternate", False):
        return (
            f"{args.warmup} warm-up clicks, the real bot and the floor in turns (blocks of "
            "about 3 s; `--alternate`)"
        )
    return (
        f"a warm-up of {args.warmup_seconds:g} s at R, continuous with them (the floor, "
        f"while the real bot is paused, replays its last {args.warmup} clicks and the "
        "measured ones)"
    )


def _describe_tree(root: Path) -> str:
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return f"`{root.name}` at {commit}" + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return f"`{root}`"


def _latency_table(figures: list[dict[str, Any]]) -> list[str]:
    out = [
        "### Click to answer, and to the table showing the move (ms)",
        "",
        "| N | R/s | clicks | moves | bot p50 | p95 | p99 | floor p50 | p95 | p99 "
        "| ratio p50 | ratio p99 (90% interval) | table p50 | p95 | p99 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        real, null, table = f["real"], f["null"], f["table"]
        out.append(
            f"| {f['n']} | {f['rate']:g} | {f['measured']} | {f['moves']} "
            f"| {ms(real[50])} | {ms(real[95])} | {ms(real[99])} "
            f"| {ms(null[50])} | {ms(null[95])} | {ms(null[99])} "
            f"| {ratio(real[50], null[50])} | {ratio(real[99], null[99])}{_interval(f)} "
            f"| {ms(table[50])} | {ms(table[95])} | {ms(table[99])} |"
        )
    return [*out, ""]


def _interval(figures: dict[str, Any]) -> str:
    low, high = figures.get("ratio_p99_interval", (float("nan"),) * 2)
    return "" if low != low or high != high else f" ({low:.1f}–{high:.1f})"


def _kind_table(figures: list[dict[str, Any]]) -> list[str]:
    out = [
        "### Click to answer by what the click does (ms, bot / floor)",
        "",
        "| N | R/s | applying a move: clicks | p50 | p99 | opening or stepping a picker: clicks "
        "| p50 | p99 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        row = [f"| {f['n']} | {f['rate']:g}"]
        for label in ("applying", "picker"):
            k = f["by_kind"][label]
            row.append(
                f"{k['clicks']} | {ms(k['real'][50])} / {ms(k['null'][50])} "
                f"| {ms(k['real'][99])} / {ms(k['null'][99])}"
            )
        out.append(" | ".join(row) + " |")
    return [*out, ""]


def _drift(bound: list[Any], floor: list[Any]) -> float:
    """The bound's picker openings against the floor's, medians: the same clicks answered by
    the same work (a deferred update), so any ratio but 1 is the machine's speed drifting
    between the two replays, a measure of what a single run's bot/floor ratio carries too."""

    def opens(items: list[Any]) -> list[float]:
        return [i.latency for i in items if i.click.kind in ("open", "step") and i.latency]

    b, f = opens(bound), opens(floor)
    return percentile(b, 50) / percentile(f, 50) if b and f else float("nan")


def _bound_table(figures: list[dict[str, Any]]) -> list[str]:
    """`--bound`: the floor plus only what the issue makes each applied move cost, against the
    floor and the real bot, on the same clicks."""
    rows = [f for f in figures if f.get("bound")]
    if not rows:
        return []
    out = [
        "### The bound: the floor plus a durable commit and a table edit per move (`--bound`)",
        "",
        "`bench/boundbot.py` answers every click as the floor does, and before answering an "
        "applied move commits it durably (SQLite, WAL, synchronous=FULL, one trip to a writer "
        "thread), then makes one message edit for the table unless the move was made on it. "
        "No bot can do less; what it measures against the floor is the part of the gap "
        "the targets leave no room for. Times in ms. Drift: the bound's picker openings "
        "against the floor's (medians), the same work: what the machine's speed changed "
        "between two replays.",
        "",
        "| N | R/s | clicks | bound p50 | p99 | moves' p99 | floor p99 | bot p99 "
        "| bound/floor p99 (90% interval) | bot/floor p99 | CPU per click: bound / floor / bot "
        "| bound/floor CPU | bot/floor CPU | drift |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for f in rows:
        b = f["bound"]
        low, high = b["ratio_p99_interval"]
        out.append(
            f"| {f['n']} | {f['rate']:g} | {b['clicks']} | {ms(b['all'][50])} "
            f"| {ms(b['all'][99])} | {ms(b['moves'][99])} | {ms(f['null'][99])} "
            f"| {ms(f['real'][99])} "
            f"| {ratio(b['all'][99], f['null'][99])} ({low:.1f}–{high:.1f}) "
            f"| {ratio(f['real'][99], f['null'][99])} "
            f"| {ms(b['cpu_per_click'])} / {ms(f['null_cpu_per_click'])} "
            f"/ {ms(f['cpu_per_click'])} "
            f"| {ratio(b['cpu_per_click'], f['null_cpu_per_click'])} "
            f"| {ratio(f['cpu_per_click'], f['null_cpu_per_click'])} "
            f"| {b.get('drift', float('nan')):.2f}x |"
        )
    return [*out, ""]


def _cpu_table(figures: list[dict[str, Any]]) -> list[str]:
    out = [
        "### CPU per click (ms of the bot process, user + system), and whether the fake keeps up",
        "",
        "| N | R/s | bot | floor | ratio | bot per applied move | rate achieved "
        "| clicks over 10 ms late (bot / floor) | benchmark process CPU (bot run / floor run) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        out.append(
            f"| {f['n']} | {f['rate']:g} | {ms(f['cpu_per_click'])} "
            f"| {ms(f['null_cpu_per_click'])} "
            f"| {ratio(f['cpu_per_click'], f['null_cpu_per_click'])} "
            f"| {ms(f['cpu_per_move'])} | {f['achieved_rate']:.1f}/s "
            f"| {f['late']} / {f['null_late']} "
            f"| {f['own_cpu_share']:.0%} / {f['null_own_cpu_share']:.0%} |"
        )
    by_n: dict[int, list[str]] = {}
    for f in figures:
        by_n.setdefault(f["n"], []).append(f"{f['rate']:g}/s {ms(f['null'][99])}")
    flat = "; ".join(f"N={n}: " + ", ".join(v) for n, v in by_n.items())
    out += ["", f"The floor's p99 by rate (flat = the fake is not the bottleneck): {flat}.", ""]
    return out


def _rest_table(figures: list[dict[str, Any]]) -> list[str]:
    routes: list[str] = []
    for f in figures:
        for route in sorted(f["routes"], key=lambda r: -f["routes"][r]):
            if route not in routes:
                routes.append(route)
    if ANSWER_ROUTE in routes:
        routes.remove(ANSWER_ROUTE)
        routes.insert(0, ANSWER_ROUTE)
    head = " | ".join(f"N={f['n']} R={f['rate']:g}" for f in figures)
    out = [
        "### REST calls per applied move, by route",
        "",
        f"| route | {head} |",
        "|---|" + "---:|" * len(figures),
    ]

    def per_move(f: dict[str, Any], count: float) -> str:
        return f"{count / f['moves']:.2f}" if f["moves"] else "–"

    out.append(
        "| clicks (each gets one answer) | "
        + " | ".join(per_move(f, f["clicks"]) for f in figures)
        + " |"
    )
    for route in routes:
        out.append(
            f"| {route} | "
            + " | ".join(per_move(f, f["routes"].get(route, 0)) for f in figures)
            + " |"
        )
    beyond = [sum(v for k, v in f["routes"].items() if k != ANSWER_ROUTE) for f in figures]
    out.append(
        "| **all but the answers** | "
        + " | ".join(f"**{per_move(f, b)}**" for f, b in zip(figures, beyond, strict=True))
        + " |"
    )
    return [*out, ""]


MOVE_ROUTES = {
    "dm": "from the DM hand",
    "table": "a table button",
    "picker": "the table's picker (ephemeral)",
    "hand": '"My hand" (ephemeral)',
}


def _move_route_table(figures: list[dict[str, Any]]) -> list[str]:
    """Calls on messages after a move, by where the move was made: each call is charged to
    the last applied move of its game before it (stats.rest_by_move_route)."""
    out = [
        "### Message calls per applied move, by where the move was made",
        "",
        "Edits: tables and DMs. Posts: new channel messages and deletes (reminders,",
        "announcements). Each call counts for the last applied move of its game before it.",
        "",
        "| N | R/s | move made from | moves | edits per move | posts per move | total |",
        "|---:|---:|---|---:|---:|---:|---:|",
    ]
    for f in figures:
        for route, label in MOVE_ROUTES.items():
            counts = f.get("by_move_route", {}).get(route)
            if not counts or not counts.get("moves"):
                continue
            n = counts["moves"]
            edits, posts = counts.get("edits", 0) / n, counts.get("posts", 0) / n
            out.append(
                f"| {f['n']} | {f['rate']:g} | {label} | {n} | {edits:.2f} | {posts:.2f} "
                f"| {edits + posts:.2f} |"
            )
    return [*out, ""]


def _move_kind_table(figures: list[dict[str, Any]]) -> list[str]:
    """The same calls by the game the move was made in, edits split into DMs and tables."""
    out = [
        "### Message calls per applied move, by game",
        "",
        "| N | R/s | game | moves | DM edits | table edits | posts and deletes | total |",
        "|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    rows = 0
    for f in figures:
        for kind, counts in sorted(f.get("by_move_kind", {}).items()):
            n = counts.get("moves", 0)
            if not n:
                continue
            dm, edits, posts = (counts.get(k, 0) / n for k in ("dm", "edits", "posts"))
            out.append(
                f"| {f['n']} | {f['rate']:g} | {kind} | {n} | {dm:.2f} | {edits - dm:.2f} "
                f"| {posts:.2f} | {edits + posts:.2f} |"
            )
            rows += 1
    return [*out, ""] if rows else []


def move_phases(cell: Cell, phases: dict[int, dict[str, float]]) -> dict[int, dict[str, float]]:
    """Per applied move the bot stamped (by the click's identity): each of the bot's steps
    (`PHASES`), what lies outside its handler (discord.py, the wire and the fake, both ways
    to the answer's arrival) and the whole answer, in seconds."""
    out: dict[int, dict[str, float]] = {}
    for click in cell.moves:
        stamps = phases.get(click.interaction_id or 0)
        if stamps is None or click.latency is None:
            continue
        steps = {
            name: stamps[b] - stamps[a] for name, a, b in PHASES if a in stamps and b in stamps
        }
        steps[OUTSIDE] = click.latency - (stamps["answer"] - stamps["click"])
        steps[WHOLE] = click.latency
        out[id(click)] = steps
    return out


def _phase_table(sizes: list[SizeResult]) -> list[str]:
    rows = []
    for size in sizes:
        if not size.phases:
            continue
        for cell in size.cells:
            per_move = move_phases(cell, size.phases)
            floor = {
                id(i.click): i.latency
                for i in (cell.null.items if cell.null else [])
                if i.latency is not None
            }
            for name in [*(name for name, _, _ in PHASES), OUTSIDE, WHOLE]:
                values = [steps[name] for steps in per_move.values() if name in steps]
                rows.append((cell.n, cell.rate, len(per_move), name, values))
            values = [floor[k] for k in per_move if k in floor]
            rows.append((cell.n, cell.rate, len(per_move), "the floor's whole answer", values))
    if not rows:
        return []
    out = [
        "### Where an applied move's answer goes (ms; `--phases`)",
        "",
        "The bot's own stamps at each step of the click path, joined to the fake's click-to-"
        "answer time; the floor's answer to the same clicks for comparison.",
        "",
        "| N | R/s | moves | step | p50 | p90 | p99 |",
        "|---:|---:|---:|---|---:|---:|---:|",
    ]
    for n, rate, moves, name, values in rows:
        out.append(
            f"| {n} | {rate:g} | {moves} | {name} | {ms(percentile(values, 50))} "
            f"| {ms(percentile(values, 90))} | {ms(percentile(values, 99))} |"
        )
    return [*out, ""]


def _harness_table(figures: list[dict[str, Any]]) -> list[str]:
    out = [
        "### What the harness did",
        "",
        "Loop lag: how late the benchmark's event loop (the fake, the driver, the replay) ran a "
        "2 ms timer, p50 / p99 / max in ms, over each bot's measured window and over the "
        "moments a measured click awaited its answer. The real bot's work during the floor's "
        "measurement: its CPU and REST calls then (none when it is paused).",
        "",
        "| N | R/s | mode | driver waits for answers | warm-up (s) | bot window (s) "
        "| floor window (s) | loop lag, bot window | floor window | bot clicks in flight "
        "| floor clicks in flight | real bot during the floor: CPU (ms) / calls "
        "| cell (s) |",
        "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def lag(f: dict[str, Any], name: str) -> str:
        v = f["lag"][name]
        return f"{ms(v[50])} / {ms(v[99])} / {ms(v[100])}"

    for f in figures:
        out.append(
            f"| {f['n']} | {f['rate']:g} | {f['mode']} | {'yes' if f['gated'] else 'no'} "
            f"| {f['warm_seconds']:.1f} | {f['wall']:.1f} | {f['null_wall']:.1f} "
            f"| {lag(f, 'bot')} | {lag(f, 'floor')} | {lag(f, 'bot_flight')} "
            f"| {lag(f, 'floor_flight')} "
            f"| {f['bot_cpu_in_floor'] * 1000:.0f} / {f['bot_calls_in_floor']} "
            f"| {f['seconds']:.0f} |"
        )
    out.append("")
    profiled = [f for f in figures if f.get("loop_profile")]
    if profiled:
        out += [
            "What held the event loop while a measured click awaited its answer "
            "(`--loop-profile`: callbacks of 0.05 ms or more that began then, by where their "
            "code lives; ms):",
            "",
            "| N | R/s | mode | bot's clicks or the floor's | who | callbacks "
            "| per click answered | p99 | max |",
            "|---:|---:|---|---|---|---:|---:|---:|---:|",
        ]
        for f in profiled:
            for phase, by_who in f["loop_profile"].items():
                for who, v in sorted(by_who.items(), key=lambda kv: -kv[1]["per_click"]):
                    out.append(
                        f"| {f['n']} | {f['rate']:g} | {f['mode']} | {phase} | {who} "
                        f"| {v['callbacks']} | {ms(v['per_click'])} | {ms(v['p99'])} "
                        f"| {ms(v['max'])} |"
                    )
        out.append("")
    return out


def _error_table(figures: list[dict[str, Any]]) -> list[str]:
    out = [
        "### Errors",
        "",
        '| N | R/s | unanswered (bot / floor) | HTTP 4xx/5xx | "went wrong" replies '
        "| bot tracebacks | moves refused | the game moved on before the click "
        "| other driver notes |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    details: list[str] = []
    for f in figures:
        issues = dict(f["issues"])
        not_applied = issues.pop("move not applied", 0)
        moved_on = issues.pop(STALE, 0) + issues.pop(MOVED_ON, 0)
        issues.pop("picker not shown", None)  # listed with the answer it got
        other = sum(
            v
            for k, v in issues.items()
            if not k.startswith(("move not applied", "unanswered", "picker not shown"))
        )
        out.append(
            f"| {f['n']} | {f['rate']:g} | {f['unanswered']} / {f['null_unanswered']} "
            f"| {sum(f['http_errors'].values())} | {f['went_wrong']} "
            f"| {sum(f['tracebacks'].values())} | {not_applied} | {moved_on} | {other} |"
        )
        where = f"N={f['n']} R={f['rate']:g}"
        for kind, count in sorted(f["http_errors"].items(), key=lambda kv: -kv[1]):
            details.append(f"- {where}: HTTP {kind} ×{count}")
        for text, count in sorted(f["tracebacks"].items(), key=lambda kv: -kv[1])[:6]:
            details.append(f"- {where}: traceback `{text}` ×{count}")
        for text, count in sorted(f["null_tracebacks"].items(), key=lambda kv: -kv[1])[:3]:
            details.append(f"- {where}: floor traceback `{text}` ×{count}")
        for text, count in sorted(issues.items(), key=lambda kv: -kv[1])[:6]:
            details.append(f"- {where}: {text} ×{count}")
    out.append("")
    return out + details + ([""] if details else [])


def _table_429(r: Result429) -> list[str]:
    def row(label: str, clicks: list[Any]) -> str:
        lat = [c.latency for c in clicks if c.latency is not None and c.kind != "slash"]
        unanswered = sum(1 for c in clicks if c.latency is None)
        return (
            f"| {label} | {len(lat) + unanswered} | {ms(percentile(lat, 50))} "
            f"| {ms(percentile(lat, 99))} | {ms(percentile(lat, 100))} | {unanswered} |"
        )

    victim = ", ".join(
        f"{c.what} {ms(c.latency) if c.latency is not None else 'unanswered'}"
        + (f" ({c.note})" if c.note and c.latency is not None else "")
        for c in r.victim
    )
    delay = "never" if r.table_delay is None else f"{r.table_delay:.1f} s"
    return [
        f"### One table's edits answered 429 (retry after 4 s), N={r.n}, others at {r.rate:g}/s",
        "",
        "| clicks in the other games, for 8 s | clicks | p50 | p99 | max | unanswered |",
        "|---|---:|---:|---:|---:|---:|",
        row("just before, no 429 (control)", r.control),
        row("while one table's edit waits out its 429", r.others),
        "",
        f"In the {r.victim_kind} game whose table edit got the 429 (ms): {victim}. "
        f"Its table showed the move {delay} after the move was answered.",
        "",
    ]


def _startup_table(runs: list[StartupRun], stored: int, active: int) -> list[str]:
    def med(values: list[float]) -> float:
        return percentile(values, 50)

    rows = []
    firsts: dict[str, float] = {}
    for label, count in (("empty", 0), (f"{stored:,} games ({active:,} active)", stored)):
        mine = [r for r in runs if r.stored == count]
        first = [r.first_answer for r in mine if r.first_answer is not None]
        firsts[label] = med(first)
        rows.append(
            f"| {label} | {len(mine)} | {med([r.connected for r in mine]):.2f} "
            f"| {med(first):.2f} | {med([r.rss for r in mine]) / 2**20:.1f} |"
        )
    values = list(firsts.values())
    answers = []
    for label, count in (("empty", 0), ("stored", stored)):
        mine = [r for r in runs if r.stored == count]
        if mine:
            errors = sum(r.tracebacks for r in mine)
            answers.append(f"{label}: {mine[0].answer!r}, {errors} traceback(s)")
    return [
        "### Start-up: process spawn to the first answered click (median of runs)",
        "",
        "| database | runs | connected (s) | first answered click (s) | RSS (MB) |",
        "|---|---:|---:|---:|---:|",
        *rows,
        "",
        f'Stored / empty: {ratio(values[1], values[0])}. The click is "My hand" of an active '
        "game (with the empty database: of an unknown game, answered with a refusal). "
        f"First answers: {'; '.join(answers)}.",
        "",
    ]


def _memory_table(sizes: list[SizeResult]) -> list[str]:
    out = [
        "### Memory of the bot process (RSS)",
        "",
        "Per live game: with the games just started, before the cells' clicks. After the "
        "clicks, RSS holds what playing adds too (caches, the allocator's arenas, games "
        "replaced), which is no live game's.",
        "",
        "| live games | RSS at 0 games (MB) | RSS with them (MB) | per live game (KB) "
        "| RSS after the clicks (MB) | games started (incl. replacements) |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sizes:
        live = s.rss_setup or s.rss_live
        per = (live - s.rss_zero) / s.n / 1024
        out.append(
            f"| {s.n} | {s.rss_zero / 2**20:.1f} | {live / 2**20:.1f} | {per:.1f} "
            f"| {s.rss_live / 2**20:.1f} | {s.games_started} |"
        )
    out.append("")
    if len(sizes) >= 2:
        low, high = min(sizes, key=lambda s: s.n), max(sizes, key=lambda s: s.n)
        growth = (high.rss_live - high.rss_zero) - (low.rss_live - low.rss_zero)
        slope = growth / (high.n - low.n) / 1024
        out += [
            f"Between N={low.n} and N={high.n}: {slope:.1f} KB per extra live game (both runs "
            "meet the same guild, with as many tables as the largest N, and what both runs' "
            "warm-up costs alike cancels out).",
            "",
        ]
    return out


def _notes(figures: list[dict[str, Any]], sizes: list[SizeResult]) -> list[str]:
    kinds: Counter[str] = Counter()
    for f in figures:
        kinds.update(f["clicks_by_kind"])
    total = sum(kinds.values()) or 1
    mix = ", ".join(f"{k} {v / total:.0%}" for k, v in kinds.most_common())
    setup = "; ".join(f"N={s.n}: {s.setup_seconds:.0f} s" for s in sizes)
    out = [f"Click mix (kind/route): {mix}. Set-up of the games: {setup}.", ""]
    unsettled = [f"N={f['n']} R={f['rate']:g}" for f in figures if not f["settled"]]
    if unsettled:
        out += [
            "Still waiting for answers or tables 15 s after a block of clicks: "
            + ", ".join(unsettled)
            + ".",
            "",
        ]
    for s in sizes:
        if s.setup_issues:
            listed = ", ".join(f"{k} ×{v}" for k, v in s.setup_issues.most_common(4))
            out += [f"While starting the N={s.n} games: {listed}.", ""]
    return out
