"""What the bot logs, as a server owner reads it: an ordinary event (a click Discord already
forgot) is no ERROR, and one failure is one ERROR, not one every few seconds for ever.

Each docstring tells what the owner read before the fix; the assertions are what holds now."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import pytest

import engine
from cogs import ids, show
from tests.discord.driver import Table, answer_fails, controls, target_of


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage().split("\n")[0] for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("button", ["My hand", "Play a card"])
async def test_an_expired_click_on_the_table_is_not_logged_as_an_error(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, button: str
) -> None:
    """A click the bot answers after Discord's 3 s (a busy moment: Discord says 10062,
    Unknown interaction) is an ordinary event, and the move buttons treat it so (one INFO
    line, "answering a click failed"). But "My hand" and "Play a card" log an ERROR with a
    full traceback ("component h:1 failed: NotFound"), as if the bot had a bug: the owner
    is alarmed, and real errors drown. It should be the same INFO line as for a move
    (show_hand / _act's opens_step answer_private/answer_update are not guarded)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7)
    game = await table.game()
    member = table.members[game.players[0]]
    message = table.table_message()
    if button == "My hand":
        custom_id = ids.hand(table.game_id)
    else:
        custom_id = next(c.custom_id for c in controls(message) if target_of(c.custom_id) == "*")
    caplog.set_level(logging.INFO)
    caplog.clear()
    answer_fails(env)
    await member.click(message, custom_id=custom_id)
    assert errors(caplog) == []


@pytest.mark.parametrize("command", ["hand", "leave"])
async def test_an_expired_slash_command_is_not_logged_as_an_error(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, command: str
) -> None:
    """The same for /hand and /leave (and /rules): a command Discord forgot (10062) logs
    "/hand failed: NotFound" at ERROR with a traceback, while /games, /stats, /back and
    /nudges log one INFO line "could not answer interaction ..." for the very same event."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7)
    member = next(iter(table.members.values()))
    caplog.set_level(logging.INFO)
    caplog.clear()
    answer_fails(env)
    await member.slash(table.channel, command)
    _ = env.errors  # seen (simcord would re-raise what reached the command error handler)
    assert errors(caplog) == []


async def test_a_dm_that_cannot_be_drawn_is_one_error_not_dozens(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in drawing a DM hand (here: the renderer raising for one position) is logged
    with its traceback after the move, then again at every one of the presenter's six
    retries, then at every catch-up: one move of a 2-player game gives 32 identical ERROR
    tracebacks within ten minutes. Retrying is for Discord failing; a render error is the
    same each time and should be logged once per game and member (later ones at DEBUG)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7)
    real = show.hand

    def broken(session: Any, user_id: int, *args: Any, dm: bool = False, **kwargs: Any) -> Any:
        if dm:
            raise ValueError("cannot draw this hand")
        return real(session, user_id, *args, dm=dm, **kwargs)

    monkeypatch.setattr(show, "hand", broken)
    caplog.set_level(logging.INFO)
    caplog.clear()
    await table.some_move(via="picker")
    await env.advance_time(600)
    await env.bot.presenter.idle()
    found = errors(caplog)
    assert len(found) <= len(table.members), f"{len(found)} ERRORs for one move: {found[:3]}"


async def test_a_bot_seat_that_cannot_move_is_not_an_error_every_30_seconds(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot policy that raises for a position (a bug) makes its clock fail; the clock is
    claimed again when its 30 s lease runs out, fails again, and logs again: 120 identical
    "game 1: clock failed: ValueError" tracebacks an hour, for as long as the bot runs. The
    failure should be logged once (then at DEBUG, or once an hour), not every lease."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, bots=1)

    def broken(*args: Any, **kwargs: Any) -> str:
        raise ValueError("no move found")

    monkeypatch.setattr(engine.bots, "choose", broken)
    caplog.set_level(logging.INFO)
    caplog.clear()
    for _ in range(5):  # the members move until it is the bot's turn
        game = await table.game()
        able = [p for p in game.actors() if p in table.members and game.legal_actions(p)]
        if not able:
            break
        await table.act(able[0], game.legal_actions(able[0])[0].id)
    await env.advance_time(600)
    found = errors(caplog)
    assert found, "the bot's failure was never logged (the test did not reach a bot turn)"
    assert len(found) <= 3, f"{len(found)} ERRORs in ten minutes: {found[:3]}"


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_a_full_disk_on_a_click_says_the_disk_is_full(
    simcord_env: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up mid-game: every move is refused ("Something went wrong on my side;
    nothing was changed") and the log says only "component g:1 failed: OperationalError"
    and a stack: the message SQLite gave ("database or disk is full"), which is no secret and
    is the one thing the owner needs, is dropped (``log_failure`` omits every message). The
    ERROR should say the database failed and why (at start the same failure reads
    "Database error: ..."), e.g. by turning sqlite3 errors into StoreUnavailable."""
    from db.sqlite import SqliteBackend

    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7)

    def full(self: Any, conn: Any, work: Any, write: bool) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(SqliteBackend, "_drive", full)
    game = await table.game()
    player = next(p for p in game.actors() if game.legal_actions(p))
    caplog.set_level(logging.INFO)
    caplog.clear()
    await table.act_once(player, game.legal_actions(player)[0].id)
    found = errors(caplog)
    assert found, "the failed move was not logged at all"
    assert any("full" in line for line in found), found
