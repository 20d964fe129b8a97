"""Stopping the bot (SIGTERM: `docker stop`, systemd, a deploy) lets what Discord should still
show land first: before, SIGTERM ended the process at once, and a move already answered kept
its old table (and DMs) until the game's next change."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.process.harness import BotProcess, start_uno

LIMIT = 60.0


async def test_sigterm_lets_a_queued_table_edit_land_then_exits_cleanly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path)
    try:
        async with asyncio.timeout(LIMIT):
            await bot.start()
            table = await start_uno(fake, bot)
            message = await table.current_table(0)
            # The table edit after the move waits a second for Discord (a 429) ...
            fake.inject_error(
                "PATCH",
                rf"/channels/{table.channel_id}/messages/{message.id}",
                429,
                times=1,
                retry_after=1.0,
            )
            player, action, _ = table.next_move()
            user, version, _, final = await table.prepare(player, action, True, force_picker=True)
            await table.acknowledged(await table.fire(user, final), user, action, version)
            # ... and the bot is stopped meanwhile.
            assert bot.proc is not None
            bot.proc.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(bot.proc.wait(), 15)
            assert code == 0, bot.output()[-3000:]
            assert table.table_version(fake.message(message.id)) == version + 1
            assert "shutting down" in bot.output()
    finally:
        await bot.kill()
        print(f"--- bot output ({bot.log_path}) ---\n{bot.output()[-6000:]}")
