"""Entry point: settings, logging, the database, the cogs, command sync.

python bot.py        # reads DISCORD_TOKEN (and the rest) from the environment or .env
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import signal
import sys
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import show
from cogs.clock import now
from cogs.components import DYNAMIC_ITEMS
from cogs.faces.book import FaceBook
from cogs.faces.catalog import NoFaces
from cogs.presenter import Presenter
from cogs.ratelimits import amortise_bucket_sweep, limit_requests
from cogs.render import faces as render_faces
from cogs.replies import CardTree, report_error
from cogs.sessions import Sessions
from cogs.timing import Timing
from config import ConfigError, Settings, load_settings
from db import Store, StoreUnavailable
from db.postgres import where

log = logging.getLogger("cardtable")
DEV_GUILD_SYNCED = "dev_guild_synced"  # meta key: servers holding their own copy of the commands

SERVER_NAMES_KEPT = 20_000  # servers' last names kept for their games' DMs (``server_name``)
SHUTDOWN_DRAIN = 5.0  # seconds a stop waits for queued Discord updates (docker allows 10)
SYNC_RETRY_AFTER = 300.0  # seconds before a failed command sync is tried again...
SYNC_TRIES = 12  # ...so many tries in all (an hour)
EXTENSIONS = (
    "cogs.play",
    "cogs.lobby",
    "cogs.seats",
    "cogs.timers",
    "cogs.endings",
    "cogs.rules",
    "cogs.stats",
)


class CardBot(commands.Bot):
    store: Store
    sessions: Sessions
    presenter: Presenter
    faces: FaceBook
    adopt_database = False  # ``--adopt-database``: take over another application's games
    outage_said_at = float("-inf")  # loop time the owner's log last heard of a database outage

    def __init__(self, settings: Settings, store: Store | None = None, **shards: Any) -> None:
        # Driven by interactions: no message events to parse (intents) and no message cache
        # (every edit the bot makes would otherwise come back as MESSAGE_UPDATE and be looked
        # up in a 1,000-message list). Only the guilds intent, which discord.py's state needs.
        super().__init__(
            **shards,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True, guild_messages=settings.message_events),
            max_messages=None,
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=CardTree,
        )
        self.settings = settings
        self._late_sync: asyncio.Task[None] | None = None  # the command sync, in the background
        self._sync_tries = 0  # syncs that failed this start (``_synced``)
        self.fatal: ConfigError | None = None  # found after the start: the bot stops, exit 2
        # Names of servers that removed the bot while it ran (gone from discord.py's cache):
        # the DMs of their ended games still say where they were played.
        self.left_servers: dict[int, str] = {}
        self._server_names: dict[int, str] = {}  # last names seen (``server_name``)
        # Servers a shard's fresh READY left out, to ask Discord about (``ask_about_servers``).
        self.servers_to_ask: dict[int, discord.Guild] = {}
        self._asking = asyncio.Lock()
        amortise_bucket_sweep(self.http)  # no O(buckets) scan per new channel (see module)
        limit_requests(self.http, settings.rest_budget())  # within Discord's global limit
        self.tree.error(self.on_app_command_error)
        if store is not None:
            self.store = store

    async def setup_hook(self) -> None:
        if getattr(self, "store", None) is None:
            self.store = await open_store(self.settings)
        self.store.clock = now
        await self.check_owner()
        timing = Timing(self.settings.bot_pause, self.settings.uno_grace, self.settings.nudge_after)
        self.sessions = Sessions(self.store, timing)
        self.presenter = Presenter(self)
        self.sessions.loaded = self.presenter.recall_drawn
        await self.presenter.recall_closed_dms()
        # Card faces: listed at start, the missing ones uploaded in the background; until a
        # face is up (or with CARD_EMOJIS=off) cards show as text.
        self.faces = FaceBook(self, enabled=self.settings.card_emojis)
        render_faces.use(self.faces if self.settings.card_emojis else NoFaces())
        # DMs name the server of their game (a member may play in several).
        show.use_server_names(self.server_name)
        self.faces.start()
        # Buttons route by custom_id alone, so every old message keeps working.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)

    def server_name(self, guild_id: int) -> str | None:
        """A server's name for its games' DMs: from the cache, else the last one seen (right
        after a new gateway session discord.py knows a server by its id alone, with no name,
        until its GUILD_CREATE), else that of a server the bot was removed from."""
        guild = self.get_guild(guild_id)
        if guild is not None and guild.name:
            names = self._server_names
            if names.get(guild_id) != guild.name:
                names.pop(guild_id, None)
                names[guild_id] = guild.name
                if len(names) > SERVER_NAMES_KEPT:  # the oldest noted go first
                    del names[next(iter(names))]
            return guild.name
        return self._server_names.get(guild_id) or self.left_servers.get(guild_id)

    def sync_commands_soon(self) -> None:
        """The command sync, once connected and in the background: discord.py may wait out
        a 429 on this tightly limited route for minutes, and meanwhile every game can be
        played with the commands of the last sync. A refused DEV_GUILD_ID stops the bot.
        One process syncs (the one with shard 0)."""
        if self._late_sync is not None:
            return  # a READY after a reconnect: synced once per start
        if self.settings.shard_ids is not None and 0 not in self.settings.shard_ids:
            return
        sync = asyncio.create_task(self.sync_commands(), name="command-sync")
        self._late_sync = sync
        sync.add_done_callback(self._synced)

    def _synced(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, ConfigError):
            self.fatal = error  # said by ``main``, exit code 2
            asyncio.get_running_loop().create_task(self.close())
        elif error is not None:
            # The database or Discord failing: members would keep the last sync's commands
            # until the next start (days, maybe). Tried again a few minutes later, a while.
            self._sync_tries += 1
            again = self._sync_tries < SYNC_TRIES and not self.is_closed()
            log.error(
                "the slash-command sync failed%s: %r",
                f" (trying again in {SYNC_RETRY_AFTER:.0f} s)" if again else "",
                error,
            )
            if again:
                asyncio.get_running_loop().call_later(SYNC_RETRY_AFTER, self._sync_again)

    def _sync_again(self) -> None:
        if not self.is_closed():
            self._late_sync = None
            self.sync_commands_soon()

    async def check_owner(self) -> None:
        """One bot application per database. A second one (a staging bot given production's
        database) would take every game of the first for one of a server it was removed from,
        and end it at its first READY; its clocks would move games it cannot show."""
        mine = self.application_id
        if mine is None:  # known once logged in, before this hook; never None on Discord
            return
        owner = await self.store.claim_owner(mine, adopt=self.adopt_database)
        if owner != mine:
            where = (
                "DATABASE_URL's database"
                if self.settings.database_url
                else f"The database {self.settings.database_path}"
            )
            raise ConfigError(
                f"{where} holds the games of another bot "
                f"application (id {owner}), not this one (id {mine}). Two bots on one database "
                "would end each other's games. Give this bot a database of its own. If it "
                "replaces that bot for good, start it once with `python bot.py "
                "--adopt-database` (stats and history stay)."
            )
        if self.adopt_database:
            log.warning("this database now belongs to application %s", mine)

    async def sync_commands(self) -> None:
        # The servers the commands were synced to alone (DEV_GUILD_ID, now or before): their
        # copies are cleared once the commands move on (global, or another server). Discord
        # lists a server's copy beside the global command: each would show twice, for good.
        noted = await self.store.get_meta(DEV_GUILD_SYNCED)
        holding = {int(g) for g in noted.split(",") if g} if noted else set()
        before = set(holding)
        dev = self.settings.dev_guild_id
        try:
            if dev:
                guild = discord.Object(id=dev)
                self.tree.copy_global_to(guild=guild)
                try:
                    synced = await self.tree.sync(guild=guild)
                except discord.HTTPException as error:
                    if error.status not in (400, 403, 404):
                        raise  # Discord failing, not the setting
                    raise ConfigError(
                        f"DEV_GUILD_ID {guild.id}: Discord refused the slash commands there "
                        f"({error.status}). Is the bot in that server, invited with the "
                        "applications.commands scope? Fix the id, invite the bot again, or "
                        "leave DEV_GUILD_ID empty."
                    ) from None
                holding.add(dev)
            else:
                synced = await self.tree.sync()
        except discord.HTTPException as error:
            # The commands of the last sync stay as they were: tried again at the next start.
            log.warning("could not sync the slash commands now (Discord: %s)", error)
            return
        for old in sorted(holding - {dev or 0}):
            try:
                await self.tree.sync(guild=discord.Object(id=old))  # none there any more
            except discord.HTTPException as error:
                log.info("could not clear the commands of server %s: %s", old, error)
                if error.status not in (403, 404):
                    continue  # Discord failing: tried again at the next start
            holding.discard(old)  # cleared, or the bot left that server
        if holding != before:
            await self.store.set_meta(DEV_GUILD_SYNCED, ",".join(map(str, sorted(holding))) or None)
        log.info("synced %d slash commands", len(synced))

    def database_failed(self) -> None:
        """A click or command found the database unavailable (``replies.report_error``)."""
        timers = self.get_cog("Timers")
        if timers is not None:
            timers.heard_outage()  # type: ignore[attr-defined]

    def looked_at_moves(self, game_id: int, user_id: int) -> None:
        """A member looked at their moves without making one: their turn's reminder waits."""
        timers = self.get_cog("Timers")
        if timers is not None:
            timers.looked(game_id, user_id)  # type: ignore[attr-defined]

    def wake_timers(self, at: float | None = None, *, known: bool = False) -> None:
        """A game's clocks changed: the clock loop looks again. ``known``: ``at`` is that
        game's nearest clock now (None: it has none), so the loop may sleep on if it wakes
        earlier anyway."""
        timers = self.get_cog("Timers")
        if timers is not None:
            if known:
                timers.moved(at)  # type: ignore[attr-defined]
            else:
                timers.wake()  # type: ignore[attr-defined]

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))
        self.sync_commands_soon()

    async def ask_about_servers(self) -> None:
        """Ask Discord about the servers a shard's READY left out (``servers_to_ask``): one
        it no longer has the bot in is dropped and heard of as a removal; one it fails to
        answer is asked again by the next housekeeping pass, while the cache still holds
        the object READY left out."""
        async with self._asking:  # READY's and housekeeping's asking may overlap
            await self._ask_about_servers()

    async def _ask_about_servers(self) -> None:
        for guild_id, guild in list(self.servers_to_ask.items()):
            if self.get_guild(guild_id) is not guild:
                self.servers_to_ask.pop(guild_id, None)  # sent again: the bot is there after all
                continue
            try:
                await self.fetch_guild(guild_id, with_counts=False)
                self.servers_to_ask.pop(guild_id, None)  # still a member: its GUILD_CREATE comes
                continue
            except (discord.NotFound, discord.Forbidden):
                pass
            except Exception as error:  # Discord failing: not taken for a removal
                log.info("asking about server %s failed: %r", guild_id, error)
                continue
            self.servers_to_ask.pop(guild_id, None)
            if self.get_guild(guild_id) is not guild:
                continue
            log.info("removed from server %s while its shard was away", guild_id)
            self._connection._remove_guild(guild)
            self.dispatch("guild_remove", guild)

    def serves_guild(self, guild_id: int) -> bool:
        """The server is on one of the shards this process runs (Discord's own formula)."""
        count = self.shard_count
        if not count or count <= 1:
            return True
        shards = getattr(self, "shard_ids", None)
        return shards is None or (guild_id >> 22) % count in shards

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

    async def close(self) -> None:
        if self._late_sync is not None:
            self._late_sync.cancel()
        presenter = getattr(self, "presenter", None)
        if presenter is not None and not self.is_closed():
            # What players should still see (a move's table and DMs, a result) goes out
            # first, while the connection to Discord is still open; a stop waits this long.
            log.info("shutting down: finishing Discord updates (up to %.0f s)", SHUTDOWN_DRAIN)
            presenter.retry_now()
            try:
                await asyncio.wait_for(presenter.idle(), SHUTDOWN_DRAIN)
            except TimeoutError:
                log.warning("shutting down with Discord updates still queued")
            presenter.note_shown(self.sessions.cached_sessions())
            await presenter.flush_drawn()  # so the next start redraws only what is unshown
        if presenter is not None:
            presenter.close()
        faces = getattr(self, "faces", None)
        if faces is not None:
            await faces.close()
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


