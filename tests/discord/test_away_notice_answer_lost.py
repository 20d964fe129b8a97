"""The "a bot is playing your seat" notice whose answer was lost (a dropped connection
after Discord made the message). Before, the retry posted (and pinged) it a second time; now
it carries a nonce, the same on every try, and Discord hands back the message it made."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.nonces import emulate_nonces
from tests.discord.test_turn_clocks import TIMER, first_player_times_out

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

AWAY = "a bot is playing your seat"


async def test_a_seat_notice_whose_answer_was_lost_is_not_posted_twice(simcord_env: Any) -> None:
    """ann runs out of time three turns in a row: the notice pinging her is posted, Discord
    makes it, the connection drops before its answer. The presenter retries the job (5 s
    later, for up to an hour now) and posts it again without a nonce: ann is pinged twice
    and two notices stand. Discord's nonce handling is emulated (simcord ignores nonces)."""
    env = simcord_env
    presenter = env.bot.presenter
    table = await Table.start(env, "uno", 2, seed=5, turn_timer=TIMER)
    ann, _bea = table.members
    lost = emulate_nonces(presenter, lose_first=AWAY)
    await first_player_times_out(env, table)
    for _ in range(4):
        await env.advance_time(10)
    await presenter.idle()
    assert not lost, "no away notice was posted: the test no longer tests that"
    notices = [m for m in table.public_messages() if AWAY in (m.content or "")]
    assert len(notices) == 1, f"{len(notices)} notices pinging <@{ann}>: " + repr(
        [m.content for m in notices]
    )


async def test_a_leave_notice_whose_answer_was_lost_is_not_posted_twice(simcord_env: Any) -> None:
    """The same for a notice the presenter announces ("@bea left game #1; a bot plays their
    seat."): before, its retry posted a second copy; now it carries a nonce too."""
    env = simcord_env
    presenter = env.bot.presenter
    table = await Table.start(env, "uno", 3, seed=11)
    _, bea, _ = table.members.values()
    lost = emulate_nonces(presenter, lose_first="left game")
    asked = await bea.slash(table.channel, "leave")
    assert asked.response is not None
    await bea.click(asked.response, label="Leave the game")
    await env.advance_time(20)
    await presenter.idle()
    assert not lost, "no leave notice was posted: the test no longer tests that"
    notices = [m for m in table.public_messages() if "left game" in (m.content or "")]
    assert len(notices) == 1, f"{len(notices)} leave notices in the channel"
