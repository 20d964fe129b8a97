"""A token-free playground: the real bot inside simcord's offline Discord, on a local page.

    python bot.py --playground            # UNO's channel
    python bot.py --playground haymaker   # another game's channel

The real cogs, engine and SQLite (a separate file, so a real bot's games are never touched)
run against a simulated server with one text channel per game and three players. simcord's
preview serves the channel on 127.0.0.1; its address is a credential, printed once and never
logged. Hands show with "My hand" (a preview shows one channel, not DMs).
"""

from __future__ import annotations

import asyncio
import contextlib
import webbrowser
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cogs.hosting import GAMES

if TYPE_CHECKING:
    from config import Settings

PLAYGROUND_DATABASE = "data/playground.db"
FOLLOW_DEBOUNCE = 0.3  # seconds: edits of one move are published together
PLAYERS = ("Alice", "Bob", "Carol")
WELCOME = (
    "👋 **Welcome to the Card Table playground!** This is the real bot on a simulated Discord: "
    "nothing leaves your computer.\n"
    "• Pick who you are with the viewer picker at the top of the page; switch to play the others.\n"
    "• Type `/newgame {kind}` below, press **Add bot** to fill seats with bots, then **Start**.\n"
    "• Your cards: press **My hand** on the table. (On a real server they also come by DM; a "
    "preview shows one channel, so here they stay in **My hand**.)\n"
    "• `/rules {kind}` explains the game."
)


def playground_settings(settings: Settings, bot_pause: float = 0.5) -> Settings:
    return replace(
        settings,
        token="playground",
        database_path=settings.database_path
        if settings.database_path.endswith("playground.db")
        else PLAYGROUND_DATABASE,
        database_url="",  # its own throwaway SQLite file, whatever the bot's database
        shard_count=None,
        shard_ids=None,
        dev_guild_id=None,
        dm_hands=False,
        message_events=True,  # the page republishes on them (``_follow``): moves show live
        bot_pause=bot_pause,
        # Text cards: the page has no CDN for the bot's own emojis, and drawing them in the
        # background would hold up the simulator's settling of every click.
        card_emojis=False,
    )


async def run(settings: Settings, game: str = "uno", open_page: bool = True) -> None:
    """Serve the playground until the page's session ends (End preview session) or Ctrl-C."""
    async with playground(settings, game) as (preview, _env):
        print(f"Card Table playground: open {preview.url}", flush=True)
        print("(that address is private to you; Ctrl-C to stop)", flush=True)
        if open_page:
            with contextlib.suppress(Exception):
                webbrowser.open(preview.url)
        await preview.wait_closed()


@contextlib.asynccontextmanager
async def playground(
    settings: Settings, game: str = "uno", port: int | None = None, bot_pause: float = 0.5
) -> AsyncIterator[tuple[Any, Any]]:
    import simcord  # optional: pip install -e ".[playground]"

    from bot import create_bot

    if game not in GAMES:
        raise SystemExit(f"Unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    chosen = playground_settings(settings, bot_pause)
    # Every session starts afresh: the simulated server is new each time (and so are its
    # channels), so games kept from an earlier session would only get in the way.
    database = Path(chosen.database_path)
    for stale in (
        database,
        database.with_name(database.name + "-wal"),
        database.with_name(database.name + "-shm"),
    ):
        stale.unlink(missing_ok=True)
    bot = create_bot(chosen)
    # Bots move on real time here. The simulator waits (up to its settle time) for timers due
    # within it after each click: long enough for a few bots' turns (0.5 s each), shorter
    # than a reminder (20 s), which would otherwise hold every click up.
    async with simcord.run(bot, settle_timeout=10.0) as env:
        guild = env.create_guild("Card Table playground")
        players = [
            guild.add_member(env.create_user(name.lower(), global_name=name)) for name in PLAYERS
        ]
        channels = {kind: guild.create_text_channel(kind) for kind in GAMES}
        for kind, channel in channels.items():
            await players[0].send(channel, WELCOME.format(kind=kind))
        preview = env.preview(channels[game], viewers=players, layout="channel", port=port)
        async with preview:
            follower = asyncio.create_task(_follow(bot, env, preview), name="playground-follow")
            try:
                yield preview, env
            finally:
                follower.cancel()


async def _follow(bot: Any, env: Any, preview: Any) -> None:
    """Show the page what the bot posts and edits between clicks (a bot's move after the
    click has settled, a reminder, a timeout): the preview itself publishes only after an
    action of the page. What the bot does while a click is handled is published with it."""
    changed = asyncio.Event()

    async def on_change(*_: Any) -> None:
        if getattr(env, "_operation_task", None) is None:
            changed.set()

    for event in ("on_message", "on_raw_message_edit", "on_raw_message_delete"):
        bot.add_listener(on_change, event)
    while True:
        await changed.wait()
        await asyncio.sleep(FOLLOW_DEBOUNCE)  # a move's table and hand edits land together
        changed.clear()
        if getattr(env, "_operation_task", None) is None:
            _republish(preview)


def _republish(preview: Any) -> None:
    """Publish the channel as it is now to every open page: ``Preview.refresh`` without its
    settling, which would make a click arriving meanwhile fail as overlapping. simcord
    3.2's own publishing step (a test, tests/playground, checks it is still there)."""
    preview._advance_presentation_time()
    for page in tuple(preview._pages.values()):
        if page.id in preview._pages:  # publishing prunes expired pages
            preview._publish(page, reason="refresh")
