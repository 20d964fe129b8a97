"""A lobby message deleted just after a /newgame was refused for it. A lobby found standing is
not looked up again for the same member for a few seconds (their refusals repeated cost no
Discord call each); before, that held for a minute and for everyone: the channel stayed
blocked, with nothing in it to join or press."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_lobby_deleted_just_after_a_busy_refusal_frees_its_channel(simcord_env) -> None:
    """ann's lobby stands in #games; bea's `/newgame uno` there is refused (busy: the bot
    looked and found the message). A moderator deletes ann's lobby message. cy asks ten
    seconds later and gets the channel; bea, asking again, would have after a few seconds."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann, bea, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bea", "cy"))
    await ann.slash(channel, "newgame uno")
    lobby = channel.last_message
    first = await bea.slash(channel, "newgame uno")
    assert first.ephemeral  # busy: ann's lobby stands
    env.backend.delete_message(channel.id, lobby.id)  # a moderator deletes it
    await env.settle()
    await env.advance_time(10)
    answer = await cy.slash(channel, "newgame uno")
    said = answer.response.content if answer.response is not None else None
    row = await env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.host_id == cy.id, f"cy refused: {said!r}"
