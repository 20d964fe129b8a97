"""A crash between a move's commit and its Discord edits: the restarted bot shows the move.

The move is stored and acknowledged before the table and DMs are edited (the presenter works
after the lock). A process that dies in between left the table and the next player's DM
showing the turn before, with nobody told whose turn it is, until the game's next change.
"""

from __future__ import annotations

import asyncio

import discord

from cogs import show
from cogs.clock import now
from cogs.render.spec import Screen
from tests.discord.driver import Table, count_edits
from tests.discord.test_uno_discord import a_move, current_player, past_first_colour


def never_drawn(table: Table) -> None:
    """The process dies right after storing: none of its table or DM edits happen."""
    table.bot.presenter.update = lambda *args, **kwargs: None  # type: ignore[method-assign]


async def test_a_move_stored_but_never_shown_is_shown_after_a_restart(
    simcord_env, make_bot, database
) -> None:
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    await past_first_colour(table)
    mover = await current_player(table)
    never_drawn(table)
    await table.act(mover, await a_move(table, mover), via="dm")
    session = await table.session()
    following = await current_player(table)
    assert following != mover
    assert not shows(table.table_message(), show.table(session)), "the table was not edited"

    await simcord_env.restart_bot(make_bot())
    if database.startswith("postgresql://"):
        # Sharing a database, what a dead process left undrawn is redrawn once its drawing
        # lease is over, by the clock pass (polling is slowed right down in these tests).
        await simcord_env.bot.get_cog("Timers").redraw_orphans(now() + 3600)
    await simcord_env.settle()
    await asyncio.wait_for(simcord_env.bot.presenter.idle(), 10)

    session = await table.session()
    assert shows(table.table_message(), show.table(session))
    dm = table.dm_message(following)
    assert dm is not None and shows(dm, show.hand(session, int(following), dm=True))


async def test_a_clean_run_redraws_nothing_after_a_restart(
    simcord_env, make_bot, monkeypatch
) -> None:
    """Every move shown before the stop: the restart edits no table and no DM."""
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    await past_first_colour(table)
    for _ in range(3):
        mover = await current_player(table)
        await table.act(mover, await a_move(table, mover), via="dm")
    await simcord_env.settle()
    await table.bot.close()  # a graceful stop, as on SIGTERM

    edits = count_edits(monkeypatch)
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(5)
    await simcord_env.settle()
    assert edits == []


def shows(message: discord.Message, screen: Screen) -> bool:
    """The message is drawn from ``screen``: the same words, embed and buttons."""
    embed = message.embeds[0] if message.embeds else None
    drawn = screen.embed
    same_embed = (embed is None) == (drawn is None) and (
        embed is None
        or drawn is None
        or (embed.title, embed.description) == (drawn.title, drawn.description)
    )
    return (message.content or None) == (screen.content or None) and same_embed
