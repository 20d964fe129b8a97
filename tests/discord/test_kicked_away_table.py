"""A member who left, then was removed by the host: the table stops offering I'm back.

The docstring tells what players saw before the fix; the assertions are what they see now."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, controls
from tests.discord.restarts import graceful_restart
from tests.discord.test_uno_discord import current_player, past_first_colour


async def test_the_table_drops_im_back_once_the_only_away_member_is_removed(
    simcord_env: Any, make_bot: Any
) -> None:
    """UNO with ann (host), bea and cy. bea leaves (a bot plays her seat, and the table
    offers "I'm back"). The host then /kicks her: she may never return, and no other seat
    is away, so the table should no longer offer "I'm back". It still does, for as long as
    the member whose turn it is takes to move, and a deploy in between does not redraw it
    either: what the table shows is keyed on who is a bot, not on who may come back
    (``presenter.table_key``), so a kick of a seat a bot already plays looks like no change
    and the table is noted as shown in full. The key should include the away flag the
    table is drawn with."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=11)
    await past_first_colour(table)
    await env.settle()
    mover = await current_player(table)
    ann, bea, cy = table.members.values()
    leaver = bea if str(bea.id) != mover else cy
    left = await leaver.slash(table.channel, "leave")
    ask = left.response
    assert ask is not None
    confirm = await leaver.click(ask, label="Leave the game")
    assert confirm.response is not None, confirm
    await env.settle()
    await env.bot.presenter.idle()
    labels = [c.label for c in controls(table.table_message())]
    assert "I'm back" in labels, labels
    version = (await table.session()).version

    kicked = await ann.slash(table.channel, "kick", member=leaver.user)
    assert kicked.response is not None and "a bot plays that seat" in kicked.response.content
    await env.settle()
    await env.bot.presenter.idle()
    await graceful_restart(env, make_bot)
    await env.advance_time(5)
    await env.settle()
    session = await table.session()
    assert session.version == version, "a move was made meanwhile"
    labels = [c.label for c in controls(table.table_message())]
    assert "I'm back" not in labels, labels


async def test_a_removed_member_who_tries_to_leave_is_told_they_were_removed(
    simcord_env: Any,
) -> None:
    """The host /kicks bea; bea then types /leave. Before: "A bot already plays your seat;
    nothing to leave.", as if she had left herself. Now she is told she was removed."""
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    ann, bea, _cy = table.members.values()
    kicked = await ann.slash(table.channel, "kick", member=bea)
    assert kicked.ephemeral and "a bot plays that seat" in kicked.response.content
    left = await bea.slash(table.channel, "leave")
    assert left.ephemeral
    assert left.response.content == "You were removed from this game: there is nothing to leave."
