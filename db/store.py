"""All SQL lives here. Stores ids and engine JSON, never Discord objects.

Every write is one transaction script (``db/script.py``), so concurrent games, timers and
commands never share (or roll back) each other's transactions; a write that changes a game
or its seats takes the game's lock (across processes, with PostgreSQL) and bumps its ``rev``,
which is how a process sharing the database notices that its cached copy is out of date.
Queries on open games name their statuses as literals, so the partial indexes on open games
apply and nothing scans finished games.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from db.backend import Backend
from db.errors import (
    ChannelBusy,
    Conflict,
    HostBusy,
    HostTooFast,
    SeatRemoved,
    StaleVersion,
)
from db.migrate import migrate
from db.rows import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    STAT_COLUMNS,
    GameRow,
    SeatRow,
    StatRow,
    dumps,
    game_row,
    seat_row,
    stat_row,
)
from db.script import Op, Script, lock, many, one, run, single

OPEN = "status IN ('lobby', 'active')"  # a literal, so SQLite uses the partial indexes
# Lobbies one member may have open in a server at once: each holds a channel until it starts
# or expires, so one member cannot block a server's channels with lobbies nobody joins.
LOBBIES_PER_HOST = 3
# Lobbies one member may open in a server within LOBBY_WINDOW seconds that never start.
LOBBIES_PER_WINDOW = 5
LOBBY_WINDOW = 600.0
RECENT_LOBBIES = (  # a member's lobbies in a server since a time, never started: those
    # shown, and those open (being posted: two /newgame at once must not both pass)
    "SELECT created_at FROM games WHERE host_id = ? AND created_at > ?"
    " AND guild_id = ? AND state IS NULL AND (table_message_id IS NOT NULL OR status = 'lobby')"
    " ORDER BY created_at"
)
# A game that started and ended, whose end may be unshown (``games_undrawn_ended``).
ENDED = "status IN ('finished', 'cancelled') AND state IS NOT NULL"
# A new revision for what changes nothing shown (which message is the table, the reminder's
# id, the end posted): a game shown in full stays so, and a restart does not redraw it.
UNSEEN_BUMP = "rev = rev + 1, drawn = CASE WHEN drawn >= rev THEN rev + 1 ELSE drawn END"


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat's control changes with a move (a strike, a bot taking over, a return)."""

    user_id: int
    is_bot: bool
    level: str | None
    away: str | None
    strikes: int


RatingPair = tuple[float, float]  # (mu, sigma)
Rater = Callable[[dict[int, RatingPair | None]], dict[int, RatingPair]]


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game's result for the stats: the members who played it and who won, and
    (for a rated game) how to work out their new ratings from their previous ones."""

    players: list[int]
    winners: list[int]
    rate: Rater | None = None
    # Nobody won the game (it breaks every streak). Only members count as ``winners``, so a
    # game a bot won has none and is a loss for the members, not a draw: None reads a draw
    # from empty ``winners``, for results built without bots.
    draw: bool | None = None


@dataclass(frozen=True, slots=True)
class Count:
    """One member's tally for a finished game."""

    user: int
    won: bool
    streak: int
    best: int
    rating: RatingPair | None  # the new (mu, sigma), for a rated game
    shift: list[float | None] | None  # [before, after] conservative ratings, for the end post


def touch(game_id: int, now: float) -> Op:
    # A lobby that changes is not abandoned: this keeps it from expiring.
    return one(
        "UPDATE games SET updated_at = ?, rev = rev + 1 WHERE id = ? RETURNING rev", now, game_id
    )


def _same_rev(rev: int | None) -> tuple[str, tuple[int, ...]]:
    """A ``WHERE`` condition (and its argument) that the game is still at revision ``rev``."""
    return ("", ()) if rev is None else (" AND rev = ?", (rev,))


def bump(game_id: int) -> Op:
    """The game's seats changed: a new revision (the new rev is the result)."""
    return one("UPDATE games SET rev = rev + 1 WHERE id = ? RETURNING rev", game_id)


def is_postgres(where: str) -> bool:
    return where.startswith(("postgresql://", "postgres://"))


