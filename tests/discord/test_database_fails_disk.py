"""SQLite failing while the bot runs: a full disk, as the owner's log reads it.

The failure is injected into the writer connection of the real SQLite backend: its COMMIT
fails with SQLite's own SQLITE_FULL message (and is rolled back, as the backend does)."""

from __future__ import annotations

import logging
import sqlite3
import sys
from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_database_fails_lobby import faulty

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def full_disk(sql: str) -> BaseException | None:
    """Every COMMIT fails, as on a full disk."""
    return sqlite3.OperationalError("database or disk is full") if sql == "COMMIT" else None


async def test_a_full_disk_is_said_once_not_with_a_traceback_per_click(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up on a server with two games going. Before, each of six clicks
    (players trying again, as they are told to) put another ERROR with a full stack trace
    in the owner's log, so one outage on a busy server was hundreds of identical tracebacks
    that looked like bugs. Now a database failure is an outage: one ERROR line with SQLite's
    words at most once a minute, the clicks between logged quietly, and each player told
    the database isn't answering and nothing was changed."""
    # The clock loop looks every DOWN_LOOK while the database is away: inside simcord's
    # settle window that would run in real time at every click (what is tested is the log).
    timers = simcord_env.bot.get_cog("Timers")
    monkeypatch.setattr(sys.modules[type(timers).__module__], "DOWN_LOOK", 30.0)
    env = simcord_env
    tables = [
        await Table.start(env, "uno", 2, seed=7),
        await Table.start(env, "uno", 2, channel_name="other", seed=3),
    ]
    await env.settle()
    conn = faulty(env)
    conn.fail = full_disk
    caplog.set_level(logging.INFO)
    caplog.clear()
    try:
        for i in range(6):
            table = tables[i % 2]
            game = await table.game()
            player = next(p for p in game.actors() if game.legal_actions(p))
            result = await table.act_once(player, game.legal_actions(player)[0].id)
            said = [result.response and result.response.content] + [
                f.content for f in (result.followups or [])
            ]
            assert any("nothing was changed" in (s or "") for s in said), said
            await env.advance_time(5)
    finally:
        conn.fail = None
    traced = [
        r.getMessage().split("\n")[0]
        for r in caplog.records
        if r.levelno >= logging.ERROR and "\n" in r.getMessage()
    ]
    assert len(traced) <= 2, f"{len(traced)} ERROR tracebacks for one outage: {traced}"
