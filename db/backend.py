"""What a database backend provides: transaction scripts run one at a time per connection.

The store's SQL is written once (SQLite syntax with ``?`` placeholders, in ``db/script.py``
scripts); a backend runs it, translating the little that differs (placeholders, DDL types,
error classes) and keeping transactions apart: one command's failure never rolls back
another's work.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from db.script import Op, T, Work, single


class Backend(ABC):
    dialect: str
    # Appended to a SELECT that claims rows: PostgreSQL skips rows another process holds.
    skip_locked: str = ""

    @abstractmethod
    async def write(self, work: Work[T]) -> T:
        """Run ``work`` as one write transaction: committed when it returns, rolled back
        (and the error re-raised) when it raises."""

    @abstractmethod
    async def read(self, work: Work[T]) -> T:
        """Run a read-only ``work`` on one consistent snapshot of committed data."""

    async def read_one(self, op: Op) -> Any:
        """One query on its own (a backend may skip the transaction around it)."""
        return await self.read(lambda: single(op))

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def version_ops(self) -> tuple[list[Op], Op]:
        """(ops preparing the schema-version record, the query reading it)."""

    @abstractmethod
    def set_version_op(self, version: int) -> Op: ...

    def ddl(self, statement: str) -> str:
        """A migration statement in this backend's dialect (migrations are written for SQLite)."""
        return statement
