"""A stop right after Start, before the first table is up. Before, the game's stored table
was still the lobby's message, so the redraw after the restart edited the lobby record into
the table: no new message, nobody notified that the game started. Now a started game has no
table until one is posted, and the redraw posts it."""

from __future__ import annotations

from tests.discord.driver import controls, message_text
from tests.discord.restarts import graceful_restart


async def test_a_first_table_refused_before_a_stop_is_posted_not_drawn_over_the_lobby(
    simcord_env, make_bot, monkeypatch
) -> None:
    """ann presses Start; the lobby turns into "Started with 2 players — the table is below"
    (the lobby message stays as a record, the table is a new message that notifies,
    cogs/lobby.py), but Discord refuses the table's post once (a 503) and the owner restarts
    the bot before the presenter's retry (the first-table job lives only in memory). At the
    next start the game is redrawn from what is stored, where the lobby's message is still
    the game's "table": the lobby record is edited into the table. No new message appears in
    the channel, nobody is notified that the game started, and the "Waiting for @ann"
    mention, an edit, pings nobody while her turn clock runs. The table should be posted as
    a new message below the lobby, as Start does."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    await ann.slash(channel, "newgame haymaker", turn_timer=0)
    lobby = channel.last_message
    await bea.click(lobby, label="Join")
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 10_000.0)  # the stop comes first
    env.inject_error(
        "POST", "/channels/*/messages", status=503, code=0, message="Service Unavailable", times=1
    )
    started = await ann.click(lobby, label="Start")
    assert not started.ephemeral
    await env.bot.presenter.idle()
    assert [m.id for m in channel.history()] == [lobby.id]
    monkeypatch.undo()

    await graceful_restart(env, make_bot, down=10)
    await env.advance_time(330)  # PostgreSQL: the next look for unshown games (clock_poll)
    await env.settle()
    await env.bot.presenter.idle()
    messages = channel.history()
    assert "Started with 2 players" in message_text(messages[0]), message_text(messages[0])
    tables = [
        m
        for m in messages[1:]
        if any(c.label == "My hand" for c in controls(m)) and "your turn" not in m.content
    ]
    assert len(tables) == 1, "no table was posted"
