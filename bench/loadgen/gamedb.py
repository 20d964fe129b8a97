"""The bot's SQLite database seen from outside: read-only look-ups for the driver, and a
database of many stored games for the start-up measurement (rows inserted directly).

Only the columns the process tests also read are used (games, seats, moves), and rows are
filled through what PRAGMA table_info says is required, so schema changes that add columns
with defaults do not break the benchmark.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

import engine
from db.postgres import dollar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GameState:
    status: str
    version: int
    kind: str
    state: dict[str, Any] | None

    def game(self) -> engine.Game:
        assert self.state is not None
        return engine.load(self.state)


class GameReader:
    """Look-ups outside any transaction, so every SELECT sees the latest commit: on SQLite one
    read-only connection in autocommit mode (no read transaction held open, the bot's WAL
    stays free to checkpoint); on PostgreSQL (``where`` a URL) one asyncpg connection on a
    thread of its own, so a look-up is a plain blocking call like SQLite's."""

    def __init__(self, where: Path | str) -> None:
        self._pg: _PgConnection | None = None
        if isinstance(where, str) and where.startswith("postgresql://"):
            self._pg = _PgConnection(where)
        else:
            self.conn = sqlite3.connect(
                f"file:{where}?mode=ro", uri=True, isolation_level=None, timeout=5
            )

    def _one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        if self._pg is not None:
            return self._pg.one(sql, args)
        row = self.conn.execute(sql, args).fetchone()
        return None if row is None else tuple(row)

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
        else:
            self.conn.close()

    def game(self, game_id: int) -> GameState | None:
        row = self._one("SELECT status, version, kind, state FROM games WHERE id = ?", game_id)
        if row is None:
            return None
        return GameState(row[0], row[1], row[2], json.loads(row[3]) if row[3] else None)

    def version(self, game_id: int) -> int:
        row = self._one("SELECT version FROM games WHERE id = ?", game_id)
        assert row is not None
        return int(row[0])

    def choices_since(self, game_id: int, user_id: int) -> int | None:
        """The version since which this player's choices have looked the same, if they have
        any: the bot takes a click on a message drawn at or after it (simultaneous phases)."""
        row = self._one("SELECT log FROM games WHERE id = ?", game_id)
        seen = json.loads(row[0]).get("seen", {}) if row and row[0] else {}
        since = seen.get(str(user_id))
        return None if since is None else int(since[1])

    def move(self, game_id: int, seq: int) -> tuple[int, str] | None:
        row = self._one(
            "SELECT user_id, action FROM moves WHERE game_id = ? AND seq = ?", game_id, seq
        )
        return None if row is None else (int(row[0]), str(row[1]))

    def open_game(self, channel_id: int) -> tuple[int, str, int | None] | None:
        """(id, status, table message id) of the channel's open game, if any."""
        row = self._one(
            "SELECT id, status, table_message_id FROM games WHERE channel_id = ? "
            "AND status IN ('lobby', 'active') ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return None if row is None else (int(row[0]), str(row[1]), row[2])

    def dm_message(self, game_id: int, user_id: int) -> int | None:
        row = self._one(
            "SELECT dm_message_id FROM seats WHERE game_id = ? AND user_id = ?", game_id, user_id
        )
        return None if row is None or row[0] is None else int(row[0])


class _PgConnection:
    """A blocking PostgreSQL connection: asyncpg on its own thread and event loop."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.conn = self._call(asyncpg.connect(url))

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        row = self._call(self.conn.fetchrow(dollar(sql), *args))
        return None if row is None else tuple(row)

    def close(self) -> None:
        self._call(self.conn.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


async def fresh_schema(url: str, name: str) -> str:
    """A URL for a new empty schema on the server at ``url`` (one per benchmark run)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return f"{url}?search_path={name}"


# ---------------------------------------------------------------------------------------------
# Many stored games (start-up with a big database)
# ---------------------------------------------------------------------------------------------

KIND_PLAYERS = {"uno": 3, "ihaveit": 3, "warofsuits": 2, "itemcollection": 4, "haymaker": 2}
FINISHED_MOVES = 30  # moves logged per finished game (a short game's worth)


def _required(conn: sqlite3.Connection, table: str) -> set[str]:
    """Columns an INSERT must fill: NOT NULL without a default (an INTEGER PRIMARY KEY is
    filled too, by us, to know the ids)."""
    return {
        name
        for _, name, _, notnull, default, _ in conn.execute(f"PRAGMA table_info({table})")
        if notnull and default is None
    }


def _check_columns(conn: sqlite3.Connection, table: str, filled: set[str]) -> None:
    missing = _required(conn, table) - filled
    if missing:
        raise RuntimeError(
            f"table {table} has required columns the benchmark does not fill: {sorted(missing)}"
            " (update bench/loadgen/gamedb.py)"
        )


@dataclass(frozen=True, slots=True)
class StoredGames:
    total: int
    active: int
    probe_game: int  # an active game whose seat `probe_user` can click "My hand"
    probe_user: int
    probe_channel: int


def fill_stored_games(
    db_path: Path,
    *,
    total: int,
    active: int,
    guild_id: int,
    users: list[int],
    probe_channel: int,
    seed: int = 1,
) -> StoredGames:
    """Inserts `total` games (every total/active-th one active, version 0 with a fresh engine
    state; the others finished and announced, each with FINISHED_MOVES logged moves) into a
    database the bot has already created and migrated. Active games sit in distinct channels
    (one open game per channel); the first active one is in `probe_channel`."""
    rng = random.Random(seed)
    kinds = list(KIND_PLAYERS)
    now = time.time()
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        base = conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        games: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        moves: list[tuple[Any, ...]] = []
        every = max(1, total // max(1, active))
        made_active = 0
        probe: tuple[int, int] | None = None
        for i in range(total):
            game_id = base + i + 1
            kind = kinds[i % len(kinds)]
            players = rng.sample(users, KIND_PLAYERS[kind])
            game_seed = rng.getrandbits(62)
            state = engine.new_game(kind, [str(p) for p in players], game_seed).to_dict()
            created = now - (total - i) * 60.0
            is_active = i % every == 0 and made_active < active
            if is_active:
                channel = probe_channel if made_active == 0 else 10**15 + game_id
                if probe is None:
                    probe = (game_id, players[0])
                made_active += 1
                status, version, announced = "active", 0, 0
            else:
                channel = 10**14 + rng.randrange(1000)
                status, version, announced = "finished", FINISHED_MOVES, 1
                for seq in range(1, FINISHED_MOVES + 1):
                    moves.append((game_id, seq, players[seq % len(players)], "draw", created))
            games.append(
                (
                    game_id,
                    guild_id,
                    channel,
                    kind,
                    players[0],
                    status,
                    game_seed,
                    json.dumps(state, separators=(",", ":")),
                    version,
                    announced,
                    created,
                    created,
                )
            )
            seats += [(game_id, user, n) for n, user in enumerate(players)]
        game_cols = (
            "id, guild_id, channel_id, kind, host_id, status, seed, state, version, "
            "announced, created_at, updated_at"
        )
        _check_columns(conn, "games", set(game_cols.replace(" ", "").split(",")))
        _check_columns(conn, "seats", {"game_id", "user_id", "seat"})
        _check_columns(conn, "moves", {"game_id", "seq", "user_id", "action", "created_at"})
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO games ({game_cols}) VALUES ({', '.join('?' * 12)})", games)
        conn.executemany("INSERT INTO seats (game_id, user_id, seat) VALUES (?, ?, ?)", seats)
        conn.executemany(
            "INSERT INTO moves (game_id, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)",
            moves,
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    assert probe is not None
    return StoredGames(total, made_active, probe[0], probe[1], probe_channel)
