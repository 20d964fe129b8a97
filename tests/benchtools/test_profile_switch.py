"""The load benchmark's profile of the real bot is written when the bot is stopped."""

from __future__ import annotations

import pstats
from pathlib import Path

from bench.loadgen.proc import BotProcess
from tests.fakediscord import FakeDiscord


async def test_the_real_bot_stopped_with_sigterm_leaves_its_profile(tmp_path: Path) -> None:
    # bot.py handles SIGTERM itself (a graceful close), so run_bot's own handler never runs.
    dump = tmp_path / "bot.prof"
    async with FakeDiscord() as fake:
        bot = BotProcess(fake, tmp_path, extra_env={"RUN_BOT_PROFILE": str(dump)})
        await bot.start()
        await bot.stop()
    assert bot.proc is not None and bot.proc.returncode == 0
    files = {file for file, _, _ in pstats.Stats(str(dump)).stats}  # type: ignore[attr-defined]
    assert any("/cogs/" in file for file in files)  # the bot's own start-up was profiled
