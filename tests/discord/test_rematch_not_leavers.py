"""Play again after a game a member chose to leave. Before, the rematch pinged them like
the others (only kicked members were left out); now a member who left is not mentioned, and
may still press Join."""

from __future__ import annotations

import pytest

from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_play_again_does_not_ping_a_member_who_left_the_game(simcord_env) -> None:
    """ann, bea and cy play UNO. cy has had enough of bea and leaves (/leave, a bot takes
    the seat). The game is ended; bea presses Play again: the rematch lobby pings cy ("a
    rematch! Press Join to play again."), as it does ann who stayed. A member who gave up
    their seat said they are done with that game; pinging them is the kind of ping one
    member can aim at another through the bot. (A kicked member is already not pinged.)"""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=3)
    ann, bea, cy = table.members.values()
    asked = await cy.slash(table.channel, "leave")
    await cy.click(asked.response, label="Leave the game")
    await ann.slash(table.channel, "endgame")
    await env.bot.presenter.idle()
    post = table.channel.last_message
    again = await bea.click(post, label="Play again")
    assert not again.ephemeral, again.response.content
    pinged = {u.id for u in again.response.message.mentions}
    assert ann.id in pinged
    assert cy.id not in pinged, f"cy, who left the game, is pinged: {again.response.content!r}"
