"""Transaction scripts: the store's SQL written once, run by whichever backend is in use.

A script is a generator that yields operations and receives their results::

    def script() -> Script[bool]:
        changed = yield run("UPDATE games SET status = 'cancelled' WHERE id = ?", game_id)
        return changed == 1

SQLite runs the whole script in one call on its database thread (one thread hop per
transaction, not one per statement); PostgreSQL awaits each operation on one pooled
connection. Either way a script is one transaction, committed when it returns and rolled back
when it raises.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Op:
    kind: Literal["run", "one", "all", "lock"]
    sql: str  # SQLite syntax, "?" placeholders
    args: tuple[Any, ...]


Script = Generator[Op, Any, T]
# A script, or a function making it: a backend may run the latter again after a lost
# connection (the server rolled the first attempt back).
Work = Script[T] | Callable[[], Script[T]]


def run(sql: str, *args: Any) -> Op:
    """A statement; its result is the number of rows it changed."""
    return Op("run", sql, args)


def one(sql: str, *args: Any) -> Op:
    """A query; its result is the first row (a tuple) or None."""
    return Op("one", sql, args)


def many(sql: str, *args: Any) -> Op:
    """A query; its result is every row (tuples)."""
    return Op("all", sql, args)


def lock(*key: object) -> Op:
    """Hold ``key`` until the transaction ends, across every process sharing the database
    (PostgreSQL: an advisory lock; SQLite: nothing, its one writer already runs transactions
    one at a time)."""
    return Op("lock", "", (":".join(str(k) for k in key),))


def start(work: Work[T]) -> Script[T]:
    """The script of ``work`` (calling the function that makes it)."""
    return work() if callable(work) else work


def single(op: Op) -> Script[Any]:
    """A script of one operation (its result)."""
    result = yield op
    return result
