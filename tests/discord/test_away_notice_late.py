"""The "a bot is playing your seat" notice, retried for an hour when Discord fails posts.
Before, it was posted after the member had taken the seat back (untrue, and a ping); now
the retry posts it only while a bot still plays the seat of a running game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import TIMER, first_player_times_out

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

AWAY = "a bot is playing your seat"


async def test_a_late_away_notice_is_not_posted_after_the_member_came_back(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann runs out of time three turns in a row while Discord fails the channel's new
    messages (503; edits go through). The notice pinging her is a presenter job, tried
    again for an hour after it first failed. Seconds later she presses **I'm back** on
    the table (an edit: it works) and has her seat back. Then posts work again: the retried
    notice is posted, telling her, with a ping, that a bot is playing her seat."""
    env = simcord_env
    # Retries outside the simulator's settle window (it runs timers due in it in real time).
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 30.0)
    table = await Table.start(env, "uno", 2, seed=5, turn_timer=TIMER)
    ann, _bea = table.members

    async def before(player: str, timeouts: int) -> None:
        if timeouts == 2:  # the third timeout's notice meets posts failing
            env.inject_error(
                "POST", f"/channels/{table.channel.id}/messages", status=503, times=None
            )

    await first_player_times_out(env, table, before=before)
    seat = (await table.session()).seat(int(ann))
    assert seat is not None and seat.away == "timeout"
    await env.advance_time(8)
    back = await table.members[ann].click(table.table_message(), label="I'm back")
    assert back.ephemeral and "Welcome back" in back.response.content
    env.backend.faults.clear()  # Discord posts again
    await env.advance_time(65)
    await env.bot.presenter.idle()
    seat = (await table.session()).seat(int(ann))
    late = [m.content for m in table.public_messages() if AWAY in (m.content or "")]
    assert not (seat is not None and not seat.away and late), (
        f"ann has her seat back, yet was told after: {late}"
    )
