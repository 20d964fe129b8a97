"""Live games: a lock per game, a cache of committed state, apply-then-persist.

No Discord here: ids and engine objects only. Under a game's lock the click path loads the
game, checks the click, applies it to a *copy* of the committed game, stores move + state in
one transaction, and only then swaps the copy in. So whatever reads a session outside the lock
(the presenter drawing the table) only ever sees committed moves.

When other processes share the database (PostgreSQL, a sharded bot), a cached game is trusted
only after checking its revision (one indexed read): any change another process made to the
game or its seats reloads it first.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import secrets
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from cogs import ratings
from cogs.hosting import Hosted, hosted
from cogs.render.text import AWAY_MARK, safe_name
from cogs.timing import Timing, next_clocks, wake_at
from db import GameRow, Result, SeatChange, SeatRemoved, SeatRow, Store
from engine import Event, Game

PUBLIC_LOG = 12  # public events kept for the table
PRIVATE_LOG = 6  # private notes kept per player
STRIKES_TO_BOT = 3  # turns timed out in a row before a bot takes the seat


@dataclass(slots=True)
class Shown:
    """What Discord shows now (memory; a game loaded whose stored revision was shown in full
    counts as shown, else it is redrawn once)."""

    table: Any = None  # the state drawn on the table message (presenter.table_key)
    dms: dict[int, Any] = field(default_factory=dict)  # user id -> key of what the DM shows


@dataclass(slots=True)
class Session:
    row: GameRow
    seats: list[SeatRow]
    game: Game | None = None  # the committed game (None in the lobby)
    shown: Shown = field(default_factory=Shown)
    _views: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    _views_at: int = -1

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def hosted(self) -> Hosted:
        return hosted(self.row.kind)

    @property
    def names(self) -> dict[str, str]:
        """Engine player id -> the name shown: escaped, bots marked 🤖."""
        out = {}
        for s in self.seats:
            name = safe_name(s.name) if s.name else f"Player {s.seat + 1}"
            if s.human and s.is_bot:
                name += AWAY_MARK  # a bot plays this member's seat while they are away
            out[str(s.user_id)] = name
        return out

    def seat(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def humans(self) -> list[str]:
        """Players whose seat a member plays now."""
        return [str(s.user_id) for s in self.seats if not s.is_bot]

    @property
    def bots(self) -> list[str]:
        """Players whose seat a bot plays now (bot seats and members away)."""
        return [str(s.user_id) for s in self.seats if s.is_bot]

    @property
    def public_log(self) -> list[str]:
        return list(self.row.log.get("public", []))

    def notes(self, user_id: int) -> list[str]:
        return list(self.row.log.get("private", {}).get(str(user_id), []))

    def view(self, player: str | None = None) -> dict[str, Any]:
        """``game.view(player)``, computed once per version (the table and DMs share it)."""
        assert self.game is not None
        if self._views_at != self.version:
            self._views = {}
            self._views_at = self.version
        cached = self._views.get(player)
        if cached is None:
            cached = self._views[player] = self.game.view(player)
        return cached

    def drop_views(self) -> None:
        """Forget the cached views (about 10 KB a game): once Discord shows a version, the
        next click is most often a new move, which computes them again anyway."""
        self._views = {}
        self._views_at = -1

    def unchanged_since(self, player: str, version: int) -> bool:
        """Nothing bearing on ``player``'s choice (their hand, the moves open to them) changed
        since ``version``: a click from then still means what it meant (simultaneous phases)."""
        seen = self.row.log.get("seen", {}).get(player)
        return seen is not None and seen[1] <= version

    def bot_rng(self, player: str) -> random.Random:
        """A bot's randomness, fixed by the game, the version and the seat: a bot restarted
        mid-turn makes the same choice."""
        return random.Random(f"{self.row.seed}:{self.version}:{player}")


def fingerprint(game: Game, player: str, table_only: Callable[[str], bool]) -> int:
    """What the player's private buttons (DM, My hand, picker) stand for. Not the moves that
    live on the table alone (an UNO catch): one coming or going (another player's call
    window) changes nothing the player's hand offers, and must not make its buttons stale."""
    actions = [(a.id, a.label) for a in game.legal_actions(player) if not table_only(a.id)]
    hand = game.view(player).get("hand", [])
    return zlib.crc32(json.dumps([actions, hand], separators=(",", ":")).encode())


