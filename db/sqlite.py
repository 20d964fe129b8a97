"""The SQLite backend: a writer and a reader connection, each on its own thread.

WAL mode and ``synchronous=FULL``: an acknowledged move survives a power cut, at the cost of
one fsync per commit (measured in bench/load.py). The writer runs one transaction script at a
time, whole, in one call on its thread: transactions never interleave, and a move costs one
hop to the database thread instead of one per statement (aiosqlite's model, which the profile
of the load benchmark showed spending its time handing the interpreter lock back and forth).

Checkpoints (copying the WAL back into the database file) run on a third connection, on a
thread of their own, about once a second while the database is written: left to SQLite, the
commit that fills the WAL to 1,000 pages does it, fsyncs included, and every move queued
behind it waits (tens of ms). That thread is not asyncio work, so tests on virtual time
never wait for its clock.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from db.backend import Backend
from db.errors import Conflict, StoreUnavailable
from db.script import Op, Script, T, Work, many, one, run, start

HEADER = b"SQLite format 3\x00"
CHECKPOINT_EVERY = 1.0  # seconds between checkpoints, while the database is being written
# The writer checkpoints itself only if the background checkpoints fall this far behind.
WRITER_CHECKPOINT_PAGES = 10_000

log = logging.getLogger(__name__)


class SqliteBackend(Backend):
    """Two connections, each on its own thread: one writes (transactions one at a time, in
    the order asked), one reads (WAL: it sees only committed data and never waits for a
    write). A transaction script runs whole in one call on the writer's thread."""

    dialect = "sqlite"

    def __init__(self, path: str, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="sqlite-write")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="sqlite-read")
        self._wconn: sqlite3.Connection | None = None
        self._rconn: sqlite3.Connection | None = None
        self._cconn: sqlite3.Connection | None = None
        self._written = False  # since the last checkpoint
        self._closing = threading.Event()
        self._checkpoint_lock = threading.Lock()
        self._checkpoints: threading.Thread | None = None
        self._held: int | None = None  # the side file's descriptor (``hold_file``)
        # Tests: called with (sql, args) for every operation a read runs.
        self.trace: Callable[[str, tuple[Any, ...]], None] | None = None

    @classmethod
    async def open(cls, path: str | Path, timeout: float = 5.0) -> SqliteBackend:
        """Open (creating the file and folder if needed) or raise StoreUnavailable quickly."""
        path = str(path)
        check_file(path, timeout)
        backend = cls(path, timeout)
        loop = asyncio.get_running_loop()
        try:
            backend._held = hold_file(path)
            backend._wconn = await loop.run_in_executor(backend._writer, backend._connect, True)
            backend._rconn = await loop.run_in_executor(backend._reader, backend._connect, False)
            backend._cconn = await loop.run_in_executor(backend._reader, backend._connect, False)
        except BaseException:
            await backend.close()
            raise
        backend._checkpoints = threading.Thread(
            target=backend._checkpoint_loop, name="sqlite-checkpoint", daemon=True
        )
        backend._checkpoints.start()
        return backend

    def _connect(self, write: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
        )
        if write:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA wal_autocheckpoint = {WRITER_CHECKPOINT_PAGES}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        return conn

    async def write(self, work: Work[T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            done = await loop.run_in_executor(self._writer, self._drive, self._wconn, work, True)
        except sqlite3.DatabaseError as error:
            if isinstance(error, (sqlite3.IntegrityError, sqlite3.ProgrammingError)):
                raise  # a mistake of ours, not an outage
            raise _unavailable(error) from error
        self._written = True
        return done

    async def read(self, work: Work[T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._reader, self._drive, self._rconn, work, False)
        except sqlite3.DatabaseError as error:
            if isinstance(error, (sqlite3.IntegrityError, sqlite3.ProgrammingError)):
                raise  # a mistake of ours, not an outage
            raise _unavailable(error) from error

    def _drive(self, conn: sqlite3.Connection | None, work: Work[T], write: bool) -> T:
        assert conn is not None, "the database is closed"
        script = start(work)
        conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            op = next(script)
            while True:
                op = script.send(self._op(conn, op, write))
        except StopIteration as done:
            result: T = done.value
        except BaseException:
            _roll_back(conn)
            raise
        try:
            conn.execute("COMMIT")
        except BaseException:
            # A COMMIT that failed (a full disk, an I/O error) may leave the transaction open:
            # every later BEGIN on this connection would fail until a restart.
            _roll_back(conn)
            raise
        return result

    def _op(self, conn: sqlite3.Connection, op: Op, write: bool) -> Any:
        if not write and self.trace is not None:
            self.trace(op.sql, op.args)
        if op.kind == "lock":
            return None  # one writer: transactions already run one at a time
        try:
            cursor = conn.execute(op.sql, op.args)
            if op.kind == "run":
                return cursor.rowcount
            if op.kind == "one":
                row = cursor.fetchone()
                return tuple(row) if row is not None else None
            return [tuple(r) for r in cursor.fetchall()]
        except sqlite3.IntegrityError as error:
            raise Conflict(str(error)) from error

    # -- checkpoints, off the write path ----------------------------------------------------
    def _checkpoint_loop(self) -> None:
        """The checkpoint thread: a checkpoint a second at most, none while nothing is written."""
        failing = False  # said once when checkpoints start failing, once when they work again
        while not self._closing.wait(CHECKPOINT_EVERY):
            if self._written:
                self._written = False
                try:
                    self._checkpoint_now()
                except sqlite3.Error as error:  # the writer's own checkpoints are the backstop
                    if not failing:
                        log.warning("SQLite checkpoint failed: %s (said once)", error)
                    failing = True
                    continue
                if failing:
                    log.warning("SQLite checkpoints work again")
                failing = False

    def _checkpoint_now(self) -> tuple[int, int, int]:
        with self._checkpoint_lock:
            conn = self._cconn
            if conn is None:
                return 0, 0, 0  # closed meanwhile
            busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return int(busy), int(frames), int(copied)

    async def checkpoint(self) -> tuple[int, int, int]:
        """Copy what the WAL holds back into the database file now, without stopping writers
        or readers (PASSIVE): (1 if it could not finish, WAL frames, frames copied)."""
        return await asyncio.get_running_loop().run_in_executor(None, self._checkpoint_now)

    def _close_checkpoints(self) -> None:
        with self._checkpoint_lock:
            if self._cconn is not None:
                self._cconn.close()
                self._cconn = None

    async def close(self) -> None:
        self._closing.set()  # the checkpoint thread ends at once, or after the one under way
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._close_checkpoints)  # may wait for one
        for executor, conn in (
            (self._reader, self._rconn),
            (self._writer, self._wconn),  # last: closing it checkpoints what is left
        ):
            if conn is not None:
                await loop.run_in_executor(executor, conn.close)
            executor.shutdown(wait=False)
        self._wconn = self._rconn = None
        if self._held is not None:
            os.close(self._held)  # lets another copy open the file
            self._held = None

    def version_ops(self) -> tuple[list[Op], Op]:
        return [], one("PRAGMA user_version")

    def set_version_op(self, version: int) -> Op:
        return run(f"PRAGMA user_version = {int(version)}")

    async def explain(self, sql: str, args: tuple[Any, ...]) -> str:
        """Tests: the query plan of ``sql``, one detail per step."""

        def plan() -> Script[str]:
            found = yield many(f"EXPLAIN QUERY PLAN {sql}", *args)
            return " | ".join(str(r[3]) for r in found)

        return await self.read(plan())


def hold_file(path: str) -> int | None:
    """Keep other processes off the database for as long as this one runs: two copies of the
    bot on one file would both answer every click and fire every timer (SQLite itself only
    keeps their transactions apart). A POSIX lock on a side file (``<file>.lock``), never on
    the database itself, whose own POSIX locks a second descriptor would release; the system
    drops it when the process ends, however it ends. Per process: a restart in one process
    (the tests) opens the file again freely."""
    try:
        import fcntl
    except ImportError:  # not on Windows: SQLite's own locking is all there is
        return None
    side = f"{path}.lock"
    try:
        fd = os.open(side, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise StoreUnavailable(f"Cannot create {side}: {error}.") from None
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        if error.errno not in (errno.EACCES, errno.EAGAIN):
            # A file system without locks (some network shares): run as before, unguarded.
            log.warning("cannot lock %s (%s): a second copy would not be noticed", side, error)
            return None
        raise StoreUnavailable(
            f"Another copy of the bot is using the database {path}. Stop it first: two copies "
            "would answer every click twice."
        ) from None
    return fd


def check_file(path: str, timeout: float) -> None:
    """Fail fast, with a message that says what to do, on a file the bot cannot use.

    Runs synchronously with plain sqlite3 before the async connection exists, so a bad file
    never leaves a worker thread hanging: corrupt, truncated, read-only and locked files all
    end here within ``timeout`` seconds.
    """
    file = Path(path)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreUnavailable(f"Cannot create the folder for {path}: {error}.") from None
    if file.is_dir():
        raise StoreUnavailable(f"DATABASE_PATH {path} is a folder, not a database file.")
    if file.exists() and file.stat().st_size > 0:
        _check_header(file)
    fix = "Restore it from a backup, or move it aside to start with an empty database."
    try:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    except sqlite3.Error as error:
        raise StoreUnavailable(f"Cannot open the database {path}: {error}.") from None
    try:
        conn.execute("PRAGMA journal_mode = WAL").fetchone()
        conn.execute("BEGIN IMMEDIATE")
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        # A real write (page 1), committed: proves the file and its folder are writable.
        conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.execute("COMMIT")
    except sqlite3.OperationalError as error:
        text = str(error)
        if "locked" in text or "busy" in text:
            raise StoreUnavailable(
                f"The database {path} is locked by another program (waited {timeout:g} s). "
                "Stop the other process using it (another copy of the bot?) and start again."
            ) from None
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            raise StoreUnavailable(
                f"The database {path} cannot be written ({text}). The bot needs write access "
                "to the file and to its folder."
            ) from None
        raise StoreUnavailable(f"The database {path} cannot be used: {text}. {fix}") from None
    except sqlite3.DatabaseError as error:
        raise StoreUnavailable(
            f"The database {path} is damaged or is not a SQLite database ({error}). {fix}"
        ) from None
    finally:
        conn.close()


def _check_header(file: Path) -> None:
    """A file shorter than the size its header records was truncated (lost pages)."""
    fix = "Restore it from a backup, or move it aside to start with an empty database."
    try:
        with file.open("rb") as f:
            header = f.read(100)
    except OSError as error:
        raise StoreUnavailable(f"Cannot read the database {file}: {error}.") from None
    if len(header) < 100 or not header.startswith(HEADER):
        raise StoreUnavailable(f"{file} is not a SQLite database (or is damaged). {fix}")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid_for = int.from_bytes(header[92:96], "big")
    change = int.from_bytes(header[24:28], "big")
    size = file.stat().st_size
    # The in-header page count is reliable when its "valid-for" matches the change counter.
    if valid_for == change and pages and size < pages * page_size:
        raise StoreUnavailable(
            f"The database {file} is truncated ({size} bytes, its header says "
            f"{pages * page_size}). {fix}"
        )
    if size % page_size:
        raise StoreUnavailable(f"The database {file} is truncated mid-page. {fix}")


def _unavailable(error: sqlite3.DatabaseError) -> StoreUnavailable:
    """SQLite failing while the bot runs (a full disk, an I/O error, a lock held by another
    program past the busy timeout, a read-only file) is an outage, as a PostgreSQL server
    going away is: ``StoreUnavailable`` with SQLite's own words."""
    return StoreUnavailable(f"The database failed: {error}.")


def _roll_back(conn: sqlite3.Connection) -> None:
    """End a failed transaction, if SQLite has not already: the error that failed it is the
    one raised, never one from this rollback."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error as error:
            log.warning("SQLite rollback failed: %s", error)
