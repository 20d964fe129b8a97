"""Races between slash commands and clicks: what the member is told must be true.

Interactions are emitted without settling in between (``fire``), so the bot handles them
concurrently, as it does on a busy server.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.discord.driver import answer_fails
from tests.discord.test_races_lobby import fire, open_lobby

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.mark.parametrize("command", ["leave", "kick"])
async def test_leave_or_kick_typed_as_the_host_starts_is_not_told_the_lobby_closed(
    simcord_env: Any, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cy types /leave (or the host types /kick cy) while the host presses Start. The
    command read the channel's game while it was a lobby, then waited for the lock behind
    Start: it is told "That lobby is closed." - but nothing closed, the game started with cy
    seated, and cy is still playing. Before, it was told "That lobby is closed."; now the
    command is handled as the in-game /leave or /kick it has become."""
    env = simcord_env
    bot = env.bot
    channel, members, lobby = await open_lobby(env, 2)
    ann, _bea, cy = members
    # Forced order: the command reads the channel's game (a lobby), then Start is stored,
    # then the command goes on.
    dealt = asyncio.Event()
    read, start = bot.store.open_game_in_channel, bot.sessions.start

    async def read_then_wait(channel_id: int) -> Any:
        row = await read(channel_id)
        await dealt.wait()
        return row

    async def start_then_release(*args: Any, **kwargs: Any) -> bool:
        try:
            return await start(*args, **kwargs)
        finally:
            dealt.set()

    monkeypatch.setattr(bot.store, "open_game_in_channel", read_then_wait)
    monkeypatch.setattr(bot.sessions, "start", start_then_release)
    if command == "leave":
        typed = await fire(env, lambda: cy.slash(channel, "leave"))
    else:
        typed = await fire(env, lambda: ann.slash(channel, "kick", member=cy))
    started = await fire(env, lambda: ann.click(lobby, label="Start"))
    await env.settle()
    await bot.presenter.idle()
    await env.settle()

    assert started.acknowledged and not started.ephemeral
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    session = await bot.sessions.get(game_id)
    assert session is not None and session.row.status == "active"
    seat = session.seat(cy.id)
    said = typed.response.content if typed.response else ""
    assert said != "That lobby is closed.", "told the lobby closed, though the game is running"
    # Handled as the running game's command it now is.
    if command == "leave":  # asked to confirm: nothing done yet
        assert seat is not None and not seat.is_bot and "Leave game" in said, said
    else:  # the host's kick is carried out
        assert seat is not None and seat.away == "kicked" and "a bot plays" in said, said


@pytest.mark.simcord(check_errors=False)  # the traceback it logs is part of the finding
async def test_newgame_whose_answer_expires_leaves_no_invisible_lobby(
    simcord_env: Any,
) -> None:
    """/newgame on a busy bot: the lobby row is stored, then answering the interaction fails
    (10062, the 3 s were over). The member is told "nothing was changed" - yet the channel
    now holds a lobby with no message: nobody can Join or Start it, and every /newgame in
    the channel is refused as busy until it expires."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    answer_fails(env)
    first = await ann.slash(channel, "newgame uno", turn_timer=0)
    await env.settle()
    said = (first.response.content if first.response else "") + " ".join(
        f.content for f in first.followups
    )
    again = await ann.slash(channel, "newgame uno", turn_timer=0)
    visible = [m for m in channel.history() if not m.flags.ephemeral]
    # Either the lobby is shown, or the channel is free again (the lobby rolled back).
    assert visible or (again.response is not None and not again.ephemeral), (
        f"first told {said!r}; second told {again.response and again.response.content!r}"
    )
