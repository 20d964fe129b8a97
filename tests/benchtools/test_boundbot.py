"""The load benchmark's bound (bench/boundbot.py, `--bound`): the floor plus what issue #8 makes
an applied move cost. A move marked by the harness is committed before its answer and followed
by one edit; a move made on the table is committed but needs no edit; any other click is
answered as the floor answers it, with nothing stored."""

from __future__ import annotations

import asyncio
import json
import math
import os
import signal
import sqlite3
from pathlib import Path
from types import SimpleNamespace

from bench.loadgen.proc import BotProcess
from bench.loadgen.report import _drift
from tests.fakediscord import FakeDiscord

BUTTON = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "g:1:1:x"}]}


def stored(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM moves").fetchone()[0])


def edits_of_original(fake: FakeDiscord) -> int:
    return sum(1 for method, path, _ in fake.requests if method == "PATCH" and "@original" in path)


async def test_the_bound_stores_each_move_before_its_answer_and_edits_the_table_after(
    tmp_path: Path,
) -> None:
    db, marks = tmp_path / "bound.db", tmp_path / "marks.json"
    async with FakeDiscord() as fake:
        bound = BotProcess(
            fake,
            tmp_path,
            module="bench.boundbot",
            name="boundbot",
            db_path=db,
            extra_env={"BOUND_MARKS": str(marks)},
        )
        await bound.start(commands=())
        try:
            move, on_table, other = (
                fake.add_bot_message(fake.channel_id, content=f"table {i}", components=[BUTTON])
                for i in range(3)
            )
            marks.write_text(json.dumps({str(move.id): "move", str(on_table.id): "table"}))
            os.kill(bound.pid, signal.SIGUSR1)
            for _ in range(250):
                if Path(f"{marks}.ok").exists():
                    break
                await asyncio.sleep(0.02)
            assert Path(f"{marks}.ok").read_text() == "2"

            answer = await (await fake.click("alice", move.id, "g:1:1:x")).response()
            assert answer.type == 6  # a deferred update, as the floor's
            assert stored(db) == 1  # committed before the answer was sent
            await fake.wait_for(lambda: edits_of_original(fake) == 1)

            await (await fake.click("alice", on_table.id, "g:1:1:x")).response()
            assert stored(db) == 2

            await (await fake.click("alice", other.id, "g:1:1:x")).response()
            await asyncio.sleep(0.3)  # an edit, were one made, would have come by now
            assert stored(db) == 2
            assert edits_of_original(fake) == 1  # the table and the unmarked click: none
        finally:
            await bound.stop()


def test_drift_compares_the_openings_both_replays_answered_alike() -> None:
    """The bound's picker openings do the floor's very work: their ratio is the machine's
    drift between the two replays. Moves (which the bound stores) are left out."""

    def items(kinds_latencies: list[tuple[str, float | None]]) -> list[SimpleNamespace]:
        return [
            SimpleNamespace(click=SimpleNamespace(kind=k), latency=t) for k, t in kinds_latencies
        ]

    floor = items([("open", 0.002), ("step", 0.002), ("move", 0.002), ("open", None)])
    bound = items([("open", 0.003), ("step", 0.003), ("move", 0.009)])
    assert abs(_drift(bound, floor) - 1.5) < 1e-9
    assert math.isnan(_drift(items([("move", 0.003)]), floor))  # no openings: no figure
