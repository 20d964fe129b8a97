"""SQLite failing while the bot runs: a lobby whose message id could not be stored.

The failure is injected into the writer connection of the real SQLite backend (one statement
fails with the error SQLite gives when another program holds the file's lock past the busy
timeout), the rest of the bot runs unchanged."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from tests.discord.driver import controls

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


async def unkept_and_unclosed(env: Any) -> tuple[Any, Any, Any]:
    """ann's /newgame while a backup holds SQLite's lock as the lobby's message id is stored
    and again as the lobby is closed: the channel, ann, and the lobby message, which says it
    was closed (its ending still owed to the database)."""
    from cogs.lobby import UNKEPT

    guild = env.create_guild()
    channel = guild.create_text_channel("uno")
    ann = guild.add_member(env.create_user("ann"))
    conn = faulty(env)
    conn.fail = fail_each_once(
        "UPDATE games SET table_message_id", "UPDATE games SET status = 'cancelled'"
    )
    await ann.slash(channel, "newgame uno", turn_timer=0)
    _ = env.errors
    conn.fail = None
    closed = channel.last_message
    assert closed is not None and UNKEPT in (closed.content or "")
    return channel, ann, closed


async def test_a_lobby_whose_message_id_could_not_be_stored_is_closed_and_says_so(
    simcord_env,
) -> None:
    """/newgame while another program (a backup, the sqlite3 shell) holds the database lock
    just as the lobby's message id is stored. Before, the lobby was posted publicly with
    Join/Start buttons, yet the host was told privately "Something went wrong on my side;
    nothing was changed", and every press on it answered "That button doesn't belong to
    this lobby" until it expired half an hour later, blocking the channel. Now the lobby
    is closed at once and says why, the host is told the same, and the next /newgame
    opens a lobby that works."""
    from cogs.lobby import UNKEPT

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
    assert any(UNKEPT in (s or "") for s in said), said
    assert not any("nothing was changed" in (s or "") for s in said), said
    closed = channel.last_message
    assert closed is not None and UNKEPT in (closed.content or "")
    assert not closed.components, "the closed lobby still offers buttons"
    again = await ann.slash(channel, "newgame uno", turn_timer=0)
    assert not again.ephemeral, "the channel stayed blocked by the closed lobby"
    lobby = channel.last_message
    joined = await bea.click(lobby, label="Join")
    assert not joined.ephemeral, joined.response and joined.response.content


async def test_play_again_whose_claim_fails_still_posts_its_lobby(simcord_env) -> None:
    """bea presses Play again on an ended game just as another program takes the database
    lock: the rematch lobby's row is created, then claiming the post's one ping fails.
    Before, bea was told "nothing was changed" while the new lobby held the channel with
    no message anyone could see, until it expired. Now the lobby is posted (pinging
    nobody), and it works."""
    from tests.discord.test_rematch import _ended

    env = simcord_env
    table, post = await _ended(env)
    _ann, bea, cy = table.members.values()
    conn = faulty(env)
    conn.fail = fail_once("UPDATE games SET settings")
    first = await bea.click(post, label="Play again")
    conn.fail = None
    _ = env.errors
    assert not first.ephemeral, first.response and first.response.content
    lobby = table.channel.last_message
    assert lobby is not None and any(c.label == "Join" for c in controls(lobby))
    joined = await cy.click(lobby, label="Join")
    assert not joined.ephemeral, joined.response and joined.response.content


def fail_each_once(*matches: str, text: str = "database is locked") -> Callable[[str], Any]:
    left = {m: 1 for m in matches}

    def fail(sql: str) -> BaseException | None:
        for m in matches:
            if left[m] and sql.startswith(m):
                left[m] -= 1
                return sqlite3.OperationalError(text)
        return None

    return fail


async def test_an_unkept_lobby_whose_closing_also_failed_does_not_block_the_channel(
    simcord_env,
) -> None:
    """/newgame while a backup holds the database lock both when the lobby's message id is
    stored and when the lobby is then closed. The host and channel are told "This lobby was
    closed ... Please try `/newgame` again in a moment". Before (this session's first
    version), once the database was back /newgame in that channel was still refused until
    the lobby expired. Now the closing is tried again by the next /newgame there (and by
    housekeeping), and the new lobby opens."""

    env = simcord_env
    channel, ann, closed = await unkept_and_unclosed(env)
    assert not closed.components
    await env.advance_time(300)  # housekeeping passes run meanwhile
    again = await ann.slash(channel, "newgame uno", turn_timer=0)
    said = again.response and again.response.content
    assert not again.ephemeral, f"told to try again, then refused five minutes later: {said!r}"
