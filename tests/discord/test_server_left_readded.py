"""The bot kicked from a server by mistake and invited back minutes later."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend import serializers

from tests.discord.driver import Table, controls, message_text


async def removed_and_back(env: Any, guild_id: int, channel_id: int, away: float) -> None:
    """The bot is removed from the server (Discord refusing its channel meanwhile, as it
    does a server the bot left) and invited back ``away`` seconds later."""
    fault = {
        "method": "*",
        "path": f"/channels/{channel_id}*",
        "status": 403,
        "code": 50001,
        "message": "Missing Access",
        "times": None,
    }
    env.backend.faults.append(fault)
    env.backend.emit("GUILD_DELETE", {"id": str(guild_id)})
    await env.settle()
    assert await env.bot.store.open_games_in_guild(guild_id) == []
    await env.advance_time(away)
    env.backend.faults.remove(fault)  # invited back
    payload = serializers.guild_create_payload(env.backend, env.backend.guilds[guild_id])
    env.backend.emit("GUILD_CREATE", payload)
    await env.settle()
    assert env.bot.get_guild(guild_id) is not None


async def ended_by_removal(env: Any, away: float) -> Table:
    """A 2-player UNO game, one move in, ended by the bot's removal from its server; the bot
    is invited back ``away`` seconds later."""
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    await table.some_move()
    await env.settle()
    await removed_and_back(env, table.channel.guild.id, table.channel.id, away)
    return table


async def test_the_table_of_a_game_ended_by_a_removal_stops_offering_buttons_once_back(
    simcord_env: Any,
) -> None:
    """UNO in #games; a moderator kicks the bot by mistake and invites it back five minutes
    later. The game was ended at the removal ("the bot was removed from its server"), but its
    table could not be redrawn then (Discord refuses a server's channels to a bot it removed),
    and nothing drew it once the bot was back (``Presenter.table_gone`` counts it as shown
    for good): the channel went on showing "bea-games to accept the Wild Draw Four..." with
    live buttons, and a player pressing one was told only "That game was ended early."
    Now the press is told that, and the table is drawn again: it shows that the game
    ended, and offers no more moves."""
    env = simcord_env
    table = await ended_by_removal(env, 300)

    message = table.table_message()
    ann = next(iter(table.members.values()))
    play = next(c for c in controls(message) if c.label == "Play a card")
    clicked = await ann.click(message, custom_id=play.custom_id)
    assert clicked.ephemeral and "ended early" in clicked.response.content
    await env.advance_time(600)
    await env.bot.presenter.idle()
    message = table.table_message()
    live = [c.label for c in controls(message) if not c.disabled]
    assert "ended" in message_text(message) and live == [], (live, message_text(message)[:120])


async def test_a_lobby_closed_by_a_removal_stops_offering_join_once_back(
    simcord_env: Any,
) -> None:
    """ann opens an UNO lobby; the bot is kicked by mistake and invited back five minutes
    later. The lobby was closed at the removal (``Lobby.gone``) but its message, which the
    bot could not edit then, still offered Join / Start / Cancel: bea pressing Join was
    told "That lobby was closed." while the message went on inviting everyone else. Now
    the press that finds the lobby closed redraws it as closed."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    opened = await ann.slash(channel, "newgame uno")
    assert opened.response is not None and not opened.ephemeral
    lobby = channel.last_message
    await removed_and_back(env, guild.id, channel.id, 300)

    bea = guild.add_member(env.create_user("bea"))
    joined = await bea.click(lobby, label="Join")
    assert joined.ephemeral and joined.response is not None
    assert "closed" in joined.response.content
    await env.advance_time(60)
    await env.bot.presenter.idle()
    message = next(m for m in channel.history() if m.id == lobby.id)
    live = [c.label for c in controls(message) if not c.disabled]
    assert live == [], live


async def test_a_press_on_an_old_stale_table_redraws_it_in_place_not_a_repost(
    simcord_env: Any,
) -> None:
    """As in test_server_left_readded, but the bot is invited back 52 minutes later (a
    moderator noticed late, say). A press on the old table's "Play a card" makes
    ``_stale_buttons`` cleared ``shown.table`` and called the presenter, whose
    ``_draw_table`` found the table older than TABLE_MAX_AGE and *reposted* it: a fresh copy
    of the ended game's final table appeared at the bottom of the channel, and the old one
    became "The table moved down". Now the pressed message is edited in place (its buttons
    gone) and nothing new is posted in the channel."""
    env = simcord_env
    table = await ended_by_removal(env, 3100)  # past TABLE_MAX_AGE (50 min)

    message = table.table_message()
    posts_before = [m.id for m in table.public_messages()]
    ann = next(iter(table.members.values()))
    play = next(c for c in controls(message) if c.label == "Play a card")
    await ann.click(message, custom_id=play.custom_id)
    await env.advance_time(60)
    await env.bot.presenter.idle()
    new = [m for m in table.public_messages() if m.id not in posts_before]
    assert new == [], [message_text(m)[:100] for m in new]
    pressed = next(m for m in table.channel.history() if m.id == message.id)
    assert "moved down" not in message_text(pressed)


@pytest.mark.simcord(settle_timeout=1.0)  # the retries 5 to 60 s apart stay virtual
async def test_presses_on_a_stale_table_while_discord_fails_edit_it_once_per_try(
    simcord_env: Any,
) -> None:
    """The bot is removed from a server mid-game (the game ends, its table keeps its
    buttons) and invited back. Discord is failing edits for a while (a 5xx), and the two
    players, seeing nothing happen, press the old table's buttons a few times each. Every
    press now queues its own ``redraw_ended_table`` closure (they are never equal, so
    ``_wait_retry``'s merge keeps them all): each retry pass edits the same message once per
    press, all refused, and every press also resets the merged retry count (``min``).
    Before, a press asked for the table (``shown.table = None``), which coalesces into one
    edit per pass. That was before; now presses redraw it at most once a minute: one edit
    per try."""
    env = simcord_env
    table = await ended_by_removal(env, 600)
    channel_id = table.channel.id

    message = table.table_message()
    env.inject_error("PATCH", f"/channels/{channel_id}/messages/{message.id}", times=None)
    for member in [*table.members.values()] * 3:  # six presses in all
        play = next(c for c in controls(message) if c.custom_id.startswith("g:"))
        await member.click(message, custom_id=play.custom_id)
        await env.advance_time(1)
    mark = len(env.backend.http_requests)
    await env.advance_time(120)
    edits = [
        e
        for e in env.backend.http_requests[mark:]
        if e.method == "PATCH" and e.path.endswith(f"/messages/{message.id}")
    ]
    # Retries 5, 10, 15 s then a minute apart: at most 4 passes in these two minutes.
    assert len(edits) <= 4, (
        f"the stale table was edited {len(edits)} times in two minutes, every edit refused "
        "(one edit per press per retry)"
    )


@pytest.mark.simcord(settle_timeout=1.0)  # the retries 5 to 60 s apart stay virtual
async def test_presses_a_minute_apart_on_a_stale_table_do_not_pile_up_edits(
    simcord_env: Any,
) -> None:
    """The bot is removed from a server mid-game (the game ends, its table keeps its
    buttons) and invited back while Discord fails edits of that message (503s). A player,
    seeing nothing happen, presses a button once a minute for four minutes. The throttle
    lets one press a minute through, but each one still queues its own ``redraw_ended_table``
    closure, and each keeps its own count of tries in the merged retry: every retry pass
    then edits the same message once per press still owed (several identical edits in the
    same instant, all refused), and each new press's fresh schedule (5, 10, 15 s) drags the
    older ones along. That was before; now the redraws of one message are one job, and a
    pass edits the table once."""
    env = simcord_env
    table = await ended_by_removal(env, 600)
    channel_id = table.channel.id

    message = table.table_message()
    path = f"/channels/{channel_id}/messages/{message.id}"
    env.inject_error("PATCH", path, status=503, message="Service Unavailable", times=None)
    member = next(iter(table.members.values()))
    most = 0
    for _ in range(4):  # a press a minute, four minutes
        play = next(c for c in controls(message) if c.custom_id.startswith("g:"))
        await member.click(message, custom_id=play.custom_id)
        for _ in range(61):
            mark = len(env.backend.http_requests)
            await env.advance_time(1)
            edits = sum(
                1
                for e in env.backend.http_requests[mark:]
                if e.method == "PATCH" and e.path.endswith(f"/messages/{message.id}")
            )
            most = max(most, edits)
    assert most <= 1, (
        f"one retry pass edited the stale table {most} times at once, every edit refused "
        "(one edit per press still owed)"
    )