SEEN_FORMAT = 2  # entries [fingerprint, version, 2]; older ones counted table-only moves


def track_seen(
    log: dict[str, Any],
    game: Game,
    version: int,
    table_only: Callable[[str], bool],
    previous: Game | None = None,
) -> dict[str, Any]:
    """Since which version each actor's choice has looked the same (see ``unchanged_since``).
    ``previous``: the game before this move, to read entries an older release stored."""
    before = log.get("seen", {})
    seen = {}
    for p in game.actors():
        if not game.legal_actions(p):
            continue
        fp = fingerprint(game, p, table_only)
        old = before.get(p)
        if old is not None and len(old) < 3 and previous is not None:
            # Stored by a release whose fingerprint counted every move (a deploy mid-game):
            # the choice as this one sees it before the move stands in for it.
            same = old[0] == fingerprint(previous, p, lambda _: False)
            old = [fingerprint(previous, p, table_only), old[1], SEEN_FORMAT] if same else None
        seen[p] = old if old is not None and old[0] == fp else [fp, version, SEEN_FORMAT]
    return seen


def merge_log(log: dict[str, Any], events: Iterable[Event]) -> dict[str, Any]:
    """The log after ``events``: public lines for the table, private notes per player."""
    public = list(log.get("public", []))
    private = {k: list(v) for k, v in log.get("private", {}).items()}
    added = 0
    for event in events:
        if event.public:
            public.append(event.public)
            added += 1
        for player, text in event.private.items():
            private.setdefault(player, []).append(text)
    merged = {k: v for k, v in log.items() if k not in ("public", "private")}
    # A move's own lines are all kept, however many (a War of Suits head to head with a long
    # run of deck draws, which the renderer folds into one line): Recent shows the whole
    # move. The next move trims them back.
    merged["public"] = public[-max(PUBLIC_LOG, added + 1) :]
    merged["private"] = {k: v[-PRIVATE_LOG:] for k, v in private.items()}
    return merged


@dataclass(slots=True)
class Applied:
    events: list[Event]
    version: int
    seat_changes: list[SeatChange]
    new_round: bool = False  # the move ended a round and the game goes on


CACHE_IDLE = 30 * 60.0  # seconds a cached game nobody asks for is kept (``Sessions.sweep``)


