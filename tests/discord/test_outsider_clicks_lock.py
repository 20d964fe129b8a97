"""A member who does not play clicking a running game's table. Before, each refusal was sent
to Discord (an HTTP round trip, longer under a 429 of the interaction route) while the game's
lock was held: mashing the buttons held up the players' moves. Now the refusal is answered
after the lock is let go."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.discord.driver import Table, controls, target_of

pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=0.5),
]


async def test_a_non_players_refused_click_holds_the_games_lock(
    simcord_env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """eve, who is not in ann and bea's UNO game, mashes the table's Draw button (a script
    can send several a second). Each click is answered "You're not playing in this game"
    from inside the game's lock: while Discord takes its time with that answer, the player
    whose turn it is cannot move (their click waits for eve's answer), so one outsider slows
    every move of the game. A refusal that needs no state should be decided and answered
    outside the lock (as "My hand" is, read-only)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    guild = table.channel.guild
    eve = guild.add_member(env.create_user("eve"))
    gate = asyncio.Event()
    real = discord.InteractionResponse.send_message

    async def slow_for_eve(self, *args, **kwargs):
        if self._parent.user.id == eve.id:
            await gate.wait()  # Discord slow to take eve's answer
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "send_message", slow_for_eve)
    message = table.table_message()
    draw = next(c for c in controls(message) if target_of(c.custom_id) == "draw")
    outsider = asyncio.create_task(eve.click(message, custom_id=draw.custom_id))
    for _ in range(20):
        await asyncio.sleep(0)
    # What the player's Draw (or a bot's move, a turn timer) does first: take the lock.
    sessions = env.bot.sessions

    async def take_the_lock() -> None:
        async with sessions.lock(table.game_id):
            pass

    mover = asyncio.create_task(take_the_lock())
    try:
        done, _ = await asyncio.wait([mover], timeout=1.0)
        assert mover in done, "the game's lock is held while an outsider's refusal is sent"
    finally:
        gate.set()
        await asyncio.gather(outsider, mover, return_exceptions=True)
