"""The one timer loop: turn timers, a phase's own clock, bot moves and turn reminders.

Every clock is a deadline stored with its game (``clocks`` and the nearest as ``wake_at``), so
a restart picks them up where they were; the loop sleeps until the nearest one. What a clock
does is an ordinary move through the same path as a click (lock, apply, store, show), checked
against the game's version, so a clock that fires twice (a restart, a second process) acts
once. Bots decide outside the lock, on the version they saw; the move is applied only if the
game has not moved on meanwhile.

A due game is claimed before it fires (its ``wake_at`` moves a lease ahead, skipping rows
another process is claiming), so with several processes on one database exactly one fires
each clock, and if that process dies another fires it once the lease is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

import engine.bots
from cogs import show
from cogs.clock import now
from cogs.presenter import DRAW_LEASE_POLLS, ENDED_UNSHOWN_WITHIN, post_nonce, reply_refused
from cogs.replies import log_failure
from cogs.sessions import STRIKES_TO_BOT, Session, Shown
from cogs.timing import bot_moves, wake_at
from db import StaleVersion, StoreUnavailable
from engine import Event, IllegalAction
from engine.bots.base import pick_id

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)

IDLE = 300.0  # seconds between looks when no clock is near (a safety net: wake() is the rule)
LEASE = 30.0  # seconds a claimed game is this process's to fire
NO_HISTORY = 160002  # Discord: a reply refused without Read Message History
BUSY = 0.2  # seconds before claiming again a due game whose row another transaction held
SWEEP_EVERY = 60.0  # seconds between sweeps of the game cache (``Sessions.sweep``)
HOUR = 3600.0  # the longest wait between two redraws of a game Discord keeps refusing
DOWN_LOOK = 2.0  # seconds between looks while the database is unavailable
LOOKS_KEPT = 5000  # members' looks remembered before the old ones are swept (``looked``)
OUTAGES_KEPT = 10  # the database's last outages remembered (deadlines in them start over)
OUTAGE_KEPT = 3 * 3600.0  # seconds a server's outage is remembered after it ended
OUTAGE_RESTARTS_AFTER = 10.0  # seconds of outage after which its turns start over in full
DELETE_RETRIES = (0.0, 30.0, 120.0, 600.0)  # seconds before each try to delete an old reminder
# Sharing the database, each process notes when its clock loop last looked (a ``meta`` row
# per process, forgotten at a graceful stop); notes older than this are a dead process's.
PASS_NOTE = "clock_pass:"
PASS_NOTES_KEPT = 86400.0


@dataclass(slots=True)
class BotTurn:
    player: str
    level: str
    version: int
    view: dict[str, Any]
    actions: list[engine.Action]
    rng: random.Random


def plain_move(session: Session, user_id: int) -> str | None:
    """A legal move for the seat, chosen without any policy: the first action the rules
    take (one needing a pick, with its first options)."""
    game = session.game
    assert game is not None
    player = str(user_id)
    for action in game.legal_actions(player):
        move = (
            action.id
            if action.pick is None
            else pick_id(action, action.pick.options[: action.pick.min])
        )
        try:
            game.copy().apply(player, move)
        except IllegalAction:
            continue
        return move
    return None


class Timers(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.sessions = bot.sessions
        self._sleeping = False
        self._until: float | None = None  # while asleep: when the loop looks next (now())
        self._woken = False
        self._firing: dict[int, asyncio.Task[None]] = {}
        self._task: asyncio.Task[None] | None = None
        self._swept = now()
        self._started = now()  # deadlines passed before this are time nobody could play in
        # The database's outages as this loop met them, (from, to): a deadline in one fell
        # while every click was refused ("nothing was changed"), time nobody could play in
        # too. ``_down_since``: the last pass that worked before the current outage.
        self._outages: list[tuple[float, float]] = []
        self._down_since: float | None = None
        self._last_ok = self._started
        # Sharing the database: when another process last looked at the clocks, if none
        # looked lately (then deadlines since ran out with no process to take a click).
        self._alone_after: float | None = None
        self._pass_noted = float("-inf")
        # (game, member) -> when the member last looked at their moves there without making
        # one (the picker, "My hand", the DM's Play): a reminder waits until they have been
        # away that long. This process's clicks only: sharing the database, another process
        # may remind as before.
        self._looked: dict[tuple[int, int], float] = {}
        self._looks_limit = LOOKS_KEPT  # swept past this; doubles if most are recent
        # Servers Discord has lost (GUILD_DELETE marked unavailable) -> since when, and the
        # outages of the last hours that ended, (from, to): deadlines in them start over.
        self._guild_down: dict[int, float] = {}
        self._guild_outages: dict[int, list[tuple[float, float]]] = {}
        self._looked_for_others = False
        # Sharing the database: games this process redrew for another -> (looks so far,
        # the time it may look again), for those Discord keeps refusing.
        self._looks: dict[int, tuple[int, float]] = {}
        self._claims_dropped = False
        # Reminders posted whose message id the database has not kept yet -> (id, whom):
        # the presenter's retry of that job stores the id instead of posting it again.
        # (Its id, the token of the job that posted it, the reminder before it, to delete.)
        self._nudges_unsaved: dict[int, tuple[int, int | None, int | None]] = {}
        self._reminders = itertools.count()  # reminder tokens (``post_nudge``)
        # With a token, a reminder's nonce: tokens count from 0 again after a restart.
        self._process = secrets.token_hex(8)
        # Old reminders being deleted (tried again when Discord fails) -> (channel, message).
        self._deleting: dict[asyncio.Task[None], tuple[int, int]] = {}

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="game-clocks")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self.sessions.shared and self._pass_noted > float("-inf"):
            # A graceful stop: the next process to start need not wait for this one's note
            # to grow old before it gives back what runs out in between.
            with contextlib.suppress(Exception):
                key = PASS_NOTE + self.sessions.process
                await asyncio.wait_for(self.bot.store.set_meta(key, None), 2.0)
        for task in self._firing.values():
            task.cancel()
        # A graceful stop: an old reminder still to delete is tried once more now, rather
        # than left standing ("your turn" for a turn long played) by the restart.
        owed = list(self._deleting.values())
        for task in list(self._deleting):
            task.cancel()
        if owed:
            tries = [self.bot.http.delete_message(c, m) for c, m in owed]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*tries, return_exceptions=True), 2.0)

    def wake(self) -> None:
        """A clock may have moved: look again now (restarts the sleep, never a pass)."""
        self._woken = True  # heard mid-pass: that pass looks again instead of sleeping
        if self._sleeping and self._task is not None:
            self._task.cancel()
            self._task = asyncio.create_task(self._loop(), name="game-clocks")

    def moved(self, at: float | None) -> None:
        """One game's nearest clock is now ``at`` (None: it has none). A loop asleep until an
        earlier moment sleeps on: most moves set a clock (a reminder) later than the nearest
        one, and looking again would cost a query per move for nothing."""
        if self._sleeping and self._until is not None and (at is None or at >= self._until):
            return
        self.wake()

    async def _loop(self) -> None:
        # With a shared database other processes set clocks too, and wake() only hears this
        # one's: look every CLOCK_POLL_SECONDS, so a process that dies has its clocks fired
        # by another within that time (or the lease, for one it was firing).
        idle = min(IDLE, self.bot.settings.clock_poll) if self.sessions.shared else IDLE
        if not self.sessions.shared and not self._claims_dropped:
            # Once per start: wake() starts this loop over at every fired clock, and the
            # hand-back reads the clocks of every game waking within a lease.
            self._claims_dropped = True
            await self._drop_old_claims()
        if self.sessions.shared and not self._looked_for_others:
            self._looked_for_others = True
            await self._look_for_others()
        while not self.bot.is_closed():
            delay = idle
            self._woken = False
            try:
                moment = now()
                nearest = await self.bot.store.next_wake()
                if self._down_since is not None:
                    # Reads may work while writes do not (a lock held by another program):
                    # the outage ends when a write goes through.
                    await self.bot.store.probe_write()
                self._database_ok(moment)
                if nearest is not None and nearest <= moment:
                    for game_id in await self.bot.store.claim_due(moment, LEASE):
                        if game_id not in self._firing:
                            self._firing[game_id] = asyncio.create_task(
                                self._fire(game_id), name=f"clock-{game_id}"
                            )
                    nearest = await self.bot.store.next_wake()
                if nearest is not None:
                    # Still due after claiming: its row was busy in another transaction (a
                    # claim skips those), so look again soon rather than after ``idle``.
                    delay = min(idle, max(0.05, nearest - moment) if nearest > moment else BUSY)
                if self.sessions.shared:
                    await self.redraw_orphans(moment)
                    await self._note_pass(moment)
                if moment - self._swept >= SWEEP_EVERY:
                    self._swept = moment
                    await self.sessions.sweep(before=self.bot.presenter.note_shown)
            except StoreUnavailable as error:
                if self._down_since is None:
                    self._down_since = self._last_ok
                    log.warning("clock pass: %s", error)  # once per outage, not every look
                delay = min(delay, DOWN_LOOK)  # to hear soon that it is back
            except Exception as error:
                log_failure("clock pass", error, self.bot)
            if self._woken:
                continue
            # A plain sleep (which the test simulator's virtual clock drives); wake() cancels it.
            self._until = now() + delay
            self._sleeping = True
            try:
                await asyncio.sleep(delay)
            finally:
                self._sleeping = False

    async def _look_for_others(self) -> None:
        """Sharing the database, once at start: if no other process looked at the clocks
        lately, deadlines since the last look ran out while no process could take a click
        (a deploy): they are given back (``_missed``), as alone on SQLite."""
        moment = now()
        try:
            notes = await self.bot.store.meta_like(PASS_NOTE)
            seen = {key: float(value) for key, value in notes.items()}
            for key, when in seen.items():
                if when < moment - PASS_NOTES_KEPT:
                    await self.bot.store.set_meta(key, None)
        except Exception as error:
            log.info("clock pass: looking for other processes failed: %s", error)
            return  # as if others ran: only deadlines well before the start are given back
        others = [when for key, when in seen.items() if key != PASS_NOTE + self.sessions.process]
        if all(when < self._started - self._slack() for when in others):
            self._alone_after = max(others, default=float("-inf"))

    async def _note_pass(self, moment: float) -> None:
        """Sharing the database: note that this process looks at the clocks (at most once
        a poll; ``_look_for_others``)."""
        if moment - self._pass_noted >= self.bot.settings.clock_poll:
            await self.bot.store.set_meta(PASS_NOTE + self.sessions.process, repr(moment))
            self._pass_noted = moment

    def _slack(self) -> float:
        """Sharing the database, deadlines this close before the start may be another
        running process's to fire (it looks every poll)."""
        return min(2 * self.bot.settings.clock_poll, 10.0) if self.sessions.shared else 0.0

    async def _drop_old_claims(self) -> None:
        """Alone on the database, claims a stopped process left (a lease ahead of the clocks,
        taken just before a kill -9 or a graceful stop) protect against nobody: each game
        wakes at its nearest clock again, so a bot's move is not held up for a lease."""
        try:
            moment = now()
            for game_id, clocks, was in await self.bot.store.wakes_between(moment, moment + LEASE):
                nearest = wake_at(clocks)
                if nearest is None or nearest < was:
                    await self.bot.store.set_wake(game_id, was, nearest)
        except Exception as error:
            log_failure("handing back the clocks claimed before the start", error, self.bot)

    async def redraw_orphans(self, moment: float) -> None:
        """Show the games another process stored a change to but never finished showing (it
        died between the commit and its Discord edits): claimed, so one process redraws each."""
        after = DRAW_LEASE_POLLS * self.bot.settings.clock_poll
        # A game this process redrew and Discord refused again (a channel closed to the bot)
        # is looked at twice as late each time (up to about an hour), tried once, not retried:
        # a call now and then, not one every poll (Discord bans a bot making too many).
        self._looks = {g: v for g, v in self._looks.items() if v[1] > moment - 2 * HOUR}
        waiting = [g for g, (_, due) in self._looks.items() if due > moment]
        claimed = await self.bot.store.claim_undrawn(
            self.sessions.process,
            moment,
            after,
            after,
            ended_since=moment - ENDED_UNSHOWN_WITHIN,
            skip=waiting,
        )
        for game_id in claimed:
            count = self._looks.get(game_id, (0, moment))[0]
            self._looks[game_id] = (count + 1, moment + min(HOUR, after * 2**count))
            async with self.sessions.lock(game_id):
                session = await self.sessions.get(game_id)
            if session is not None and session.game is not None:
                session.shown = Shown()  # the dead process may have drawn any part of it
                self.bot.presenter.update(session, once=count > 0)

    async def _fire(self, game_id: int) -> None:
        began = self.sessions.tick()  # the claim came before this
        try:
            for _ in range(100):  # several clocks may be due; each step makes progress
                if not await self.fire_once(game_id):
                    break
            if not self.sessions.clocks_stored_since(game_id, began):
                await self._settle(game_id)
        except StoreUnavailable as error:
            # An outage (said once by the loop), not a bug: the claim's lease brings the
            # clock back, and the time that passes meanwhile is given back.
            log.info("game %s: clock: %s", game_id, error)
            self.heard_outage()
        except Exception as error:
            log_failure(f"game {game_id}: clock", error, self.bot)
        finally:
            self._firing.pop(game_id, None)
            self.wake()

    async def _settle(self, game_id: int) -> None:
        """End the claim: the game wakes next at its nearest clock (the claim moved it). Only
        needed when no write of this process stored the clocks since (``_fire``)."""
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is not None and session.row.status == "active":
                await self.sessions.set_clocks(session, session.row.clocks)
                if self.sessions.shared:  # drawn as of the new revision (nothing to edit)
                    self.bot.presenter.update(session, table=False, dms=False)

    async def fire_once(self, game_id: int) -> bool:
        """Do the first due thing of the game's clocks; False when nothing is due."""
        turn: BotTurn | None = None
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session is None or session.game is None or session.row.status != "active":
                return False
            moment = now()
            if (given := await self._give_back_time(session, moment)) is not None:
                return given
            clocks = session.row.clocks
            phase = clocks.get("phase")
            if phase and phase[1] <= moment:
                return await self._phase_over(session, moment)
            due = sorted(p for p, t in clocks.get("turn", {}).items() if t <= moment)
            if due:
                return await self._time_out(session, due[0], moment)
            reminders = sorted(p for p, t in clocks.get("nudge", {}).items() if t <= moment)
            if reminders:
                return await self._remind(session, reminders, moment)
            bot_at = clocks.get("bot")
            if bot_at is None or bot_at > moment:
                return False
            turn = self._bot_turn(session)
            if turn is None:
                return await self._recompute(session, moment)
        # Outside the lock: a bot thinking never holds up a member's click.
        choice = await self._decide(session, turn)
        async with self.sessions.lock(game_id):
            current = await self.sessions.get(game_id)
            seat = current.seat(int(turn.player)) if current is not None else None
            if current is None or current.version != turn.version or not (seat and seat.is_bot):
                # The game moved on meanwhile, or the member took the seat back ("I'm back"
                # changes no version): look again.
                return True
            return await self._apply(current, int(turn.player), choice, now())

    def heard_outage(self) -> None:
        """A click or command found the database unavailable: the outage starts (at the
        last pass that worked, as for the loop's own), and the loop looks again soon, so
        that deadlines passing meanwhile are given back (``_missed``)."""
        if self._down_since is None:
            self._down_since = self._last_ok
            self.wake()

    def _database_ok(self, moment: float) -> None:
        self._last_ok = moment
        if self._down_since is not None:
            log.info("clock pass: the database answers again")
            self._outages = [*self._outages[-(OUTAGES_KEPT - 1) :], (self._down_since, moment)]
            self._down_since = None

    def _missed(self, deadline: float, guild_id: int | None = None) -> bool:
        """The deadline passed while no process of this bot ran (a deploy, a crash), while
        the database refused everything, or while Discord had lost the game's server (an
        outage of Discord's): nobody could click then. Sharing the database, one that passed
        just before this process started was another's to fire, so only those older than a
        few polls count, unless no other process looked at the clocks since."""
        if deadline < self._started - self._slack():
            return True
        if self._alone_after is not None and self._alone_after < deadline < self._started:
            return True
        if any(start <= deadline <= end for start, end in self._outages):
            return True
        if guild_id is None:
            return False
        guild = self.bot.get_guild(guild_id)
        if guild is not None and guild.unavailable:
            # Known by its id alone (a new gateway session, before its GUILD_CREATE): its
            # buttons may not answer. Given back, but not counted as an outage (a GUILD_CREATE
            # a moment late must not restart every turn of the server in full).
            return True
        down = self._guild_down.get(guild_id)
        if down is not None and down <= deadline:
            return True
        return any(start <= deadline <= end for start, end in self._guild_outages.get(guild_id, []))

    # -- Discord's outages of a server (its buttons cannot be pressed meanwhile) --------------
    @commands.Cog.listener()
    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self._guild_down.setdefault(guild.id, now())

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self._still_unavailable(None)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        self._still_unavailable(shard_id)

    def _still_unavailable(self, shard_id: int | None) -> None:
        """After a (new) gateway session, once Discord has sent the servers it can: those
        still known by their id alone are in an outage (READY lists them, and no event says
        they went down). Not before: every server is known so for a moment after READY."""
        moment = now()
        for guild in self.bot.guilds:
            if guild.unavailable and (shard_id is None or guild.shard_id == shard_id):
                self._guild_down.setdefault(guild.id, moment)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self._guild_down.pop(guild.id, None)  # left (or removed) during its outage

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self._guild_down.pop(guild.id, None)  # invited back: a server like any other

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        start = self._guild_down.pop(guild.id, None)
        if start is None:
            return
        moment = now()
        kept = [o for o in self._guild_outages.get(guild.id, []) if moment - o[1] < OUTAGE_KEPT]
        self._guild_outages[guild.id] = [*kept, (start, moment)]
        # Forget servers whose outages are all old (one entry per server otherwise, for good).
        for other in [g for g in self._guild_outages if g != guild.id]:
            if all(moment - end >= OUTAGE_KEPT for _, end in self._guild_outages[other]):
                del self._guild_outages[other]
        self.wake()  # deadlines that ran out meanwhile start over now
        if moment - start < OUTAGE_RESTARTS_AFTER:
            return  # a moment's gap (a reconnect's GUILD_CREATE a little late): no outage
        # Those given back during the outage ran on: the turns start over in full now that
        # the table can be pressed again.
        try:
            rows = await self.bot.store.open_games_in_guild(guild.id)
            for row in rows:
                if row.status != "active":
                    continue
                async with self.sessions.lock(row.id):
                    session = await self.sessions.get(row.id)
                    if session is not None and session.game is not None:
                        if session.row.status == "active":
                            await self._give_back_time(session, now(), server_back=True)
        except Exception as error:
            log_failure(f"server {guild.id}: clocks after its outage", error, self.bot)

    async def _give_back_time(
        self, session: Session, moment: float, server_back: bool = False
    ) -> bool | None:
        """Turn and phase clocks that ran out while the bot was away start over (in full:
        how much was left when it stopped is not known after a crash), the table showing the
        new deadline, instead of timing out members for time they never had. None if none.
        ``server_back``: the game's server is back from an outage of Discord's: every clock
        with less than its full time left starts over in full."""
        game = session.game
        assert game is not None
        clocks = session.row.clocks
        given = dict(clocks)
        guild_id = session.row.guild_id

        def starts_over(deadline: float, full: float) -> bool:
            if server_back:
                return deadline < moment + full
            return deadline <= moment and self._missed(deadline, guild_id)

        phase = clocks.get("phase")
        # The phase's full time is worked out only when it may start over (a game view).
        if phase and (server_back or starts_over(phase[1], 0.0)):
            spec = session.hosted.phase_clock(game.view(None))
            if spec is not None and spec[0] == phase[0] and starts_over(phase[1], spec[1]):
                given["phase"] = [phase[0], moment + spec[1]]
        timer = session.row.settings.get("turn_timer")
        turn = dict(clocks.get("turn", {}))
        missed = [p for p, t in turn.items() if timer and starts_over(t, timer)]
        if timer and missed:
            given["turn"] = {**turn, **{p: moment + timer for p in missed}}
        if given == clocks:
            return None
        if await self.sessions.set_clocks(session, given):
            log.info("game %s: clocks that ran out while the bot was away start over", session.id)
            self.bot.presenter.update(session)
        return True

    # -- the four clocks ------------------------------------------------------------------------
    async def _phase_over(self, session: Session, moment: float) -> bool:
        game = session.game
        assert game is not None
        moves = session.hosted.phase_timeout(game)
        if not moves:
            return await self._recompute(session, moment)
        player, action = moves[0]
        # Said plainly, so a move made by the clock never reads like the player's own.
        note = Event(f"⏰ Time's up: the clock moves for {player}.")
        return await self._apply(session, int(player), action, moment, note=note, by_clock=True)

    async def _time_out(self, session: Session, player: str, moment: float) -> bool:
        game = session.game
        assert game is not None
        actions = game.legal_actions(player)
        if not actions or player not in session.humans:
            return await self._recompute(session, moment)
        seat = session.seat(int(player))
        strikes = (seat.strikes if seat else 0) + 1
        choice = await self._choose(
            session,
            player,
            (session.row.kind, "normal", game.view(player), actions, session.bot_rng(player)),
        )
        if player in session.row.clocks.get("struck", []):
            note = Event(f"⏰ {player} is still away: a bot finishes their turn.")
        else:
            note = Event(
                f"⏰ {player} ran out of time: a bot moved for them "
                f"(strike {min(strikes, STRIKES_TO_BOT)} of {STRIKES_TO_BOT})."
            )
        return await self._apply(session, int(player), choice, moment, timed_out=True, note=note)

    def looked(self, game_id: int, user_id: int) -> None:
        """The member looked at their moves in the game (a click that made none): someone
        choosing is not reminded that it is their turn (``_remind``)."""
        moment = now()
        self._looked[(game_id, user_id)] = moment
        if len(self._looked) > self._looks_limit:
            since = moment - self.sessions.timing.nudge_after
            self._looked = {k: t for k, t in self._looked.items() if t > since}
            # Amortised: a sweep that frees little is not repeated at every click.
            self._looks_limit = max(LOOKS_KEPT, 2 * len(self._looked))

    async def _remind(self, session: Session, players: list[str], moment: float) -> bool:
        clocks = dict(session.row.clocks)
        after = self.sessions.timing.nudge_after
        # Who looked at their moves within the delay is choosing: reminded only once they
        # have been away that long (a move of theirs starts the delay over anyway).
        later = {}
        for p in players:
            looked = self._looked.get((session.id, int(p)))
            if looked is not None and looked + after > moment:
                later[p] = looked + after
        if later:
            clocks["nudge"] = {**clocks.get("nudge", {}), **later}
            players = [p for p in players if p not in later]
            if not players:
                await self.sessions.set_clocks(session, clocks)
                return True
        nudge = {p: t for p, t in clocks.get("nudge", {}).items() if p not in players}
        if nudge:
            clocks["nudge"] = nudge
        else:
            clocks.pop("nudge", None)
        clocks["nudged"] = sorted(set(clocks.get("nudged", [])) | set(players))
        # Stored first: a crash right after can lose a reminder, never send it twice.
        if not await self.sessions.set_clocks(session, clocks):
            return True
        wanted = [int(p) for p in players if await self.bot.store.wants_nudges(int(p))]
        if wanted:
            token = next(self._reminders)  # tells this job's retries from a later reminder

            async def remind(s: Session) -> None:
                await self.post_nudge(s, wanted, token=token)

            self.bot.presenter.update(session, table=False, dms=False, jobs=[remind])
        return True

    def _bot_turn(self, session: Session) -> BotTurn | None:
        """The next bot to move: optional moves (an UNO catch) before the awaited turn."""
        game = session.game
        assert game is not None
        awaited = set(session.hosted.awaited(game))
        bots = [s for s in session.seats if s.is_bot]
        bots.sort(key=lambda s: (str(s.user_id) in awaited, s.seat))
        for seat in bots:
            player = str(seat.user_id)
            actions = bot_moves(game, session.hosted, player, awaited)
            if actions:
                level = seat.level or session.row.settings.get("level", "normal")
                return BotTurn(
                    player,
                    level,
                    session.version,
                    game.view(player),
                    actions,
                    session.bot_rng(player),
                )
        return None

    async def _decide(self, session: Session, turn: BotTurn) -> str:
        args = (session.row.kind, turn.level, turn.view, turn.actions, turn.rng)
        return await self._choose(session, turn.player, args, threaded=turn.level != "normal")

    async def _choose(
        self, session: Session, player: str, args: tuple[Any, ...], threaded: bool = False
    ) -> str:
        """A bot's choice; if its policy fails (a bug), a plain legal move, so the game goes
        on and the failure is logged once, not at every look of the clock."""
        try:
            if threaded:  # a search takes up to a few hundred milliseconds: off the loop
                return str(await asyncio.to_thread(engine.bots.choose, *args))
            return str(engine.bots.choose(*args))  # a few milliseconds at most
        except Exception as error:
            move = plain_move(session, int(player))
            if move is None:
                raise
            log_failure(
                f"game {session.id}: a bot's choice (a plain move instead)", error, self.bot
            )
            return move

    async def _recompute(self, session: Session, moment: float) -> bool:
        """A due clock whose reason went away (a bot with nothing to do, a player no longer
        awaited): work the clocks out again, keeping reminders already given."""
        assert session.game is not None
        clocks, _ = self.sessions.clocks_for(session, session.game, moment)
        if clocks.get("bot", moment + 1) <= moment or clocks == session.row.clocks:
            clocks.pop("bot", None)
        await self.sessions.set_clocks(session, clocks)
        # The deadline the table shows may have moved; and with other processes, a change
        # nobody draws would have one of them redraw the table and every DM in full.
        self.bot.presenter.update(session)
        return True

    async def _apply(
        self,
        session: Session,
        user_id: int,
        action: str,
        moment: float,
        *,
        timed_out: bool = False,
        note: Event | None = None,
        by_clock: bool = False,
    ) -> bool:
        try:
            try:
                applied = await self.sessions.apply(
                    session,
                    user_id,
                    action,
                    moment,
                    timed_out=timed_out,
                    by_clock=by_clock,
                    extra=[note] if note else (),
                )
            except IllegalAction:
                # A policy's mistake (the rules refuse before anything is stored): the
                # same seeded choice would come again at once, for ever. A plain legal move
                # instead keeps the game going.
                plain = plain_move(session, user_id)
                if plain is None:
                    raise
                log.error("game %s: a clock's move was refused: a plain one instead", session.id)
                applied = await self.sessions.apply(
                    session,
                    user_id,
                    plain,
                    moment,
                    timed_out=timed_out,
                    by_clock=by_clock,
                    extra=[note] if note else (),
                )
        except (IllegalAction, StaleVersion) as error:
            # Never the action itself in the log: it may name a secret card.
            log.warning(
                "game %s: a clock's move was refused (%s)", session.id, type(error).__name__
            )
            await self.sessions.reload(session)
            return False
        play = self.bot.get_cog("Play")
        if play is not None:
            play.after_move(session, applied)  # type: ignore[attr-defined]
        if session.row.is_open and await self.sessions.abandon_if_empty(session):
            self.bot.presenter.announce(
                session, f"Nobody is left playing game #{session.id}: game abandoned."
            )
        return True

    # -- reminders -----------------------------------------------------------------------------
    @staticmethod
    def _still_awaited(session: Session, users: list[int]) -> list[int]:
        game = session.game
        live = game is not None and session.row.status == "active"
        awaited = set(session.hosted.awaited(game)) if live and game is not None else set()
        return [u for u in users if str(u) in awaited]

    def _may_reply(self, channel_id: int) -> bool:
        """The bot may reply in the channel (Read Message History), as far as it knows."""
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None or not hasattr(channel, "permissions_for"):
            return True  # not known here: tried, and a refusal falls back to a plain post
        return bool(channel.permissions_for(guild.me).read_message_history)

    async def post_nudge(
        self, session: Session, users: list[int], first: bool = True, token: int | None = None
    ) -> None:
        """One short message mentioning whose turn it is, with a link to the table. The
        game's previous reminder is deleted right after, off the game's drawing (Discord
        limits deletes tightly: the table and DMs must not wait on one). ``token``: the
        reminder's, the same on every retry of its job."""
        row = session.row
        unsaved = self._nudges_unsaved.get(row.id)
        if unsaved is not None:
            # Posted, its id not stored yet (the database failed): stored now, whatever
            # this call is, so the next reminder replaces it.
            posted, posted_for, before = unsaved
            await self.bot.store.set_nudge_message(row.id, posted)
            del self._nudges_unsaved[row.id]
            for held in {id(s): s for s in (session, self.sessions.cached(row.id)) if s}.values():
                held.row.nudge_message_id = posted
            if before is not None:
                self._delete_later(row.channel_id, before)
            if posted_for == token:  # a retry of the job that posted it: in the channel
                if not self._still_awaited(session, users):
                    self._delete_later(row.channel_id, posted)  # the turn was played since
                return
        # Tried again after a failure, the game may have moved on: remind only who it waits for.
        users = self._still_awaited(session, users)
        if not users:
            return
        old = row.nudge_message_id
        screen = show.nudge_screen(session, users)
        # Raw REST, as the presenter's edits: no View or Message objects to build and parse.
        # A reply to the table: Discord refuses it if the table is gone (a moderator's purge,
        # which the bot does not hear of), and the table is posted again before the reminder,
        # so its link leads somewhere. Costs no call while the table is there.
        table = row.table_message_id if first and self._may_reply(row.channel_id) else None
        # The same on every try of this reminder: one that Discord made but whose answer was
        # lost (a 5xx, a dropped connection) is handed back, not posted (and pinged) again.
        nonce = None if token is None else post_nonce("nudge", row.id, token, self._process)
        try:
            message_id = await self.bot.presenter.send(row.channel_id, screen, nonce, table)
        except discord.Forbidden as error:
            if table is None or error.code != NO_HISTORY:
                raise  # a channel closed to the bot: one refused call, not two
            # A reply needs Read Message History, which the channel may deny the bot while
            # letting it post: a plain message then.
            message_id = await self.bot.presenter.send(row.channel_id, screen, nonce)
        except discord.HTTPException as error:
            if table is None or not reply_refused(error):
                raise
            log.info("game %s: its table is gone; posting it again", row.id)
            session.shown.table = None  # drawn again (a repost) before the reminder

            async def again(s: Session) -> None:
                await self.post_nudge(s, users, first=False, token=token)

            self.bot.presenter.update(session, dms=False, jobs=[again])
            return
        # In memory first: should storing it fail, the retry stores it, never posts again.
        row.nudge_message_id = message_id
        before = old if old != message_id else None
        self._nudges_unsaved[row.id] = (message_id, token, before)
        await self.bot.store.set_nudge_message(row.id, message_id)
        del self._nudges_unsaved[row.id]
        if before is not None:
            self._delete_later(row.channel_id, before)
        # Posting can take seconds (a 429 waited out): a turn played meanwhile must not keep
        # an untrue "your turn" in the channel. (Sharing the database, the move may have
        # been made by another process.) Its id stays stored: deleted again, a harmless 404.
        # Only a look: the reminder is posted and stored, so a failure here fails no job.
        try:
            current = await self.sessions.get(row.id) or session
        except Exception as error:
            log.info("game %s: looking at its reminder again failed: %s", row.id, error)
            return
        if not self._still_awaited(current, users):
            self._delete_later(row.channel_id, message_id)

    def _delete_later(self, channel_id: int, message_id: int) -> None:
        task = asyncio.create_task(self._delete(channel_id, message_id), name="old-reminder")
        self._deleting[task] = (channel_id, message_id)
        task.add_done_callback(lambda done: self._deleting.pop(done, None))

    async def _delete(self, channel_id: int, message_id: int) -> None:
        """A reminder that is no longer true, deleted; tried again for a while when Discord
        fails, rather than leave an untrue "your turn" in the channel for good."""
        for wait in DELETE_RETRIES:
            await asyncio.sleep(wait)
            try:
                await self.bot.http.delete_message(channel_id, message_id)
                return
            except (discord.NotFound, discord.Forbidden):
                return  # gone already, or not ours to delete any more
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                log.info("deleting an old turn reminder failed: %s", error)
        log.warning("an old turn reminder in channel %s could not be deleted", channel_id)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Timers(bot))
