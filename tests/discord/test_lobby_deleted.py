"""A lobby whose message a moderator deleted (or purged) no longer holds the channel."""

from __future__ import annotations

from tests.discord.driver import controls


async def test_a_deleted_lobby_gives_way_to_a_new_one(simcord_env) -> None:
    """Ann opens a lobby; a moderator deletes the lobby message (or purges the channel).
    Before, the lobby stayed open with no message: nobody could press Join or Start, Bea's
    `/newgame uno` was told "This channel already has a game" (and `/endgame` is the
    host's), for up to the lobby's 30 minutes. Now `/newgame` finds the lobby's message gone,
    closes that lobby and opens Bea's."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann, bea = (guild.add_member(env.create_user(n)) for n in ("ann", "bea"))
    await ann.slash(channel, "newgame uno")
    lobby = channel.last_message
    env.backend.delete_message(channel.id, lobby.id)  # a moderator deletes it
    await env.settle()
    answer = await bea.slash(channel, "newgame uno")
    await env.bot.presenter.idle()
    joinable = [
        m
        for m in channel.history()
        if any(c.label == "Join" and not c.disabled for c in controls(m))
    ]
    said = answer.response.content if answer.response is not None else None
    assert joinable, f"no lobby anyone can join in the channel; Bea was told: {said!r}"
    row = await env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.status == "lobby" and row.host_id == bea.id