class Sessions:
    def __init__(self, store: Store, timing: Timing | None = None) -> None:
        self.store = store
        self.timing = timing or Timing()
        self.shared = store.shared  # other processes may change games behind our back
        self.process = secrets.token_hex(6)  # names this process in the games it draws
        self._cache: dict[int, Session] = {}
        # Per game: its lock and how many tasks hold or wait for it (dropped at zero, so a
        # game, or a forged id, leaves nothing behind once nobody uses it).
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        # When each game's clocks (and so its wake-up) were last stored by this process, in
        # ticks of one counter: the timers skip ending a claim that such a write already ended.
        self._ticks = itertools.count(1)
        self._clocks_stored: dict[int, int] = {}
        # When each cached game was last asked for (monotonic seconds): ``sweep`` drops the
        # ones nobody has asked for in a long while.
        self._touched: dict[int, float] = {}
        # What Discord showed of games the sweep dropped, as hashes (a few bytes a game):
        # their next move redraws only what it changed (``shown_before``).
        self._swept_shown: dict[int, tuple[int, dict[int, int]]] = {}
        store.revised = self._revised
        # Told of each game loaded from the database (``Presenter.recall_drawn``).
        self.loaded: Callable[[Session], None] | None = None

    def _revised(self, game_id: int, rev: int) -> None:
        """Our own write made revision ``rev``: the cache holds it already if it follows the
        cached one; if not, something else wrote in between and the game is reloaded before
        it is trusted again."""
        session = self._cache.get(game_id)
        if session is not None:
            session.row.rev = rev if rev == session.row.rev + 1 else -1

    @contextlib.asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock: one change of a game at a time in this process."""
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._locks[game_id]

    def cached(self, game_id: int) -> Session | None:
        return self._cache.get(game_id)

    def cached_sessions(self) -> list[Session]:
        return list(self._cache.values())

    async def get(self, game_id: int) -> Session | None:
        """The game, from memory or (first click after a restart) from the database."""
        session = self._cache.get(game_id)
        if session is not None:
            self._touched[game_id] = time.monotonic()
            if self.shared or session.row.rev < 0:
                await self.refresh(session)
            return session
        row = await self.store.get_game(game_id)
        if row is None:
            return None
        seats = await self.store.seats(game_id)
        cached = self._cache.get(game_id)
        if cached is not None:
            # Another task loaded it while we read (a "My hand" beside a move, after a
            # restart): one copy per game, or a move applied to one would leave the other,
            # older, in the cache.
            return cached
        session = Session(row=row, seats=seats)
        if row.state is not None:
            session.game = engine.load(row.state)
            row.state = None  # the game object is the state now: no second copy in memory
        if row.is_open:
            self._cache[game_id] = session
            self._touched[game_id] = time.monotonic()
            if self.loaded is not None:
                self.loaded(session)
        return session

    async def sweep(
        self, idle: float = CACHE_IDLE, before: Callable[[list[Session]], None] | None = None
    ) -> int:
        """Drop cached games nobody has asked for in ``idle`` seconds (a game its players
        walked away from, with no clock to end it) and, sharing the database, the games
        another process finished or ended: the cache holds live games only. A dropped game
        is loaded again by its next click. How many were dropped."""
        moment = time.monotonic()
        idled = [g for g, t in self._touched.items() if moment - t > idle]
        closed = (
            await self.store.closed_among(sorted(self._cache))
            if self.shared and self._cache
            else []
        )
        if before is not None:  # told which games leave memory (``Presenter.note_shown``)
            before([self._cache[g] for g in idled if g not in self._locks and g in self._cache])
        dropped = 0
        for game_id in dict.fromkeys(idled + closed):
            if game_id not in self._locks and game_id in self._cache:
                if game_id not in closed:  # sharing: used only if still ours to trust
                    self._keep_shown(self._cache[game_id])
                self.forget(game_id)
                dropped += 1
        return dropped

    def _keep_shown(self, session: Session) -> None:
        if not session.row.is_open:
            return
        try:
            dms = {user: hash(key) for user, key in session.shown.dms.items()}
            self._swept_shown[session.id] = (hash(session.shown.table), dms)
        except TypeError:  # an unhashable key: it is simply redrawn
            pass

    def shown_before(self, game_id: int) -> tuple[int, dict[int, int]] | None:
        """What Discord showed of a game when the sweep dropped it (hashes of the table's
        and each DM's key), once: the presenter marks as shown what still matches."""
        return self._swept_shown.pop(game_id, None)

    def tick(self) -> int:
        """A moment, to compare with ``clocks_stored_since``."""
        return next(self._ticks)

    def clocks_stored_since(self, game_id: int, tick: int) -> bool:
        """This process has stored the game's clocks (with its wake-up) after ``tick``."""
        return self._clocks_stored.get(game_id, 0) > tick

    def forget(self, game_id: int) -> None:
        """Drop the cached copy (after a failed write, or once a game is over)."""
        self._cache.pop(game_id, None)
        self._clocks_stored.pop(game_id, None)
        self._touched.pop(game_id, None)

    async def refresh(self, session: Session) -> bool:
        """Reload ``session`` if its stored revision differs from the cached one (another
        process changed it); True if it did."""
        if await self.store.game_rev(session.id) == session.row.rev:
            return False
        await self.reload(session, foreign=True)
        return True

    async def reload(self, session: Session, foreign: bool = False) -> None:
        """The game and its seats as stored. ``foreign``: another process may have changed
        what Discord shows too, so everything is drawn again on the next update."""
        row = await self.store.get_game(session.id)
        if row is not None:
            # The same version of a running game is the same state: no need to decode it.
            if session.game is None or row.state is None or row.version != session.row.version:
                session.game = engine.load(row.state) if row.state is not None else None
            row.state = None  # kept as ``session.game`` only (memory per live game)
            session.row = row
            if not row.is_open:
                self.forget(session.id)
        session.seats = await self.store.seats(session.id)
        if foreign and self.shared:
            session.shown = Shown()

    def clocks_for(
        self,
        session: Session,
        game: Game,
        now: float,
        mover: str | None = None,
        timed_out: bool = False,
        turn_before: int | None = None,
    ) -> tuple[dict[str, Any], float | None]:
        seats = session.seats
        return next_clocks(
            session.row.clocks,
            game,
            session.hosted,
            [str(s.user_id) for s in seats if not s.is_bot],
            [str(s.user_id) for s in seats if s.is_bot],
            session.row.settings.get("turn_timer"),
            now,
            self.timing,
            mover,
            timed_out,
            turn_before,
        )

    async def start(self, session: Session, now: float) -> bool:
        """Deal: lobby -> active. The seed chosen at /newgame makes the deal reproducible."""
        players = [str(s.user_id) for s in session.seats]
        game = engine.new_game(session.row.kind, players, session.row.seed, session.row.options)
        log = merge_log({}, [Event(f"The game begins with {len(players)} players.")])
        log["seen"] = track_seen(log, game, 0, session.hosted.renderer.is_table_only)
        clocks, wake = self.clocks_for(session, game, now)
        if not await self.store.start_game(session.id, game.to_dict(), log, clocks, wake):
            return False
        await self.reload(session)
        return True

    async def apply(
        self,
        session: Session,
        user_id: int,
        action_id: str,
        now: float,
        *,
        timed_out: bool = False,
        by_clock: bool = False,
        extra: Iterable[Event] = (),
    ) -> Applied:
        """Apply one action and store it (move log + state, one transaction).

        Raises engine.IllegalAction (nothing changed) or db.StaleVersion (the cache is dropped,
        so memory never runs ahead of the database). ``timed_out``: the seat's bot played for
        a member whose time ran out (a strike; the third in a row hands the seat to a bot).
        """
        assert session.game is not None
        player = str(user_id)
        game = session.game.copy()
        events = game.apply(player, action_id)
        # A phase's own clock moving for a player (the talk's Ready) neither strikes them
        # nor counts as their own move, which would clear their strikes.
        changes = [] if by_clock else self._seat_changes(session, user_id, timed_out)
        if game.finished:
            # The move that ends the game hands no seat to a bot: nobody plays it any more,
            # and the result is the member's, as after a first or second strike.
            changes = [c for c in changes if not (c.is_bot and c.away == "timeout")]
        # The bot's own lines with this move (a seat changed hands since the last move, a
        # timeout, the seat taken over): stored with the move, for /replay.
        pending = [Event(text) for text in session.row.clocks.get("noted", [])]
        extra = [*pending, *extra]
        noted_before = [e.public for e in extra if e.public]
        noted_after = [
            f"{player} ran out of time three times: a bot plays for them."
            for change in changes
            if change.away == "timeout"
        ]
        events = [*extra, *events, *(Event(text) for text in noted_after)]
        renderer = session.hosted.renderer
        new_round = renderer.round_of(game.view(None)) != renderer.round_of(session.view(None))
        before, logged = session.row.log, events
        if new_round and not game.finished:
            # Last round's secrets are of no use any more, nor are this move's from before
            # the new round began (the cards drawn for the round's last Draw Two).
            before = {**before, "private": {}}
            starts = [i for i, e in enumerate(events) if renderer.begins_round(e.public)]
            if starts:
                cut = starts[-1]
                logged = [Event(e.public) for e in events[:cut]] + events[cut:]
        log = merge_log(before, logged)
        version = session.version + 1
        log["seen"] = track_seen(
            log, game, version, session.hosted.renderer.is_table_only, session.game
        )
        status = "finished" if game.finished else "active"
        seats = [_changed(s, changes) for s in session.seats]
        probe = Session(row=session.row, seats=seats)
        # The turn before this move, from the game itself: a game stored before the clocks
        # kept it (or kept it wrong) still sees a new turn begin.
        before_turn = session.hosted.renderer.turn_of(session.view(None))
        clocks, wake = self.clocks_for(
            probe, game, now, mover=player, timed_out=timed_out, turn_before=before_turn
        )
        clocks.pop("noted", None)  # in this move's log now
        result = finishing_result(game, seats) if game.finished else None
        try:
            version = await self.store.record_move(
                session.id,
                session.version,
                user_id,
                action_id,
                game.to_dict(),
                log,
                status=status,
                clocks=clocks,
                wake_at=wake,
                result=result,
                seat_changes=changes,
                expected_rev=self._rev(session),
                notes={k: v for k, v in (("before", noted_before), ("after", noted_after)) if v},
            )
        except BaseException:
            self.forget(session.id)
            raise
        self._clocks_stored[session.id] = self.tick()
        session.game = game
        session.seats = seats
        row = session.row
        row.version, row.log, row.status, row.clocks, row.wake_at = (
            version,
            log,
            status,
            clocks,
            wake,
        )
        if game.finished:
            self.forget(session.id)
        return Applied(events, version, changes, new_round and not game.finished)

    def _seat_changes(self, session: Session, user_id: int, timed_out: bool) -> list[SeatChange]:
        seat = session.seat(user_id)
        if seat is None or not seat.human:
            return []
        if timed_out and str(user_id) in session.row.clocks.get("struck", []):
            return []  # the bot finishing a turn already struck: one strike per turn
        if timed_out:
            strikes = seat.strikes + 1
            if strikes >= STRIKES_TO_BOT:
                level = session.row.settings.get("level", "normal")
                return [SeatChange(user_id, True, level, "timeout", strikes)]
            return [SeatChange(user_id, seat.is_bot, seat.level, seat.away, strikes)]
        if seat.strikes and not seat.is_bot:
            return [SeatChange(user_id, False, None, None, 0)]  # they are here: no more strikes
        return []

    def _rev(self, session: Session) -> int | None:
        """The revision a write must find (several processes): the copy's changes were worked
        out from it, and another process may have changed a seat at the same version."""
        return session.row.rev if self.shared else None

    async def set_clocks(self, session: Session, clocks: dict[str, Any]) -> bool:
        wake = wake_at(clocks)
        stored = await self.store.set_clocks(
            session.id, session.version, clocks, wake, self._rev(session)
        )
        if not stored:
            return False
        self._clocks_stored[session.id] = self.tick()
        session.row.clocks, session.row.wake_at = clocks, wake
        return True

    async def change_seat(self, session: Session, change: SeatChange, now: float) -> None:
        """A member leaves, is kicked or comes back: the seat's control changes, and with it
        who the clocks wait for."""
        seats = [_changed(s, [change]) for s in session.seats]
        timed = None
        if session.game is not None and session.row.status == "active":
            # Who the clocks wait for changes with the seat: one transaction for both, so a
            # crash in between never leaves a bot seat without its clock.
            probe = Session(row=session.row, seats=seats)
            clocks, wake = self.clocks_for(probe, session.game, now)
            # Said in the log with the next move (and so in /replay): whose moves are a bot's.
            clocks["noted"] = note_seat(clocks.get("noted", []), change)
            timed = (session.version, clocks, wake)
        try:
            stored = await self.store.set_seat(session.id, change, timed, self._rev(session))
        except SeatRemoved:
            await self.reload(session)  # kicked by another process meanwhile
            raise
        session.seats = seats
        if timed is None:
            return
        if stored is None:
            # Another process made this very change a moment before (a DM press and /back
            # at once), its clocks and log line with it: the game as stored, noted once.
            await self.reload(session)
            return
        if stored:
            self._clocks_stored[session.id] = self.tick()
            session.row.clocks, session.row.wake_at = timed[1], timed[2]
            return
        # Another process changed the game meanwhile: the clocks, worked out again from the
        # game as it is now (the seat change is stored either way).
        await self.reload(session)
        if session.game is not None and session.row.status == "active":
            clocks, _ = self.clocks_for(session, session.game, now)
            clocks["noted"] = note_seat(clocks.get("noted", []), change)
            await self.set_clocks(session, clocks)

    async def rename(self, session: Session, user_id: int, name: str) -> None:
        """A member's seat shown under the name they go by now."""
        if await self.store.rename_seat(session.id, user_id, name):
            session.seats = [
                replace(s, name=name) if s.user_id == user_id else s for s in session.seats
            ]

    async def abandon_if_empty(self, session: Session) -> bool:
        """No member plays any seat any more: the game ends, abandoned (no winner counted)."""
        if any(s.human and not s.is_bot for s in session.seats):
            return False
        return await self.end(session, "abandoned")

    async def end(self, session: Session, reason: str) -> bool:
        """Stop an open game without a result (ended, abandoned, expired)."""
        if not await self.store.end_game(session.id, reason):
            return False
        session.row.status = "cancelled"
        session.row.ended_reason = reason
        session.row.clocks, session.row.wake_at = {}, None
        self.forget(session.id)
        return True


def finishing_result(game: Game, seats: list[SeatRow]) -> Result:
    """The stats and ratings of a finished game: members only; members away at the end (a bot
    played their seat) are placed last and cannot win. A kicked member's game counts for
    nobody's stats but the others': a host could otherwise take a rival's seat with /kick,
    lose to the bot playing it, and still gain rating while the rival lost some."""
    outcome = game.outcome
    assert outcome is not None
    members = [str(s.user_id) for s in seats if s.human and s.away != "kicked"]
    away = {str(s.user_id) for s in seats if s.human and s.is_bot}
    ranks = ratings.places(outcome.placings, members, away)
    winners = [int(w) for w in outcome.winners if w in members and w not in away]
    draw = not outcome.winners
    if forfeit := forfeit_winners(game, seats):
        winners, draw = [int(w) for w in forfeit], False

    def rate(previous: dict[int, tuple[float, float] | None]) -> dict[int, tuple[float, float]]:
        before = {str(u): ratings.Rating(*r) if r else None for u, r in previous.items()}
        after = ratings.rate(before, ranks)
        return {int(p): (r.mu, r.sigma) for p, r in after.items()}

    return Result([int(m) for m in members], winners, rate, draw=draw)


def forfeit_winners(game: Game, seats: list[SeatRow]) -> list[str]:
    """The members who win a finished game by forfeit: when the game was won by the seat of
    a member who left (a bot played it to the end), or drawn with one, and no member who
    stayed won, the best placed of those who stayed, as the ratings place them above the
    leavers. Else none: a game won by a bot seat that was never a member's is a plain loss,
    and kicked members do not count (a host could otherwise win by kicking a rival)."""
    outcome = game.outcome
    assert outcome is not None
    members = [str(s.user_id) for s in seats if s.human and s.away != "kicked"]
    away = {str(s.user_id) for s in seats if s.human and s.is_bot}
    stayed = [m for m in members if m not in away]
    left = [m for m in members if m in away]
    decided_by_leaver = not outcome.winners or any(w in left for w in outcome.winners)
    if not stayed or not left or not decided_by_leaver:
        return []
    if any(w in stayed for w in outcome.winners):
        return []
    ranks = ratings.places(outcome.placings, members, away)
    best = min(ranks[m] for m in stayed)
    return [m for m in stayed if ranks[m] == best]


def forfeit_reason(seats: list[SeatRow], winners: Iterable[str] = ()) -> str:
    """Why a game was won by forfeit: the member whose seat won (or any, in a draw) left, or
    was away to the end (timeouts)."""
    away = [s for s in seats if s.human and s.is_bot]
    deciding = [s for s in away if str(s.user_id) in set(winners)] or away
    if any(s.away == "left" for s in deciding):
        return "a player left the game."
    return "a player was away and a bot played their seat to the end."


def seat_line(change: SeatChange) -> str:
    """The log's line for a seat changing hands between moves (the ids are shown as names)."""
    who = str(change.user_id)
    if not change.is_bot:
        return f"{who} is back and plays their own seat again."
    if change.away == "kicked":
        return f"{who} was removed from the game: a bot plays their seat."
    return f"{who} left the game: a bot plays their seat."


def note_seat(noted: list[str], change: SeatChange) -> list[str]:
    """The lines for the next move's log with this seat change: a member's net change
    between two moves, never a line per change (a /leave and /back loop would push every
    earlier move off the table's Recent list and into /replay for good). A change that
    undoes the member's last one since the move (back after leaving, leaving after coming
    back) leaves no line; any other replaces theirs."""
    who = f"{change.user_id} "
    earlier = [line for line in noted if line.startswith(who)]
    kept = [line for line in noted if not line.startswith(who)]
    if earlier:
        last = earlier[-1]
        if not change.is_bot and " left the game" in last:
            return kept  # playing their seat again, as at the last move
        if change.is_bot and change.away != "kicked" and " is back" in last:
            return kept  # a bot plays it again, as at the last move
    return [*kept, seat_line(change)]


def _changed(seat: SeatRow, changes: Iterable[SeatChange]) -> SeatRow:
    for c in changes:
        if c.user_id == seat.user_id:
            return replace(seat, is_bot=c.is_bot, level=c.level, away=c.away, strikes=c.strikes)
    return seat
