"""Starting and stopping the playground as a first-time owner does (bot.py --playground)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bot
from config import load_settings

ROOT = Path(__file__).resolve().parents[2]

# A playground already running in this folder, as far as the files show: its database (with
# a game in it, in WAL mode, connection open) and the lock its store holds (db.sqlite.hold_file).
RUNNING = textwrap.dedent(
    """
    import fcntl, os, sqlite3, sys, time
    os.makedirs("data", exist_ok=True)
    conn = sqlite3.connect("data/playground.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, kind TEXT)")
    conn.execute("INSERT INTO games (kind) VALUES ('uno')")
    fd = os.open("data/playground.db.lock", os.O_RDWR | os.O_CREAT, 0o644)
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("ready", flush=True)
    sys.stdin.read()
    """
)


@pytest.fixture
def running_playground(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for key in ("DATABASE_PATH", "DATABASE_URL", "DISCORD_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    child = subprocess.Popen(
        [sys.executable, "-c", RUNNING],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    try:
        yield tmp_path / "data" / "playground.db"
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=10)


def test_a_second_playground_gets_a_clear_message_not_a_traceback(running_playground) -> None:
    """A second `bot.py --playground` while one already runs (a second terminal). Before: a
    28-line traceback ending in db.errors.StoreUnavailable. Now one line and exit code 3."""
    try:
        bot.main(["--playground", "--no-browser"])
    except SystemExit as stop:
        assert stop.code == 3
    except BaseException as error:
        pytest.fail(f"the owner sees a traceback: {type(error).__name__}: {error}")
    else:
        pytest.fail("a second playground started")


def test_a_second_playground_does_not_wipe_the_running_ones_database(running_playground) -> None:
    """Before: a second playground in the same folder deleted the running session's
    data/playground.db, -wal and -shm before it noticed the lock (its games vanished from
    disk while it ran). Now it finds the lock first and leaves the files alone."""
    before = running_playground.stat().st_ino
    with pytest.raises(BaseException):  # noqa: B017 (how it refuses is the other test)
        bot.main(["--playground", "--no-browser"])
    assert running_playground.exists(), "the running session's database was deleted"
    assert running_playground.stat().st_ino == before, (
        "the running session's database was deleted and replaced by an empty one"
    )
    rows = sqlite3.connect(running_playground).execute("SELECT kind FROM games").fetchall()
    assert rows == [("uno",)]


async def test_a_real_database_whose_name_ends_in_playground_db_is_never_wiped(
    tmp_path, monkeypatch
) -> None:
    """An owner whose real bot keeps its games in DATABASE_PATH=.../staging-playground.db
    runs `bot.py --playground`. Before: any path ending in "playground.db" was taken as the
    playground's own and deleted at start, with the real bot's games. Now the playground
    always uses data/playground.db (README: "never a real bot's games")."""
    from cogs.playground import playground

    monkeypatch.chdir(tmp_path)
    real = tmp_path / "srv" / "staging-playground.db"
    real.parent.mkdir()
    conn = sqlite3.connect(real)
    conn.execute("CREATE TABLE keepsake (note TEXT)")
    conn.execute("INSERT INTO keepsake VALUES ('the real bot was here')")
    conn.commit()
    conn.close()
    settings = load_settings(env={"DATABASE_PATH": str(real)}, dotenv=None, need_token=False)
    async with playground(settings, "uno", bot_pause=0) as (_preview, env):
        used = env.bot.settings.database_path
    kept = (
        sqlite3.connect(real)
        .execute("SELECT name FROM sqlite_master WHERE name = 'keepsake'")
        .fetchall()
    )
    assert kept, "the real bot's database was deleted (and recreated) by the playground"
    assert used != str(real)


STALE_ENVS = [
    "DATABASE_URL=mysql://old-host/cards\nSHARD_IDS=0,1\n",  # an old sharded set-up
    "DATABASE_URL=postgresql://cards@db-host/cards\nDATABASE_TIMEOUT_SECONDS=5s\n",  # a typo
]


@pytest.mark.parametrize("dotenv", STALE_ENVS)
def test_a_stale_env_with_settings_the_playground_ignores_does_not_stop_it(
    tmp_path, monkeypatch, capsys, dotenv
) -> None:
    """A .env left from production: SHARD_IDS without SHARD_COUNT and a mysql:// URL, or a
    DATABASE_TIMEOUT_SECONDS the real bot refuses. Before: the playground refused too
    ("Configuration error", exit 2), though it replaces exactly those settings. Now it does
    not read them."""
    monkeypatch.chdir(tmp_path)
    for key in ("DATABASE_PATH", "DATABASE_URL", "DISCORD_TOKEN", "SHARD_IDS", "SHARD_COUNT"):
        monkeypatch.delenv(key, raising=False)
    for key in ("DATABASE_TIMEOUT_SECONDS", "CLOCK_POLL_SECONDS"):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / ".env").write_text(dotenv)
    from cogs import playground as module

    started: list[str] = []

    async def fake_run(settings, game, open_page):  # stop as soon as it would start
        started.append(game)

    monkeypatch.setattr(module, "run", fake_run)
    try:
        bot.main(["--playground", "--no-browser"])
    except SystemExit as stop:
        pytest.fail(f"refused (exit {stop.code}): {capsys.readouterr().err.strip()}")
    assert started == ["uno"]


def test_a_wrong_game_name_prints_only_the_friendly_message(tmp_path) -> None:
    """`bot.py --playground unoo`. Before, three warnings came first (from simcord's
    import-time probe client): "Guilds intent seems to be disabled" (untrue) and "PyNaCl /
    davey is not installed"; every start printed them. Now the friendly line only."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_PATH", "DATABASE_URL")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--playground", "unoo", "--no-browser"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Unknown game 'unoo'" in done.stderr
    noise = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    assert noise == [], noise
    assert not (tmp_path / "data").exists()


def test_without_the_playground_extra_the_owner_is_told_what_to_install(
    tmp_path, monkeypatch, capsys
) -> None:
    """An owner who installed the bot the usual way (`pip install -e .`, or the Docker image)
    runs `bot.py --playground`. Before: "ModuleNotFoundError: No module named 'simcord'" in a
    traceback. Now one line with the install command, exit code 2."""
    monkeypatch.chdir(tmp_path)
    for key in ("DATABASE_PATH", "DATABASE_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setitem(sys.modules, "simcord", None)  # not installed
    try:
        bot.main(["--playground", "--no-browser"])
    except SystemExit as stop:
        assert stop.code == 2
        said = f"{stop.code if isinstance(stop.code, str) else ''}{capsys.readouterr().err}"
        assert "[playground]" in said, said
    except BaseException as error:
        pytest.fail(f"the owner sees a traceback: {type(error).__name__}: {error}")
    else:
        pytest.fail("the playground ran without simcord")
