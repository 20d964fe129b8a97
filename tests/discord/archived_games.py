"""Finished games in public threads Discord has since archived: each one a channel lookup for
/history and /replay."""

from __future__ import annotations

from typing import Any

from tests.discord.test_stats import finished_game
from tests.discord.test_visibility_threads import _archive


async def games_in_archived_threads(
    env: Any, guild: Any, channel: Any, ann: Any, bea: Any, count: int = 10
) -> tuple[list[int], list[int]]:
    """``count`` games of ann and bea, each finished in a new public thread of ``channel``
    (opened by ann) that Discord then archives. Returns the games' ids and the threads'."""
    games: list[int] = []
    threads: list[int] = []
    for i in range(count):
        made = env.backend.create_thread(channel.id, f"game {i}", ann.id)
        games.append(await finished_game(env.bot, guild.id, made.id, ann.id, bea.id))
        await _archive(env, made.id)
        threads.append(made.id)
    return games, threads
