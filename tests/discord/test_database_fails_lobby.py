"""SQLite failing while the bot runs: a lobby whose message id could not be stored.

The failure is injected into the writer connection of the real SQLite backend (one statement
fails with the error SQLite gives when another program holds the file's lock past the busy
timeout), the rest of the bot runs unchanged."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


class Faulty:
    """The writer connection, failing the statements ``fail`` picks (returns an error)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.fail: Callable[[str], BaseException | None] | None = None

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if self.fail is not None and (error := self.fail(sql)) is not None:
            raise error
        return self.conn.execute(sql, *args)

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    def close(self) -> None:
        self.conn.close()


def faulty(env: Any) -> Faulty:
    backend = env.bot.store.backend
    wrapped = Faulty(backend._wconn)
    backend._wconn = wrapped
    return wrapped


def fail_once(match: str, text: str = "database is locked") -> Callable[[str], Any]:
    left = [1]

    def fail(sql: str) -> BaseException | None:
        if left[0] and sql.startswith(match):
            left[0] -= 1
            return sqlite3.OperationalError(text)
        return None

    return fail


async def test_a_lobby_whose_message_id_could_not_be_stored_still_works(simcord_env) -> None:
    """/newgame while another program (a backup, the sqlite3 shell) holds the database lock
    just as the lobby's message id is stored. Before, the lobby was posted publicly with
    Join/Start buttons, yet the host was told privately "Something went wrong on my side;
    nothing was changed", and every press on it answered "That button doesn't belong to
    this lobby" until it expired half an hour later. Now the lobby works from the id the
    bot keeps in memory, and housekeeping stores it once the database allows."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("uno")
    ann, bea = (guild.add_member(env.create_user(n)) for n in ("ann", "bea"))
    conn = faulty(env)
    conn.fail = fail_once("UPDATE games SET table_message_id")
    opened = await ann.slash(channel, "newgame uno", turn_timer=0)
    _ = env.errors
    conn.fail = None
    said = [f.content for f in opened.followups] if opened.followups else []
    lobby = channel.last_message
    assert lobby is not None and not lobby.flags.ephemeral, "no lobby posted"
    joined = await bea.click(lobby, label="Join")
    answers = [joined.response and joined.response.content] + [
        f.content for f in (joined.followups or [])
    ]
    # The lobby in the channel must either work, or not pretend to be open.
    assert not any("doesn't belong" in (a or "") for a in answers), (
        f"a live-looking lobby refuses Join: {answers}; the host was told {said}"
    )