class Store:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        # Unix time for stamps; the bot swaps in its steady clock.
        self.clock: Callable[[], float] = time.time
        # Told (game id, new rev) after each write this process makes to a game.
        self.revised: Callable[[int, int], None] | None = None

    @property
    def shared(self) -> bool:
        """Other processes may write to this database (PostgreSQL)."""
        return self.backend.dialect == "postgresql"

    @classmethod
    async def open(
        cls, where: str | Path, timeout: float = 5.0, pool_min: int = 1, pool_max: int = 10
    ) -> Store:
        """Open and migrate the database: ``postgresql://...`` is PostgreSQL, a path (or
        ``sqlite:///path``) SQLite. StoreUnavailable (saying how to fix it) if it cannot be
        used."""
        target = str(where)
        backend: Backend
        if is_postgres(target):
            from db.postgres import PostgresBackend

            backend = await PostgresBackend.open(target, timeout, pool_min, pool_max)
        else:
            from db.sqlite import SqliteBackend

            backend = await SqliteBackend.open(target.removeprefix("sqlite:///"), timeout)
        try:
            await migrate(backend)
        except BaseException:
            await backend.close()
            raise
        return cls(backend)

    async def close(self) -> None:
        await self.backend.close()

    # -- games -----------------------------------------------------------------------------
    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        kind: str,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
        seed: int,
        settings: dict[str, Any] | None = None,
        bots: Sequence[tuple[int, str, str]] = (),
    ) -> GameRow:
        """A lobby with the host seated (and ``bots``: (id, name, level)); ChannelBusy if the
        channel has an open game, HostBusy if the host already has ``LOBBIES_PER_HOST`` open
        lobbies in this server, HostTooFast if they opened ``LOBBIES_PER_WINDOW`` there in
        the last ``LOBBY_WINDOW`` seconds that never started."""
        now = self.clock()

        def script() -> Script[Any]:
            # Checked and inserted in one transaction, the host's lobbies locked meanwhile:
            # two /newgame at the same instant (one per channel) cannot both pass.
            yield lock("host", guild_id, host_id)
            held = yield many(
                f"SELECT channel_id FROM games WHERE guild_id = ? AND {OPEN}"
                " AND status = 'lobby' AND host_id = ? ORDER BY id",
                guild_id,
                host_id,
            )
            if len(held) >= LOBBIES_PER_HOST:
                raise HostBusy([int(r[0]) for r in held])
            recent = yield many(RECENT_LOBBIES, host_id, now - LOBBY_WINDOW, guild_id)
            if len(recent) >= LOBBIES_PER_WINDOW:
                raise HostTooFast(float(recent[-LOBBIES_PER_WINDOW][0]) + LOBBY_WINDOW)
            row = yield one(
                "INSERT INTO games (guild_id, channel_id, kind, host_id, options, seed,"
                " settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                f" RETURNING {GAME_COLUMNS}",
                guild_id,
                channel_id,
                kind,
                host_id,
                dumps(options),
                seed,
                dumps(settings or {}),
                now,
                now,
            )
            game_id = int(row[0])
            yield run(
                "INSERT INTO seats (game_id, user_id, seat, name) VALUES (?, ?, 0, ?)",
                game_id,
                host_id,
                host_name,
            )
            for i, (bot_id, name, level) in enumerate(bots, start=1):
                yield run(
                    "INSERT INTO seats (game_id, user_id, seat, name, is_bot, human, level)"
                    " VALUES (?, ?, ?, ?, 1, 0, ?)",
                    game_id,
                    bot_id,
                    i,
                    name,
                    level,
                )
            return row

        try:
            # The row as the transaction made it: no read after it, which could fail once
            # the lobby is stored (the member told "nothing was changed", the channel held).
            return game_row(await self.backend.write(script))
        except Conflict:
            raise ChannelBusy from None

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._read(one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", game_id))
        return game_row(row) if row else None

    async def game_rev(self, game_id: int) -> int | None:
        """The stored revision alone: a cheap check that a cached game is still current."""
        row = await self._read(one("SELECT rev FROM games WHERE id = ?", game_id))
        return int(row[0]) if row else None

    async def count_open(self) -> int:
        """Lobbies and games in progress (the partial index on open games answers it)."""
        row = await self._read(one(f"SELECT COUNT(*) FROM games WHERE {OPEN}"))
        return int(row[0]) if row else 0

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._read(
            one(f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND {OPEN}", channel_id)
        )
        return game_row(row) if row else None

    async def open_games_in_guild(self, guild_id: int) -> list[GameRow]:
        rows = await self._read(
            many(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND {OPEN} ORDER BY id",
                guild_id,
            )
        )
        return [game_row(r) for r in rows]

    async def open_game_guilds(self) -> list[tuple[int, int]]:
        """(game id, server id) of every open game: the partial index alone, never a scan."""
        rows = await self._read(many(f"SELECT id, guild_id FROM games WHERE {OPEN} ORDER BY id"))
        return [(int(r[0]), int(r[1])) for r in rows]

    async def stale_lobbies(self, older_than: float) -> list[int]:
        """Lobbies untouched since ``older_than`` (an indexed range, never a scan)."""
        rows = await self._read(
            many("SELECT id FROM games WHERE status = 'lobby' AND updated_at < ?", older_than)
        )
        return [int(r[0]) for r in rows]

    async def due_games(self, now: float, limit: int = 100) -> list[int]:
        """Open games whose nearest clock has come (timers, bot moves, nudges)."""
        rows = await self._read(
            many(
                "SELECT id FROM games WHERE wake_at IS NOT NULL AND wake_at <= ?"
                " ORDER BY wake_at LIMIT ?",
                now,
                limit,
            )
        )
        return [int(r[0]) for r in rows]

    async def claim_due(self, now: float, lease: float, limit: int = 100) -> list[int]:
        """Claim the open games whose nearest clock has come: their ``wake_at`` moves to
        ``now + lease``, so no other process fires them meanwhile (rows another process is
        claiming are skipped), and a process that dies mid-fire only delays them by the lease.
        Firing a clock stores new clocks, which replaces the lease."""
        rows = await self.backend.write(
            lambda: single(
                many(
                    "UPDATE games SET wake_at = ? WHERE id IN (SELECT id FROM games"
                    " WHERE wake_at IS NOT NULL AND wake_at <= ? ORDER BY wake_at LIMIT ?"
                    f"{self.backend.skip_locked}) RETURNING id",
                    now + lease,
                    now,
                    limit,
                )
            )
        )
        return sorted(int(r[0]) for r in rows)

    async def wakes_between(
        self, start: float, end: float
    ) -> list[tuple[int, dict[str, Any], float]]:
        """(game, clocks, wake_at) of the games that wake in ``(start, end]``: where the
        claims of a process that stopped (their ``wake_at`` a lease ahead) are found."""
        rows = await self._read(
            many(
                "SELECT id, clocks, wake_at FROM games"
                " WHERE wake_at IS NOT NULL AND wake_at > ? AND wake_at <= ?",
                start,
                end,
            )
        )
        return [(int(r[0]), json.loads(r[1]) if r[1] else {}, float(r[2])) for r in rows]

    async def set_wake(self, game_id: int, was: float, wake_at: float | None) -> bool:
        """Move the game's next wake from ``was`` (unchanged meanwhile) to ``wake_at``; the
        revision stays: nothing shown changes."""
        row = await self._write(
            one(
                "UPDATE games SET wake_at = ? WHERE id = ? AND wake_at = ? RETURNING id",
                wake_at,
                game_id,
                was,
            )
        )
        return row is not None

    async def take_drawing(self, game_id: int, owner: str, lease: float) -> bool | None:
        """Take the right to draw the game's table and DMs for ``lease`` seconds: None if
        another process holds it now, else whether ``owner`` was the last to draw it (so what
        it remembers showing is still what Discord shows)."""
        now = self.clock()

        def script() -> Script[bool | None]:
            yield lock("draw", game_id)
            row = yield one("SELECT draw_by, draw_owner FROM games WHERE id = ?", game_id)
            if row is None:
                return None
            by, last = row
            if by is not None and by > now and last != owner:
                return None
            yield run(
                "UPDATE games SET draw_by = ?, draw_owner = ? WHERE id = ?",
                now + lease,
                owner,
                game_id,
            )
            return bool(last == owner)

        return await self.backend.write(script)

    async def end_drawing(self, game_id: int, owner: str, rev: int | None) -> int | None:
        """Give the drawing back, the game shown in full as of revision ``rev`` (None: not
        shown in full). The stored revision now, to draw again if it moved meanwhile; None if
        the lease was lost to another process."""
        row = await self.backend.write(
            lambda: single(
                one(
                    "UPDATE games SET drawn = CASE WHEN drawn < ? THEN ? ELSE drawn END,"
                    " draw_by = NULL WHERE id = ? AND draw_owner = ? RETURNING rev",
                    rev if rev is not None else -1,
                    rev if rev is not None else -1,
                    game_id,
                    owner,
                )
            )
        )
        return int(row[0]) if row is not None else None

    async def claim_undrawn(
        self,
        owner: str,
        now: float,
        grace: float,
        lease: float,
        limit: int = 20,
        ended_since: float | None = None,
        skip: Sequence[int] = (),
    ) -> list[int]:
        """Claim running games changed more than ``grace`` seconds ago, not yet shown in full
        and not being drawn (the process that changed them died): ``owner`` holds their
        drawing for ``lease`` seconds, so one process redraws each. Games that ended since
        ``ended_since`` too (their end unshown, their buttons live). Never those in
        ``skip`` (the caller waits a while before trying them again)."""
        others = f" AND id NOT IN ({', '.join(str(int(g)) for g in skip)})" if skip else ""
        claim = (
            "UPDATE games SET draw_by = ?, draw_owner = ? WHERE id IN"
            " (SELECT id FROM games WHERE {which} AND drawn < rev"
            f" AND updated_at <= ? AND (draw_by IS NULL OR draw_by <= ?){others}"
            f" ORDER BY updated_at LIMIT ?{self.backend.skip_locked}) RETURNING id"
        )

        def script() -> Script[list[int]]:
            rows = yield many(
                claim.format(which="status = 'active'"),
                now + lease,
                owner,
                now - grace,
                now,
                limit,
            )
            if ended_since is not None:
                rows += yield many(
                    claim.format(which=f"{ENDED} AND updated_at >= ?"),
                    now + lease,
                    owner,
                    ended_since,
                    now - grace,
                    now,
                    limit,
                )
            return sorted(int(r[0]) for r in rows)

        return await self.backend.write(script)

    async def mark_drawn(self, drawn: dict[int, int], ended: Collection[int] = ()) -> None:
        """Alone on the database: these games are shown in full as of these revisions (one
        transaction for a batch, off the click path; ``drawn`` only ever grows). ``ended``:
        games whose end is what was shown; nothing they store later changes it, so they
        count as shown as of their newest revision."""

        def script() -> Script[None]:
            for game_id, rev in sorted(drawn.items()):
                if game_id in ended:
                    yield run(f"UPDATE games SET drawn = rev WHERE id = ? AND {ENDED}", game_id)
                    continue
                yield run(
                    "UPDATE games SET drawn = ? WHERE id = ? AND drawn < ?", rev, game_id, rev
                )

        await self.backend.write(script)

    async def undrawn(self, ended_since: float | None = None) -> list[int]:
        """Running games changed since they were last shown in full (the process stopped
        between storing a change and showing it), oldest change first; then the games that
        ended since ``ended_since`` with their end unshown."""
        rows = await self._read(
            many("SELECT id FROM games WHERE status = 'active' AND drawn < rev ORDER BY updated_at")
        )
        if ended_since is not None:
            rows += await self._read(
                many(
                    f"SELECT id FROM games WHERE {ENDED} AND drawn < rev AND updated_at >= ?"
                    " ORDER BY updated_at",
                    ended_since,
                )
            )
        return [int(r[0]) for r in rows]

    async def closed_dms(self) -> list[tuple[int, int]]:
        """(game, member) of the running games whose member's DMs are marked closed."""
        # Through the open games' index: a join led by seats would scan every seat ever.
        rows = await self._read(
            many(
                "SELECT s.game_id, s.user_id FROM games g JOIN seats s ON s.game_id = g.id"
                f" WHERE g.{OPEN} AND g.status = 'active' AND s.dm_closed = 1"
            )
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def closed_among(self, game_ids: Sequence[int]) -> list[int]:
        """Those of ``game_ids`` that are over (finished or cancelled)."""
        found: list[int] = []
        ids = list(game_ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = await self._read(
                many(
                    f"SELECT id FROM games WHERE id IN ({marks})"
                    " AND status IN ('finished', 'cancelled')",
                    *chunk,
                )
            )
            found += [int(r[0]) for r in rows]
        return found

    async def probe_write(self) -> None:
        """A write that changes nothing: StoreUnavailable while writes fail (a SQLite file
        locked by another program still answers reads). A row is written, not only a
        transaction begun: on a full disk only writing pages fails."""
        await self._write(run("UPDATE meta SET value = value WHERE key = 'application'"))

    async def next_wake(self) -> float | None:
        row = await self._read(one("SELECT MIN(wake_at) FROM games WHERE wake_at IS NOT NULL"))
        return float(row[0]) if row and row[0] is not None else None

    async def start_game(
        self,
        game_id: int,
        state: dict[str, Any],
        log: dict[str, Any],
        clocks: dict[str, Any] | None = None,
        wake_at: float | None = None,
    ) -> bool:
        """Lobby -> active with the engine's first state (version 0). False if not a lobby.
        The lobby's message stays a record; the table is a new message, and until it is
        posted the game has none (a restart before then posts it, never draws over the
        lobby)."""
        return await self._change(
            game_id,
            one(
                "UPDATE games SET status = 'active', state = ?, version = 0, log = ?,"
                " clocks = ?, wake_at = ?, updated_at = ?, rev = rev + 1,"
                " table_message_id = NULL WHERE id = ? AND status = 'lobby' RETURNING rev",
                dumps(state),
                dumps(log),
                dumps(clocks or {}),
                wake_at,
                self.clock(),
                game_id,
            ),
        )

    async def reopen_lobby(self, game_id: int) -> bool:
        """Active -> lobby again, before any move (the table could not be posted)."""
        return await self._change(
            game_id,
            one(
                "UPDATE games SET status = 'lobby', state = NULL, log = '{}', clocks = '{}',"
                " wake_at = NULL, table_message_id = NULL, updated_at = ?, rev = rev + 1"
                " WHERE id = ? AND status = 'active' AND version = 0 RETURNING rev",
                self.clock(),
                game_id,
            ),
        )

    async def end_game(self, game_id: int, reason: str) -> bool:
        """An open game stops without a result ('ended', 'abandoned', 'expired').

        False if it was not open any more (finished or ended meanwhile): nothing changed.
        """
        return await self._change(
            game_id,
            one(
                "UPDATE games SET status = 'cancelled', ended_reason = ?, wake_at = NULL,"
                f" clocks = '{{}}', updated_at = ?, rev = rev + 1 WHERE id = ? AND {OPEN}"
                " RETURNING rev",
                reason,
                self.clock(),
                game_id,
            ),
        )

    async def record_move(
        self,
        game_id: int,
        expected_version: int,
        user_id: int,
        action: str,
        state: dict[str, Any],
        log: dict[str, Any],
        *,
        status: str = "active",
        clocks: dict[str, Any] | None = None,
        wake_at: float | None = None,
        result: Result | None = None,
        seat_changes: Sequence[SeatChange] = (),
        expected_rev: int | None = None,
        notes: Mapping[str, Sequence[str]] | None = None,
    ) -> int:
        """Append the move and store the new state in ONE transaction; return the new version.

        ``WHERE version = ?`` refuses a write based on an outdated load (StaleVersion); with
        ``expected_rev`` (several processes) so does any other change since the load, such as
        a seat another process handed to a bot at the same version. The stats of a finishing
        move and any seat change ride in the same transaction, so a crash can never keep half
        of a move.
        """
        now = self.clock()
        new_version = expected_version + 1
        same, same_args = _same_rev(expected_rev)

        def script() -> Script[int]:
            yield lock("game", game_id)
            counts = (yield from self._tally(game_id, result)) if result is not None else []
            ratings = {str(c.user): c.shift for c in counts if c.shift is not None}
            changed = yield one(
                "UPDATE games SET state = ?, version = ?, log = ?, status = ?, clocks = ?,"
                " wake_at = ?, finished_at = ?, updated_at = ?, ratings = ?, rev = rev + 1"
                f" WHERE id = ? AND version = ? AND status = 'active'{same} RETURNING rev",
                dumps(state),
                new_version,
                dumps(log),
                status,
                dumps(clocks or {}),
                wake_at,
                now if status == "finished" else None,
                now,
                dumps(ratings) if ratings else None,
                game_id,
                expected_version,
                *same_args,
            )
            if changed is None:
                raise StaleVersion
            yield run(
                "INSERT INTO moves (game_id, seq, user_id, action, created_at, notes)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                game_id,
                new_version,
                user_id,
                action,
                now,
                json.dumps(dict(notes)) if notes else None,
            )
            for change in seat_changes:
                yield run(
                    "UPDATE seats SET is_bot = ?, level = ?, away = ?, strikes = ?"
                    " WHERE game_id = ? AND user_id = ?",
                    int(change.is_bot),
                    change.level,
                    change.away,
                    change.strikes,
                    game_id,
                    change.user_id,
                )
            for count in counts:
                yield self._count(game_id, count, now)
            rev[0] = int(changed[0])
            return new_version

        rev = [0]
        version = await self.backend.write(script)
        self._revised(game_id, rev[0])
        return version

    def _tally(self, game_id: int, result: Result) -> Script[list[Count]]:
        """What a finished game changes for each member: one read for all of them, the new
        streaks, and (for a rated game) the new ratings."""
        members = sorted(result.players)  # stats rows locked in one order: no deadlocks
        if not members:
            return []
        # Two games of one kind on one server finishing at once must not both rate from the
        # same old ratings: the second waits for the first (PostgreSQL; SQLite's one writer).
        where = yield one("SELECT guild_id, kind FROM games WHERE id = ?", game_id)
        if where is not None:
            yield lock("stats", where[0], where[1])
        marks = ", ".join("?" for _ in members)
        found = yield many(
            "SELECT s.user_id, s.mu, s.sigma, s.streak, s.best_streak FROM stats s"
            " JOIN games g ON g.guild_id = s.guild_id AND g.kind = s.kind"
            f" WHERE g.id = ? AND s.user_id IN ({marks})",
            game_id,
            *members,
        )
        before = {int(r[0]): r for r in found}
        previous: dict[int, RatingPair | None] = {
            u: (r[1], r[2]) if (r := before.get(u)) is not None and r[1] is not None else None
            for u in members
        }
        after = result.rate(previous) if result.rate is not None and len(members) >= 2 else {}
        counts = []
        for user in members:
            won = user in result.winners
            streak, best = (
                (int(before[user][3]), int(before[user][4])) if user in before else (0, 0)
            )
            draw = result.draw if result.draw is not None else not result.winners
            if draw:
                streak = 0  # a draw breaks any streak
            elif won:
                streak = streak + 1 if streak > 0 else 1
            else:
                streak = streak - 1 if streak < 0 else -1
            new = after.get(user)
            old = previous[user]
            shift = None
            if new is not None:
                shift = [old[0] - 3 * old[1] if old else None, new[0] - 3 * new[1]]
            counts.append(Count(user, won, streak, max(best, streak), new, shift))
        return counts

    def _count(self, game_id: int, count: Count, now: float) -> Op:
        """One member's stats row after a finished game: one upsert."""
        mu, sigma = count.rating if count.rating is not None else (None, None)
        ordinal = mu - 3 * sigma if mu is not None and sigma is not None else None
        return run(
            "INSERT INTO stats (guild_id, user_id, kind, played, won, streak, best_streak,"
            " mu, sigma, ordinal, rated, last_at)"
            " SELECT guild_id, CAST(? AS BIGINT), kind, 1, CAST(? AS BIGINT), CAST(? AS BIGINT),"
            " CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION),"
            " CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION)"
            " FROM games WHERE id = ?"
            " ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET"
            " played = stats.played + 1, won = stats.won + excluded.won,"
            " streak = excluded.streak, best_streak = excluded.best_streak,"
            " mu = COALESCE(excluded.mu, stats.mu), sigma = COALESCE(excluded.sigma,"
            " stats.sigma), ordinal = COALESCE(excluded.ordinal, stats.ordinal),"
            " rated = stats.rated + excluded.rated, last_at = excluded.last_at",
            count.user,
            int(count.won),
            count.streak,
            count.best,
            mu,
            sigma,
            ordinal,
            int(count.rating is not None),
            now,
            game_id,
        )

    async def set_clocks(
        self,
        game_id: int,
        version: int,
        clocks: dict[str, Any],
        wake_at: float | None,
        expected_rev: int | None = None,
    ) -> bool:
        """Change the clocks of the game at ``version`` (and ``expected_rev``, if given);
        False if it moved on meanwhile."""
        same, same_args = _same_rev(expected_rev)
        return await self._change(
            game_id,
            one(
                "UPDATE games SET clocks = ?, wake_at = ?, rev = rev + 1"
                f" WHERE id = ? AND version = ? AND {OPEN}{same} RETURNING rev",
                dumps(clocks),
                wake_at,
                game_id,
                version,
                *same_args,
            ),
        )

    async def set_seat(
        self,
        game_id: int,
        change: SeatChange,
        clocks: tuple[int, dict[str, Any], float | None] | None = None,
        expected_rev: int | None = None,
    ) -> bool | None:
        """A seat's control changes without a move (a player returns, leaves or is kicked).
        ``clocks``: (version, clocks, wake_at) worked out for the change, stored in the same
        transaction unless the game has moved on from that version (or ``expected_rev``):
        then False, and the clocks are left as they are. None if the seat already was so
        (another process made the same change, with its clocks, a moment before). A kicked
        member's seat is never changed again: ``SeatRemoved`` (a change decided on a copy
        from before the kick, in another process, would otherwise seat them again)."""
        now = self.clock()
        same, same_args = _same_rev(expected_rev)

        def script() -> Script[Any]:
            yield lock("game", game_id)
            before = yield one(
                "SELECT is_bot, away FROM seats WHERE game_id = ? AND user_id = ?",
                game_id,
                change.user_id,
            )
            already = before is not None and (bool(before[0]), before[1]) == (
                change.is_bot,
                change.away,
            )
            changed = yield run(
                "UPDATE seats SET is_bot = ?, level = ?, away = ?, strikes = ?"
                " WHERE game_id = ? AND user_id = ? AND (away IS NULL OR away <> 'kicked')",
                int(change.is_bot),
                change.level,
                change.away,
                change.strikes,
                game_id,
                change.user_id,
            )
            if changed == 0:
                return None, False
            if already:
                return (yield touch(game_id, now)), None
            timed = 1
            if clocks is not None:
                version, chosen, wake_at = clocks
                timed = yield run(
                    f"UPDATE games SET clocks = ?, wake_at = ? WHERE id = ? AND version = ?"
                    f" AND {OPEN}{same}",
                    dumps(chosen),
                    wake_at,
                    game_id,
                    version,
                    *same_args,
                )
            return (yield touch(game_id, now)), timed == 1

        rev, timed = await self.backend.write(script)
        if rev is None:
            raise SeatRemoved(f"game {game_id}: member {change.user_id} was removed")
        self._revised(game_id, rev)
        return None if timed is None else bool(timed)

    async def claim_rematch(self, game_id: int) -> bool:
        """True for the first rematch opened from this ended game, False ever after: its
        players are pinged once, however often Play again is pressed (and its lobby
        cancelled) on its end post."""

        def script() -> Script[Any]:
            yield lock("game", game_id)
            row = yield one(f"SELECT settings FROM games WHERE id = ? AND {ENDED}", game_id)
            if row is None:
                return None
            settings = json.loads(row[0]) if row[0] else {}
            if settings.get("rematched"):
                return None
            settings["rematched"] = True
            return (
                yield one(
                    f"UPDATE games SET settings = ?, {UNSEEN_BUMP} WHERE id = ? RETURNING rev",
                    dumps(settings),
                    game_id,
                )
            )

        return self._revised(game_id, await self.backend.write(script))

    async def release_rematch(self, game_id: int) -> None:
        """The rematch that claimed this ended game's ping was closed at once (the database
        would not keep it): the next Play again pings its players again."""

        def script() -> Script[Any]:
            yield lock("game", game_id)
            row = yield one(f"SELECT settings FROM games WHERE id = ? AND {ENDED}", game_id)
            settings = json.loads(row[0]) if row and row[0] else {}
            if not settings.pop("rematched", None):
                return None
            return (
                yield one(
                    f"UPDATE games SET settings = ?, {UNSEEN_BUMP} WHERE id = ? RETURNING rev",
                    dumps(settings),
                    game_id,
                )
            )

        self._revised(game_id, await self.backend.write(script))

    async def set_lobby_settings(self, game_id: int, settings: dict[str, Any]) -> bool:
        """Change how a lobby's game will be hosted (its bot level...); bot seats follow."""
        now = self.clock()

        def script() -> Script[Any]:
            changed = yield one(
                "UPDATE games SET settings = ?, updated_at = ?, rev = rev + 1"
                " WHERE id = ? AND status = 'lobby' RETURNING rev",
                dumps(settings),
                now,
                game_id,
            )
            if changed and "level" in settings:
                yield run(
                    "UPDATE seats SET level = ? WHERE game_id = ? AND is_bot = 1",
                    settings["level"],
                    game_id,
                )
            return changed

        return self._revised(game_id, await self.backend.write(script))

    async def _set(self, game_id: int, column: str, value: Any) -> None:
        await self._change(
            game_id,
            one(
                f"UPDATE games SET {column} = ?, {UNSEEN_BUMP} WHERE id = ? RETURNING rev",
                value,
                game_id,
            ),
        )

    async def set_table_message(self, game_id: int, message_id: int, posted_at: float) -> None:
        await self._change(
            game_id,
            one(
                f"UPDATE games SET table_message_id = ?, table_posted_at = ?, {UNSEEN_BUMP}"
                " WHERE id = ? RETURNING rev",
                message_id,
                posted_at,
                game_id,
            ),
        )

    async def new_dms_drawn(self, game_id: int) -> None:
        """The game's DMs were all drawn by this version (``GameRow.old_dms`` no more)."""
        await self._set(game_id, "old_dms", 0)

    async def set_nudge_message(self, game_id: int, message_id: int | None) -> None:
        await self._set(game_id, "nudge_message_id", message_id)

    async def mark_announced(self, game_id: int) -> None:
        await self._set(game_id, "announced", 1)

    async def claim_announcement(self, game_id: int, lease: float) -> float | None:
        """Take the right to post this finished game's end for ``lease`` seconds. The claim
        (its end time, to give back with ``release_announcement``), or None if the end is
        posted already or another process is posting it now."""
        now = self.clock()
        until = now + lease
        changed = await self._write(
            run(
                "UPDATE games SET announce_by = ? WHERE id = ? AND status = 'finished'"
                " AND announced = 0 AND (announce_by IS NULL OR announce_by < ?)",
                until,
                game_id,
                now,
            )
        )
        return until if changed == 1 else None

    async def release_announcement(self, game_id: int, claim: float) -> None:
        """Posting the end failed: any process may claim it at once (the retry included).
        Only ``claim``, the one this process took: never another's that followed it."""
        await self._write(
            run(
                "UPDATE games SET announce_by = NULL WHERE id = ? AND announced = 0"
                " AND announce_by = ?",
                game_id,
                claim,
            )
        )

    async def unannounced(self) -> list[GameRow]:
        """Finished games whose end was not yet posted (the bot died in between)."""
        rows = await self._read(
            many(f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'finished' AND announced = 0")
        )
        return [game_row(r) for r in rows]

    async def moves(self, game_id: int) -> list[tuple[int, int, str]]:
        """(seq, user id, action) in order."""
        rows = await self._read(
            many("SELECT seq, user_id, action FROM moves WHERE game_id = ? ORDER BY seq", game_id)
        )
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def move_notes(self, game_id: int) -> dict[int, dict[str, list[str]]]:
        """{seq: the lines the bot added to the table with that move, "before" and "after"
        the game's own} (a timeout, a seat taken over)."""
        rows = await self._read(
            many(
                "SELECT seq, notes FROM moves WHERE game_id = ? AND notes IS NOT NULL",
                game_id,
            )
        )
        return {int(r[0]): json.loads(r[1]) for r in rows}

    # -- seats -----------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._read(
            many(f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        )
        return [seat_row(r) for r in rows]

    async def add_seat(
        self, game_id: int, user_id: int, name: str, *, human: bool = True, level: str | None = None
    ) -> bool:
        """Seat a player (or a bot) at the end of a lobby; False if seated or not a lobby."""
        now = self.clock()

        def script() -> Script[Any]:
            yield lock("game", game_id)
            added = yield run(
                "INSERT INTO seats (game_id, user_id, seat, name, is_bot, human, level)"
                " SELECT id, CAST(? AS BIGINT), (SELECT COALESCE(MAX(seat) + 1, 0) FROM seats"
                " WHERE game_id = games.id), CAST(? AS TEXT), CAST(? AS BIGINT),"
                " CAST(? AS BIGINT), CAST(? AS TEXT) FROM games"
                " WHERE id = ? AND status = 'lobby'"
                " ON CONFLICT (game_id, user_id) DO NOTHING",
                user_id,
                name,
                int(not human),
                int(human),
                level,
                game_id,
            )
            return (yield touch(game_id, now)) if added else None

        return self._revised(game_id, await self.backend.write(script))

    async def rename_seat(self, game_id: int, user_id: int, name: str) -> bool:
        """A member's seat shown under a new name (they changed their nickname)."""
        now = self.clock()

        def script() -> Script[Any]:
            yield lock("game", game_id)
            renamed = yield run(
                "UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ? AND name <> ?",
                name,
                game_id,
                user_id,
                name,
            )
            return (yield touch(game_id, now)) if renamed else None

        return self._revised(game_id, await self.backend.write(script))

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Take a seat out of a lobby (later seats keep their order)."""
        now = self.clock()

        def script() -> Script[Any]:
            yield lock("game", game_id)
            removed = yield run(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ? AND EXISTS"
                " (SELECT 1 FROM games WHERE id = ? AND status = 'lobby')",
                game_id,
                user_id,
                game_id,
            )
            return (yield touch(game_id, now)) if removed else None

        return self._revised(game_id, await self.backend.write(script))

    async def _read(self, op: Op) -> Any:
        return await self.backend.read_one(op)

    async def _write(self, op: Op) -> Any:
        return await self.backend.write(lambda: single(op))

    async def _change(self, game_id: int, op: Op) -> bool:
        """One ``UPDATE games ... RETURNING rev``; True if it changed the game."""
        return self._revised(game_id, await self._write(op))

    def _revised(self, game_id: int, rev: Any) -> bool:
        """Tell the cache which revision this process's own write made (``rev``: the
        ``RETURNING rev`` row, or None when nothing changed)."""
        if rev is None:
            return False
        number = int(rev[0]) if isinstance(rev, tuple) else int(rev)
        if self.revised is not None:
            self.revised(game_id, number)
        return True

    def _seat_write(self, game_id: int, sql: str, *args: Any) -> Callable[[], Script[Any]]:
        def script() -> Script[Any]:
            # The game's lock first, as every write of a game and its seats takes it: rows
            # locked in another order than a move's (games, then seats) could deadlock.
            yield lock("game", game_id)
            changed = yield run(sql, *args)
            return (yield bump(game_id)) if changed else None

        return script

    async def set_dm(
        self, game_id: int, user_id: int, channel_id: int | None, message_id: int | None
    ) -> None:
        script = self._seat_write(
            game_id,
            "UPDATE seats SET dm_channel_id = ?, dm_message_id = ?"
            " WHERE game_id = ? AND user_id = ?",
            channel_id,
            message_id,
            game_id,
            user_id,
        )
        self._revised(game_id, await self.backend.write(script))

    async def mark_dm_closed(self, game_id: int, user_id: int, closed: bool = True) -> None:
        script = self._seat_write(
            game_id,
            "UPDATE seats SET dm_closed = ? WHERE game_id = ? AND user_id = ?",
            int(closed),
            game_id,
            user_id,
        )
        self._revised(game_id, await self.backend.write(script))

    # -- players -----------------------------------------------------------------------------
    async def wants_nudges(self, user_id: int) -> bool:
        row = await self._read(one("SELECT nudges FROM players WHERE user_id = ?", user_id))
        return bool(row[0]) if row else True

    async def set_nudges(self, user_id: int, wanted: bool) -> None:
        await self._write(
            run(
                "INSERT INTO players (user_id, nudges) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET nudges = excluded.nudges",
                user_id,
                int(wanted),
            )
        )

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        await self._write(
            run(
                "INSERT INTO players (user_id, hidden) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET hidden = excluded.hidden",
                user_id,
                int(hidden),
            )
        )

    async def claim_owner(self, application_id: int, adopt: bool = False) -> int:
        """The Discord application whose games this database holds: the first to ask, or
        ``application_id`` when ``adopt`` hands the database over to it. Returns the owner."""

        def script() -> Script[int]:
            if adopt:
                yield run("DELETE FROM meta WHERE key = 'application'")
            yield run(
                "INSERT INTO meta (key, value) VALUES ('application', ?)"
                " ON CONFLICT (key) DO NOTHING",
                str(application_id),
            )
            row = yield one("SELECT value FROM meta WHERE key = 'application'")
            assert row is not None
            return int(row[0])

        return await self.backend.write(script)

    async def get_meta(self, key: str) -> str | None:
        row = await self._read(one("SELECT value FROM meta WHERE key = ?", key))
        return str(row[0]) if row else None

    async def meta_like(self, prefix: str) -> dict[str, str]:
        """The bot's notes whose keys begin with ``prefix`` (``LIKE`` matches ``_``
        and ``%`` as wildcards: the keys are checked again)."""
        rows = await self._read(many("SELECT key, value FROM meta WHERE key LIKE ?", prefix + "%"))
        return {str(r[0]): str(r[1]) for r in rows if str(r[0]).startswith(prefix)}

    async def set_meta(self, key: str, value: str | None) -> None:
        """Store (or with None, forget) one of the bot's own notes, such as where it last
        synced its slash commands."""
        if value is None:
            await self._write(run("DELETE FROM meta WHERE key = ?", key))
        else:
            await self._write(
                run(
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    key,
                    value,
                )
            )

    async def is_hidden(self, user_id: int) -> bool:
        row = await self._read(one("SELECT hidden FROM players WHERE user_id = ?", user_id))
        return bool(row[0]) if row else False

    # -- stats -----------------------------------------------------------------------------
    async def member_stats(self, guild_id: int, user_id: int) -> list[StatRow]:
        """A member's record on this server, one row per game they played (primary key)."""
        rows = await self._read(
            many(
                f"SELECT {STAT_COLUMNS} FROM stats WHERE guild_id = ? AND user_id = ?"
                " ORDER BY played DESC, kind",
                guild_id,
                user_id,
            )
        )
        return [stat_row(r) for r in rows]

    async def leaderboard(
        self, guild_id: int, kind: str, min_games: int, limit: int = 10
    ) -> list[StatRow]:
        """The best conservative ratings on this server (index stats_rank), hidden members
        left out, only members with at least ``min_games`` rated games."""
        rows = await self._read(
            many(
                f"SELECT {STAT_COLUMNS} FROM stats WHERE guild_id = ? AND kind = ? AND rated > 0"
                " AND rated >= ? AND user_id NOT IN (SELECT user_id FROM players WHERE hidden = 1)"
                " ORDER BY ordinal DESC, won DESC, user_id LIMIT ?",
                guild_id,
                kind,
                min_games,
                limit,
            )
        )
        return [stat_row(r) for r in rows]

    async def rank(self, guild_id: int, kind: str, ordinal: float, min_games: int) -> int:
        """1 + how many listed members rate above ``ordinal`` (an index range count)."""
        row = await self._read(
            one(
                "SELECT COUNT(*) FROM stats WHERE guild_id = ? AND kind = ? AND rated > 0"
                " AND rated >= ? AND ordinal > ?"
                " AND user_id NOT IN (SELECT user_id FROM players WHERE hidden = 1)",
                guild_id,
                kind,
                min_games,
                ordinal,
            )
        )
        return 1 + (int(row[0]) if row else 0)

    async def history(
        self, guild_id: int, limit: int = 10, before: GameRow | None = None
    ) -> list[GameRow]:
        """The server's last finished games, newest first (index games_history); ``before``:
        the page after that game (the last of the previous page)."""
        after = ""
        args: tuple[Any, ...] = ()
        if before is not None:
            after = " AND (finished_at < ? OR (finished_at = ? AND id < ?))"
            args = (before.finished_at, before.finished_at, before.id)
        rows = await self._read(
            many(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'finished'"
                f" AND announced = 1{after} ORDER BY finished_at DESC, id DESC LIMIT ?",
                guild_id,
                *args,
                limit,
            )
        )
        return [game_row(r) for r in rows]

    async def stats(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """{kind: (played, won)}."""
        rows = await self._read(
            many(
                "SELECT kind, played, won FROM stats WHERE guild_id = ? AND user_id = ?",
                guild_id,
                user_id,
            )
        )
        return {str(r[0]): (int(r[1]), int(r[2])) for r in rows}
