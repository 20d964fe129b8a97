"""What the presenter could not do because Discord failed is done later: the first table, the
presenter's jobs (posts such as the result), and jobs of a lobby, which has no table yet."""

from __future__ import annotations

import random
from dataclasses import replace

import discord

from cogs.clock import now
from cogs.endings import END_REFUSALS_KEPT
from cogs.presenter import RETRY_AFTER
from cogs.render.spec import Screen
from cogs.timing import Timing
from db import StoreUnavailable
from db.script import run, single
from tests.discord.driver import Table, controls, message_text, start_with_posts_failing

NUDGE = Timing().nudge_after


async def test_a_table_post_that_fails_at_start_is_posted_later(simcord_env) -> None:
    """Before: a 5xx on the first table post left a running game with no table and no DMs
    (with no turn timer, nothing ever posted it)."""
    table, lobby, started = await start_with_posts_failing(simcord_env)
    channel = table.channel
    assert not started.ephemeral
    assert (await table.session()).row.status == "active"
    assert [m.id for m in channel.history()] == [lobby.id]
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(RETRY_AFTER + 1)
    await simcord_env.bot.presenter.idle()
    tables = [m for m in channel.history() if m.id != lobby.id]
    assert len(tables) == 1 and tables[0].id == (await table.session()).row.table_message_id
    assert controls(tables[0])
    for player in table.members:
        assert table.dm_message(player) is not None
    # Later passes post no other table (a reminder of whose turn it is comes after 20 s).
    await simcord_env.advance_time(10 * RETRY_AFTER)
    await simcord_env.bot.presenter.idle()
    later = [m for m in channel.history() if m.id not in (lobby.id, tables[0].id)]
    assert all("your turn in" in m.content for m in later), [m.content for m in later]


async def test_a_reminder_discord_refused_is_posted_once_it_is_back(simcord_env) -> None:
    """Before: a job (a reminder, the result, a notice) that failed was dropped for good."""
    table = await Table.start(simcord_env, "uno", 2, turn_timer=0)
    session = await table.session()
    waiting = session.hosted.awaited(await table.game())[0]
    channel = table.channel
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", status=500, times=None)
    await simcord_env.advance_time(NUDGE + 1)
    assert reminders(table) == []
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(RETRY_AFTER + 1)
    await simcord_env.bot.presenter.idle()
    (reminder,) = reminders(table)
    assert f"<@{waiting}>" in reminder.content
    # Done once: not posted again.
    await simcord_env.advance_time(10 * RETRY_AFTER)
    assert len(reminders(table)) == 1


def reminders(table: Table) -> list[discord.Message]:
    return [m for m in table.public_messages() if "your turn in" in (m.content or "")]


