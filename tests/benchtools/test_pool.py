"""Pooling several load-benchmark runs (bench/pool.py): one figure per (N, R) from all clicks."""

from __future__ import annotations

from typing import Any

from bench.pool import pool, render

ANSWER = "answer (interaction callback)"
OLD = "alternate, prepare in flight"  # runs from before the harness had modes


def run(
    n: int, bot: list[float], floor: list[float | None], cpu: float, routes: dict[str, int]
) -> Any:
    """A ``bench/load.py --json`` run with one cell: its clicks' answer times in ms."""
    clicks = [{"n": n, "rate": 50.0, "bot": b, "floor": f} for b, f in zip(bot, floor, strict=True)]
    cell = {
        "n": n,
        "rate": 50,
        "clicks": len(clicks),
        "cpu_per_click": cpu,  # seconds, as bench/load.py stores it
        "null_cpu_per_click": 0.001,
        "moves": len(clicks) // 2,
        "routes": routes,
    }
    return {"cells": [cell], "clicks": clicks}


def test_the_cells_of_several_runs_pool_into_one_figure_per_size_and_rate() -> None:
    first = run(500, [4.0] * 10, [2.0] * 10, 0.004, {ANSWER: 10, "PATCH DM": 8})
    second = run(500, [6.0] * 30, [2.0, None] * 15, 0.002, {ANSWER: 30, "PATCH DM": 22})
    other = run(50, [3.0] * 4, [1.0] * 4, 0.003, {ANSWER: 4})
    pooled = pool([first, second, other])

    cell = pooled[(500, 50.0, OLD)]
    assert cell.runs == 2
    assert len(cell.bot) == 40 and len(cell.floor) == 25  # an unanswered floor click left out
    assert cell.clicks == 40
    assert abs(cell.bot_cpu * 1000 / cell.clicks - 2.5) < 1e-9  # (10 x 4 ms + 30 x 2 ms) / 40
    assert cell.calls == 30 and cell.moves == 20  # the answers are not counted
    assert pooled[(50, 50.0, OLD)].runs == 1

    table = render(pooled)
    row = next(line for line in table.splitlines() if line.startswith("| 500 | 50 | "))
    # 40 clicks | bot p50 6.0, p99 6.0 | floor 2.0 and 2.0 | 3.0x at both | CPU 2.5 / 1.0 | 1.50
    assert row.startswith(
        f"| 500 | 50 | {OLD} | 2 | 40 | 6.0 | 6.0 | 2.0 | 2.0 | 3.0x | 3.00x (3.00–3.00)"
    )
    assert row.endswith("| 2.5 / 1.0 (2.5x) | 1.50 (0.00, 0.00) | – / – | 0 |")


def test_runs_of_different_harness_modes_pool_apart() -> None:
    old = run(500, [6.0] * 10, [2.0] * 10, 0.004, {ANSWER: 10, "PATCH DM": 8})
    new = run(500, [5.0] * 10, [2.0] * 10, 0.003, {ANSWER: 10, "PATCH DM": 6})
    new["cells"][0] |= {
        "mode": "continuous",
        "gated": True,
        "seconds": 70.0,
        "lag_flight_us": {"bot": [100, 2000], "floor": [100, 1000]},
    }
    new["cells"][0]["routes"] |= {"POST channel message (new)": 2, "DELETE channel message": 1}
    pooled = pool([old, new, new])

    assert pooled[(500, 50.0, OLD)].runs == 1
    cell = pooled[(500, 50.0, "continuous")]
    assert cell.runs == 2 and len(cell.bot) == 20 and cell.posts == 4 and cell.deletes == 2
    row = next(line for line in render(pooled).splitlines() if "continuous" in line)
    assert "| 1.80 (0.40, 0.20) |" in row  # (6 + 2 + 1) x 2 calls over 2 x 5 moves
    assert row.endswith("| 2.0 / 1.0 | 70 |")


def test_the_bound_pools_beside_the_bot_and_the_floor() -> None:
    bounded = run(500, [6.0] * 10, [2.0] * 10, 0.004, {ANSWER: 10})
    for click in bounded["clicks"]:
        click["bound"] = 3.0
    bounded["cells"][0]["bound"] = {"clicks": 10, "cpu_per_click": 0.0015}
    plain = run(500, [6.0] * 10, [2.0] * 10, 0.004, {ANSWER: 10})
    pooled = pool([bounded, plain])

    cell = pooled[(500, 50.0, OLD)]
    assert len(cell.bound) == 10 and len(cell.bot) == 20  # the run without a bound adds none
    row = render(pooled).splitlines()[-1]
    # bound p50 and p99 3.0 ms | 3.0 / 2.0 | 6.0 / 2.0 | CPU 1.5 / 1.0 / 4.0
    assert row == (
        f"| 500 | 50 | {OLD} | 2 | 10 | 3.0 | 3.0 | 1.50x (1.50–1.50) | 3.00x "
        "| 1.5 / 1.0 / 4.0 | 1.5x | 4.0x |"
    )
    assert "The bound" not in render(pool([plain]))
