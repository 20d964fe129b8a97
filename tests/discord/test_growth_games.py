"""Growth over many games: a bot process hosts hundreds of thousands of games over weeks, so
whatever it keeps per game must be gone (or bounded) once the game is over.

Many short games end every way a game ends (played to the end, /endgame, a lobby cancelled,
a few played through the real buttons), then every per-game structure of the bot, and
discord.py's own stores, must be back to a handful of entries.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

import engine.bots
from cogs.clock import now
from tests.discord.driver import Table
from tests.discord.per_game_state import per_game

FINISHED = 8  # games played to their end (moves applied as a click applies them)
ENDED = 7  # games stopped with /endgame
CANCELLED = 7  # lobbies cancelled
CLICKED = 2  # games played through the real buttons (picker, table, DM)
HANDFUL = 5


async def play_to_the_end(env: Any, game_id: int, rng: random.Random) -> int:
    """Apply each move exactly as ``Play.on_act`` does (lock, apply, store; after the lock
    ``after_move``), and let the presenter show it before the next move: one click each."""
    bot = env.bot
    play = bot.get_cog("Play")
    sessions = bot.sessions
    moves = 0
    for _ in range(500):
        async with sessions.lock(game_id):
            session = await sessions.get(game_id)
            assert session is not None
            if not session.row.is_open:
                return moves
            game = session.game
            assert game is not None
            player = next(p for p in game.actors() if game.legal_actions(p))
            legal = game.legal_actions(player)
            kind = session.row.kind
            action = engine.bots.choose(kind, "normal", game.view(player), legal, rng)
            applied = await sessions.apply(session, int(player), action, now())
        play.after_move(session, applied)
        await bot.presenter.idle()
        moves += 1
    raise AssertionError(f"game {game_id} did not end")


def sizes(bot: Any) -> dict[str, int]:
    views = bot._connection._view_store
    return {
        **per_game(bot),
        "endings._caught_up": len(bot.get_cog("Endings")._caught_up),
        "view_store._views": len(views._views),
        "view_store._synced_message_views": len(views._synced_message_views),
        "view_store._modals": len(views._modals),
        "private_channels": len(bot._connection._private_channels),
    }


async def test_per_game_state_is_gone_once_many_games_are_over(
    simcord_env, caplog: pytest.LogCaptureFixture
) -> None:
    bot = simcord_env.bot
    rng = random.Random(20261125)
    tasks_before = len(asyncio.all_tasks())
    caplog.set_level(logging.INFO)
    clicks = 0
    for i in range(FINISHED):
        table = await Table.start(simcord_env, "haymaker", 2, channel_name=f"f{i}")
        clicks += 3 + await play_to_the_end(simcord_env, table.game_id, rng)
    for i in range(ENDED):
        table = await Table.start(simcord_env, "haymaker", 2, channel_name=f"e{i}")
        host = next(iter(table.members.values()))
        ended = await host.slash(table.channel, "endgame")
        assert not ended.ephemeral, ended.response and ended.response.content
        clicks += 4
    guild = simcord_env.guild
    for i in range(CANCELLED):
        channel = guild.create_text_channel(f"l{i}")
        host = guild.add_member(simcord_env.create_user(f"host-l{i}"))
        await host.slash(channel, "newgame haymaker")
        cancelled = await host.click(channel.last_message, label="Cancel")
        assert cancelled.acknowledged
        clicks += 2
    for i in range(CLICKED):
        table = await Table.start(simcord_env, "haymaker", 2, channel_name=f"c{i}")
        clicks += 3 + await table.play_random(random.Random(i))
        assert (await table.game()).finished
    await bot.presenter.idle()
    await simcord_env.settle()

    found = sizes(bot)
    grown = {name: n for name, n in found.items() if n > HANDFUL}
    assert not grown, f"after {FINISHED + ENDED + CANCELLED + CLICKED} games: {grown}"
    # No task per game left behind (workers, clocks, discord.py's view tasks).
    assert len(asyncio.all_tasks()) - tasks_before <= HANDFUL, asyncio.all_tasks()
    # Log volume: nothing at INFO or above per click (weeks of clicks would fill a disk).
    ours = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(ours) <= clicks // 50, [r.getMessage()[:120] for r in ours[:20]]
