"""One member toggling /leave and /back in a running game. Before, each leave was a new
public post in the game's channel, however often the same member did it; now a member's
leaving one game is told at most once every ten minutes (the table shows it always)."""

from __future__ import annotations

import pytest

from tests.discord.driver import Table, posted_in

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_leave_and_back_loop_fills_the_channel_with_notices(simcord_env) -> None:
    """ann, bea and cy play UNO. cy leaves and comes back six times within a minute (to
    annoy, or a script on /leave, Leave the game, /back). Each leave posts "<@cy> left game
    #1; a bot plays their seat." in the channel: six posts in a minute pushing the table up
    for ann and bea, each a REST post of the bot's global budget plus table and DM edits.
    A member's leave should be told once per game in a while (say once per member and game
    every ten minutes; later ones only on the table), or the notice edited in place."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=5)
    cy = list(table.members.values())[2]
    since = len(env.http_requests)
    for _ in range(6):
        asked = await cy.slash(table.channel, "leave")
        await cy.click(asked.response, label="Leave the game")
        back = await cy.slash(table.channel, "back")
        assert "Welcome back" in (back.response.content or "")
        await env.advance_time(5)
    await env.bot.presenter.idle()
    notices = posted_in(env, table.channel.id, since, "left game")
    assert len(notices) <= 2, f"{len(notices)} 'left game' posts for one member in a minute"
