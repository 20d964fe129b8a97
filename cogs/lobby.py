"""Starting and ending games: /newgame <game> and its lobby, /endgame, /games.

``/newgame`` has one subcommand per game, built from the engine's option declarations (names,
types, ranges, descriptions) plus the hosting options every game shares (``bots``,
``turn_timer``, ``bot_level``), so a new engine option appears on Discord untouched.
"""

from __future__ import annotations

import inspect
import logging
import math
import secrets
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import components, ids, replies
from cogs.clock import now
from cogs.hosting import GAMES, Hosted
from cogs.presenter import Job, post_nonce
from cogs.render.screens import lobby_screen
from cogs.render.spec import Button, Screen, clip_words, whole_lines
from cogs.render.text import member_name, named, plural, safe_name
from cogs.replies import in_guild, log_failure, reply
from cogs.sessions import Session
from cogs.show import table_link
from cogs.visibility import UNCHECKED, gone_channels, visible
from db import ChannelBusy, HostBusy, HostTooFast, StoreUnavailable
from engine import Option
from engine.bots import LEVELS
from engine.options import InvalidOption, validate_options

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)
UNKEPT = (
    "This lobby was closed: the database isn't answering right now. "
    "Please try `/newgame` again in a moment."
)

LEFT_SERVERS_KEPT = 1000  # names of servers that removed the bot, kept for their games' DMs
CLOSING_KEPT = 1000  # closed lobbies whose closing words are kept for a later redraw
STALE_REDRAW_EVERY = 60.0  # seconds between redraws of a closed lobby for presses on it
LOBBY_SEEN_FOR = 15.0  # seconds a lobby found standing is not asked about again for one member
# Seconds a new lobby may go without its message id stored: longer, it is taken as lost.
POSTING = 15.0
BOT_NAMES = ("Ada", "Babbage", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper", "Ito")
TIMER_RANGE = (30, 600)  # seconds; 0 turns the timer off
BUSY = (
    "This channel already has a game. Finish it (or `/endgame`) first, "
    "or start one in another channel."
)


def host_busy(channel_ids: list[int]) -> str:
    """Why a member may not open another lobby: where theirs are."""
    where = ", ".join(f"<#{c}>" for c in channel_ids)
    lobbies = "1 lobby" if len(channel_ids) == 1 else f"{len(channel_ids)} lobbies"
    return (
        f"You already have {lobbies} open in this server ({where}). "
        "Start or cancel one of them first."
    )


def host_too_fast(free_at: float) -> str:
    """Why a member may not open another lobby yet: several of theirs closed unstarted."""
    return (
        "You've opened several lobbies here in the last few minutes that never started. "
        f"You can open another <t:{math.ceil(now.shown(free_at))}:R>."
    )


def bot_name(index: int) -> str:
    return f"🤖 {BOT_NAMES[index % len(BOT_NAMES)]}"


def timer_text(seconds: int | None) -> str:
    return f"{seconds} s per turn" if seconds else "off"


def option_annotation(option: Option) -> Any:
    """The slash-command type of an engine option (its range and choices included)."""
    if option.type is bool:
        return Optional[bool]  # noqa: UP045 - discord.py reads typing.Optional
    if option.type is int:
        lo = option.min if option.min is not None else -(2**53)
        hi = option.max if option.max is not None else 2**53
        return Optional[app_commands.Range[int, lo, hi]]  # noqa: UP045
    if option.choices:
        return Optional[Literal[option.choices]]  # noqa: UP045
    return Optional[app_commands.Range[str, 0, 100]]  # noqa: UP045


def cannot_post(interaction: discord.Interaction) -> str | None:
    """Why the bot could not post a game's table here, or None. Commands and buttons work in
    a channel the bot cannot see or write in (interactions need no channel permission), but
    the table, the DMs' links and the reminders need the channel: say so before any game
    starts, naming what is missing (Discord sends the bot's permissions with each click)."""
    allowed = interaction.app_permissions
    thread = isinstance(interaction.channel, discord.Thread)
    needed = [
        ("View Channel", allowed.view_channel),
        (
            "Send Messages in Threads" if thread else "Send Messages",
            allowed.send_messages_in_threads if thread else allowed.send_messages,
        ),
        ("Embed Links", allowed.embed_links),
    ]
    missing = [f"**{name}**" for name, has in needed if not has]
    if not missing:
        return None
    what = missing[0] if len(missing) == 1 else f"{', '.join(missing[:-1])} and {missing[-1]}"
    return (
        f"I can't post a game's table in this channel: I'm missing the {what} "
        f"{'permission' if len(missing) == 1 else 'permissions'} here. A server manager can give "
        f"{'it' if len(missing) == 1 else 'them'} to me in the channel's settings."
    )


# Seconds between the housekeeping passes (``Lobby.housekeeping``): a tenth of the lobby
# timeout, so a lobby closes within a tenth of its time after it, and at most this.
HOUSEKEEPING_EVERY = 300.0


class Lobby(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.sessions = bot.sessions
        self.newgame = self.build_newgame()
        # The look at READY for servers left while away failed (the database was away):
        # each housekeeping pass tries again until it succeeds.
        self._left_unchecked = False
        # Deleted channels whose game the database would not say or end -> why they went.
        self._deleted_unchecked: dict[int, str] = {}
        # Lobbies closed on Discord whose ending the database refused (``_close_unkept``):
        # ended again by housekeeping, or by the next /newgame in their channel.
        self._unclosed: set[int] = set()
        # Lobby messages being redrawn -> the one job doing it; the words closing a lobby
        # message ("Cancelled by ann."), kept for any later redraw (the newest ``CLOSING_KEPT``).
        self._redrawing: dict[tuple[int, int], Job] = {}
        self._closing: dict[tuple[int, int], str] = {}
        # Closed lobbies' messages redrawn for a press on their stale buttons -> when.
        # (lobby message, member whose /newgame asked) found standing -> when.
        self._lobby_seen: dict[tuple[int, int], float] = {}
        self._stale_pressed: dict[tuple[int, int], float] = {}

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.newgame)
        components.handle("l", self.on_lobby)
        components.handle("r", self.on_play_again)
        timeout = self.bot.settings.lobby_timeout_minutes * 60
        self.housekeeping.change_interval(seconds=min(HOUSEKEEPING_EVERY, timeout / 10))
        self.housekeeping.start()

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.newgame.name)
        self.housekeeping.cancel()

    # -- /newgame <game> ---------------------------------------------------------------------
    def build_newgame(self) -> app_commands.Group:
        group = app_commands.Group(
            name="newgame", description="Open a lobby for a new card game here.", guild_only=True
        )
        for hosted in GAMES.values():
            group.add_command(self._subcommand(hosted))
        return group

    def _subcommand(self, hosted: Hosted) -> app_commands.Command[Any, ..., None]:
        cls = hosted.engine
        params = [
            inspect.Parameter(
                "interaction",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            )
        ]
        described: dict[str, str] = {}
        for name, option in cls.options.items():
            params.append(_param(name, option_annotation(option)))
            described[name] = option.short
        bots_max = cls.max_players - 1
        params += [
            _param("bots", Optional[app_commands.Range[int, 0, bots_max]]),  # noqa: UP045
            _param("turn_timer", Optional[app_commands.Range[int, 0, TIMER_RANGE[1]]]),  # noqa: UP045
            _param("bot_level", Optional[Literal[LEVELS]]),  # noqa: UP045
        ]
        described["bots"] = (
            f"Seats filled with bots at once (0-{bots_max}), or Add bot in the lobby"
        )
        described["turn_timer"] = (
            f"Seconds per turn, {TIMER_RANGE[0]}-{TIMER_RANGE[1]} (0: no timer; "
            f"default {hosted.turn_timer})"
        )
        described["bot_level"] = "How well the bots play: normal or hard (default normal)"

        async def callback(interaction: discord.Interaction, **values: Any) -> None:
            await self.open_lobby(interaction, hosted, values)

        callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        callback.__discord_app_commands_param_description__ = described  # type: ignore[attr-defined]
        summary = cls.summary.split(". ")[0]
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=cls.kind,
            description=clip_words(f"{cls.title}: {summary}", 100),
            callback=callback,
        )
        command.add_check(_guild_check)
        return command

    async def open_lobby(
        self, interaction: discord.Interaction, hosted: Hosted, values: dict[str, Any]
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        cls = hosted.engine
        given = {k: v for k, v in values.items() if v is not None}
        bots = int(given.pop("bots", 0))
        timer = given.pop("turn_timer", hosted.turn_timer)
        level = given.pop("bot_level", "normal")
        problem = None
        if timer and not TIMER_RANGE[0] <= timer <= TIMER_RANGE[1]:
            problem = (
                f"The turn timer is {TIMER_RANGE[0]} to {TIMER_RANGE[1]} seconds, "
                "or 0 for no timer."
            )
        elif not 0 <= bots < cls.max_players:
            room = plural(cls.max_players - 1, "bot")
            problem = f"{cls.title} has room for at most {room} besides you."
        elif level not in LEVELS:
            problem = f"The bot level is one of: {', '.join(LEVELS)}."
        if problem is None:
            try:
                # The engine is the judge: building a throwaway game runs every cross-check.
                validate_options(cls.title, cls.options, given)
                cls([str(i) for i in range(cls.min_players)], seed=0, options=given)
            except InvalidOption as error:
                problem = str(error)
        if problem is not None:
            await reply(interaction, problem)
            return
        settings = {"turn_timer": timer or None, "level": level}
        bot_seats = [(-(i + 1), bot_name(i), level) for i in range(bots)]
        await self._open(interaction, cls.kind, given, settings, bot_seats)

    async def _open(
        self,
        interaction: discord.Interaction,
        kind: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        bots: list[tuple[int, str, str]],
        invited: list[int] | None = None,
        rematch_of: int | None = None,
    ) -> None:
        """A new lobby in this channel, hosted by whoever clicked, posted as the answer
        (``invited`` members are pinged to join, once per ended game ``rematch_of``); "busy"
        if the channel has a game."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if (missing := cannot_post(interaction)) is not None:
            await reply(interaction, missing)
            return
        user = interaction.user
        try:
            row = await self.bot.store.create_lobby(
                interaction.guild_id,
                interaction.channel_id,
                kind,
                user.id,
                member_name(user.display_name, user.name),
                options,
                secrets.randbits(63),
                settings,
                bots=bots,
            )
        except ChannelBusy:
            if not await self._lobby_deleted(interaction.channel_id, interaction.user.id):
                busy = await self._busy(interaction.channel_id, rematch_of, interaction.user.id)
                await reply(interaction, busy)
                return
            # The channel's lobby had lost its message: closed, so this one opens.
            await self._open(interaction, kind, options, settings, bots, invited, rematch_of)
            return
        except HostBusy as error:
            # One of the host's lobbies may have lost its message (a moderator deleted it)
            # or never got one: such a lobby gives way, as it would in its own channel.
            asker = interaction.user.id
            closed = [c for c in error.channel_ids if await self._lobby_deleted(c, asker)]
            if closed:
                await self._open(interaction, kind, options, settings, bots, invited, rematch_of)
                return
            await reply(interaction, host_busy(error.channel_ids))
            return
        except HostTooFast as error:
            await reply(interaction, host_too_fast(error.free_at))
            return
        if invited and rematch_of is not None:
            try:
                claimed = await self.bot.store.claim_rematch(rematch_of)
            except StoreUnavailable as error:
                # The lobby exists now: it is posted, pinging nobody (the claim that would
                # keep a second Play again from pinging again could not be stored).
                log.warning("game %s: claiming its rematch failed: %s", row.id, error)
                claimed = False
            if not claimed:
                invited = None  # pinged by an earlier Play again on that post already
        # Under the new game's lock until its message id is stored: a Join pressed the
        # instant the lobby appears waits for it instead of finding no lobby message.
        async with self.sessions.lock(row.id):
            try:
                session = await self.sessions.get(row.id)
            except StoreUnavailable:
                # Nothing posted: the lobby must not hold the channel unseen ("nothing was
                # changed", the member is told), ended now or by the next /newgame here.
                if not await self._end_unkept_row(row.id):
                    self._unclosed.add(row.id)
                await self._hand_back_rematch(invited, rematch_of)
                raise
            assert session is not None
            screen = self.lobby(session)
            if invited:
                who = ", ".join(f"<@{u}>" for u in invited)
                screen.content = f"{who}: a rematch! Press **Join** to play again."
                screen.ping = invited
            elif rematch_of is not None:
                screen.content = f"A rematch of game #{rematch_of}: press **Join** to play again."
            try:
                message_id = await components.answer_message(interaction, screen)
            except discord.HTTPException as error:
                # Nobody can see this lobby (the answer expired or was refused): it must not
                # hold the channel. Nothing was shown, so nothing is left.
                log.info("game %s: the new lobby could not be shown: %s", row.id, error)
                await self.sessions.end(session, "ended")
                await self._hand_back_rematch(invited, rematch_of)  # nobody was pinged
                return
            session.row.table_message_id = message_id
            try:
                await self.bot.store.set_table_message(row.id, message_id, now())
                return
            except Exception as error:
                log.warning("game %s: storing its lobby message failed: %s", row.id, error)
                await self._end_unkept_locked(session)
        await self._say_unkept(interaction, row.channel_id, row.id, message_id)
        await self._hand_back_rematch(invited, rematch_of)

    async def _hand_back_rematch(self, invited: list[int] | None, rematch_of: int | None) -> None:
        """The rematch lobby that claimed the players' ping was closed at once: the next
        Play again pings them."""
        if not invited or rematch_of is None:
            return
        try:
            await self.bot.store.release_rematch(rematch_of)
        except Exception as error:
            log.warning("game %s: handing back its rematch ping failed: %s", rematch_of, error)

    async def _end_unkept_locked(self, session: Session) -> None:
        """The lobby is in the channel, but the database would not keep its message (a lock
        held by a backup, a full disk): its buttons would be refused after the next reload,
        and a restart would lose it. Ended at once (under the game's lock, in ``_open``);
        if the database refuses that too, ended later (``_unclosed``)."""
        try:
            await self.sessions.end(session, "ended")
        except Exception as error:
            log.warning("game %s: closing the unkept lobby failed: %s", session.id, error)
            self._unclosed.add(session.id)  # its buttons refused meanwhile (``on_lobby``)
            self.sessions.forget(session.id)  # the cached copy holds an id never stored

    async def _say_unkept(
        self, interaction: discord.Interaction, channel_id: int, game_id: int, message_id: int
    ) -> None:
        """The unkept lobby's message and its host say it was closed (after the lock)."""
        try:
            await self.bot.presenter.edit(channel_id, message_id, Screen(content=UNKEPT))
        except discord.HTTPException as error:
            log.info("game %s: the unkept lobby could not be closed: %s", game_id, error)
        await reply(interaction, UNKEPT)

    async def _end_unkept(self, game_id: int) -> bool:
        """End an unkept lobby in the database; False if it refused again."""
        try:
            async with self.sessions.lock(game_id):
                return await self._end_unkept_row(game_id)
        except Exception as error:
            log.warning("game %s: closing the unkept lobby failed: %s", game_id, error)
            return False

    async def _end_lost(self, game_id: int) -> bool:
        """End a lobby still without a message past ``POSTING``, looked at again under its
        lock (a slow post may have stored its message meanwhile: that lobby stands)."""
        try:
            async with self.sessions.lock(game_id):
                session = await self.sessions.get(game_id)
                if session is None:
                    return False
                await self.sessions.reload(session)
                row = session.row
                if row.status != "lobby" or row.table_message_id is not None:
                    return False
                if now() - row.created_at < POSTING:
                    return False
                log.info("game %s: a lobby with no message; it is closed", game_id)
                return await self.sessions.end(session, "ended")
        except Exception as error:
            log.warning("game %s: closing a lobby with no message failed: %s", game_id, error)
            return False

    async def _end_unkept_row(self, game_id: int) -> bool:
        """``_end_unkept`` under the game's lock."""
        try:
            session = await self.sessions.get(game_id)
            if session is not None and session.row.status == "lobby":
                await self.sessions.end(session, "ended")
        except Exception as error:
            log.warning("game %s: closing the unkept lobby failed: %s", game_id, error)
            self.sessions.forget(game_id)
            return False
        return True

    async def _lobby_deleted(self, channel_id: int, asker: int) -> bool:
        """Whether the channel's lobby had lost its message (a moderator deleted it, or
        purged the channel) and is now closed: it would hold the channel for its whole
        timeout with nothing anyone can press (the bot hears of no deletion). ``asker``:
        the member whose /newgame asks; found standing for them a moment ago, it is not
        looked up again (their refusals repeated cost no Discord call each)."""
        row = await self.bot.store.open_game_in_channel(channel_id)
        if row is not None and row.id in self._unclosed:
            if await self._end_unkept(row.id):  # closed on Discord already: ended here now
                self._unclosed.discard(row.id)
                return True
            return False
        if row is None or row.status != "lobby":
            return False
        if row.table_message_id is None:
            if now() - row.created_at < POSTING:
                return False  # a lobby whose message is being posted right now
            # Never posted, or its message id never stored, and its closing lost with a
            # restart (``_unclosed`` is in memory): nobody can press anything on it.
            return await self._end_lost(row.id)
        seen = (row.table_message_id, asker)
        moment = now()
        if moment - self._lobby_seen.get(seen, float("-inf")) < LOBBY_SEEN_FOR:
            return False
        try:
            await self.bot.http.get_message(channel_id, row.table_message_id)
            self._lobby_seen = {
                k: t for k, t in self._lobby_seen.items() if moment - t < LOBBY_SEEN_FOR
            }
            self._lobby_seen[seen] = moment
            return False
        except discord.NotFound:
            pass
        except discord.HTTPException:
            return False  # cannot tell (no Read Message History): the lobby stands
        async with self.sessions.lock(row.id):
            session = await self.sessions.get(row.id)
            if session is None or session.row.status != "lobby":
                return False
            log.info("game %s: its lobby message was deleted; the lobby is closed", row.id)
            return await self.sessions.end(session, "expired")

    async def _busy(self, channel_id: int, rematch_of: int | None, user_id: int) -> str:
        """Why no lobby opened: the channel's game, which for a Play again may be the very
        rematch the presser was invited to (``/endgame`` would be wrong advice: not theirs),
        or is already in (their second press: Join would refuse them)."""
        if rematch_of is not None:
            row = await self.bot.store.open_game_in_channel(channel_id)
            if row is not None and row.settings.get("rematch_of") == rematch_of:
                seated = any(s.user_id == user_id for s in await self.bot.store.seats(row.id))
                if row.status == "lobby" and seated:
                    return f"You're already in the rematch. {table_link(row)}"
                if row.status == "lobby":
                    return f"The rematch is already open: press **Join** on it. {table_link(row)}"
                return f"The rematch has already started. {table_link(row)}"
        return BUSY

    # -- play again ------------------------------------------------------------------------------
    async def on_play_again(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        """A fresh lobby for the same game, options and bots; the other members are invited
        (pinged once) and each confirms by pressing Join."""
        old = await self.sessions.get(parsed.game)
        user = interaction.user
        if old is None or old.row.is_open:
            await reply(interaction, "That game is not over yet.")
            return
        seat = old.seat(user.id)
        if seat is None or not seat.human:
            await reply(interaction, "Only the players of that game can start it again.")
            return
        if seat.away == "kicked":
            await reply(
                interaction, "You were removed from that game, so you can't start it again."
            )
            return
        if interaction.channel_id != old.row.channel_id or interaction.guild_id is None:
            await reply(interaction, "That button doesn't belong to this channel.")
            return
        bots = [(s.user_id, s.name, s.level or "normal") for s in old.seats if not s.human]
        # Not a member the host kicked (they may not open it either), nor one who chose to
        # leave the game (a bot finished it for them): they may still press Join.
        invited = [
            s.user_id
            for s in old.seats
            if s.human and s.user_id != user.id and s.away not in ("kicked", "left")
        ]
        settings = {k: v for k, v in old.row.settings.items() if k != "rematched"}
        settings["rematch_of"] = old.id  # its players pressing Play again are sent to it
        await self._open(
            interaction, old.row.kind, dict(old.row.options), settings, bots, invited, old.id
        )

    def lobby(
        self, session: Session, closed: str | None = None, notice: str | None = None
    ) -> Screen:
        hosted = session.hosted
        cls = hosted.engine
        chosen = validate_options(cls.title, cls.options, session.row.options)
        differs = {k: v for k, v in chosen.items() if v != cls.options[k].default}
        names = session.names
        seats = [names[str(s.user_id)] for s in session.seats]
        bots = sum(1 for s in session.seats if not s.human)
        settings = {"Turn timer": timer_text(session.row.settings.get("turn_timer"))}
        settings["Bots"] = session.row.settings.get("level", "normal").capitalize()
        host = session.seat(session.row.host_id)
        return lobby_screen(
            session.id,
            cls.title,
            names.get(str(session.row.host_id), "?") if host else "?",
            seats,
            cls.min_players,
            cls.max_players,
            differs,
            closed=closed,
            settings=settings,
            bots=bots,
            notice=notice,
        )

    # -- lobby buttons -----------------------------------------------------------------------
    async def on_lobby(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        game_id = parsed.game
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is None:
                await reply(interaction, "I can't find that game any more.")
                return
            if game_id in self._unclosed:  # closed as unkept, the database not told yet
                await reply(interaction, "That lobby was closed.")
                return
            message = interaction.message
            lobby_message = session.row.table_message_id
            if session.row.status == "lobby" and (message is None or message.id != lobby_message):
                # A lobby button copied onto another message (forged) acts on nothing.
                await reply(interaction, "That button doesn't belong to this lobby.")
                return
            if session.row.status != "lobby":
                text = {
                    "active": "That game has already started.",
                    "finished": "That game is over.",
                    "cancelled": "That lobby was closed.",
                }.get(session.row.status, "That lobby is closed.")
                await reply(interaction, text)
                if session.game is None and message is not None and message.id == lobby_message:
                    # A closed lobby still offering its buttons: its closing edit never
                    # landed (the bot removed from the server, and invited back since).
                    # At most once a minute, however many press it while Discord fails.
                    key = (session.id, message.id)
                    moment = now()
                    if moment - self._stale_pressed.get(key, float("-inf")) >= STALE_REDRAW_EVERY:
                        self._stale_pressed = {
                            k: t
                            for k, t in self._stale_pressed.items()
                            if moment - t < STALE_REDRAW_EVERY
                        }
                        self._stale_pressed[key] = moment
                        self._redraw_later(session)
                return
            handler: Callable[[discord.Interaction, Session], Coroutine[Any, Any, None]] = {
                "join": self._join,
                "leave": self._leave,
                "start": self._start,
                "cancel": self._cancel,
                "addbot": self._add_bot,
                "rmbot": self._remove_bot,
                "level": self._level,
            }[parsed.rest]
            await handler(interaction, session)

    async def _redraw(self, interaction: discord.Interaction, session: Session) -> None:
        await self.sessions.reload(session)
        try:
            await components.answer_update(interaction, self.lobby(session))
        except discord.HTTPException as error:
            # The change is stored: the lobby is drawn by the presenter instead.
            log.info("game %s: answering a lobby click failed: %s", session.id, error)
            self._redraw_later(session)
            return
        self.bot.presenter.answered_lobby(session.id)

    async def _join(self, interaction: discord.Interaction, session: Session) -> None:
        cls = session.hosted.engine
        user = interaction.user
        if session.seat(user.id) is not None:
            await reply(interaction, "You're already in this game.")
            return
        if len(session.seats) >= cls.max_players:
            await reply(interaction, f"This game is full ({cls.max_players} players).")
            return
        name = member_name(user.display_name, user.name, (s.name for s in session.seats))
        await self.bot.store.add_seat(session.id, user.id, name)
        await self._redraw(interaction, session)

    async def _leave(self, interaction: discord.Interaction, session: Session) -> None:
        """The lobby's Leave button (under the game's lock): the click redraws the lobby."""
        if problem := self._may_not_leave(session, interaction.user.id):
            await reply(interaction, problem)
            return
        await self.bot.store.remove_seat(session.id, interaction.user.id)
        await self._redraw(interaction, session)

    async def leave_by_command(self, interaction: discord.Interaction, game_id: int) -> bool:
        """``/leave`` in a lobby. False, having answered nothing, if the game started
        meanwhile: leaving it is the running game's business."""
        user_id = interaction.user.id
        return await self._remove_by_command(
            interaction,
            game_id,
            user_id,
            lambda session: self._may_not_leave(session, user_id),
            lambda session: "You left the lobby.",
        )

    async def kick_by_command(
        self, interaction: discord.Interaction, game_id: int, member: discord.abc.User
    ) -> bool:
        """``/kick`` in a lobby: the host (or a server manager) takes a member's place back.
        False, having answered nothing, if the game started meanwhile."""

        def refusal(session: Session) -> str | None:
            seat = session.seat(member.id)
            if not may_end(interaction, session):
                return not_allowed(interaction, session, "remove players")
            if seat is None or not seat.human:
                return "That member is not in this lobby."
            if member.id == session.row.host_id:
                return "The host can't be removed: **Cancel** closes the lobby."
            return None

        def done(session: Session) -> str:
            seat = session.seat(member.id)
            return f"Done: {safe_name(seat.name if seat else member.name)} is out of the lobby."

        return await self._remove_by_command(interaction, game_id, member.id, refusal, done)

    async def _remove_by_command(
        self,
        interaction: discord.Interaction,
        game_id: int,
        user_id: int,
        refusal: Callable[[Session], str | None],
        done: Callable[[Session], str],
    ) -> bool:
        """A lobby seat given up by a command: under the lock; the lobby message is redrawn
        after it (a slow Discord never holds up a Join or Start). False, having answered
        nothing, if the game started meanwhile (Start pressed as the command was typed)."""
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is not None and session.row.status == "active":
                return False
            if session is None or session.row.status != "lobby":
                problem: str | None = "That lobby is closed."
            else:
                problem = refusal(session)
            if problem is not None or session is None:
                await reply(interaction, problem or "That lobby is closed.")
                return True
            answer = done(session)
            await self.bot.store.remove_seat(game_id, user_id)
            await self.sessions.reload(session)
        await reply(interaction, answer)
        self._redraw_later(session)
        return True

    def _may_not_leave(self, session: Session, user_id: int) -> str | None:
        if session.seat(user_id) is None:
            return "You're not in this game."
        if user_id == session.row.host_id:
            return "You're the host: press **Cancel** to close the lobby."
        return None

    def _redraw_later(
        self, session: Session, closed: str | None = None, message_id: int | None = None
    ) -> None:
        """Redraw the lobby message through the presenter (or ``closed``). Drawn when the job
        runs, from the game as it is then, and drawn again if a click's answer redrew the
        message while ours was on its way: an older picture never stays last. ``message_id``:
        the lobby's, once the game started (the table is a new message)."""
        if message_id is None:
            message_id = session.row.table_message_id
        if message_id is None:
            return
        game_id, channel_id = session.id, session.row.channel_id
        key = (game_id, message_id)
        if closed is not None:
            self._closing.pop(key, None)
            self._closing[key] = closed  # the newest words win ("Cancelled by ann.")
            while len(self._closing) > CLOSING_KEPT:
                del self._closing[next(iter(self._closing))]
        job = self._redrawing.get(key)
        if job is None:
            # One job per lobby message, however many presses ask for it: a retry waiting
            # with it takes it once (each press used to add one more edit of the message
            # to every retry pass while Discord failed).

            async def redraw_lobby(s: Session) -> None:
                presenter = self.bot.presenter
                for _ in range(3):
                    current = self.sessions.cached(game_id) or s
                    presenter.lobby_sending(game_id)
                    try:
                        screen = self._lobby_now(current, self._closing.get(key))
                        await presenter.edit(channel_id, message_id, screen)
                    finally:
                        redrawn = presenter.lobby_landed(game_id)
                    if not redrawn:
                        break
                self._redrawing.pop(key, None)

            job = self._redrawing[key] = redraw_lobby
        self.bot.presenter.update(session, table=False, dms=False, jobs=[job])

    def _lobby_now(self, session: Session, closed: str | None) -> Screen:
        """The lobby message for the game as it is: open, or closed (started, ended)."""
        if closed is None and session.row.status in ("active", "finished"):
            closed = f"Started with {len(session.seats)} players — the table is below."
        elif closed is None and session.row.status != "lobby":
            closed = "This lobby was closed."
        return self.lobby(session, closed=closed)

    def _host_only(self, interaction: discord.Interaction, session: Session) -> bool:
        return interaction.user.id == session.row.host_id

    async def _add_bot(self, interaction: discord.Interaction, session: Session) -> None:
        cls = session.hosted.engine
        if not self._host_only(interaction, session):
            await reply(interaction, "Only the host can add bots.")
            return
        if len(session.seats) >= cls.max_players:
            await reply(interaction, f"This game is full ({cls.max_players} players).")
            return
        taken = {s.user_id for s in session.seats}
        index = next(i for i in range(cls.max_players) if -(i + 1) not in taken)
        level = session.row.settings.get("level", "normal")
        await self.bot.store.add_seat(
            session.id, -(index + 1), bot_name(index), human=False, level=level
        )
        await self._redraw(interaction, session)

    async def _remove_bot(self, interaction: discord.Interaction, session: Session) -> None:
        if not self._host_only(interaction, session):
            await reply(interaction, "Only the host can remove bots.")
            return
        bots = [s for s in session.seats if not s.human]
        if not bots:
            await reply(interaction, "There are no bots to remove.")
            return
        await self.bot.store.remove_seat(session.id, bots[-1].user_id)
        await self._redraw(interaction, session)

    async def _level(self, interaction: discord.Interaction, session: Session) -> None:
        if not self._host_only(interaction, session):
            await reply(interaction, "Only the host can choose how well the bots play.")
            return
        current = session.row.settings.get("level", "normal")
        level = LEVELS[(LEVELS.index(current) + 1) % len(LEVELS)] if current in LEVELS else "normal"
        settings = {**session.row.settings, "level": level}
        await self.bot.store.set_lobby_settings(session.id, settings)
        await self._redraw(interaction, session)
        about = session.hosted.bot_levels().get(level, "")
        await reply(interaction, f"Bots now play at **{level}** level. {about}".strip())

    async def _start(self, interaction: discord.Interaction, session: Session) -> None:
        cls = session.hosted.engine
        if not self._host_only(interaction, session):
            await reply(interaction, "Only the host can start the game.")
            return
        count = len(session.seats)
        if count < cls.min_players:
            need = cls.min_players - count
            await reply(
                interaction,
                f"{cls.title} needs {plural(need, 'more player')} to start. Friends can press "
                "**Join**, or add bots with **Add bot**.",
            )
            return
        if (missing := cannot_post(interaction)) is not None:
            await reply(interaction, f"{missing} Nothing was started.")
            return
        lobby_message = session.row.table_message_id  # starting stores the game with none
        if not await self.sessions.start(session, now()):
            await reply(interaction, "That lobby changed meanwhile; nothing was started.")
            return
        closed = f"Started with {count} players — the table is below."
        try:
            await components.answer_update(interaction, self.lobby(session, closed=closed))
            self.bot.presenter.answered_lobby(session.id)
        except discord.HTTPException as error:
            log.info("game %s: answering Start failed: %s", session.id, error)
            # The lobby message must not go on offering Join: redrawn by the presenter, as
            # the game is when it runs (back to its lobby if its table is refused).
            self._redraw_later(session, message_id=lobby_message)
        # The lobby message stays as a record; the table is a new message (it notifies).
        session.row.table_message_id = None

        async def first_table(s: Session) -> None:
            await self.post_first_table(s, interaction, lobby_message)

        self.bot.presenter.update(session, table=False, dms=False, jobs=[first_table])
        self.bot.wake_timers()

    async def post_first_table(
        self, session: Session, interaction: discord.Interaction, lobby_message: int | None
    ) -> None:
        """Post the table; if this channel refuses the bot's messages, go back to the lobby
        and say why (never a running game nobody can see)."""
        presenter = self.bot.presenter
        if session.row.table_message_id is not None:
            # Run again after a failure later on (the presenter retries): posted once.
            presenter.update(session, table=False, dms=True)
            return
        try:
            await presenter.post_table(session)
        except discord.Forbidden as error:
            async with self.sessions.lock(session.id):
                back = await self.bot.store.reopen_lobby(session.id)
                if back:
                    await self.sessions.reload(session)
                    session.row.table_message_id = lobby_message
                    if lobby_message is not None:
                        await self.bot.store.set_table_message(session.id, lobby_message, now())
            if back:
                channel = interaction.channel
                private = isinstance(channel, discord.Thread) and channel.is_private()
                if error.code == 50001 and private:  # Missing Access: not in the thread
                    me = self.bot.user.mention if self.bot.user else "me"
                    text = (
                        "I couldn't post the game's table in this private thread: I'm not in "
                        f"it. Mention {me} in the thread to add me, then press **Start** again. "
                        "The game is back in its lobby."
                    )
                else:
                    # 50001 Missing Access: the channel is hidden from the bot.
                    what = (
                        "**View Channel**"
                        if error.code == 50001
                        else "**Send Messages** or **Embed Links**"
                    )
                    text = (
                        "I couldn't post the game's table in this channel: I'm missing the "
                        f"{what} permission here. The game is back in its lobby; fix the "
                        "channel's permissions and press **Start** again."
                    )
                await self._tell(session, interaction, lobby_message, text)
                return
            raise
        presenter.update(session, table=False, dms=True)

    async def _tell(
        self,
        session: Session,
        interaction: discord.Interaction,
        lobby_message: int | None,
        text: str,
    ) -> None:
        """Put ``text`` on the lobby, with its buttons back (or, failing that, privately to
        the host). The lobby message is the one Start was pressed on: its interaction may
        edit it where the bot itself may not (a channel hidden from it, a private thread)."""
        screen = components.message_kwargs(self.lobby(session, notice=text))
        if lobby_message is not None:
            try:
                await interaction.edit_original_response(**screen)
                return
            except discord.HTTPException:
                pass
            channel = self.bot.get_partial_messageable(session.row.channel_id)
            try:
                await channel.get_partial_message(lobby_message).edit(**screen)
                return
            except discord.HTTPException:
                pass
        await interaction.followup.send(text, ephemeral=True)

    async def _cancel(self, interaction: discord.Interaction, session: Session) -> None:
        if not may_end(interaction, session):
            await reply(interaction, "Only the host (or a server manager) can cancel the lobby.")
            return
        await self.sessions.end(session, "ended")
        closed = f"Cancelled by {named(interaction.user.display_name, interaction.user.name)}."
        try:
            await components.answer_update(interaction, self.lobby(session, closed=closed))
        except discord.HTTPException as error:
            # The lobby is closed: its message is closed by the presenter instead.
            log.info("game %s: answering Cancel failed: %s", session.id, error)
            self._redraw_later(session, closed=closed)
            return
        self.bot.presenter.answered_lobby(session.id)

    # -- the server changing under its games --------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_deleted(channel.id, "its channel was deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_deleted(payload.thread_id, "its thread was deleted")

    async def _channel_deleted(self, channel_id: int, why: str) -> None:
        """End the channel's open game. The database failing (PostgreSQL restarting), the
        deletion is looked at again by housekeeping: no event of it comes again."""
        gone_channels(self.bot).add(channel_id)  # its games' history needs no lookup
        try:
            row = await self.bot.store.open_game_in_channel(channel_id)
        except Exception as error:
            log_failure("looking for the game of a deleted channel", error, self.bot)
            done = False
        else:
            done = await self.gone([row.id] if row else [], why, "channel_gone")
        if done:
            self._deleted_unchecked.pop(channel_id, None)
        else:
            self._deleted_unchecked[channel_id] = why

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        left = self.bot.left_servers
        left[guild.id] = guild.name
        if len(left) > LEFT_SERVERS_KEPT:
            del left[next(iter(left))]
        try:
            rows = await self.bot.store.open_games_in_guild(guild.id)
        except Exception as error:
            log_failure("looking for the games of a server the bot left", error, self.bot)
            rows, done = [], False
        else:
            ids = [r.id for r in rows]
            done = await self.gone(ids, "the bot was removed from its server", "server_left")
        if not done:
            # The database failed (PostgreSQL restarting): housekeeping ends them later, as
            # it does those of a server left while the bot was down (gone from its cache).
            self._left_unchecked = True

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # The database away (PostgreSQL restarting with the bot): no other READY may come for
        # days, so the housekeeping passes try again until it is back.
        self._left_unchecked = not await self.end_games_of_servers_left()

    async def end_games_of_servers_left(self) -> bool:
        """A removal from a server while the bot was down is never heard (no GUILD_DELETE):
        the server is simply missing from READY, which lists every server the bot is in, even
        those Discord cannot serve now. Their open games end as if the removal was heard.
        False if the database failed any of it (to be tried again)."""
        try:
            rows = await self.bot.store.open_game_guilds()
        except Exception as error:
            log_failure("looking for games of servers the bot left", error, self.bot)
            return False
        left = [
            game_id
            for game_id, guild_id in rows
            if self.bot.serves_guild(guild_id) and self.bot.get_guild(guild_id) is None
        ]
        return await self.gone(
            left, "the bot was removed from its server while it was away", "server_left"
        )

    async def gone(self, game_ids: list[int], why: str, reason: str) -> bool:
        """End the open games whose channel is gone: nobody could play or end them, and each
        move would send Discord calls that can only fail. Their players' DMs say why
        (``reason``: channel_gone, server_left, thread_locked). False if ending any of them
        failed."""
        done = True
        for game_id in game_ids:
            try:
                async with self.sessions.lock(game_id):
                    session = await self.sessions.get(game_id)
                    if session is None or not session.row.is_open:
                        continue
                    started = session.row.status == "active"
                    if not await self.sessions.end(session, reason):
                        continue
                log.info("game %s ended: %s", game_id, why)
                if started:
                    self.bot.presenter.table_gone(session)
                    self.bot.presenter.update(session, table=False)  # the DMs: "ended early"
            except Exception as error:
                log_failure(f"game {game_id}: ending it ({why})", error, self.bot)
                done = False
        return done

    # -- /endgame, /games --------------------------------------------------------------------
    @app_commands.command(name="endgame", description="End this channel's game (host or managers).")
    @app_commands.guild_only()
    @in_guild()
    async def endgame(self, interaction: discord.Interaction) -> None:
        row = await self.bot.store.open_game_in_channel(interaction.channel_id or 0)
        if row is None:
            await reply(interaction, "There's no game in this channel.")
            return
        async with self.sessions.lock(row.id):
            session = await self.sessions.get(row.id)
            if session is None or not session.row.is_open:
                await reply(interaction, "That game has already ended.")
                return
            if not may_end(interaction, session):
                await reply(interaction, not_allowed(interaction, session, "end this game"))
                return
            was_lobby = session.row.status == "lobby"
            if not await self.sessions.end(session, "ended"):
                await reply(interaction, "That game has already ended.")
                return
            who = named(interaction.user.display_name, interaction.user.name)
            text = f"Game #{row.id} was ended by {who}."
            # Like every ended game's post: its players may start it again at once.
            again = Screen(rows=[[Button("Play again", ids.again(row.id), "primary", emoji="🔁")]])
            kwargs: dict[str, Any] = {}
            if not was_lobby:
                kwargs["view"] = components.to_view(again)
            jobs: list[Job] = []
            try:
                await replies.public(
                    interaction,
                    content=text,
                    allowed_mentions=discord.AllowedMentions.none(),
                    **kwargs,
                )
            except discord.HTTPException as error:
                # The game is ended all the same: its table and DMs must show it, and the
                # channel is told by a post instead.
                log.info("game %s: answering /endgame failed: %s", row.id, error)

                nonce = post_nonce("ended", row.id)

                async def notice(s: Session) -> None:
                    await self.bot.presenter.post(s, text, screen=again, nonce=nonce)

                jobs.append(notice)
        if was_lobby or session.game is None:
            self._redraw_later(session, closed=f"Cancelled by {who}.")
        else:
            self.bot.presenter.update(session, jobs=jobs)

    @app_commands.command(name="games", description="The games open in this server.")
    @app_commands.guild_only()
    @in_guild()
    async def games(self, interaction: discord.Interaction) -> None:
        rows = await self.bot.store.open_games_in_guild(interaction.guild_id or 0)
        # A private channel's games stay private, as in /history and /replay.
        rows, unchecked = await visible(interaction, rows)
        if not rows:
            text = "No games are open in this server. Start one with `/newgame`!"
            if unchecked:
                text = f"None of the open games I could check is one you can see. {UNCHECKED}"
            await reply(interaction, text)
            return
        lines = []
        for row in rows[:50]:
            seats = await self.bot.store.seats(row.id)
            title = GAMES[row.kind].title
            state = "waiting in the lobby" if row.status == "lobby" else "in progress"
            link = table_link(row)
            lines.append(
                f"**#{row.id} {title}** in <#{row.channel_id}> — {plural(len(seats), 'player')}, "
                f"{state} · [table]({link})"
            )
        listed = whole_lines(lines, 4000, "more games", total=len(rows))
        embed = discord.Embed(title="Open games", description=listed)
        if unchecked:
            embed.set_footer(text=UNCHECKED)
        await reply(interaction, embed=embed)

    # -- housekeeping -----------------------------------------------------------------------------
    @tasks.loop(seconds=HOUSEKEEPING_EVERY)  # the interval is set from the lobby timeout
    async def housekeeping(self) -> None:
        # Never raises: an error would end this loop for good (discord.py's tasks.loop), and
        # abandoned lobbies would hold their channels until a restart.
        if self._left_unchecked:
            self._left_unchecked = not await self.end_games_of_servers_left()
        for channel_id, why in list(self._deleted_unchecked.items()):
            await self._channel_deleted(channel_id, why)
        if self.bot.servers_to_ask:
            await self.bot.ask_about_servers()  # a shard's READY left them out
        for game_id in list(self._unclosed):
            if await self._end_unkept(game_id):
                self._unclosed.discard(game_id)
        await self.expire_lobbies()

    async def expire_lobbies(self) -> None:
        """Close the lobbies nobody touched for the lobby timeout (an indexed range query)."""
        cutoff = now() - self.bot.settings.lobby_timeout_minutes * 60
        try:
            stale = await self.bot.store.stale_lobbies(cutoff)
        except Exception as error:
            log_failure("expiring lobbies", error, self.bot)
            return
        for game_id in stale:
            try:
                await self.expire(game_id, cutoff)
            except Exception as error:
                log_failure(f"lobby {game_id}: expiring", error, self.bot)

    async def expire(self, game_id: int, cutoff: float) -> None:
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is None or session.row.status != "lobby":
                return
            await self.sessions.reload(session)
            if session.row.updated_at >= cutoff or not await self.sessions.end(session, "expired"):
                return
        if session.row.table_message_id:
            # Through the presenter, which tries again when Discord fails (a 429, a 5xx):
            # a closed lobby must not go on offering Join.
            self._redraw_later(session, closed="This lobby expired. Start a new one with /newgame.")


def may_end(interaction: discord.Interaction, session: Session) -> bool:
    """The host while they play in the game, or a member who may manage the server: end
    the game, cancel, kick. A host who left the game or was removed from it runs it no more
    (a host removed by a manager could otherwise remove everyone else, or end it)."""
    if interaction.user.id == session.row.host_id and _away(session, interaction.user.id) is None:
        return True
    # The member's permissions as the interaction carries them (no member cache needed).
    return interaction.permissions.manage_guild


def not_allowed(interaction: discord.Interaction, session: Session, doing: str) -> str:
    """Why ``may_end`` refused ``interaction.user`` ``doing`` (\"end this game\")."""
    away = _away(session, interaction.user.id)
    if interaction.user.id == session.row.host_id and away == "kicked":
        return f"You were removed from this game, so you can no longer {doing}."
    if interaction.user.id == session.row.host_id and away == "left":
        return f"You left this game: take your seat back with `/back` to {doing}."
    return f"Only the host or someone with Manage Server can {doing}."


def _away(session: Session, user_id: int) -> str | None:
    """Why a member's seat is played by a bot when they chose or were made to give it up."""
    seat = session.seat(user_id)
    return seat.away if seat is not None and seat.away in ("kicked", "left") else None


def _param(name: str, annotation: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation, default=None
    )


async def _guild_check(interaction: discord.Interaction) -> bool:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return True


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Lobby(bot))
