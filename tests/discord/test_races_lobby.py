"""Races in a lobby on a busy server: a lobby redraw queued by /leave or /kick (done by the
presenter, after the lock) still in flight when another click answers the same lobby message.

simcord refuses two operations at once, so each interaction here is *emitted* without waiting
for the bot to settle (``fire``), several are emitted, and the environment is settled once.
Interleavings are forced with events on the presenter's edits, never with sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cogs import components
from cogs.render.spec import Screen
from tests.discord.driver import answer_fails, controls, message_text

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def fire(env: Any, operation: Callable[[], Awaitable[Any]]) -> Any:
    """Emit one interaction and return at once (the bot handles it in the background)."""
    real = env._settle_internal

    async def no_settle(**_: Any) -> None:
        return None  # not even one turn of the loop: the bot has not looked at it yet

    env._settle_internal = no_settle
    try:
        return await operation()
    finally:
        env._settle_internal = real


async def open_lobby(env: Any, joiners: int) -> tuple[Any, list[Any], Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    names = ["ann", "bea", "cy", "dee", "eve"]
    members = [guild.add_member(env.create_user(n)) for n in names[: joiners + 1]]
    await members[0].slash(channel, "newgame uno", turn_timer=0)
    lobby = channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    return channel, members, lobby


def message(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


@pytest.mark.parametrize("then", ["Start", "Join"])
async def test_a_lobby_redraw_from_leave_never_lands_over_a_newer_click(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, then: str
) -> None:
    """cy types /leave; the presenter's redraw of the lobby (what /leave changed) is slow (a
    429 on the channel). Meanwhile the host presses Start (or dee presses Join), answered at
    once by redrawing the lobby message (type 7). Then the slow redraw lands: the lobby
    message goes back to the picture /leave drew, for good."""
    env = simcord_env
    bot = env.bot
    channel, members, lobby = await open_lobby(env, 2)
    ann, _bea, cy = members
    dee = channel.guild.add_member(env.create_user("dee")) if then == "Join" else None
    await env.settle()

    in_flight, answered = asyncio.Event(), asyncio.Event()
    edit = bot.presenter.edit

    async def slow_edit(channel_id: int, message_id: int, screen: Screen) -> None:
        if message_id == lobby.id and not in_flight.is_set():
            in_flight.set()
            await answered.wait()  # lands after the click below is answered
        await edit(channel_id, message_id, screen)

    answer_update = components.answer_update

    async def answer_then_release(interaction: Any, screen: Screen) -> None:
        await answer_update(interaction, screen)
        answered.set()

    monkeypatch.setattr(bot.presenter, "edit", slow_edit)
    monkeypatch.setattr(components, "answer_update", answer_then_release)

    left = await fire(env, lambda: cy.slash(channel, "leave"))
    await asyncio.wait_for(in_flight.wait(), 5)
    if then == "Start":
        clicked = await fire(env, lambda: ann.click(lobby, label="Start"))
    else:
        clicked = await fire(env, lambda: dee.click(lobby, label="Join"))
    await env.settle()
    await bot.presenter.idle()
    await env.settle()

    assert left.response is not None and "left the lobby" in left.response.content
    assert clicked.acknowledged and not clicked.ephemeral
    shown = message(channel, lobby.id)
    text = message_text(shown)
    labels = [c.label for c in controls(shown) if not c.disabled]
    session = await bot.sessions.get(int(lobby.components[0].children[0].custom_id.split(":")[1]))
    assert session is not None
    if then == "Start":
        assert session.row.status == "active"
        # The game started: the lobby message must say so, with no Join/Start left to press.
        assert "Started with" in text, text
        assert "Start" not in labels and "Join" not in labels, labels
    else:
        assert [s.name for s in session.seats] == ["ann", "bea", "dee"]
        # dee joined (their click's answer showed them seated): the lobby must still say so.
        assert "dee" in text, text


async def test_a_failed_lobby_redraw_retried_after_start_never_draws_over_the_table(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cy types /leave; the presenter's redraw of the lobby fails once (a 5xx), so it is
    retried RETRY_AFTER seconds later. Meanwhile the host presses Start and the table is
    posted. The retried job edits ``s.row.table_message_id`` - now the game's table - with
    the lobby picture captured at /leave: the table shows an open lobby (Join, Start...)."""
    # The retry must fall beyond simcord's settle window (5 s): a timer due inside it is
    # waited for in real time, and the Start click's settle then raced its own deadline.
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 30.0)
    from cogs.presenter import RETRY_AFTER

    env = simcord_env
    bot = env.bot
    channel, members, lobby = await open_lobby(env, 2)
    ann, _bea, cy = members
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/{lobby.id}", status=500, times=1)
    left = await cy.slash(channel, "leave")
    assert left.response is not None and "left the lobby" in left.response.content
    started = await ann.click(lobby, label="Start")
    assert not started.ephemeral
    await bot.presenter.idle()
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    session = await bot.sessions.get(game_id)
    assert session is not None and session.row.status == "active"
    table_id = session.row.table_message_id
    assert table_id is not None and table_id != lobby.id
    before = message_text(message(channel, table_id))

    await env.advance_time(RETRY_AFTER + 1)  # the failed lobby redraw is tried again
    await bot.presenter.idle()
    await env.settle()

    shown = message(channel, table_id)
    labels = [c.label for c in controls(shown)]
    assert "Join" not in labels and "Start" not in labels, labels
    assert message_text(shown) == before


@pytest.mark.parametrize("button", ["Join", "Add bot"])
async def test_a_lobby_click_whose_answer_expires_is_still_shown(
    simcord_env: Any, button: str
) -> None:
    """On a busy bot a lobby click is answered after Discord's 3 s (10062). The seat is
    stored. Before, the handler raised NotFound (a traceback, "Something went wrong ...
    nothing was changed" through the error path), and the lobby message, redrawn only through
    the click's own answer, never showed the new seat. Now the presenter redraws it."""
    env = simcord_env
    bot = env.bot
    channel, members, lobby = await open_lobby(env, 1)
    ann, _bea = members
    cy = channel.guild.add_member(env.create_user("cy"))
    answer_fails(env)
    clicker = cy if button == "Join" else ann
    clicked = await clicker.click(lobby, label=button)
    await env.settle()
    await bot.presenter.idle()
    await env.settle()

    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    seats = await bot.store.seats(game_id)
    assert len(seats) == 3  # the seat was stored
    assert not clicked.ephemeral  # no untrue "nothing was changed" (the token is dead anyway)
    text = message_text(message(channel, lobby.id))
    assert "Players (3/10)" in text, text
