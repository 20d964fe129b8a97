"""Whole-process tests deal the same cards on every run: the harness gives each bot process a
seed (RUN_BOT_SEED, from CRASH_TEST_SEED), so a failure seen once can be replayed, and a deal
that happens to end a game early cannot turn one run in thirty red."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord
from tests.process.harness import SEED, TEST_TIMEOUT, BotProcess, start_uno


async def first_deal(tmp_path: Path, name: str, env: dict[str, str] | None = None) -> Any:
    """The stored state right after the first UNO game of a fresh bot on an empty database."""
    workdir = tmp_path / name
    workdir.mkdir()
    async with FakeDiscord() as fake:
        bot = BotProcess(fake, workdir, env=env)
        try:
            await bot.start()
            table = await start_uno(fake, bot)
            snap = table.snap()
            assert snap.state is not None
            # Members' ids differ with each fake: name the seats by their place instead.
            text = json.dumps(snap.state, sort_keys=True)
            for place, player in enumerate(snap.players):
                text = text.replace(player, f"seat{place}")
            return json.loads(text)
        finally:
            await bot.kill()
            print(f"--- bot output ({name}) ---\n{bot.output()[-4000:]}")


async def test_a_fresh_bot_deals_the_same_game_on_every_run(tmp_path: Path) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        first = await first_deal(tmp_path, "first")
        again = await first_deal(tmp_path, "again")
        other = await first_deal(tmp_path, "other", env={"RUN_BOT_SEED": str(SEED + 1)})
    assert again == first
    # The deal follows the seed (not something else that happens to repeat).
    assert other != first
