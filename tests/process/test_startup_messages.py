"""Start-up messages a server owner meets: a wrong token or a wrong DEV_GUILD_ID must stop the
bot with a clear sentence naming the setting, not a Python traceback (and never hang)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.process.harness import fake_bot_env, spawn_run_bot

LIMIT = 45.0  # seconds: both stop at login, in about one


async def run_bot(fake: FakeDiscord, tmp_path: Path, **env: str) -> tuple[int | None, str]:
    """bot.py against the fake; (exit code or None if still running after LIMIT, output)."""
    log = tmp_path / "bot.log"
    with log.open("w") as out:
        proc = await spawn_run_bot(fake, fake_bot_env(tmp_path / "bot.db", **env), out)
        try:
            code: int | None = await asyncio.wait_for(proc.wait(), LIMIT)
        except TimeoutError:
            code = None
            proc.kill()
            await proc.wait()
    return code, log.read_text()


async def test_a_wrong_token_stops_the_bot_with_a_clear_message(tmp_path: Path) -> None:
    async with FakeDiscord(token="the-real-token") as fake:
        code, output = await run_bot(fake, tmp_path, DISCORD_TOKEN="a-wrong-token")
    assert code == 2, output[-3000:]
    assert "DISCORD_TOKEN" in output, output[-3000:]
    assert "Traceback" not in output, output[-3000:]


async def test_a_dev_guild_the_bot_is_not_in_gives_a_clear_message(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        code, output = await run_bot(fake, tmp_path, DEV_GUILD_ID=str(fake.guild_id + 1))
    assert code == 2, output[-3000:]  # the commands cannot be used there: stop, saying why
    assert "Traceback" not in output, output[-3000:]
    assert "DEV_GUILD_ID" in output, output[-3000:]
