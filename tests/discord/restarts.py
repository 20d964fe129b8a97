"""Helpers for the restart tests: a graceful stop and start, REST calls that change
something, quick moves stored without clicks."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from tests.discord.driver import Table, pick_choice

PLAYERS = {"uno": 3, "ihaveit": 3, "warofsuits": 2, "itemcollection": 4, "haymaker": 2}


def calls(env: Any, start: int) -> list[tuple[str, str]]:
    """The REST calls since ``start`` that change something on Discord."""
    return [
        (r.method, r.path)
        for r in env.http_requests[start:]
        if r.method != "GET" and "/commands" not in r.path
    ]


async def graceful_restart(env: Any, make_bot: Any, down: float = 0, **settings: Any) -> int:
    """SIGTERM (bot.close()), ``down`` seconds with no bot, then a new process; the index of
    the first request after."""
    old = env.bot
    await old.close()
    dead(old)
    if down:
        await env.advance_time(down)
    fresh_clock()
    start = len(env.http_requests)
    await env.restart_bot(make_bot(**settings))
    return start


async def choose(table: Table, rng: random.Random) -> tuple[str, str]:
    """A random legal move of a member (purposeful mostly), as play_random picks it."""
    game = await table.game()
    session = await table.session()
    able = [
        p
        for p in game.actors()
        if game.legal_actions(p) and (s := session.seat(int(p))) is not None and not s.is_bot
    ]
    player = rng.choice(able)
    legal = game.legal_actions(player)
    purposeful = [a for a in legal if a.id.split(":")[0] in ("play", "uno", "color", "accept")]
    action = rng.choice(purposeful if purposeful and rng.random() < 0.85 else legal)
    action_id = action.id
    if action.pick is not None:
        action_id = pick_choice(game, player, action, rng)
    return player, action_id


async def move(table: Table, rng: random.Random, via: str = "picker") -> tuple[str, str]:
    player, action_id = await choose(table, rng)
    await table.act(player, action_id, via=via)
    return player, action_id


def fresh_clock() -> None:
    """A new process's steady clock starts at the wall clock's time. (The simulator moves
    the wall clock while no bot runs, but not the monotonic one: the clock of the process
    before would take the time the bot was down for a leap, and catch it up slowly.)"""
    from cogs.clock import now

    now._last = None


def dead(bot: Any) -> None:
    """Nothing of a stopped process runs any more: its presenter's retries (``call_later``
    callbacks the simulator would still run while it settles) do nothing."""
    presenter = bot.presenter
    presenter.update = lambda *args, **kwargs: None
    presenter._again = lambda *args, **kwargs: None
    presenter._pending = _Sink()


class _Sink(dict):
    """A dead presenter's pending work: whatever is asked for goes nowhere."""

    def __getitem__(self, key: Any) -> Any:
        return SimpleNamespace(retries=0)


async def fast_forward(table: Table, player: str, action_id: str) -> None:
    """Store a move straight through the sessions (no clicks, no drawing): quick setup."""
    from cogs.clock import now

    bot = table.bot
    async with bot.sessions.lock(table.game_id):
        session = await bot.sessions.get(table.game_id)
        await bot.sessions.apply(session, int(player), action_id, now())


async def to_a_round_end(table: Table, rng: random.Random) -> tuple[str, str]:
    """Store random moves until the next one ends a round (not the game), and draw the game
    as it then is; that move (player, action id), not made yet."""
    renderer = (await table.session()).hosted.renderer
    for _ in range(2000):
        player, action_id = await choose(table, rng)
        game = await table.game()
        after = game.copy()
        after.apply(player, action_id)
        if renderer.round_of(after.view(None)) != renderer.round_of(game.view(None)):
            assert not after.finished
            table.bot.presenter.update(await table.session())
            await table.bot.presenter.idle()
            return player, action_id
        await fast_forward(table, player, action_id)
    raise AssertionError("no round ended")
