"""bench/pool.py: the floor's CPU per click pooled over several runs.

A cell stores ``null_cpu_per_click`` as the floor's CPU over the clicks it replayed
(``measured``: slash commands are not replayed), while ``clicks`` counts the real bot's
clicks, slash commands included. Pooling must put each run's floor CPU back together from the
clicks it was divided by, or runs weigh wrongly and the pooled figure is not "all the runs'
CPU over all their clicks". Before, it multiplied by the bot's clicks; now by ``measured``.
"""

from __future__ import annotations

from typing import Any

from bench.pool import pool, render

ANSWER = "answer (interaction callback)"
OLD = "alternate, prepare in flight"  # runs from before the harness had modes


def run(clicks: int, measured: int, floor_cpu_per_click: float) -> dict[str, Any]:
    """One run with one cell; the floor replayed `measured` clicks, `floor_cpu_per_click`
    seconds each (as bench/loadgen/report.cell_figures computes it: null_cpu / measured)."""
    cell = {
        "n": 500,
        "rate": 50,
        "clicks": clicks,
        "measured": measured,
        "cpu_per_click": 0.004,
        "null_cpu_per_click": floor_cpu_per_click,
        "moves": measured // 2,
        "routes": {ANSWER: clicks},
    }
    click_rows = [{"n": 500, "rate": 50.0, "bot": 4.0, "floor": 2.0}] * measured
    return {"cells": [cell], "clicks": click_rows}


def test_pooled_floor_cpu_is_all_the_floor_cpu_over_all_the_clicks_it_answered() -> None:
    # Run A: 100 clicks, 50 of them slash commands the floor never saw; the floor spent
    # 50 x 1 ms. Run B: 100 clicks, all replayed; the floor spent 100 x 2 ms.
    pooled = pool([run(100, 50, 0.001), run(100, 100, 0.002)])[(500, 50.0, OLD)]
    floor_cpu_ms = pooled.floor_cpu * 1000
    assert abs(floor_cpu_ms - 250.0) < 1e-6, floor_cpu_ms


def test_pooled_floor_cpu_per_click_is_over_the_clicks_the_floor_answered() -> None:
    table = render(pool([run(100, 50, 0.001), run(100, 100, 0.002)]))
    row = next(line for line in table.splitlines() if line.startswith("| 500 | 50 | "))
    # The bot: 200 clicks x 4 ms. The floor: 250 ms over the 150 clicks it answered, 1.7 ms
    # (before, 1.5: 300 ms over 200 clicks, half of run A's being slash commands).
    assert "| 4.0 / 1.7 (2.4x) |" in row, row
