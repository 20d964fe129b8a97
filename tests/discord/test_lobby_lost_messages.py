"""Lobbies the database would not keep (``Lobby._open``), and lobbies that lost their message."""

from __future__ import annotations

from typing import Any

import pytest

from db import StoreUnavailable


async def test_a_rematch_whose_first_read_failed_hands_its_ping_back(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bea presses Play again. The rematch lobby's row is created and its one ping claimed
    (``claim_rematch``), then the read that loads it (``sessions.get`` in ``_open``) meets
    the database failing for a moment. bea is told "nothing was changed" and the lobby is
    ended unposted (5500301), but the claim is not handed back: ``release_rematch`` is
    called only on the ``_say_unkept`` path, not on this ``except StoreUnavailable: ...
    raise`` one. A moment later bea presses Play again and the rematch opens without
    mentioning ann and cy ("A rematch of game #N" with no ping), though nobody was ever
    pinged for it. That was before; now, as when storing the message id fails, the ping is
    handed back and the lobby that opens pings ann and cy."""
    from tests.discord.test_rematch import _ended

    env = simcord_env
    table, post = await _ended(env)
    ann, bea, cy = table.members.values()
    store = env.bot.store
    real = store.get_game
    armed = [1]  # the first read of the new lobby: ``_open``'s

    async def get_game(game_id: int) -> Any:
        if armed[0] and game_id != table.game_id:
            armed[0] -= 1
            if not armed[0]:
                raise StoreUnavailable("The database failed: disk I/O error.")
        return await real(game_id)

    monkeypatch.setattr(store, "get_game", get_game)
    first = await bea.click(post, label="Play again")
    _ = env.errors
    assert not armed[0], "the lobby's first read did not fail: the test tests nothing"
    told = first.response and first.response.content
    assert await store.open_game_in_channel(table.channel.id) is None, "the lobby stayed"
    await env.advance_time(10)
    again = await bea.click(post, label="Play again")
    assert not again.ephemeral, (told, again.response and again.response.content)
    pinged = {u.id for u in again.response.message.mentions}
    assert {ann.id, cy.id} <= pinged, (
        f"first told {told!r}; the rematch that opened pinged {sorted(pinged)}: "
        f"{again.response.message.content!r}"
    )


async def test_a_deleted_lobby_of_a_host_at_the_limit_gives_way_to_her_newgame(
    simcord_env: Any,
) -> None:
    """ann has three lobbies open (the most one member may have). A moderator deletes the
    lobby message in #games-2 (README: "a lobby whose message a moderator deleted gives way
    to the next `/newgame`"). ann runs /newgame in #games-2: ``create_lobby`` counts her
    open lobbies (three, the deleted one included) before the channel's own check, so she
    is refused "You already have 3 lobbies open in this server (... #games-2). Start or
    cancel one of them first." - naming a lobby nobody can see nor cancel, in the very
    channel she is in; ``_lobby_deleted`` (the ChannelBusy path) never ran. Now, as for any
    other member, the deleted lobby gives way and her /newgame opens a lobby."""
    from db.store import LOBBIES_PER_HOST

    env = simcord_env
    guild = env.create_guild()
    channels = [guild.create_text_channel(f"games-{i}") for i in range(LOBBIES_PER_HOST)]
    ann = guild.add_member(env.create_user("ann"))
    for channel in channels:
        assert not (await ann.slash(channel, "newgame uno")).ephemeral
    last = channels[-1]
    env.backend.delete_message(last.id, last.last_message.id)  # a moderator deletes it
    again = await ann.slash(last, "newgame uno")
    said = again.response and again.response.content
    assert not again.ephemeral, f"refused: {said!r}"


async def test_a_lobby_posted_slowly_is_not_closed_under_its_hosts_feet(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann's /newgame: the lobby row is created and its message is being posted, but
    learning its id takes a while (``answer_message`` -> ``original_response`` waiting out
    a rate limit, or PostgreSQL slow to answer: 20 s here). Meanwhile bea runs /newgame in
    the same channel: ``_lobby_deleted`` sees a lobby with no message id older than POSTING
    (15 s), takes it as lost and calls ``_end_unkept``, which waits for the game's lock
    (held by ann's posting) and then ends the lobby without looking again: by then its
    message id is stored. ann's lobby, just posted and offering Join, is closed in the
    database and bea's opens in the same channel: the channel shows two live-looking
    lobbies, ann's Join answers "That lobby was closed." That was before; now the check is
    made again under the lock (a lobby whose message id is now stored is not lost), and bea
    is told the channel has a game."""
    import asyncio

    import cogs.components as components
    import cogs.lobby as lobby_module
    from tests.discord.test_races_lobby import fire

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    real_answer = components.answer_message
    gate = asyncio.Event()
    calls = [0]

    async def slow_answer(interaction: Any, screen: Any) -> int:
        calls[0] += 1
        sent = await real_answer(interaction, screen)
        if calls[0] == 1:
            await gate.wait()  # ann's lobby: posted, its id learnt late
        return sent

    monkeypatch.setattr(components, "answer_message", slow_answer)
    await fire(env, lambda: ann.slash(channel, "newgame uno", turn_timer=0))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if calls[0]:
            break
    assert calls[0] == 1, "ann's lobby is not being posted: the test tests nothing"
    real_now = lobby_module.now
    monkeypatch.setattr(lobby_module, "now", lambda: real_now() + 20.0)
    second = await fire(env, lambda: bea.slash(channel, "newgame uno", turn_timer=0))
    for _ in range(50):
        await asyncio.sleep(0.01)
    gate.set()
    await env.settle()
    row = await env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.host_id == ann.id, (
        f"ann's lobby was closed; the channel's open game is {row and row.host_id}, "
        f"bea was answered {second}"
    )
