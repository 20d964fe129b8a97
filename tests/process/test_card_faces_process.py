"""The real bot uploads its card faces once, in the background, and plays on with text when
Discord refuses them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cogs.faces.catalog import all_faces
from tests.fakediscord import FakeDiscord
from tests.process.harness import BotProcess, start_uno


async def test_faces_upload_once_and_a_restart_uploads_nothing(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bot = BotProcess(fake, tmp_path, env={"CARD_EMOJIS": "on"})
    try:
        async with asyncio.timeout(120):
            await bot.start()
            faces = set(all_faces())
            await fake.wait_for(lambda: set(fake.app_emoji_uploads) == faces, timeout=60)
            assert len(fake.app_emoji_uploads) == len(faces)  # each once
            table = await start_uno(fake, bot)
            shown = await table.current_table(0)
            assert "<:uno_" in shown.text and shown.payload()["embeds"][0].get("thumbnail")
            await bot.restart()
            await asyncio.sleep(2)  # time enough to list the emojis and find nothing missing
            assert len(fake.app_emoji_uploads) == len(faces)
            assert not [p for m, p, _ in fake.requests if m == "POST" and "/emojis" in p][
                len(faces) :
            ]
            assert "Traceback" not in bot.output()
    finally:
        await bot.kill()


async def test_when_uploads_fail_the_game_plays_with_text(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.inject_error("POST", r"/applications/\d+/emojis", 403, code=50013, times=None)
    bot = BotProcess(fake, tmp_path, env={"CARD_EMOJIS": "on"})
    try:
        async with asyncio.timeout(120):
            await bot.start()
            table = await start_uno(fake, bot)
            await table.play_move()
            shown = await table.current_table(table.snap().version)
            assert "<:uno_" not in shown.text and "Top card" in shown.text
            # The failure is logged once, not per face.
            assert bot.output().count("card faces") <= 3
            assert fake.app_emoji_uploads == []
    finally:
        await bot.kill()
        print(bot.output()[-4000:])
