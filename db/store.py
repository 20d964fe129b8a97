"""All SQL lives here. Stores ids and engine JSON, never Discord objects."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from db.migrate import migrate

OPEN = ("lobby", "active")


class ChannelBusy(Exception):
    """This channel already has an open game."""


class StaleVersion(Exception):
    """The game moved on since it was loaded (optimistic check failed)."""


@dataclass(slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    host_id: int
    status: str
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    log: dict[str, Any]
    table_message_id: int | None
    table_posted_at: float | None
    deadline: float | None
    created_at: float
    updated_at: float


@dataclass(slots=True)
class SeatRow:
    game_id: int
    user_id: int
    seat: int
    name: str
    is_bot: bool
    dm_channel_id: int | None
    dm_message_id: int | None
    dm_closed: bool


_GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, host_id, status, options, seed, state, version, log, "
    "table_message_id, table_posted_at, deadline, created_at, updated_at"
)


def _game(row: Any) -> GameRow:
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        kind=row[3],
        host_id=row[4],
        status=row[5],
        options=json.loads(row[6]),
        seed=row[7],
        state=json.loads(row[8]) if row[8] is not None else None,
        version=row[9],
        log=json.loads(row[10]),
        table_message_id=row[11],
        table_posted_at=row[12],
        deadline=row[13],
        created_at=row[14],
        updated_at=row[15],
    )


def _seat(row: Any) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], row[3], bool(row[4]), row[5], row[6], bool(row[7]))


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Store:
    """One long-lived connection: WAL, foreign keys on, migrated at open."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        # Unix time for created/updated stamps; the bot may swap in its own clock.
        self.clock: Callable[[], float] = time.time

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is
        # exactly what the code says it is.
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        for pragma in (
            "PRAGMA journal_mode = WAL",
            "PRAGMA foreign_keys = ON",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA busy_timeout = 5000",
        ):
            async with conn.execute(pragma):
                pass
        await migrate(conn)
        return cls(conn)

    async def close(self) -> None:
        await self.conn.close()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error (the error goes on)."""
        await self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            await self.conn.rollback()
            raise
        await self.conn.commit()

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
    ) -> GameRow:
        """A new lobby with the host seated. Raises ChannelBusy if the channel has a game."""
        now = self.clock()
        try:
            async with self._transaction():
                cur = await self.conn.execute(
                    "INSERT INTO games (guild_id, channel_id, kind, host_id, options, seed,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, kind, host_id, _dumps(options), seed, now, now),
                )
                game_id = cur.lastrowid
                await self.conn.execute(
                    "INSERT INTO seats (game_id, user_id, seat, name) VALUES (?, ?, 0, ?)",
                    (game_id, host_id, host_name),
                )
        except sqlite3.IntegrityError:
            raise ChannelBusy from None
        game = await self.get_game(game_id)  # type: ignore[arg-type]
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN (?, ?)",
            (channel_id, *OPEN),
        ) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def open_games_in_guild(self, guild_id: int) -> list[GameRow]:
        async with self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN (?, ?)"
            " ORDER BY id",
            (guild_id, *OPEN),
        ) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def stale_lobbies(self, older_than: float) -> list[GameRow]:
        """Lobbies untouched since ``older_than`` (unix time)."""
        async with self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'lobby' AND updated_at < ?",
            (older_than,),
        ) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def due_deadlines(self, now: float) -> list[GameRow]:
        async with self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE deadline IS NOT NULL AND deadline <= ?"
            " AND status = 'active'",
            (now,),
        ) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def next_deadline(self) -> float | None:
        async with self.conn.execute(
            "SELECT MIN(deadline) FROM games WHERE deadline IS NOT NULL AND status = 'active'"
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    async def _update(self, game_id: int, **fields: Any) -> None:
        fields["updated_at"] = self.clock()
        assignments = ", ".join(f"{name} = ?" for name in fields)
        await self.conn.execute(
            f"UPDATE games SET {assignments} WHERE id = ?", (*fields.values(), game_id)
        )
        await self.conn.commit()

    async def touch(self, game_id: int) -> None:
        await self._update(game_id)

    async def set_table_message(self, game_id: int, message_id: int, posted_at: float) -> None:
        await self._update(game_id, table_message_id=message_id, table_posted_at=posted_at)

    async def set_status(self, game_id: int, status: str) -> None:
        await self._update(game_id, status=status, deadline=None)

    async def set_deadline(self, game_id: int, deadline: float | None) -> None:
        await self._update(game_id, deadline=deadline)

    async def start_game(
        self,
        game_id: int,
        state: dict[str, Any],
        log: dict[str, Any],
        deadline: float | None = None,
    ) -> None:
        """Lobby -> active with the engine's first state (version 0)."""
        await self._update(
            game_id,
            status="active",
            state=_dumps(state),
            version=0,
            log=_dumps(log),
            deadline=deadline,
        )

    async def record_move(
        self,
        game_id: int,
        expected_version: int,
        user_id: int,
        action: str,
        state: dict[str, Any],
        log: dict[str, Any],
        status: str = "active",
        deadline: float | None = None,
        result: tuple[list[int], list[int]] | None = None,
    ) -> int:
        """Append the move and store the new state in ONE transaction; return the new version.

        The ``WHERE version = ?`` check refuses a write based on an outdated load. ``result``
        (players, winners) of a finishing move updates the stats in the same transaction, so
        a crash can never keep a finished game out of them.
        """
        now = self.clock()
        new_version = expected_version + 1
        async with self._transaction():
            cur = await self.conn.execute(
                "UPDATE games SET state = ?, version = ?, log = ?, status = ?, deadline = ?,"
                " updated_at = ? WHERE id = ? AND version = ? AND status = 'active'",
                (
                    _dumps(state),
                    new_version,
                    _dumps(log),
                    status,
                    deadline,
                    now,
                    game_id,
                    expected_version,
                ),
            )
            if cur.rowcount != 1:
                raise StaleVersion
            await self.conn.execute(
                "INSERT INTO moves (game_id, seq, user_id, action, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, new_version, user_id, action, now),
            )
            if result is not None:
                await self._add_result(game_id, *result)
        return new_version

    async def moves(self, game_id: int) -> list[tuple[int, int, str]]:
        """(seq, user id, action) in order."""
        async with self.conn.execute(
            "SELECT seq, user_id, action FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        ) as cur:
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    # -- seats -----------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.conn.execute(
            "SELECT game_id, user_id, seat, name, is_bot, dm_channel_id, dm_message_id, dm_closed"
            " FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cur:
            return [_seat(r) for r in await cur.fetchall()]

    async def add_seat(self, game_id: int, user_id: int, name: str) -> bool:
        """Seat a player at the end; False if already seated."""
        async with self._transaction():
            cur = await self.conn.execute(
                "INSERT OR IGNORE INTO seats (game_id, user_id, seat, name)"
                " SELECT ?, ?, COALESCE(MAX(seat) + 1, 0), ? FROM seats WHERE game_id = ?",
                (game_id, user_id, name, game_id),
            )
            added = cur.rowcount == 1
            await self._touch_in_transaction(game_id)
        return added

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        async with self._transaction():
            cur = await self.conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            removed = cur.rowcount == 1
            await self._touch_in_transaction(game_id)
        return removed

    async def _touch_in_transaction(self, game_id: int) -> None:
        # A lobby that changes is not abandoned: this keeps it from expiring.
        await self.conn.execute(
            "UPDATE games SET updated_at = ? WHERE id = ?", (self.clock(), game_id)
        )

    async def set_dm(
        self, game_id: int, user_id: int, channel_id: int | None, message_id: int | None
    ) -> None:
        await self.conn.execute(
            "UPDATE seats SET dm_channel_id = ?, dm_message_id = ?"
            " WHERE game_id = ? AND user_id = ?",
            (channel_id, message_id, game_id, user_id),
        )
        await self.conn.commit()

    async def mark_dm_closed(self, game_id: int, user_id: int) -> None:
        await self.conn.execute(
            "UPDATE seats SET dm_closed = 1 WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        await self.conn.commit()

    # -- stats -----------------------------------------------------------------------------
    async def _add_result(self, game_id: int, players: list[int], winners: list[int]) -> None:
        """Count a finished game in the stats (inside the caller's transaction)."""
        for user_id in players:
            await self.conn.execute(
                "INSERT INTO stats (guild_id, user_id, kind, played, won)"
                " SELECT guild_id, ?, kind, 1, ? FROM games WHERE id = ?"
                " ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET"
                " played = played + 1, won = won + excluded.won",
                (user_id, int(user_id in winners), game_id),
            )

    async def unannounced(self) -> list[GameRow]:
        """Finished games whose end was not yet posted (the bot died in between)."""
        async with self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'finished' AND announced = 0"
        ) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def mark_announced(self, game_id: int) -> None:
        await self._update(game_id, announced=1)

    async def stats(self, guild_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """{kind: (played, won)}."""
        async with self.conn.execute(
            "SELECT kind, played, won FROM stats WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        ) as cur:
            return {r[0]: (r[1], r[2]) for r in await cur.fetchall()}
