"""A load run in a folder an earlier run used starts from an empty database."""

from __future__ import annotations

from pathlib import Path

from bench.loadgen.scenarios import size_workdir


def test_a_reused_workdir_loses_the_earlier_runs_games_and_keeps_its_logs(tmp_path: Path) -> None:
    earlier = tmp_path / "n500"
    earlier.mkdir()
    for name in ("bot.db", "bot.db-wal", "bot.db-shm", "phases.jsonl", "bot.log"):
        (earlier / name).write_text("from the run before")

    workdir = size_workdir(tmp_path, 500)

    assert workdir == earlier
    assert sorted(p.name for p in workdir.iterdir()) == ["bot.log"]


def test_a_new_workdir_is_made(tmp_path: Path) -> None:
    workdir = size_workdir(tmp_path / "runs", 50)
    assert workdir.is_dir() and list(workdir.iterdir()) == []
