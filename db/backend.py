"""What a database backend provides: transaction scripts run one at a time per connection.

The store's SQL is written once (SQLite syntax with ``?`` placeholders, in ``db/script.py``
scripts); a backend runs it, translating the little that differs (placeholders, DDL types,
error classes) and keeping transactions apart: one command's failure never rolls back
another's work.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from db.script import Op, Script, T


class Backend(ABC):
    dialect: str

    @abstractmethod
    async def write(self, script: Script[T]) -> T:
        """Run ``script`` as one write transaction: committed when it returns, rolled back
        (and the error re-raised) when it raises."""

    @abstractmethod
    async def read(self, script: Script[T]) -> T:
        """Run a read-only ``script`` on one consistent snapshot of committed data."""

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
