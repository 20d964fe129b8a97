"""A clock claimed when the bot stopped (kill -9, or a graceful stop) fires soon after the
restart: alone on SQLite, the stopped process's claim protects against nobody."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord
from tests.process.harness import STEP, UPDATE, BotProcess, check_log, start_with_bots

LIMIT = 60.0
PAUSE = 0.3


def clock_row(db: Path, game_id: int) -> tuple[int, dict, float | None]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        version, clocks, wake = conn.execute(
            "SELECT version, clocks, wake_at FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    finally:
        conn.close()
    return version, json.loads(clocks or "{}"), wake


def kill_once_claimed(
    bot: BotProcess, game_id: int, version: int, timeout: float, how: str = "kill"
) -> bool:
    """Blocking poll (the fake takes nothing meanwhile): stop the bot (SIGKILL, or SIGTERM
    for a graceful stop) as soon as the clock
    loop has claimed the bot's due move (``wake_at`` moved a lease ahead) and before that
    move is stored. False if the move was stored first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now_version, clocks, wake = clock_row(bot.db_path, game_id)
        if now_version != version:
            return False
        bot_at = clocks.get("bot")
        if bot_at is not None and wake is not None and wake > bot_at + 10:
            if how == "kill":
                bot.kill_now()
            else:
                assert bot.proc is not None
                bot.proc.send_signal(signal.SIGTERM)
            return True
        time.sleep(0.0005)
    return False


@pytest.mark.parametrize("how", ["kill", "sigterm"])
async def test_a_bot_move_claimed_when_the_bot_stopped_is_made_soon_after_the_restart(
    fake: FakeDiscord, tmp_path: Path, how: str
) -> None:
    """kill -9 (or a graceful SIGTERM: docker stop, a deploy) in the instant between the
    clock loop claiming a due bot move and storing it (here: a "hard" bot thinking for
    ~0.1 s). Alone on SQLite there is no other process the claim protects against, yet the
    restarted bot waits out the stopped process's 30 s claim lease (``Store.claim_due``,
    ``timers.LEASE``): the table says it is the bot's turn and nothing happens for half a
    minute (BOT_PAUSE is 0.3 s); every clock claimed in that pass (other games' bots,
    reminders, turn timers) stalls the same way. After a restart the bot should move
    within its usual pause: a single process could ignore leases taken before it started,
    and a graceful stop could hand its claims back (``wake_at`` = the clocks' nearest)."""
    bot = BotProcess(
        fake, tmp_path, env={"BOT_PAUSE_SECONDS": str(PAUSE), "UNO_GRACE_SECONDS": str(PAUSE)}
    )
    try:
        async with asyncio.timeout(LIMIT):
            await bot.start()
            options = {"bots": 1, "bot_level": "hard", "target": 50, "turn_timer": 0}
            table = await start_with_bots(fake, bot, "alice", options, 3)
            game_id = table.game_id
            alice = str(fake.user_id("alice"))
            killed_at = None
            for _ in range(60):
                snap = table.snap()
                assert snap.status == "active"
                version, clocks, _ = clock_row(bot.db_path, game_id)
                if "bot" in clocks and version == snap.version:
                    if kill_once_claimed(bot, game_id, version, 2.0, how):
                        killed_at = version
                        break
                    continue
                game = snap.game()
                if game.legal_actions(alice):
                    player, action, _ = table.next_move()
                    if player == alice:
                        user, _v, _, final = await table.prepare(player, action, False)
                        rec = await (await table.fire(user, final)).response(timeout=STEP)
                        assert rec.type in (UPDATE, 4)
                        continue
                await asyncio.sleep(0.02)
            assert killed_at is not None, "never caught a claimed bot move"
            if how == "sigterm":
                assert bot.proc is not None
                assert await asyncio.wait_for(bot.proc.wait(), 15) == 0
            await bot.restart()
            restarted = time.monotonic()
            try:
                await fake.wait_for(
                    lambda: table.snap().version > killed_at or None, timeout=5 * PAUSE + 4
                )
            except TimeoutError:
                raise AssertionError(
                    f"the bot has not moved {time.monotonic() - restarted:.1f} s after the "
                    f"restart (pause {PAUSE} s); clocks {clock_row(bot.db_path, game_id)}"
                ) from None
            snap = table.snap()
            check_log(snap, list(snap.moves))
    finally:
        await bot.kill()
        print(f"--- bot output ---\n{bot.output()[-6000:]}")
