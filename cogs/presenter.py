"""After a change is stored: bring Discord up to date, per game, in order, coalescing.

The click path holds a game's lock only for load, check, apply, store and the click's own
answer. Everything else Discord must show (the table, the DMs, the end post, notices) is asked
for here and done by one worker task per game, after the lock: a slow or failing Discord call
(a 429, a run of 5xx) delays only that game's pictures, never a click. If several moves land
while an edit is in flight, the next edit draws the newest state once. With a shared
database (several processes) the worker first brings the game up to what is stored, and draws
again if another process moved it meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.http import MultipartParameters

from cogs import components, show
from cogs.clock import now
from cogs.render.spec import Screen
from cogs.replies import clip, log_failure
from cogs.sessions import Session, Shown
from cogs.timing import deadline_shown
from db import SeatRow

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)

TABLE_MAX_AGE = 50 * 60  # edits to messages over an hour old are rate-limited (30046)
DM_CLOSED = 50007
RETRY_AFTER = 5.0  # seconds before trying again what Discord failed (5, 10, 15 s)...
QUICK_RETRIES = 3  # ...so many times; then minutes apart, as what it refused
MAX_RETRIES = 6  # tries minutes apart (1, 2, 4... 32): about an hour in all
NO_RETRY = 1_000_000  # ``Pending.retries`` of a single try (``update(once=True)``)
RETRY_SPAN = 3600.0  # seconds a post (a job) is tried for after it first failed
DM_RETRY_EVERY = 300.0  # seconds between tries of a member's closed DMs (``retry_dm``)
REFUSED_RETRY_AFTER = 60.0  # a post refused (403, 429): tried again 1, 2, 4... minutes later
REPOST_REFUSED_WAIT = 600.0  # an old table whose repost was refused: only edited meanwhile
UNKNOWN_CHANNEL = 10003  # Discord's error code: the channel (or thread) does not exist
THREAD_ARCHIVED = 50083  # Discord's error code: a post or edit in an archived thread
THREAD_LOCKED = 160005  # Discord's error code: a post or edit in a thread its moderators locked
INVALID_FORM = 50035  # Discord's error code: a field refused (a reply to a deleted message)


def reply_refused(error: BaseException) -> bool:
    """Discord refused a post for replying to a message it no longer has."""
    return (
        isinstance(error, discord.HTTPException)
        and error.code == INVALID_FORM
        and "message_reference" in error.text
    )


# Clock polls (CLOCK_POLL_SECONDS) one process may spend drawing a game before another may
# take over; also how long a change may stay unshown before another process redraws it.
DRAW_LEASE_POLLS = 10
# How far back a game's end, stored but never shown (a stop came in between, its buttons still
# live), is looked for; an ended game's channel gone is not looked at again after that.
ENDED_UNSHOWN_WITHIN = 3600.0
# Alone on the database, which revision of each game is shown in full is stored in batches
# at least this many seconds apart: a stop between a stored change and its edits is then
# caught up at the next start (``Endings.redraw_unshown``), for one write a second at most
# instead of one per move.
MARK_DRAWN_EVERY = 1.0
TABLE = 0  # the table's key among a game's messages in flight (a DM's is its member's id)

Job = Callable[[Session], Awaitable[None]]


@dataclass(slots=True)
class Pending:
    session: Session
    table: bool = False
    dms: bool = False
    jobs: list[Job] = field(default_factory=list)
    retries: int = 0  # passes the table and DMs were tried in and failed
    failing: dict[Job, float] = field(default_factory=dict)  # each job's first failure (now())
    reload: bool = False  # a retry of a game no longer cached: its copy may be old


def post_nonce(*parts: object) -> str:
    """One post's nonce, the same on every try, across restarts: made of what identifies
    the post (the game, its version, the message it replaces). Discord answers a nonce it
    saw in the last few minutes with the message it made then; at most 25 characters."""
    text = "/".join(str(p) for p in parts)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def table_key(session: Session) -> tuple[object, ...]:
    """What the table shows: the version, the status, the deadline shown, who plays which
    seat (and why a bot plays a member's: a kicked member is offered no "I'm back"), and the
    names."""
    deadline = deadline_shown(session.row.clocks)
    seats = tuple((s.is_bot, s.away, s.name) for s in session.seats)
    return (session.version, session.row.status, int(deadline) if deadline else None, seats)


class Presenter:
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self._pending: dict[int, Pending] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        # (game, TABLE or member id) -> whether a click's answer redrew that message while
        # our edit of it was in flight. Kept here, not on the session: after a failed write
        # the click path works on a new copy of the game while the worker draws the old one.
        self._in_flight: dict[tuple[int, int], bool] = {}
        # Alone on the database: game -> revision shown in full, not stored yet.
        self._drawn: dict[int, int] = {}
        self._drawn_ended: set[int] = set()  # of those, games whose end was what was shown
        # Retries waiting for their time (``call_later``), run at once by a graceful stop.
        self._waiting: dict[
            int,
            tuple[asyncio.TimerHandle, tuple[Session, tuple[bool, bool], int, dict[Job, float]]],
        ]
        self._waiting = {}
        self._waiting_for: dict[int, int] = {}  # game -> the key of its retry waiting
        self._retry_keys = itertools.count()
        self._notices = itertools.count()  # with ``_process``, each notice's nonce (``announce``)
        self._process = secrets.token_hex(8)
        self._marking: asyncio.Task[None] | None = None
        self._marked_at = float("-inf")  # loop time of the last batch stored
        # (game, member) whose hand DM went out but storing its id failed: stored by the
        # retry, which finds the id on the seat and only edits the DM.
        self._dm_unsaved: set[tuple[int, int]] = set()
        # Games whose table was posted but its id not stored (a database blink): the retry
        # stores it, else the next start would know only the table before it.
        self._table_unsaved: set[int] = set()
        # Games Discord refused (403) in the pass under way: no quick retries for them.
        self._refused: set[int] = set()
        # (game, member) whose closed DMs are being tried again (``retry_dm``), and when a
        # member's were last tried: refused again, they are marked closed without a notice.
        self._dm_retrying: set[tuple[int, int]] = set()
        self._dm_retried: dict[int, dict[int, float]] = {}
        # member -> games of theirs marked DMs closed, as far as this process has seen: a DM
        # that reaches the member in one game means their DMs are open for the others too.
        self._dm_closed_in: dict[int, set[int]] = {}
        # (game, member) whose DM failed to draw for a reason other than Discord (logged once).
        self._dm_failed: set[tuple[int, int]] = set()
        # Games whose old table could not be reposted (403): when to try posting again.
        self._repost_refused: dict[int, float] = {}

    # -- asking ---------------------------------------------------------------------------
    def update(
        self,
        session: Session,
        *,
        table: bool = True,
        dms: bool = True,
        jobs: list[Job] | None = None,
        once: bool = False,
    ) -> None:
        """Ask for the game's table and DMs (and ``jobs``) to be brought up to date. ``once``:
        a single try, not retried if Discord refuses it (a look that is itself repeated)."""
        game_id = session.id
        pending = self._pending.get(game_id)
        if pending is None:
            pending = self._pending[game_id] = Pending(session)
            if once:
                pending.retries = NO_RETRY
        pending.session = session  # the newest object holding the committed state
        pending.table |= table
        pending.dms |= dms
        pending.jobs += jobs or []
        worker = self._workers.get(game_id)
        if worker is None or worker.done():
            self._workers[game_id] = asyncio.create_task(
                self._work(game_id), name=f"present-{game_id}"
            )

    async def idle(self) -> None:
        """Wait until every game's Discord work is done (tests, shutdown)."""
        while True:
            busy = [w for w in self._workers.values() if not w.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    def close(self) -> None:
        for worker in self._workers.values():
            worker.cancel()
        if self._marking is not None:
            self._marking.cancel()

    # -- doing ----------------------------------------------------------------------------
    async def _work(self, game_id: int) -> None:
        while (pending := self._pending.pop(game_id, None)) is not None:
            session = pending.session
            # A lobby has no table or DMs to draw, but may have jobs (closing its message).
            drawing, leased = (False, None)
            if session.game is not None:
                if pending.reload:
                    session = await self._stored(session)
                session = await self._current(session)
                drawing, leased = await self._begin(session)
            if leased is not None and session.row.table_message_id is not None:
                # Taking the drawing brought in any change another process made, and giving
                # it back marks this revision shown in full: draw every part (one that shows
                # what it should already costs nothing), not only what was asked for. Not
                # before the first table is posted (Start's job): no hand is dealt by DM for
                # a game whose table may yet be refused, sending it back to its lobby; such
                # a pass is not marked as showing the revision in full.
                pending.table = pending.dms = True
            in_full = pending.table and pending.dms
            ok = True
            self._refused.discard(game_id)
            if drawing and pending.table:
                ok &= await self._guard(session, "table", self.refresh_table(session))
            if drawing and pending.dms:
                drawn = await self._guard(session, "DMs", self.update_dms(session))
                if drawn and session.row.old_dms:
                    drawn = await self._guard(session, "DMs", self._new_dms_drawn(session))
                ok &= drawn
            failed = [
                job
                for job in pending.jobs
                if not await self._guard(session, getattr(job, "__name__", "job"), job(session))
            ]
            if drawing and session.row.nudge_message_id and session.row.status != "active":
                # A game that ended keeps no turn reminder (nor its Stop reminding me).
                ok &= await self._guard(session, "reminder", self._clear_reminder(session))
            if leased is not None and (newest := await self._end(session, ok, leased, in_full)):
                # Another process moved the game while we drew it: draw the newest too.
                self._again(newest)
            elif drawing and ok and not self.bot.sessions.shared:
                self._note_drawn(session)
            elif drawing and ok and not session.row.is_open:
                await self._end_shown(session)
            # Refused (403: the channel closed to the bot, for a while or for good): no
            # quick retries, which would only be refused again. The table and DMs are looked
            # at again by the catch-up, further and further apart (``Endings.redraw_unshown``);
            # a post (a round summary, a notice) 1, 2, 4... minutes apart, so a lock lifted
            # within the hour loses none.
            refused = game_id in self._refused
            quick = 0 if refused else QUICK_RETRIES
            limit = quick + MAX_RETRIES
            # Discord kept failing: try again later, so a stored move is always shown and a
            # post (the first table, the result) is not lost: a few seconds apart, then
            # minutes apart for about an hour (an outage of Discord's, a ban). A post is
            # tried for an hour after it first failed, then dropped, whatever fails beside
            # it (it is tried again with each retry of the game meanwhile). Jobs are written
            # to be run again: each redoes only what is not done yet.
            moment = now()
            firsts = {job: pending.failing.get(job, moment) for job in failed}
            owed = {job: since for job, since in firsts.items() if moment - since < RETRY_SPAN}
            redraw = not ok and not refused and pending.retries < limit
            if owed or redraw:
                retries = pending.retries + 1
                waits = [self._job_wait(moment - since, refused) for since in owed.values()]
                if redraw:
                    waits.append(
                        RETRY_AFTER * retries
                        if retries <= quick
                        else REFUSED_RETRY_AFTER * 2 ** (retries - quick - 1)
                    )
                table = pending.table and not refused
                dms = pending.dms  # DMs are not refused with the channel
                self._wait_retry(session, min(waits), (table, dms), retries, owed)
            if not session.row.is_open:
                self._forget(game_id)
            session.drop_views()  # drawn: memory per idle game stays small
        self._workers.pop(game_id, None)

    async def recall_closed_dms(self) -> None:
        """At start: the members whose DMs a running game marked closed, so that a DM
        reaching them in another game brings those back too (``_dm_open_again``)."""
        for game_id, user_id in await self.bot.store.closed_dms():
            self._dm_closed_in.setdefault(user_id, set()).add(game_id)

    def _forget(self, game_id: int) -> None:
        """A game over: nothing kept for it here (a bot hosts games by the hundred thousand)."""
        self._refused.discard(game_id)
        self._repost_refused.pop(game_id, None)
        self._dm_retried.pop(game_id, None)
        self._dm_retrying = {k for k in self._dm_retrying if k[0] != game_id}
        self._dm_failed = {k for k in self._dm_failed if k[0] != game_id}
        for user_id in [u for u, games in self._dm_closed_in.items() if game_id in games]:
            self._dm_closed_in[user_id].discard(game_id)
            if not self._dm_closed_in[user_id]:
                del self._dm_closed_in[user_id]

    # With a shared database (several processes) one process at a time draws a game: two
    # editing one message at once could leave the older picture last. A process that finds
    # another drawing leaves it to that one, which draws again if the game moved meanwhile;
    # if it dies, its lease runs out and another redraws (timers.redraw_orphans).
    async def _current(self, session: Session) -> Session:
        """The copy of a running game to draw: with other processes, the one this process
        trusts now, never one a failed write dropped (it may be older than what another
        process has drawn since, and drawing it would leave the older picture last)."""
        sessions = self.bot.sessions
        if not sessions.shared or not session.row.is_open or sessions.cached(session.id) is session:
            return session
        try:
            async with sessions.lock(session.id):
                current = await sessions.get(session.id)
        except Exception as error:
            log_failure(f"game {session.id}: reload to draw", error, self.bot)
            return session
        return current if current is not None and current.game is not None else session

    async def _stored(self, session: Session) -> Session:
        """A retry's copy of a game that left the cache (it ended, or sat idle) may be older
        than what was drawn since from a fresh copy (a failed write dropped this one): the
        game as stored, unless that fails."""
        sessions = self.bot.sessions
        try:
            async with sessions.lock(session.id):
                cached = sessions.cached(session.id)
                stored = await sessions.get(session.id)
        except Exception as error:
            log_failure(f"game {session.id}: reload to draw", error, self.bot)
            return session
        if stored is None or stored.game is None or stored.version < session.version:
            return session
        if stored is not cached:
            # Loaded just now: what the old copy drew still counts (its keys are compared
            # with the game as it is), or a post's retry would redraw the table and every
            # DM; and a table posted whose id the database did not keep stays known.
            stored.shown = session.shown
            if session.id in self._table_unsaved:
                stored.row.table_message_id = session.row.table_message_id
                stored.row.table_posted_at = session.row.table_posted_at
        return stored

    async def _begin(self, session: Session) -> tuple[bool, int | None]:
        """Take the game's drawing: (False if another process is drawing it now, the
        revision about to be drawn if this process took the drawing, to give it back)."""
        sessions = self.bot.sessions
        if not sessions.shared or sessions.cached(session.id) is not session:
            if not sessions.shared:
                self._recall_shown(session)
            return True, None
        try:
            lease = DRAW_LEASE_POLLS * self.bot.settings.clock_poll
            took = await self.bot.store.take_drawing(session.id, sessions.process, lease)
            if took is None:
                return False, None
            if not took:
                session.shown = Shown()  # another process drew it last: assume nothing
                sessions.shown_before(session.id)  # nor what this one showed before
            else:
                self._recall_shown(session)
            async with sessions.lock(session.id):
                await sessions.refresh(session)
        except Exception as error:
            log_failure(f"game {session.id}: take drawing", error, self.bot)
        return True, session.row.rev

    async def _end(
        self, session: Session, ok: bool, drew: int, in_full: bool = True
    ) -> Session | None:
        """Give the drawing back, the game shown as of revision ``drew`` (taken when the
        drawing began: a click may bring the cached game further meanwhile). If it moved
        since: the game as it is now, to be drawn again (other processes left it to us).
        Also if our lease ran out while we drew (edits held up by 429s or the REST budget):
        another process may have drawn the newer game meanwhile, and ours landed after it."""
        sessions = self.bot.sessions
        try:
            shown = drew if ok and in_full and drew >= 0 else None
            rev = await self.bot.store.end_drawing(session.id, sessions.process, shown)
            lost = rev is None
            if not lost and (rev == drew or not ok):
                return None
            async with sessions.lock(session.id):
                # The cached copy, brought up to date; a new one if a failed write dropped
                # the copy just drawn.
                return await sessions.get(session.id)
        except Exception as error:
            log_failure(f"game {session.id}: end drawing", error, self.bot)
            return None

    @staticmethod
    def _job_wait(age: float, refused: bool) -> float:
        """When to try again a post failing for ``age`` seconds: about as long again
        (5, 10, 20... s; from a minute when refused), at most 32 minutes."""
        floor = REFUSED_RETRY_AFTER if refused else RETRY_AFTER
        return min(max(floor, age), REFUSED_RETRY_AFTER * 2 ** (MAX_RETRIES - 1))

    def _wait_retry(
        self,
        session: Session,
        wait: float,
        parts: tuple[bool, bool],
        retries: int,
        jobs: dict[Job, float],
    ) -> None:
        """Try the game again in ``wait`` seconds; a retry already waiting for it takes this
        one in instead. Each move's failed pass began a chain of its own before: during a
        storm of 429s a table was edited five times as often, every call refused again."""
        loop = asyncio.get_running_loop()
        key = self._waiting_for.get(session.id)
        if key is not None and key in self._waiting:
            handle, (_, before, retries_before, jobs_before) = self._waiting[key]
            merged = dict(jobs_before)
            for job, since in jobs.items():
                merged[job] = min(since, merged.get(job, since))
            # The table's newest failure gets a whole schedule (a new move to show), each
            # post keeps when it first failed, and the sooner time wins (a DM failing once
            # is not left to a refused post's minutes).
            # What the passes asked for (the table, the DMs), either of them.
            joined = (parts[0] or before[0], parts[1] or before[1])
            retry = (session, joined, min(retries, retries_before), merged)
            if loop.time() + wait < handle.when():
                handle.cancel()
                handle = loop.call_later(wait, self._retry_waiting, key)
            self._waiting[key] = (handle, retry)
            return
        key = next(self._retry_keys)
        handle = loop.call_later(wait, self._retry_waiting, key)
        self._waiting[key] = (handle, (session, parts, retries, jobs))
        self._waiting_for[session.id] = key

    def _retry_waiting(self, key: int) -> None:
        entry = self._waiting.pop(key, None)
        if entry is not None:
            game_id = entry[1][0].id
            if self._waiting_for.get(game_id) == key:
                del self._waiting_for[game_id]
            self._retry(*entry[1])

    def _retry(
        self, session: Session, parts: tuple[bool, bool], retries: int, jobs: dict[Job, float]
    ) -> None:
        """Try again what failed: the table and the DMs if the pass asked for them (a job
        queued alone, such as a lobby redraw, does not redraw an ended game's DMs)."""
        # The copy the failed pass drew may be old by now: a database blink since dropped
        # it from the cache, and the moves after it were drawn from a fresh copy.
        current = self.bot.sessions.cached(session.id)
        if current is not None and current.game is not None:
            session = current
        self._again(session, table=parts[0], dms=parts[1], jobs=list(jobs))
        pending = self._pending[session.id]
        pending.reload |= current is None and pending.session is session
        pending.retries = retries
        for job, since in jobs.items():
            pending.failing[job] = min(since, pending.failing.get(job, since))

    def retry_now(self) -> None:
        """A graceful stop: what waits to be tried again (a round summary, a notice Discord
        refused a moment ago) is tried now, within the stop's drain time, instead of dying
        with the process (only tables, DMs and end posts are caught up at the next start)."""
        waiting, self._waiting = self._waiting, {}
        self._waiting_for.clear()
        for handle, retry in waiting.values():
            handle.cancel()
            self._retry(*retry)

    def _again(
        self, session: Session, table: bool = True, dms: bool = True, jobs: list[Job] | None = None
    ) -> None:
        """Draw the game once more after this pass, from the copy a click left pending if
        there is one (never replacing a newer copy with the one just drawn)."""
        pending = self._pending.get(session.id)
        self.update(pending.session if pending else session, table=table, dms=dms, jobs=jobs)

    def _sent(self, game_id: int, part: int) -> None:
        """An edit of this message is about to be sent."""
        self._in_flight[(game_id, part)] = False

    def _landed(self, game_id: int, part: int) -> bool:
        """That edit is done (or failed): True if a click's answer redrew the message
        meanwhile, so ours, drawn earlier, may have landed after it."""
        return self._in_flight.pop((game_id, part), False)

    def _answered(self, game_id: int, part: int) -> bool:
        """A click's answer redrew this message: True if no edit of ours is in flight (what
        the answer drew is what stays), else that edit is marked to be drawn again."""
        if (game_id, part) in self._in_flight:
            self._in_flight[(game_id, part)] = True
            return False
        return True

    # -- the lobby message (the game's "table" until it starts) --------------------------------
    def lobby_sending(self, game_id: int) -> None:
        """An edit of the lobby message is about to be sent (by a lobby redraw job)."""
        self._sent(game_id, TABLE)

    def lobby_landed(self, game_id: int) -> bool:
        """That edit is done: True if a click's answer redrew the lobby meanwhile."""
        return self._landed(game_id, TABLE)

    def answered_lobby(self, game_id: int) -> None:
        """A click's answer redrew the lobby message (an edit of ours may land after it)."""
        self._answered(game_id, TABLE)

    async def _guard(self, session: Session, what: str, work: Awaitable[bool | None]) -> bool:
        try:
            return (await work) is not False
        except discord.HTTPException as error:
            log.warning("game %s: %s update failed: %s", session.id, what, error)
            self.bot.faces.refused(error)  # a face deleted: text in the retry
            if isinstance(error, discord.Forbidden) or error.status == 429:
                # Refused, or a rate limit discord.py gave up waiting out (a ban of the bot's
                # address lasts minutes): tried again minutes apart, not seconds.
                self._refused.add(session.id)
            if error.code == UNKNOWN_CHANNEL and session.row.is_open:
                self._channel_gone(session, "Discord no longer knows its channel", "channel_gone")
            elif error.code == THREAD_ARCHIVED:
                await self._archived(session)
            elif error.code == THREAD_LOCKED and session.row.is_open:
                # Locked without being archived ("Lock Thread"): closed to the bot as well.
                self._channel_gone(session, "its thread is locked", "thread_locked")
            return False
        except (aiohttp.ClientError, OSError) as error:  # OSError: timeouts too
            # The connection to Discord dropped: tried again, as a 5xx is; not a bug.
            log.warning("game %s: %s update failed: %r", session.id, what, error)
            return False
        except Exception as error:
            log_failure(f"game {session.id}: {what} update", error, self.bot)
            return False

    # -- the table ------------------------------------------------------------------------
    def table_is_old(self, session: Session) -> bool:
        posted = session.row.table_posted_at
        return posted is None or now() - posted > TABLE_MAX_AGE

    def answered_table(self, session: Session) -> None:
        """The click's own answer drew the table as it is now (type 7)."""
        # With an older edit in flight, it may land after the answer: draw again after it.
        answered = self._answered(session.id, TABLE)
        session.shown.table = table_key(session) if answered else None

    def table_gone(self, session: Session) -> None:
        """The table went with its channel: it counts as shown, never to be drawn again."""
        session.shown.table = table_key(session)

    async def _save_table(self, session: Session) -> None:
        row = session.row
        if row.table_message_id is not None and row.table_posted_at is not None:
            await self.bot.store.set_table_message(
                session.id, row.table_message_id, row.table_posted_at
            )
        self._table_unsaved.discard(session.id)

    async def refresh_table(self, session: Session) -> bool:
        """Edit the table in place (repost it when it is old or gone). False on failure."""
        if session.id in self._table_unsaved:
            await self._save_table(session)  # posted before, its id not stored (a retry)
        shown = session.shown
        version = table_key(session)
        if (
            shown.table == version
            and session.row.table_message_id
            and not self.table_is_old(session)
        ):
            return True
        self._sent(session.id, TABLE)
        try:
            done = await self._draw_table(session)
        finally:
            redrawn = self._landed(session.id, TABLE)
        if done:
            shown.table = None if redrawn else version
            if redrawn or table_key(session) != version:
                self._again(session, dms=False)
        return done

    async def _draw_table(self, session: Session) -> bool:
        message_id = session.row.table_message_id
        reposting = now() >= self._repost_refused.get(session.id, float("-inf"))
        if message_id is not None and (not self.table_is_old(session) or not reposting):
            try:
                await self.edit(session.row.channel_id, message_id, show.table(session))
                return True
            except discord.NotFound:
                message_id = None  # deleted: post a new one (and edit it no more)
            except discord.HTTPException as error:
                if error.code != 30046:
                    raise
        try:
            await self.post_table(session)
        except (discord.NotFound, discord.Forbidden) as error:
            if session.row.is_open:
                # A channel its moderators locked refuses a new post, but not an edit of
                # the bot's own message: the old table goes on showing the game.
                if isinstance(error, discord.Forbidden) and message_id is not None:
                    with contextlib.suppress(discord.HTTPException):
                        await self.edit(session.row.channel_id, message_id, show.table(session))
                        # Not a refused post at every move: edits only, for a while.
                        self._repost_refused[session.id] = now() + REPOST_REFUSED_WAIT
                        return True
                raise
            # An ended game whose channel is gone or closed to the bot: nothing is left to
            # show there (and no later pass should try again).
            log.info("game %s: its channel is gone; the end is not redrawn", session.id)
        except discord.HTTPException:
            # Posting fails for now (a 5xx, a 429): the old table, still editable, shows the
            # game meanwhile, and the repost is tried again with the pass.
            if message_id is not None and session.row.is_open:
                with contextlib.suppress(discord.HTTPException):
                    await self.edit(session.row.channel_id, message_id, show.table(session))
            raise
        return True

    async def _archived(self, session: Session) -> None:
        """The game's thread is archived (Discord does it by itself after a while with no new
        message: a game played from DMs edits but posts nothing). Unarchive it, which anyone
        who may send messages there may do, and draw again; a thread also locked by its
        moderators stays closed: an open game there ends, as if its thread were deleted."""
        unarchived = await self.unarchive(session)
        if unarchived:
            self._again(session)
        elif unarchived is False and session.row.is_open:
            self._channel_gone(session, "its thread is locked", "thread_locked")

    async def unarchive(self, session: Session) -> bool | None:
        """Unarchive the game's thread: True if done, False if Discord refuses it for good
        (locked by its moderators), None if it failed otherwise (tried again later)."""
        try:
            await self.bot.http.edit_channel(session.row.channel_id, archived=False)
        except discord.Forbidden as error:
            log.info("game %s: its thread cannot be unarchived: %s", session.id, error)
            # Refused also when the bot may not send messages in it for now (its channel
            # locked for a while): only a thread locked by its moderators is closed for good.
            return False if await self._thread_locked(session) else None
        except discord.HTTPException as error:
            log.info("game %s: unarchiving its thread failed: %s", session.id, error)
            return None
        log.info("game %s: its thread was archived; unarchived it", session.id)
        return True

    async def _thread_locked(self, session: Session) -> bool:
        """Whether the game's thread is locked by its moderators (unknown: False)."""
        try:
            data: Any = await self.bot.http.get_channel(session.row.channel_id)
        except discord.HTTPException as error:
            log.info("game %s: reading its thread failed: %s", session.id, error)
            return False
        metadata = data.get("thread_metadata") or {}
        return bool(metadata.get("locked"))

    def _channel_gone(self, session: Session, why: str, reason: str) -> None:
        """Discord no longer knows the game's channel (deleted while this process was not
        listening, or a thread deleted with its parent, which sends no event of its own), or
        its thread is locked: the game ends as when its deletion is heard (``Lobby.gone``),
        instead of every change being refused for as long as it stays open."""
        lobby = self.bot.get_cog("Lobby")

        async def end(s: Session) -> None:
            await lobby.gone([s.id], why, reason)  # type: ignore[union-attr]

        if lobby is not None:
            self.update(session, table=False, dms=False, jobs=[end])  # after this pass

    async def post_table(self, session: Session) -> None:
        """A new table message at the bottom of the channel; the old one loses its buttons."""
        channel = self.bot.get_partial_messageable(session.row.channel_id)
        old = session.row.table_message_id
        version = table_key(session)
        screen = show.table(session)
        nonce = post_nonce("table", session.id, session.row.version, old)
        message_id = await self.send(session.row.channel_id, screen, nonce)
        posted = now()
        # In memory first: a click on the new table may arrive while the id is being stored.
        session.row.table_message_id = message_id
        session.row.table_posted_at = posted
        self._table_unsaved.add(session.id)
        try:
            await self._save_table(session)
        finally:
            if old is not None:
                link = show.table_link(session.row)

                async def close_old(_: Session) -> None:
                    # No embed left: the old picture's turn and countdown would go on reading
                    # as live ("Time runs out 2 hours ago") above the notice.
                    try:
                        await channel.get_partial_message(old).edit(
                            content=f"The table moved down ⬇️ {link}",
                            embed=None,
                            view=None,
                            allowed_mentions=discord.AllowedMentions.none(),
                        )
                    except (discord.NotFound, discord.Forbidden):
                        pass  # deleted, or the channel closed to the bot: nothing to close

                try:
                    await close_old(session)
                except discord.HTTPException:
                    # Discord failing (a 429, a 5xx): tried again later, as other edits are.
                    self.update(session, table=False, dms=False, jobs=[close_old])
        session.shown.table = version
        if session.row.nudge_message_id is not None:
            await self._relink_reminder(session)

    async def _relink_reminder(self, session: Session) -> None:
        """The turn reminder's link leads to the reposted table (an edit pings nobody)."""
        row = session.row
        game = session.game
        live = game is not None and row.status == "active"
        awaited = set(session.hosted.awaited(game)) if live and game is not None else set()
        users = [int(p) for p in row.clocks.get("nudged", []) if p in awaited]
        if not users or row.nudge_message_id is None:
            return
        try:
            await self.edit(
                row.channel_id, row.nudge_message_id, show.nudge_screen(session, users, ping=False)
            )
        except discord.HTTPException as error:
            log.info("game %s: moving the reminder's link failed: %s", session.id, error)

    # -- the DMs --------------------------------------------------------------------------
    async def update_dms(self, session: Session) -> bool:
        """Send or edit each member's DM hand when what it shows has changed."""
        jobs, users = [], []
        for user_id, key in self._dms_to_draw(session):
            jobs.append(self._send_dm(session, user_id, key))
            users.append(user_id)
        results = await asyncio.gather(*jobs, return_exceptions=True)
        ok = True
        for user_id, result in zip(users, results, strict=True):
            if isinstance(result, discord.HTTPException):
                log.warning("game %s: DM of %s failed: %s", session.id, user_id, result)
                self.bot.faces.refused(result)  # a face deleted: text in the retry
            elif isinstance(result, (aiohttp.ClientError, OSError)):
                # The connection to Discord dropped (timeouts too): tried again, not a bug.
                log.warning("game %s: DM of %s failed: %r", session.id, user_id, result)
            elif isinstance(result, BaseException):
                # A bug, the same at every retry and catch-up: its stack logged once.
                if (session.id, user_id) in self._dm_failed:
                    log.debug("game %s: DM of %s failed again", session.id, user_id)
                else:
                    self._dm_failed.add((session.id, user_id))
                    log_failure(f"game {session.id}: DM of {user_id}", result, self.bot)
            ok &= not isinstance(result, BaseException)
        return ok

    async def retry_dm(self, session: Session, user_id: int) -> None:
        """A member whose DMs were closed clicked in the channel: they may have opened them
        since (unblocked the bot), so their DM hand is tried again, at most every
        ``DM_RETRY_EVERY`` seconds; refused again, it stays closed, with no second notice.
        Sharing the database, the mark is cleared in it first: the process drawing the game
        next may be another, which must try the DM too (told nothing, it posts the notice
        again if the DMs are still closed)."""
        seat = session.seat(user_id)
        if seat is None or not seat.dm_closed or not self.bot.settings.dm_hands:
            return
        if self._may_retry(session.id, user_id):
            await self._try_dm_again(session, user_id, seat)

    def _may_retry(self, game_id: int, user_id: int) -> bool:
        """At most one try every ``DM_RETRY_EVERY`` seconds per member and game."""
        tried = self._dm_retried.setdefault(game_id, {})
        if now() < tried.get(user_id, float("-inf")) + DM_RETRY_EVERY:
            return False
        tried[user_id] = now()
        return True

    async def _try_dm_again(self, session: Session, user_id: int, seat: SeatRow) -> None:
        if self.bot.sessions.shared:
            await self.bot.store.mark_dm_closed(session.id, user_id, False)
        self._dm_retrying.add((session.id, user_id))
        for held in self._seats(session, user_id, seat):
            held.dm_closed = False
        self.update(session, table=False)

    def _dms_to_draw(self, session: Session) -> list[tuple[int, tuple[Any, Any]]]:
        """(member, what their DM should show) for each DM that does not show it yet."""
        if not self.bot.settings.dm_hands:
            return []  # the playground: hands are in "My hand" only
        found: list[tuple[int, tuple[Any, Any]]] = []
        for seat in session.seats:
            if seat.dm_closed:
                self._dm_closed_in.setdefault(seat.user_id, set()).add(session.id)
            if seat.dm_closed or not seat.human:
                continue
            # Compared first as a click's answer draws it: a DM whose owner opened their
            # moves in it keeps them while they still hold (``Renderer.moves_in_dm``).
            shown = session.shown.dms.get(seat.user_id)
            if show.dm_stale(shown, show.dm_key(session, seat.user_id)):
                key = show.dm_drawn_key(session, seat.user_id)
                if show.dm_stale(shown, key):
                    found.append((seat.user_id, key))
        return found

    async def _send_dm(self, session: Session, user_id: int, key: tuple[Any, Any]) -> None:
        seat = session.seat(user_id)
        if seat is None:
            return
        screen = show.hand(session, user_id, dm=True, idle=key[1] is None)
        stale: tuple[int, int] | None = None  # an old DM to delete once a fresh one is up
        try:
            if seat.dm_channel_id and seat.dm_message_id:
                self._sent(session.id, user_id)
                try:
                    await self.edit(seat.dm_channel_id, seat.dm_message_id, screen)
                    edited = True
                except discord.NotFound:
                    edited = False  # deleted by the player: send a fresh one
                except discord.HTTPException as error:
                    if error.code != 30046:
                        raise
                    # Over an hour old, its edits are refused: a fresh one, the old deleted.
                    edited, stale = False, (seat.dm_channel_id, seat.dm_message_id)
                finally:
                    redrawn = self._landed(session.id, user_id)
                if edited:
                    if (session.id, user_id) in self._dm_unsaved:
                        await self._save_dm(session, user_id, seat)
                    await self._dm_open_again(session, user_id)
                    if redrawn:
                        self._again(session, table=False)  # ours may have hidden a newer answer
                    else:
                        session.shown.dms[user_id] = key
                    return
            # Opening the DM channel is one call, with no user lookup (no member cache needed).
            data = await self.bot.http.start_private_message(user_id)
            channel_id = int(data["id"])
            nonce = post_nonce("dm", session.id, user_id, session.row.version, seat.dm_message_id)
            message_id = await self.send(channel_id, screen, nonce)
            # On the seat as it is now too: a move or a seat change while we sent replaces
            # the seat object (``Sessions.apply``), and a copy without the ids would send a
            # second DM on the next update.
            for held in self._seats(session, user_id, seat):
                held.dm_channel_id, held.dm_message_id = channel_id, message_id
            self._dm_unsaved.add((session.id, user_id))
            await self._save_dm(session, user_id, seat)
            session.shown.dms[user_id] = key
            await self._dm_open_again(session, user_id)
            if stale is not None:
                old_dm = stale

                async def delete_old_dm(_: Session) -> None:
                    # The hand over an hour old, its buttons out of date: not left beside
                    # the fresh one (tried again when Discord fails, as other jobs are).
                    with contextlib.suppress(discord.NotFound, discord.Forbidden):
                        await self.bot.http.delete_message(*old_dm)

                try:
                    await delete_old_dm(session)
                except discord.HTTPException:
                    self.update(session, table=False, dms=False, jobs=[delete_old_dm])
        except discord.Forbidden as error:
            if error.code == DM_CLOSED:
                await self._dms_closed(session, user_id)
            else:
                raise

    async def _new_dms_drawn(self, session: Session) -> None:
        """Every DM of a game running when the bot was upgraded now shows this version's look
        (``recall_drawn`` took none as shown): from now on they are recalled as others are."""
        await self.bot.store.new_dms_drawn(session.id)
        for held in (session, self.bot.sessions.cached(session.id)):
            if held is not None:
                held.row.old_dms = False

    async def _dm_open_again(self, session: Session, user_id: int) -> None:
        """A DM went through: the member's DMs are open. One tried again (``retry_dm``) is
        unmarked; so are the member's other games marked closed (one refusal while they
        changed a setting, or several games at once): their DM hands are tried again."""
        if (session.id, user_id) in self._dm_retrying:
            self._dm_retrying.discard((session.id, user_id))
            await self.bot.store.mark_dm_closed(session.id, user_id, False)
        others = self._dm_closed_in.get(user_id)
        if not others:
            return
        for game_id in list(others):
            if game_id != session.id and not self._may_retry(game_id, user_id):
                continue
            others.discard(game_id)
            other = await self.bot.sessions.get(game_id) if game_id != session.id else None
            seat = other.seat(user_id) if other is not None else None
            if other is not None and seat is not None and seat.dm_closed:
                await self._try_dm_again(other, user_id, seat)
        if not others:
            self._dm_closed_in.pop(user_id, None)

    async def _save_dm(self, session: Session, user_id: int, seat: SeatRow) -> None:
        await self.bot.store.set_dm(session.id, user_id, seat.dm_channel_id, seat.dm_message_id)
        self._dm_unsaved.discard((session.id, user_id))

    def _seats(self, session: Session, user_id: int, seat: SeatRow) -> list[SeatRow]:
        """A member's seat in every copy that may be trusted next: the one drawn, the seat as
        it is there now (a move replaces seat objects), and the cached copy (a failed write
        may have replaced the session): none may miss what our own write just stored."""
        cached = self.bot.sessions.cached(session.id)
        found = [seat, session.seat(user_id), cached.seat(user_id) if cached else None]
        unique: dict[int, SeatRow] = {id(s): s for s in found if s is not None}
        return list(unique.values())

    def answered_dm(self, session: Session, user_id: int) -> None:
        """The click's own answer redrew this member's DM."""
        if self._answered(session.id, user_id):
            session.shown.dms[user_id] = show.dm_key(session, user_id)
        else:
            session.shown.dms.pop(user_id, None)  # an older edit may land after it

    async def _dms_closed(self, session: Session, user_id: int) -> None:
        seat = session.seat(user_id)
        if seat is None or seat.dm_closed:
            return
        self._dm_closed_in.setdefault(user_id, set()).add(session.id)
        if (session.id, user_id) in self._dm_retrying:  # still closed: told already
            self._dm_retrying.discard((session.id, user_id))
            for held in self._seats(session, user_id, seat):
                held.dm_closed = True
            return
        # The notice first: if Discord fails it, the seat is not marked yet, so the retry
        # meets the closed DMs again and posts it then. Refused (a channel locked by its
        # moderators, or deleted), it is not retried: the DM would be tried again with it,
        # each time. A game that is over has no hand left to play: no notice.
        if session.row.is_open:
            await self._closed_dms_notice(session, user_id)
        for held in self._seats(session, user_id, seat):
            held.dm_closed = True
        await self.bot.store.mark_dm_closed(session.id, user_id)

    async def _closed_dms_notice(self, session: Session, user_id: int) -> None:
        channel = self.bot.get_partial_messageable(session.row.channel_id)
        try:
            await channel.send(
                f"<@{user_id}> I can't send you direct messages, so press **My hand** on the "
                "table to see your cards and play.",
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(id=user_id)]
                ),
            )
        except (discord.Forbidden, discord.NotFound) as error:
            log.info("game %s: the closed-DMs notice was refused: %s", session.id, error)

    async def _clear_reminder(self, session: Session) -> None:
        row = session.row
        assert row.nudge_message_id is not None
        try:
            await self.bot.http.delete_message(row.channel_id, row.nudge_message_id)
        except (discord.NotFound, discord.Forbidden):
            pass  # gone already, or the channel is closed to the bot: nothing to clear
        await self.bot.store.set_nudge_message(row.id, None)
        row.nudge_message_id = None

    # -- what is shown in full, alone on the database ---------------------------------------
    def _note_drawn(self, session: Session) -> None:
        """The table and every DM show the game as it is now: note its revision, stored with
        the next batch. A change a stop leaves unshown is then redrawn at the next start."""
        row = session.row
        if row.rev < 0 or session.game is None:
            return  # revision not known here (it is redrawn after a restart: harmless)
        if session.shown.table != table_key(session) or self._dms_to_draw(session):
            return  # a click or a timer changed it meanwhile: its own pass notes it
        if self._drawn.get(session.id, -1) < row.rev:
            self._drawn[session.id] = row.rev
        if not row.is_open:
            self._drawn_ended.add(session.id)
        # At most one batch a second, with no timer of its own: what waits is stored with the
        # next batch, at a graceful stop, or (a crash) redrawn after the restart: harmless.
        moment = asyncio.get_running_loop().time()
        if self._marking is None and moment - self._marked_at >= MARK_DRAWN_EVERY:
            self._marked_at = moment
            self._marking = asyncio.create_task(self.flush_drawn(), name="mark-drawn")
            self._marking.add_done_callback(lambda _: setattr(self, "_marking", None))

    def note_shown(self, sessions: Iterable[Session]) -> None:
        """Games about to leave memory (idle, or a graceful stop): note those Discord shows
        in full, so they load as shown. A change nothing redraws (a reminder's clock) would
        otherwise leave their stored revision behind, and a restart redraw them all."""
        if self.bot.sessions.shared:
            return
        for session in sessions:
            busy = session.id in self._pending or session.id in self._workers
            if not busy and session.row.is_open and session.game is not None:
                self._note_drawn(session)

    def _recall_shown(self, session: Session) -> None:
        """A game the sweep dropped from memory (idle half an hour) and loaded again: what
        still matches what it showed counts as shown. Before, its next move redrew every
        DM, and once the DMs were an hour old (edits refused) sent each player a new one."""
        before = self.bot.sessions.shown_before(session.id)
        if before is None or session.game is None:
            return
        table, dms = before
        shown = session.shown
        try:
            if shown.table is None and hash(table_key(session)) == table:
                shown.table = table_key(session)
            for user, key in dms.items():
                if user in shown.dms:
                    continue
                now_key = show.dm_key(session, user)
                # Drawn between turns, it still shows that if its owner's turn began since.
                for drawn in (now_key, (now_key[0], None)):
                    if hash(drawn) == key:
                        shown.dms[user] = drawn
                        break
        except TypeError:
            pass

    def recall_drawn(self, session: Session) -> None:
        """A game just loaded (after a restart) whose stored revision was shown in full: the
        table and the DMs show it as it is. Before, the first move after a deploy redrew
        every DM of the game, and sent a new one to each player whose DM was an hour old
        (edits refused)."""
        row, shown = session.row, session.shown
        if self.bot.sessions.shared or session.game is None or not row.is_open:
            return  # sharing, the drawing lease decides what is trusted
        if row.drawn < row.rev:
            return  # a change a stop (or a crash) left unshown: drawn again in full
        if shown.table is None and row.table_message_id is not None:
            shown.table = table_key(session)
        if row.old_dms:
            return  # drawn by an older version, in a look of its own: drawn anew, once
        for seat in session.seats:
            if seat.human and seat.dm_message_id is not None and seat.user_id not in shown.dms:
                shown.dms[seat.user_id] = show.dm_drawn_key(session, seat.user_id)

    async def _end_shown(self, session: Session) -> None:
        """Sharing the database, an ended game is drawn without the drawing lease (it has
        left the cache), so nothing marked it shown, and another process (or this one after
        a restart) redrew every end of the last hour: a second table of a finished game
        posted once its table was old. Its end shown in full is stored at once."""
        if session.game is None or session.shown.table != table_key(session):
            return
        if self._dms_to_draw(session):
            return
        try:
            await self.bot.store.mark_drawn({session.id: session.row.rev}, {session.id})
        except Exception as error:
            log_failure(f"game {session.id}: storing that its end is shown", error, self.bot)

    async def flush_drawn(self) -> None:
        """Store the noted revisions now (also on a graceful stop, so a restart redraws
        nothing). On failure they are noted again next time or redrawn after a restart."""
        drawn, self._drawn = self._drawn, {}
        ended, self._drawn_ended = self._drawn_ended, set()
        if not drawn:
            return
        try:
            await self.bot.store.mark_drawn(drawn, ended)
        except Exception as error:
            log_failure("storing which games are shown", error, self.bot)

    # -- raw REST -------------------------------------------------------------------------
    async def edit(self, channel_id: int, message_id: int, screen: Screen) -> None:
        params = MultipartParameters(components.payload(screen), None, None)
        await self.bot.http.edit_message(channel_id, message_id, params=params)

    async def send(
        self,
        channel_id: int,
        screen: Screen,
        nonce: str | None = None,
        reply_to: int | None = None,
    ) -> int:
        """A new message; its id. ``nonce``: the same for every try of one post, so a try
        after one that landed unknown (a crash before its id was stored, an error after
        Discord created it) gets the message back instead of making a second one.
        ``reply_to``: a message of the channel it answers; Discord refuses the post if that
        message is gone (``reply_refused``)."""
        payload = components.payload(screen)
        if nonce is not None:
            payload.update(nonce=nonce, enforce_nonce=True)
        if reply_to is not None:
            payload["message_reference"] = {"message_id": str(reply_to), "fail_if_not_exists": True}
            # A reply mentions the message's author (the bot itself) unless told not to.
            payload["allowed_mentions"] = {**payload["allowed_mentions"], "replied_user": False}
        params = MultipartParameters(payload, None, None)
        data = await self.bot.http.send_message(channel_id, params=params)
        return int(data["id"])

    # -- channel posts ----------------------------------------------------------------------
    def announce(self, session: Session, text: str) -> None:
        """Tell the game's channel ``text`` after its table and DMs are brought up to date
        (once: the same nonce on every try)."""
        # Each notice its own: one said again at the same version (a member who left, came
        # back and left again: seat changes keep the version) is a new post.
        nonce = post_nonce("notice", session.id, next(self._notices), self._process)

        async def notice(s: Session) -> None:
            await self.post(s, text, nonce=nonce)

        self.update(session, jobs=[notice])

    async def post(
        self,
        session: Session,
        text: str,
        ping: list[int] | None = None,
        screen: Screen | None = None,
        nonce: str | None = None,
    ) -> int:
        """A message in the game's channel, pinging exactly ``ping``; its id. ``screen`` may
        add buttons; ``nonce``: see ``send``."""
        channel = self.bot.get_partial_messageable(session.row.channel_id)
        users = [discord.Object(id=u) for u in ping or []]
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=users)
        # discord.py sends ``enforce_nonce`` with any nonce.
        extra: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
        # Callers fit their text (``endings``); this is the last guard, never cutting a
        # mention or a timestamp in half (which would show raw).
        text = clip(text)
        if screen is not None and screen.rows:
            view = components.to_view(screen)
            message = await channel.send(text, allowed_mentions=mentions, view=view, **extra)
        else:
            message = await channel.send(text, allowed_mentions=mentions, **extra)
        return message.id
