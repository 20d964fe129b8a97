"""The REST budget on the real bot process: edits and posts stay within it, click answers never
wait for it, and the tables catch up with the newest move (edits that waited are coalesced).

Discord allows a bot 50 REST calls a second in all (interaction answers apart); the bot keeps to
its share (``REST_PER_SECOND``). Here the budget is 4 a second and three players make moves as
fast as they can click, so edits queue behind it the way a busy bot's would behind 50.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.process.harness import PLAYERS, BotProcess, start_uno

BUDGET = 4  # REST calls a second
MOVES = 12


async def test_a_tight_budget_delays_edits_never_answers(tmp_path: Path) -> None:
    async with FakeDiscord(users=PLAYERS) as fake:
        env = {"REST_PER_SECOND": str(BUDGET), "NUDGE_AFTER_SECONDS": "3600"}
        bot = BotProcess(fake, tmp_path, env=env)
        await bot.start()
        try:
            async with asyncio.timeout(90):
                table = await start_uno(fake, bot)
                await table.current_table(0)
                first = len(fake.requests)
                for _ in range(MOVES):
                    await table.play_move(table_current=False)
                final = table.snap().version
                assert final == MOVES
                # Every move was answered at once, while the edits waited for the budget.
                assert max(table.latency) < 1.0, table.latency
                # The table catches up with the newest move...
                shown = await fake.wait_for(
                    lambda: (t := table.table()) is not None and table.table_version(t) == final,
                    timeout=30,
                )
                assert shown
                calls = [
                    (path, at)
                    for (_method, path, _status), at in zip(
                        fake.requests[first:], fake.request_times[first:], strict=True
                    )
                    if not path.startswith("/interactions/")
                ]
        finally:
            await bot.kill()
            print(f"--- bot output ---\n{bot.output()[-6000:]}")
        assert "Traceback" not in bot.output()
        # Never more than the budget within a second (times are the fake's answers: the
        # window is a little shorter, so a few ms of jitter cannot count one call twice).
        times = [at for _, at in calls]
        for i, start in enumerate(times):
            in_window = sum(1 for at in times[i:] if at - start < 0.95)
            assert in_window <= BUDGET, f"{in_window} calls within 0.95 s of call {i}"
        # Coalesced: fewer table edits than moves, though each move changed the table.
        table_edits = [
            p for p, _ in calls if p.startswith(f"/channels/{fake.channel_id}/messages/")
        ]
        assert 0 < len(table_edits) < MOVES
