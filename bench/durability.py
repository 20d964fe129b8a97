"""What durability costs: one move's commit with SQLite's synchronous=FULL (the bot's setting:
an acknowledged move survives a power cut) against NORMAL (it may not), on this machine's disk.

    .venv/bin/python bench/durability.py [--commits 2000] [--dir /path/on/the/bots/disk]

Each commit is what storing a move writes in the bot: the game's state (a few KB of JSON)
updated and one move row added, in one transaction, through the bot's own SQLite backend
(``db.sqlite``: WAL, the writer thread). Prints the median and p99 time per commit and the
processor time per commit, for both settings, alternated in blocks so both meet the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from db import sqlite as backend
from db.script import Script, run

STATE = json.dumps({"hands": [["AC", "2D", "10H"] * 6] * 4, "pile": ["QS"] * 60, "log": "x" * 900})


def move(version: int) -> Script[None]:
    yield run("UPDATE game SET version = ?, state = ? WHERE id = 1", version, STATE)
    yield run("INSERT INTO move (game_id, seq, action) VALUES (1, ?, 'play:R5')", version)


async def measure(path: Path, synchronous: str, commits: int) -> tuple[list[float], float]:
    """Seconds per commit, and processor seconds per commit (this process, all threads)."""
    original = backend.SqliteBackend._connect

    def connect(self: backend.SqliteBackend, write: bool) -> object:
        conn = original(self, write)
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        return conn

    backend.SqliteBackend._connect = connect  # type: ignore[method-assign,assignment]
    try:
        db = await backend.SqliteBackend.open(str(path), timeout=5.0)
    finally:
        backend.SqliteBackend._connect = original  # type: ignore[method-assign]
    try:

        def schema() -> Script[None]:
            yield run("CREATE TABLE IF NOT EXISTS game (id INTEGER PRIMARY KEY, version, state)")
            yield run("CREATE TABLE IF NOT EXISTS move (game_id, seq, action)")
            yield run("INSERT OR IGNORE INTO game VALUES (1, 0, '')")

        await db.write(schema())
        times = []
        cpu = time.process_time()
        for i in range(commits):
            start = time.perf_counter()
            await db.write(move(i))
            times.append(time.perf_counter() - start)
        return times, (time.process_time() - cpu) / commits
    finally:
        await db.close()


async def main_async(commits: int, where: str | None) -> None:
    results: dict[str, tuple[list[float], list[float]]] = {"FULL": ([], []), "NORMAL": ([], [])}
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        for block in range(4):  # alternated: both settings meet the same background load
            for mode in ("FULL", "NORMAL") if block % 2 == 0 else ("NORMAL", "FULL"):
                path = Path(tmp) / f"{mode}.db"
                times, cpu = await measure(path, mode, commits // 4)
                results[mode][0].extend(times)
                results[mode][1].append(cpu)
    place = os.path.realpath(where or tempfile.gettempdir())
    print(f"{commits // 4 * 4} commits per setting, in {place}")
    print("| synchronous | median (ms) | p99 (ms) | CPU per commit (ms) |")
    print("|---|---:|---:|---:|")
    for mode, (times, cpus) in results.items():
        times.sort()
        p99 = times[int(len(times) * 0.99) - 1]
        print(
            f"| {mode} | {statistics.median(times) * 1000:.2f} | {p99 * 1000:.2f} "
            f"| {statistics.median(cpus) * 1000:.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--dir", help="where the databases go (the bot's disk)")
    args = parser.parse_args()
    asyncio.run(main_async(args.commits, args.dir))


if __name__ == "__main__":
    main()
