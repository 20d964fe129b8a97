"""A game with bot seats survives kill -9 while a bot's move is pending.

The real bot.py on the fake Discord: one member and two bots play UNO (to 50). The bot process
is SIGKILLed right after the member's move, while the bots' moves are still waiting out their
pause; after the restart the bots move, the game goes on to its end, and the move log holds
every move exactly once (the stored state equals its replay).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord
from tests.process.harness import STEP, UPDATE, BotProcess, check_log, read_game, start_with_bots

PAUSE = "0.2"  # seconds a bot waits before its move


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    # UNO windows held open for the member (5 s each by default) would be most of its time.
    process = BotProcess(
        fake, tmp_path, env={"BOT_PAUSE_SECONDS": PAUSE, "UNO_GRACE_SECONDS": "0.5"}
    )
    try:
        await process.start()
        yield process
    finally:
        await process.kill()
        print(f"--- bot output ---\n{process.output()[-8000:]}")


async def test_kill_9_with_a_bot_move_pending(fake: FakeDiscord, bot: BotProcess) -> None:
    async with asyncio.timeout(150):
        options = {"bots": 2, "target": 50, "turn_timer": 0}
        table = await start_with_bots(fake, bot, "alice", options, 3)
        game_id = table.game_id
        alice = str(fake.user_id("alice"))
        kills = 0
        while True:  # bounded by the timeout above
            snap = table.snap()
            if snap.status != "active":
                break
            game = snap.game()
            if not game.legal_actions(alice) or game.view()["current"] != alice:
                await asyncio.sleep(0.1)  # the bots are thinking (0.4 s each)
                continue
            player, action, _ = table.next_move()
            if player != alice:
                continue
            user, version, _, final = await table.prepare(player, action, False)
            ix = await table.fire(user, final)
            rec = await ix.response(timeout=STEP)
            assert rec.type in (UPDATE, 4), rec
            if kills < 3 and table.snap().version == version + 1:
                # A bot's move is pending (it waits out its pause): kill, restart.
                bot.kill_now()
                await bot.restart()
                kills += 1
                after = read_game(bot.db_path, game_id)
                # The bot may have moved too, in the moment before the kill (a busy machine).
                stored = {seq: user for seq, user, _ in after.moves}
                assert stored.get(version + 1) == int(alice), "the member's answered move was lost"
        final_snap = read_game(bot.db_path, game_id)
        assert kills == 3, f"the game ended after {kills} kills"
        assert final_snap.status == "finished", "the game did not go on to its end"
        # No move lost or doubled: the log replays exactly to the stored state.
        check_log(final_snap, list(final_snap.moves))
        assert {u for _, u, _ in final_snap.moves} <= {int(alice), -1, -2}
        assert "Traceback" not in bot.output()