class ShardedCardBot(CardBot, commands.AutoShardedBot):
    """The same bot running some of the shards (SHARD_COUNT, SHARD_IDS): every process
    serves the servers of its shards and applies any game's move (DM clicks all arrive at
    shard 0); games are shared through the database."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        parsers = self._connection.parsers
        parse_ready = parsers["READY"]

        def ready(data: Any) -> None:
            parse_ready(data)
            self._servers_left_while_away(int(data["shard"][0]))

        parsers["READY"] = ready

    def _servers_left_while_away(self, shard_id: int) -> None:
        """A shard identified afresh (its session lost: a long network cut). READY lists
        every server the bot is in, each as unavailable until its GUILD_CREATE, and the
        sharded client puts those in its cache in place of what it held, without clearing
        it as a single connection does. A server of the shard still cached as available is
        one READY left out: the bot was removed from it while the shard was away, and
        Discord sends no GUILD_DELETE for it. Asked of Discord first (one call each), then
        dropped and heard of as a removal."""
        suspects = [g for g in self.guilds if g.shard_id == shard_id and not g.unavailable]
        if suspects:
            self.dispatch("servers_maybe_left", shard_id, suspects)

    async def on_servers_maybe_left(self, shard_id: int, suspects: list[discord.Guild]) -> None:
        for guild in suspects:
            self.servers_to_ask[guild.id] = guild
        await self.ask_about_servers()


def create_bot(settings: Settings, store: Store | None = None) -> CardBot:
    # The bot never joins a voice channel: no warning that voice would need PyNaCl/davey.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if settings.shard_count is None:
        return CardBot(settings, store)
    ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedCardBot(settings, store, shard_count=settings.shard_count, shard_ids=ids)


async def open_store(settings: Settings) -> Store:
    """The database, opened, migrated and proven writable, or StoreUnavailable within
    ``DATABASE_TIMEOUT_SECONDS``."""
    return await Store.open(
        settings.database,
        timeout=settings.database_timeout,
        pool_min=settings.database_pool_min,
        pool_max=settings.database_pool_max,
    )


def freeze_startup_heap() -> None:
    """Everything alive at start (modules, classes, discord.py, the bot) lives as long as the
    process: moved out of the collector's sight, a full collection looks at little more than
    the games, and the pause it gives every click at that moment drops from 55-75 ms to
    5-35 ms (bench/load.py, N=500, RUN_BOT_GC_LOG)."""
    gc.collect()  # nothing that is already garbage gets frozen with the rest
    gc.freeze()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Card Table: card games on Discord.")
    parser.add_argument(
        "--playground",
        nargs="?",
        const="uno",
        metavar="GAME",
        help="play without Discord or a token, in your browser (default game: uno)",
    )
    parser.add_argument("--no-browser", action="store_true", help="print the address only")
    parser.add_argument(
        "--adopt-database",
        action="store_true",
        help="take over a database that another bot application used (its games end)",
    )
    args = parser.parse_args(argv)
    try:
        settings = load_settings(
            need_token=args.playground is None, playground=args.playground is not None
        )
    except ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    if args.playground is not None:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)-7s %(name)s: %(message)s")
        from cogs import playground

        try:
            asyncio.run(playground.run(settings, args.playground, not args.no_browser))
        except KeyboardInterrupt:
            pass
        except ConfigError as error:
            print(f"Configuration error: {error}", file=sys.stderr)
            raise SystemExit(2) from None
        except StoreUnavailable as error:  # another playground runs in this folder
            print(f"Playground error: {error}", file=sys.stderr)
            raise SystemExit(3) from None
        return
    configure_logging(settings.log_level)
    CardBot.adopt_database = args.adopt_database
    try:
        asyncio.run(run(settings))
    except StoreUnavailable as error:
        print(f"Database error: {error}", file=sys.stderr)
        raise SystemExit(3) from None
    except discord.LoginFailure:
        print(
            "Configuration error: Discord refused DISCORD_TOKEN. Copy it again from the "
            "Developer Portal (your application -> Bot -> Reset Token) into .env.",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    except ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        pass


def configure_logging(level: str) -> None:
    """The bot's own log at ``level``; discord.py's never below INFO: at DEBUG it logs every
    request body and gateway event, with each player's hand (DM edits) and secret choices
    (button ids such as a War of Suits card), which no log line may hold."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))


async def run(settings: Settings) -> None:
    # The database first: a bad one stops the bot in seconds, before it connects to Discord.
    store = await open_store(settings)
    # Which database, and what it holds: a mistyped DATABASE_PATH makes a fresh empty file.
    place = (
        f"{where(settings.database_url)} (PostgreSQL)"
        if settings.database_url
        else (f"{settings.database_path} (SQLite)")
    )
    log.info("database: %s, %d open games", place, await store.count_open())
    bot = create_bot(settings, store)
    freeze_startup_heap()
    # SIGTERM (docker stop, systemd) and Ctrl-C close the bot gracefully (``close``).
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not closing:  # a second signal while closing changes nothing
            closing.append(loop.create_task(bot.close()))

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    async with bot:
        await bot.start(settings.token)
    if bot.fatal is not None:
        raise bot.fatal


if __name__ == "__main__":
    main()
