"""What a database backend provides: serialized write transactions and consistent reads.

The store's SQL is written once (SQLite syntax with ``?`` placeholders); a backend runs it,
translating the little that differs (placeholders, DDL types, error classes).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

Row = tuple[Any, ...]


class Tx(Protocol):
    """One transaction (or one consistent read)."""

    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; the number of rows it changed."""
        ...

    async def fetchone(self, sql: str, *args: Any) -> Row | None: ...

    async def fetchall(self, sql: str, *args: Any) -> list[Row]: ...


class Backend(ABC):
    dialect: str

    @abstractmethod
    def write(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction, committed at the end and rolled back on any error.

        Transactions never interleave: each runs alone on its connection, so one command's
        failure can never roll back another's work.
        """

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Tx]:
        """Reads that see only committed data."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self, tx: Tx) -> int: ...

    @abstractmethod
    async def set_schema_version(self, tx: Tx, version: int) -> None: ...

    def ddl(self, statement: str) -> str:
        """A migration statement in this backend's dialect (migrations are written for SQLite)."""
        return statement
