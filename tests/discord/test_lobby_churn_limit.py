"""/newgame and Cancel in a loop. Before, each round left one more public lobby message in
the channel and one more game row, with no limit for the member doing it (the three-lobbies
limit does not help: a cancelled lobby no longer counts). Now a member may open five lobbies
in a server within ten minutes that never start; the next is refused privately, saying when
another may be opened. Lobbies that started do not count."""

from __future__ import annotations

import pytest

from db.store import LOBBIES_PER_WINDOW, LOBBY_WINDOW
from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)


async def test_a_newgame_and_cancel_loop_is_limited(simcord_env) -> None:
    """ann runs /newgame uno and presses Cancel, ten times in a minute."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    opened, refusals = 0, []
    for _ in range(10):
        answer = await ann.slash(channel, "newgame uno", turn_timer=0)
        if answer.ephemeral:
            refusals.append(answer.response.content)
        else:
            opened += 1
            await ann.click(channel.last_message, label="Cancel")
        await env.advance_time(6)
    assert opened == LOBBIES_PER_WINDOW, f"{opened} lobbies opened and cancelled in a minute"
    assert all("You can open another <t:" in text for text in refusals), refusals[:1]
    await env.advance_time(LOBBY_WINDOW)
    again = await ann.slash(channel, "newgame uno", turn_timer=0)
    assert not again.ephemeral, again.response.content  # the window moved on


async def test_games_that_started_do_not_count(simcord_env) -> None:
    """ann hosts quick games one after another (each lobby started, then ended): never
    refused."""
    env = simcord_env
    guild = env.create_guild()
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    for i in range(LOBBIES_PER_WINDOW + 1):
        channel = guild.create_text_channel(f"games-{i}")
        table = await Table.start_in(env, channel, [ann, bea], "warofsuits", seed=3)
        ended = await ann.slash(table.channel, "endgame")
        assert not ended.ephemeral, ended.response.content
