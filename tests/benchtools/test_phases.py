"""The load benchmark's join of the bot's click-path stamps to the fake's answer times."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench.loadgen.report import OUTSIDE, WHOLE, move_phases


def test_each_step_and_what_lies_outside_the_handler() -> None:
    stamped = SimpleNamespace(interaction_id=7, latency=0.0050)
    unstamped = SimpleNamespace(interaction_id=8, latency=0.0040)  # answered by a reply
    unanswered = SimpleNamespace(interaction_id=9, latency=None)
    cell = SimpleNamespace(moves=[stamped, unstamped, unanswered])
    stamps = {"click": 10.0, "apply": 10.0002, "submit": 10.0007, "thread": 10.0009}
    stamps |= {"commit": 10.0012, "committed": 10.0019, "resume": 10.0021}
    stamps |= {"applied": 10.0022, "answer": 10.0025}
    phases = {7: stamps, 9: dict(stamps)}

    out = move_phases(cell, phases)  # type: ignore[arg-type]

    assert list(out) == [id(stamped)]
    steps = out[id(stamped)]
    assert steps["the commit (fsync)"] == pytest.approx(0.0007)
    assert steps["drawing the answer"] == pytest.approx(0.0003)
    assert steps[OUTSIDE] == pytest.approx(0.0050 - 0.0025)
    assert steps[WHOLE] == 0.0050


def test_a_step_not_stamped_is_left_out() -> None:
    click = SimpleNamespace(interaction_id=1, latency=0.004)
    stamps = {"click": 1.0, "apply": 1.0001, "applied": 1.002, "answer": 1.0021}  # PostgreSQL
    out = move_phases(SimpleNamespace(moves=[click]), {1: stamps})  # type: ignore[arg-type]
    steps = out[id(click)]
    assert "the commit (fsync)" not in steps
    assert steps["before the rules (lock, load, checks)"] == pytest.approx(0.0001)
    assert steps[OUTSIDE] == pytest.approx(0.004 - 0.0021)