async def test_endgame_on_a_lobby_closes_its_message(simcord_env) -> None:
    """Before: the lobby kept its Join and Start buttons and never said it was cancelled (the
    presenter skipped every job of a game not yet dealt)."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(channel, "newgame uno")
    lobby = channel.last_message
    ended = await ann.slash(channel, "endgame")
    assert not ended.ephemeral and "ended by ann" in ended.response.content
    await simcord_env.bot.presenter.idle()
    closed = next(m for m in channel.history() if m.id == lobby.id)
    assert "Cancelled by ann" in message_text(closed)
    assert controls(closed) == []


async def test_a_dm_discord_refuses_is_logged_by_member_and_drawn_later(
    simcord_env, caplog
) -> None:
    """Before: a failed DM edit left no trace in the log. (The player moves on the table's
    picker: their hand changes, so their DM is edited.)"""
    table = await Table.start(simcord_env, "uno", 2, turn_timer=0)
    mover = (await table.session()).hosted.awaited(await table.game())[0]
    other = mover  # the DM's owner
    dm = table.dm_message(other)
    assert dm is not None
    simcord_env.inject_error("PATCH", f"/channels/{dm.channel.id}/messages/*", times=None)
    legal = (await table.game()).legal_actions(mover)
    plays = [a.id for a in legal if a.id.startswith("play")]
    await table.act(mover, plays[0] if plays else legal[0].id, via="picker")
    await simcord_env.bot.presenter.idle()
    assert f"DM of {other} failed" in caplog.text
    before = message_text(table.dm_message(other))
    simcord_env.backend.faults.clear()
    await simcord_env.advance_time(RETRY_AFTER + 1)
    await simcord_env.bot.presenter.idle()
    assert message_text(table.dm_message(other)) != before


async def test_a_dm_sent_while_its_seat_is_replaced_is_not_sent_twice(simcord_env) -> None:
    """Before: a move stored while a first DM was being sent replaced the seat object, the DM's
    ids went on the discarded one, and the next update sent the member a second DM."""
    table = await Table.start(simcord_env, "uno", 2, turn_timer=0)
    session = await table.session()
    bea = list(table.members)[1]
    seat = session.seat(int(bea))
    assert seat is not None
    seat.dm_channel_id = seat.dm_message_id = None  # as before the first DM
    session.shown.dms.pop(int(bea), None)
    presenter = simcord_env.bot.presenter
    send = presenter.send

    async def send_while_a_move_lands(
        channel_id: int, screen: Screen, nonce: str | None = None
    ) -> int:
        session.seats = [replace(s) for s in session.seats]  # what Sessions.apply does
        return await send(channel_id, screen, nonce)

    presenter.send = send_while_a_move_lands  # type: ignore[method-assign]
    presenter.update(session, table=False)
    await presenter.idle()
    presenter.send = send  # type: ignore[method-assign]
    dms = [m for m in table.members[bea].user.dm_channel.history() if "game #1" in m.content]
    session.shown.dms.pop(int(bea), None)  # something to show: the DM is drawn again
    presenter.update(session, table=False)
    await presenter.idle()
    again = [m for m in table.members[bea].user.dm_channel.history() if "game #1" in m.content]
    assert [m.id for m in again] == [m.id for m in dms]


async def test_an_end_post_whose_flag_failed_is_not_posted_twice(simcord_env) -> None:
    """The result was posted but storing "posted" failed: the retry stores only the flag
    (before: the job was dropped, or, retried, posted the result a second time)."""
    store = simcord_env.bot.store
    mark = store.mark_announced
    failures = [StoreUnavailable("the database is locked")]

    async def mark_once_failing(game_id: int) -> None:
        if failures:
            raise failures.pop()
        await mark(game_id)

    store.mark_announced = mark_once_failing
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    await table.play_random(random.Random(1))
    assert not failures  # the flag's first write failed
    await simcord_env.advance_time(RETRY_AFTER + 1)
    await simcord_env.bot.presenter.idle()
    ends = [m for m in table.public_messages() if "Final scores" in (m.content or "")]
    assert len(ends) == 1
    row = await store.get_game(table.game_id)
    assert row is not None and row.announced


async def test_an_end_that_can_never_be_posted_is_not_tried_for_ever(simcord_env) -> None:
    """A channel closed to the bot (403): the end is tried again further and further apart
    (a lock its moderators lift within minutes must not lose the result), never at each
    retry or catch-up in between (before: each pass redrew and failed again), and given up
    after ``END_REFUSALS_KEPT`` refusals."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    await table.play_random(random.Random(1))
    store = simcord_env.bot.store
    await store.backend.write(
        lambda: single(
            run("UPDATE games SET announced = 0, announce_by = NULL WHERE id = ?", table.game_id)
        )
    )
    session = await store.get_game(table.game_id)
    assert session is not None and not session.announced
    endings = simcord_env.bot.get_cog("Endings")
    posts = 0

    async def refused(*args, **kwargs) -> int:  # type: ignore[no-untyped-def]
        nonlocal posts
        posts += 1
        raise discord.Forbidden(_Response(403), "Missing Access")

    simcord_env.bot.presenter.post = refused
    cached = await simcord_env.bot.sessions.get(table.game_id)
    assert cached is not None
    cached.row.announced = False
    await endings.announce(cached)
    await endings.announce(cached)
    assert posts == 1, "tried again at once"
    row = await store.get_game(table.game_id)
    assert row is not None and not row.announced
    waits = []
    for _ in range(END_REFUSALS_KEPT - 1):
        refused_so_far, due = endings._refused[table.game_id]
        waits.append(due - now())
        endings._refused[table.game_id] = (refused_so_far, 0.0)  # as if that time passed
        await endings.announce(cached)
    assert posts == END_REFUSALS_KEPT
    assert waits == sorted(waits) and waits[-1] <= 3600.0, waits
    row = await store.get_game(table.game_id)
    assert row is not None and row.announced, "never given up"


class _Response:
    """The least of an aiohttp response that discord.py's errors read."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Forbidden"


async def test_a_dm_sent_while_the_cached_copy_is_replaced_is_not_sent_twice(simcord_env) -> None:
    """Before: a first DM sent from a copy a failed write then dropped (a click loading a new
    one meanwhile) stored its ids, but the new copy never had them, and its next update sent
    the member a second DM."""
    table = await Table.start(simcord_env, "uno", 2, turn_timer=0)
    sessions = simcord_env.bot.sessions
    session = await table.session()
    bea = list(table.members)[1]
    seat = session.seat(int(bea))
    assert seat is not None
    # As before the first DM: no ids in memory or stored.
    await simcord_env.bot.store.set_dm(table.game_id, int(bea), None, None)
    seat.dm_channel_id = seat.dm_message_id = None
    session.shown.dms.pop(int(bea), None)
    presenter = simcord_env.bot.presenter
    send = presenter.send

    async def send_while_the_copy_is_replaced(
        channel_id: int, screen: Screen, nonce: str | None = None
    ) -> int:
        sessions.forget(table.game_id)  # a failed write dropped the copy ...
        await sessions.get(table.game_id)  # ... and a click loaded a new one
        return await send(channel_id, screen, nonce)

    presenter.send = send_while_the_copy_is_replaced  # type: ignore[method-assign]
    presenter.update(session, table=False)
    await presenter.idle()
    presenter.send = send  # type: ignore[method-assign]
    dms = [m.id for m in table.members[bea].user.dm_channel.history() if "game #1" in m.content]
    fresh = sessions.cached(table.game_id)
    assert fresh is not None and fresh is not session
    fresh.shown.dms.pop(int(bea), None)  # something to show: the DM is drawn again
    presenter.update(fresh, table=False)
    await presenter.idle()
    again = [m.id for m in table.members[bea].user.dm_channel.history() if "game #1" in m.content]
    assert again == dms
