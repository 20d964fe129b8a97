"""kill -9 recovery: the real bot, SIGKILLed mid-game and restarted, loses no acknowledged move.

The real bot.py runs as a subprocess (tests/fakediscord/run_bot.py) against the wire-level fake
Discord, on a temporary SQLite file. Alice, Bob and Carol play UNO (target 50) by clicking like
people do: "Play a card" on the table (or "My hand"), then through the ephemeral picker, or a
public table button such as "Draw a card". The test only reads the database (read-only) to know
whose turn it is and what it may do; a deterministic policy (random.Random(SEED)) picks the move.

The bot is killed five times, each way a crash can meet a click on the picker's last button:
- after_ack      right after Discord got the answer (the table edit is usually still pending);
- on_arrival     as soon as the click is on the wire (usually before the bot has read it);
- in_flight      a random moment within the bot's usual time to answer;
- before_answer  once the move is committed but before its answer reaches Discord (the test holds
                 the fake's event loop while it polls the database, and drops the late answer);
- settled        after the answer and the table edit.
For the two racy ones any outcome is fine as long as the move is there completely (move row and
state) or not at all, and is there if it was acknowledged. After every restart: the move log is
exactly the acknowledged moves (plus an applied in-flight one), the version counts them, replaying
the log from the seed rebuilds the stored state exactly, and buttons from before the kill still
route: current ones act, stale ones get an ephemeral refusal (the old picker: an edit saying so).
Then the game is played to its end: the winner announced once, status 'finished', stats counted.

A second test kills the bot right after the winning move is committed: the result is still
announced once and counted in the stats.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord
from tests.process.harness import (
    KILLS,
    MAX_MOVES,
    MESSAGE,
    PLAYERS,
    STEP,
    TEST_TIMEOUT,
    BotProcess,
    announcements,
    check_log,
    read_ratings,
    read_stats,
    start_uno,
)

# ---------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path)
    try:
        await process.start()
        yield process
    finally:
        await process.kill()
        print(f"--- bot output ({process.log_path}) ---\n{process.output()[-12000:]}")


async def test_kill_9_mid_game_loses_no_acknowledged_move(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        play = await start_uno(fake, bot)
        # Kill points, early enough that no game ends before them (a match needs 16+ moves).
        kill_at: dict[int, str] = {}
        turn = 0
        for mode in KILLS:
            turn += play.rng.randint(1, 2)
            kill_at[turn] = mode
        turns = 0
        while play.snap().status == "active":
            assert turns < MAX_MOVES, "the game does not end"
            mode = kill_at.pop(turns, None)
            if mode is not None:
                await play.crash(mode)
            else:
                await play.play_move()
            turns += 1
        assert not kill_at, f"the game ended before the kills {kill_at}"

        # The end: everything acknowledged is there, the winner is announced.
        snap = play.snap()
        assert snap.status == "finished"
        check_log(snap, play.expected)
        game = snap.game()
        assert game.finished and len(game.winners) == 1
        announced = await fake.wait_for(lambda: announcements(fake, play.game_id), timeout=STEP)
        assert len(announced) == 1 and f"<@{game.winners[0]}>" in announced[0].content
        assert play.table() is None, "the finished table still has buttons"
        winner = int(game.winners[0])
        assert read_stats(bot.db_path) == {int(p): (1, int(int(p) == winner)) for p in snap.players}

        # Every crash path was taken.
        stats = play.stats
        assert stats.stale_picker_refusals >= 1
        assert stats.old_table_button_worked_after_restart >= 1
        assert bot.starts == 1 + len(KILLS)
        assert fake.unhandled == []
        assert "Traceback" not in bot.output()
        # Restarts edit the DM hands they find in the database instead of sending new ones.
        assert all(len(fake.dms_to(name)) == 1 for name in PLAYERS)
        # No REST call was refused but the answer the test itself dropped.
        assert [body for _, _, body in fake.rejected if body["message"] != "injected error"] == []
        print(f"{len(snap.moves)} moves, latency max {max(play.latency):.3f}s, {stats}")


async def test_kill_9_right_after_the_winning_move_still_ends_the_game(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        play = await start_uno(fake, bot)
        player, action = await play.play_to_winning_move()
        crash = await play.crash_move("before_answer", player, action)
        snap = play.snap()
        assert crash.applied and snap.status == "finished"
        winner = int(snap.game().winners[0])

        # A player clicks the old table, as they would: the game is over... (unless the
        # restarted bot, catching up, already took the buttons off the table: then there is
        # nothing left to click, which is right too).
        old_button = f"g:{play.game_id}:{snap.version - 1}:*"
        if old_button in fake.message(crash.table.id).custom_ids():
            ix = await fake.click(crash.user, crash.table.id, old_button)
            notice = await play.answered(ix, MESSAGE)
            assert "over" in notice.text
        # ... so its result must be announced and counted (at the latest now).
        problems = []
        try:
            await fake.wait_for(lambda: announcements(fake, play.game_id), timeout=2)
        except TimeoutError:
            problems.append("the winner is never announced")
        if read_stats(bot.db_path).get(winner) != (1, 1):
            problems.append(f"stats not recorded: {read_stats(bot.db_path)}")
        assert not problems, problems
        # The ratings moved exactly once: one rated game each, the change stored with it.
        rated = read_ratings(bot.db_path, play.game_id)
        assert rated["games"] == {int(p): 1 for p in snap.players}, rated
        assert set(rated["changes"]) == set(snap.players)
