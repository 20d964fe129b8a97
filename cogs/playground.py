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
import logging
import os
import threading
import webbrowser
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cogs.hosting import GAMES
from config import ConfigError
from db.sqlite import hold_file

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
        database_path=PLAYGROUND_DATABASE,  # never DATABASE_PATH: a real bot's games
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
            # Off the loop, and never waited for: without a display, webbrowser runs a
            # console browser (w3m, lynx) until it exits, and the page must be served meanwhile.
            threading.Thread(target=_open_page, args=(preview.url,), daemon=True).start()
        await preview.wait_closed()


def _open_page(url: str) -> None:
    with contextlib.suppress(Exception):
        webbrowser.open(url)


def _import_simcord() -> Any:
    """simcord, quietly: its import makes a probe client, whose warnings (no guilds intent,
    no voice libraries) are untrue or beside the point for the playground's owner."""
    import discord

    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    state = logging.getLogger("discord.state")
    level = state.level
    state.setLevel(logging.ERROR)
    try:
        import simcord
    except ImportError:
        raise ConfigError(
            'The playground needs its extra: .venv/bin/pip install -e ".[playground]"'
        ) from None
    finally:
        state.setLevel(level)
    return simcord


def _fresh_database(path: str) -> None:
    """Every session starts afresh: the simulated server is new each time (and so are its
    channels), so games kept from an earlier session would only get in the way. Unless a
    playground still runs on the file: it is left alone (its lock, as the store takes it)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    held = hold_file(path)  # StoreUnavailable if another playground holds it
    try:
        database = Path(path)
        for stale in (
            database,
            database.with_name(database.name + "-wal"),
            database.with_name(database.name + "-shm"),
        ):
            stale.unlink(missing_ok=True)
    finally:
        if held is not None:
            os.close(held)


@contextlib.asynccontextmanager
async def playground(
    settings: Settings, game: str = "uno", port: int | None = None, bot_pause: float = 0.5
) -> AsyncIterator[tuple[Any, Any]]:
    if game not in GAMES:
        raise SystemExit(f"Unknown game {game!r}; choose one of: {', '.join(GAMES)}")
    simcord = _import_simcord()  # optional: pip install -e ".[playground]"

    from bot import create_bot

    chosen = playground_settings(settings, bot_pause)
    _fresh_database(chosen.database_path)
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
        try:
            async with preview:
                follower = asyncio.create_task(_follow(bot, env, preview), name="playground-follow")
                try:
                    yield preview, env
                finally:
                    follower.cancel()
        finally:
            # simcord only detaches the bot: closed here, its updates drained and the
            # database closed (its -wal and -shm files go with it).
            await bot.close()


async def _follow(bot: Any, env: Any, preview: Any) -> None:
    """Show the page what the bot posts and edits between clicks (a bot's move after the
    click has settled, a reminder, a timeout): the preview itself publishes only after an
    action of the page. What the bot does while a click is handled is published with it."""
    changed = asyncio.Event()
    # A page's click is published to that page alone: the other pages (a second tab,
    # another player's) are brought up to date once it is over. Page -> its revision at the
    # newest change during a click; a page published since (the one that clicked) is left be.
    behind: dict[str, int] = {}
    everyone = False  # a change outside any click (a bot's move): every page follows

    async def on_change(*_: Any) -> None:
        nonlocal everyone
        if getattr(env, "_operation_task", None) is not None:
            for page in tuple(preview._pages.values()):
                behind[page.id] = page.revision  # as of the newest change
        else:
            everyone = True
        changed.set()

    for event in ("on_message", "on_raw_message_edit", "on_raw_message_delete"):
        bot.add_listener(on_change, event)
    while True:
        await changed.wait()
        await asyncio.sleep(FOLLOW_DEBOUNCE)  # a move's table and hand edits land together
        while getattr(env, "_operation_task", None) is not None:
            await asyncio.sleep(FOLLOW_DEBOUNCE)
        changed.clear()
        stale = None if everyone else dict(behind)
        everyone = False
        behind.clear()
        _republish(preview, stale or None)


def _republish(preview: Any, only: dict[str, int] | None = None) -> None:
    """Publish the channel as it is now to every open page (``only``: the pages still at
    these revisions): ``Preview.refresh`` without its settling, which would make a click
    arriving meanwhile fail as overlapping. simcord 3.2's own publishing step (a test,
    tests/playground, checks it is still there)."""
    preview._advance_presentation_time()
    for page in tuple(preview._pages.values()):
        if only is not None and only.get(page.id, -1) != page.revision:
            continue  # published since (the page that clicked), or opened since
        if page.id in preview._pages:  # publishing prunes expired pages
            preview._publish(page, reason="refresh")
