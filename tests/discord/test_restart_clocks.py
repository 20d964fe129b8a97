"""Turn clocks across a deploy. Before, a deadline that ran out while the bot was down timed
the member out the moment it was back (a bot moved for them, a strike), for time in which no
click of theirs could be answered. Now such a clock starts over, the table showing it."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.clock import now
from db import StoreUnavailable
from tests.discord.driver import Table, uno_turn_clock
from tests.discord.restarts import graceful_restart


async def not_timed_out(table: Table, player: str, before: int) -> Any:
    """The member's turn was not timed out (no move, no strike): the game now."""
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None
    assert (session.version, seat.strikes) == (before, 0), session.public_log[-2:]
    return session


async def timed_out(table: Table, player: str, before: int) -> None:
    """The member's turn was timed out: a bot moved for them, one strike."""
    session = await table.session()
    seat = session.seat(int(player))
    assert seat is not None and seat.strikes == 1 and session.version > before


async def test_a_deploy_does_not_spend_the_time_of_the_member_whose_turn_it_is(
    simcord_env, make_bot
) -> None:
    """UNO with a 60 s turn timer: 20 s into ann's turn the owner deploys a new version
    (SIGTERM, then a start that takes a minute). While the bot is down no click of hers can be
    answered (Discord says "This interaction failed"), yet her deadline keeps running: the
    moment the bot is back her turn is timed out, a bot plays for her and she gets a strike
    (three make a bot take her seat), for time she never had. A clock should not count the
    time the bot itself was away: after the restart she should still have about the 40 s
    she had left."""
    env = simcord_env
    table, player, before = await uno_turn_clock(env)
    await env.advance_time(20)
    await graceful_restart(env, make_bot, down=60)
    await env.advance_time(5)
    await env.settle()
    session = await not_timed_out(table, player, before)
    assert session.row.clocks["turn"][player] > env.bot.get_cog("Timers")._started
    await env.advance_time(61)  # the full minute again, then the clock works as ever
    await env.settle()
    await timed_out(table, player, before)


async def test_a_turn_that_ran_out_while_the_database_was_down_starts_over(
    simcord_env, monkeypatch
) -> None:
    """PostgreSQL restarts (or the disk fails) while ann's 60 s turn runs out: every click of
    hers is refused ("nothing was changed"), yet the moment the database is back her turn was
    timed out, a bot played for her and she got a strike. Time the bot could not take a
    click in is given back, as after a restart. (Alone on SQLite, a failed clock pass also
    slept 5 minutes before looking again: every clock stalled that long after a blip.)"""
    env = simcord_env
    table, player, before = await uno_turn_clock(env)
    store = env.bot.store
    next_wake = store.next_wake

    async def unavailable() -> float | None:
        raise StoreUnavailable("PostgreSQL at localhost:5432 is unavailable")

    await env.advance_time(10)
    monkeypatch.setattr(store, "next_wake", unavailable)
    await env.advance_time(70)  # her deadline passes while the database is down
    monkeypatch.setattr(store, "next_wake", next_wake)
    await env.advance_time(5)
    await env.settle()
    await not_timed_out(table, player, before)
    await env.advance_time(61)  # the full minute again, then the clock works as ever
    await env.settle()
    await timed_out(table, player, before)


async def test_a_deadline_in_a_short_deploy_is_given_back_on_postgresql_too(
    simcord_env, make_bot
) -> None:
    """A deploy that takes eight seconds, ann's 60 s deadline falling in them. Before, on
    PostgreSQL, a deadline in the ten seconds before a start was taken for another process's
    to fire (a PostgreSQL bot always works as if others shared the database), so the new
    process timed her out at once with a strike, though no process ran then: the rules page
    promises nobody is timed out for time the bot was offline. Now each process notes its
    clock passes in the database (and forgets its note on a graceful stop): a process that
    starts with nobody else's recent note gives back what ran out since the last pass."""
    env = simcord_env
    table, player, before = await uno_turn_clock(env)
    await env.advance_time(55)
    await graceful_restart(env, make_bot, down=8)  # her deadline passes at 60 s, in the gap
    await env.advance_time(3)
    await env.settle()
    session = await not_timed_out(table, player, before)
    assert session.row.clocks["turn"][player] > env.bot.get_cog("Timers")._started


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_a_deadline_just_before_a_start_is_left_to_a_process_still_running(
    simcord_env, make_bot
) -> None:
    """The other side of the rule above: sharing the database with a process that looked at
    the clocks a moment ago, a deadline just before the start was that process's to fire (it
    took clicks meanwhile): the new one does not give it back."""
    env = simcord_env
    table, player, before = await uno_turn_clock(env)
    await env.advance_time(55)
    # Another process's note, as of the new process's start.
    await env.bot.store.set_meta("clock_pass:other", repr(now() + 8))
    await graceful_restart(env, make_bot, down=8)
    await env.advance_time(3)
    await timed_out(table, player, before)
