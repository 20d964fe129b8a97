"""A notice said again at the same version (a seat change keeps the version). Before, the
notice's nonce was made of the game, its version and the text, so a second "left" notice got
the first one's nonce and Discord handed back the first message: the channel was never told
that the member left again. Now each notice has a nonce of its own (Discord's nonce check is
emulated, as simcord ignores nonces)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.seats import LEFT_TOLD_EVERY
from tests.discord.driver import Table
from tests.discord.nonces import emulate_nonces

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_leaving_again_after_coming_back_is_announced_again(simcord_env: Any) -> None:
    """UNO with three members, no turn timer. A member who is not to move leaves: the channel
    is told a bot plays her seat. She comes back (/back), and some minutes later leaves
    again, nobody having moved meanwhile: the channel should be told again (within ten
    minutes it is not: the table shows it, and a /leave and /back loop fills no channel)."""
    env = simcord_env
    presenter = env.bot.presenter
    emulate_nonces(presenter)
    table = await Table.start(env, "uno", 3, seed=7)
    session = await table.session()
    awaited = set(session.hosted.awaited(session.game))
    player = next(p for p in table.members if p not in awaited)
    member = table.members[player]
    before = session.version

    async def leave() -> None:
        ask = await member.slash(table.channel, "leave")
        await member.click(ask.response, label="Leave the game")
        await env.advance_time(1)
        await presenter.idle()

    await leave()
    back = await member.slash(table.channel, "back")
    assert "Welcome back" in back.response.content
    await env.advance_time(LEFT_TOLD_EVERY + 60)
    await leave()
    session = await table.session()
    seat = session.seat(int(player))
    assert session.version == before and seat is not None and seat.is_bot  # left again
    told = [m for m in table.channel.history() if "left game" in (m.content or "")]
    assert len(told) == 2, f"{len(told)} notice(s) of her leaving: {[m.content for m in told]}"
