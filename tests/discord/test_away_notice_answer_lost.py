"""The "a bot is playing your seat" notice whose answer was lost (a dropped connection
after Discord made the message). Before, the retry posted (and pinged) it a second time; now
it carries a nonce, the same on every try, and Discord hands back the message it made."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.discord.driver import Table
from tests.discord.test_turn_clocks import TIMER, a_move, current

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

AWAY = "a bot is playing your seat"


def answers_lost_once(presenter: Any, marker: str) -> list[bool]:
    """Posts through ``presenter.post`` as Discord makes them: the first post containing
    ``marker`` is made but its answer lost (a dropped connection), and a nonce seen before
    is answered with the message it made (simcord ignores nonces). True in the list until
    that post happened."""
    post = presenter.post
    made: dict[str, int] = {}
    lost = [True]

    async def post_answer_lost(session: Any, text: str, *args: Any, **kwargs: Any) -> int:
        nonce = kwargs.get("nonce")
        if nonce is not None and nonce in made:
            return made[nonce]
        message_id = await post(session, text, *args, **kwargs)
        if nonce is not None:
            made[nonce] = message_id
        if lost and marker in text:
            lost.clear()
            raise aiohttp.ServerDisconnectedError()  # made, but the answer never came
        return message_id

    presenter.post = post_answer_lost
    return lost


async def test_a_seat_notice_whose_answer_was_lost_is_not_posted_twice(simcord_env: Any) -> None:
    """ann runs out of time three turns in a row: the notice pinging her is posted, Discord
    makes it, the connection drops before its answer. The presenter retries the job (5 s
    later, for up to an hour now) and posts it again without a nonce: ann is pinged twice
    and two notices stand. Discord's nonce handling is emulated (simcord ignores nonces)."""
    env = simcord_env
    presenter = env.bot.presenter
    table = await Table.start(env, "uno", 2, seed=5, turn_timer=TIMER)
    ann, bea = table.members
    lost = answers_lost_once(presenter, AWAY)
    timeouts = 0
    while timeouts < 3:
        player = await current(table)
        if player == bea:
            await table.act(bea, await a_move(table, bea), via="dm")
            continue
        await env.advance_time(TIMER + 1)
        timeouts += 1
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
    lost = answers_lost_once(presenter, "left game")
    asked = await bea.slash(table.channel, "leave")
    assert asked.response is not None
    await bea.click(asked.response, label="Leave the game")
    await env.advance_time(20)
    await presenter.idle()
    assert not lost, "no leave notice was posted: the test no longer tests that"
    notices = [m for m in table.public_messages() if "left game" in (m.content or "")]
    assert len(notices) == 1, f"{len(notices)} leave notices in the channel"
