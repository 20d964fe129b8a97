"""One bot application per database. A second application given the first one's database (a
staging bot with production's DATABASE_URL, a copied `.env`) used to start: at its first READY
it took every game there for one of a server it had been removed from and ended them all, and
its clocks moved games it could not show. Now it stops at start with a sentence saying why
(exit code 2), and ``--adopt-database`` hands the database over on purpose."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from db import Store
from tests.fakediscord import FakeDiscord
from tests.process.harness import spawn_run_bot
from tests.process.test_startup_messages import run_bot

OTHER_APP = 111111111111111111
STARTED = "synced"  # logged once the commands are synced: the start-up went through


async def stored_game_of(database: Path, application_id: int) -> int:
    """A database another application used: it owns it and has a running lobby in it."""
    store = await Store.open(database)
    try:
        assert await store.claim_owner(application_id) == application_id
        row = await store.create_lobby(1, 10, "uno", 100, "Ann", {}, seed=7)
        return row.id
    finally:
        await store.close()


async def test_a_second_application_on_a_database_stops_with_a_clear_message(
    tmp_path: Path,
) -> None:
    game_id = await stored_game_of(tmp_path / "bot.db", OTHER_APP)
    async with FakeDiscord() as fake:
        code, output = await run_bot(fake, tmp_path)
    assert code == 2, output[-3000:]
    assert "Traceback" not in output, output[-3000:]
    assert f"another bot application (id {OTHER_APP})" in output, output[-3000:]
    assert "--adopt-database" in output, output[-3000:]
    store = await Store.open(tmp_path / "bot.db")
    try:
        row = await store.get_game(game_id)
        assert row is not None and row.status == "lobby"  # the other bot's game untouched
        assert await store.claim_owner(OTHER_APP) == OTHER_APP
    finally:
        await store.close()


async def test_adopt_database_hands_the_database_over(tmp_path: Path) -> None:
    await stored_game_of(tmp_path / "bot.db", OTHER_APP)
    log = tmp_path / "bot.log"
    async with FakeDiscord() as fake:
        env = {
            **os.environ,
            "DISCORD_TOKEN": "fake",
            "DATABASE_PATH": str(tmp_path / "bot.db"),
            "PYTHONUNBUFFERED": "1",
            "CARD_EMOJIS": "off",
        }
        with log.open("w") as out:
            proc = await spawn_run_bot(fake, env, out, "--adopt-database")
            try:
                async with asyncio.timeout(45):
                    while STARTED not in log.read_text() and proc.returncode is None:
                        await asyncio.sleep(0.1)
            finally:
                if proc.returncode is None:
                    proc.terminate()
                await proc.wait()
        output = log.read_text()
        assert STARTED in output, output[-3000:]
        assert proc.returncode == 0, output[-3000:]
    store = await Store.open(tmp_path / "bot.db")
    try:
        assert await store.claim_owner(OTHER_APP) == fake.application_id
    finally:
        await store.close()
