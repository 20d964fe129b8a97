"""/newgame refused in a busy channel. Before, each refusal fetched the channel's lobby
message from Discord (is it deleted?), and each of the host's lobbies when a member with three
asked for a fourth: a REST call per identical refusal. Now a lobby message found standing is
not looked up again for the same member for a few seconds (``LOBBY_SEEN_FOR``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def _message_gets(env, since: int) -> int:
    return sum(1 for r in env.http_requests[since:] if r.method == "GET" and "/messages/" in r.path)


async def test_newgame_spam_in_a_lobby_channel_fetches_the_lobby_each_time(simcord_env) -> None:
    """ann opens a lobby in #games. bea runs /newgame there ten times in twenty seconds (she
    wants her own game). Each is refused ("This channel already has a game"), and each first
    fetches ann's lobby message from Discord to see whether a moderator deleted it: ten REST
    calls of the bot's global budget for ten identical refusals. Once a minute per lobby
    would tell a deleted lobby just as well."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    await ann.slash(channel, "newgame uno", turn_timer=0)
    await env.settle()
    since = len(env.http_requests)
    for _ in range(10):
        refused = await bea.slash(channel, "newgame uno")
        assert "already has a game" in (refused.response.content or "")
        await env.advance_time(2)
    spent = _message_gets(env, since)
    # At most once per LOBBY_SEEN_FOR (15 s) for one member: twice in these 20 s.
    assert spent <= 2, f"10 refused /newgame in 20 s cost {spent} REST fetches of the lobby"


async def test_fourth_lobby_spam_fetches_all_three_lobbies_each_time(simcord_env) -> None:
    """ann holds lobbies in three channels and runs /newgame in a fourth, ten times: each
    refusal ("You already have 3 lobbies open") fetches all three lobby messages first,
    thirty REST calls for ten refusals."""
    env = simcord_env
    guild = env.create_guild()
    ann = guild.add_member(env.create_user("ann"))
    for i in range(3):
        await ann.slash(guild.create_text_channel(f"room-{i}"), "newgame uno", turn_timer=0)
    fourth = guild.create_text_channel("room-3")
    await env.settle()
    since = len(env.http_requests)
    for _ in range(10):
        refused = await ann.slash(fourth, "newgame uno")
        assert "lobbies open" in (refused.response.content or "")
        await env.advance_time(2)
    spent = _message_gets(env, since)
    assert spent <= 6, f"10 refused /newgame in 20 s cost {spent} REST fetches of lobbies"
