"""A lobby the database would not keep, nor close: it holds no channel and takes no Join."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.restarts import graceful_restart
from tests.discord.test_database_fails_lobby import (
    fail_each_once,
    faulty,
    unkept_and_unclosed,
)

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_an_unkept_lobby_whose_closing_failed_does_not_block_the_channel_after_a_restart(
    simcord_env: Any, make_bot: Any
) -> None:
    """A backup holds SQLite's lock when the lobby's message id is stored and again when the
    lobby is closed. The channel and the host read "This lobby was closed ... Please try
    `/newgame` again in a moment". The owner then restarts the bot (a deploy) before the
    next housekeeping pass. The lobby that must still be ended is remembered only in memory
    (``Lobby._unclosed``). Before, after the restart its row (status lobby, no message id)
    was taken for "a lobby whose message is being posted right now" (``_lobby_deleted``),
    and every /newgame in that channel was refused for the whole lobby timeout (30
    minutes). Now a lobby row with no message id older than a few seconds is taken as lost
    and closed, and /newgame opens a lobby."""

    env = simcord_env
    channel, ann, _ = await unkept_and_unclosed(env)
    await graceful_restart(env, make_bot, down=5)
    await env.advance_time(30)  # "in a moment"
    again = await ann.slash(channel, "newgame uno", turn_timer=0)
    said = again.response and again.response.content
    assert not again.ephemeral, f"told the lobby was closed, then refused: {said!r}"


async def test_a_rematch_closed_as_unkept_does_not_use_up_its_one_ping(simcord_env: Any) -> None:
    """bea presses Play again; the rematch's one ping is claimed (ann and cy are pinged),
    then a backup holds SQLite's lock as the lobby's message id is stored, so that lobby is
    closed at once: "This lobby was closed: the database isn't answering right now". A
    moment later bea presses Play again once more and the real rematch lobby opens, but
    pinged nobody before (``claim_rematch`` was spent on the lobby that was closed): ann
    and cy were last told the rematch was closed. Now the claim is handed back when the
    lobby is closed as unkept, and the lobby that replaces it pings them."""
    from cogs.lobby import UNKEPT
    from tests.discord.test_rematch import _ended

    env = simcord_env
    table, post = await _ended(env)
    ann, bea, cy = table.members.values()
    conn = faulty(env)
    conn.fail = fail_each_once("UPDATE games SET table_message_id")
    await bea.click(post, label="Play again")
    conn.fail = None
    _ = env.errors
    closed = table.channel.last_message
    assert closed is not None and UNKEPT in (closed.content or "")
    await env.advance_time(10)
    again = await bea.click(post, label="Play again")
    assert not again.ephemeral, again.response and again.response.content
    pinged = {u.id for u in again.response.message.mentions}
    assert {ann.id, cy.id} <= pinged, (
        f"the rematch that opened pinged {sorted(pinged)}; its text: "
        f"{again.response.message.content!r}"
    )


async def test_a_lobby_whose_first_read_fails_does_not_hold_the_channel_unseen(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/newgame: the lobby's row is created, then the read that loads it
    (``Lobby._open``: ``sessions.get(row.id)``, before its message is posted) meets the
    database failing for a moment (a PostgreSQL failover, SQLite's I/O error). ann is told
    "The database isn't answering right now, so nothing was changed", yet the lobby row
    stays, with no message anyone can see: every /newgame in that channel then says "This
    channel already has a game" until the lobby expires half an hour later (the message id
    is NULL, which ``_lobby_deleted`` took for a lobby being posted right now). Now the
    lobby that could not be posted is ended at once (or taken as lost by the next
    /newgame)."""
    from db import StoreUnavailable

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("uno")
    ann = guild.add_member(env.create_user("ann"))
    store = env.bot.store
    real = store.get_game
    armed = [True]

    async def get_game(game_id: int) -> Any:
        if armed[0]:
            armed[0] = False
            raise StoreUnavailable("The database failed: disk I/O error.")
        return await real(game_id)

    monkeypatch.setattr(store, "get_game", get_game)
    first = await ann.slash(channel, "newgame uno", turn_timer=0)
    _ = env.errors
    assert not armed[0], "the lobby's first read did not fail: the test tests nothing"
    told = first.response and first.response.content
    assert "nothing was changed" in (told or "")
    await env.advance_time(5)  # "in a moment"
    again = await ann.slash(channel, "newgame uno", turn_timer=0)
    said = again.response and again.response.content
    assert not again.ephemeral, f"first told {told!r}, then a moment later {said!r}"


async def test_a_join_pressed_as_an_unkept_lobby_appears_does_not_revive_it(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bea presses Join the instant ann's lobby appears, while the database refuses to
    keep its message id and then to close it (a backup holding the lock for a moment).
    Her Join waits for the lobby's lock (as designed), and runs once ``_open`` has given
    up: the lobby's cached copy still says "lobby" (its closing failed), so the Join is
    stored and its answer redrew the lobby, Join/Start buttons and all, over "This lobby
    was closed" (or the reverse, depending on timing), and every later press on it answers
    "That button doesn't belong to this lobby" (the reload read a NULL message id), until
    housekeeping ends it silently. That happened before; now a lobby being closed as unkept
    takes no Join ("That lobby was closed.", its cached copy dropped), and the channel's
    message ends up saying it was closed, with no buttons."""
    import asyncio

    from cogs.lobby import UNKEPT
    from db import StoreUnavailable
    from tests.discord.driver import controls

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("uno")
    ann, bea = (guild.add_member(env.create_user(n)) for n in ("ann", "bea"))
    store = env.bot.store
    real_set, real_end = store.set_table_message, store.end_game
    release = asyncio.Event()
    ended_failed = [False]

    async def set_table_message(*args: Any) -> None:
        await release.wait()
        raise StoreUnavailable("The database failed: database is locked.")

    async def end_game(*args: Any, **kwargs: Any) -> Any:
        if not ended_failed[0]:
            ended_failed[0] = True
            raise StoreUnavailable("The database failed: database is locked.")
        return await real_end(*args, **kwargs)

    monkeypatch.setattr(store, "set_table_message", set_table_message)
    monkeypatch.setattr(store, "end_game", end_game)
    from tests.discord.test_races_lobby import fire

    await fire(env, lambda: ann.slash(channel, "newgame uno", turn_timer=0))
    for _ in range(200):
        await asyncio.sleep(0.001)
        lobby = channel.last_message
        if lobby is not None and any(c.label == "Join" for c in controls(lobby)):
            break
    else:
        pytest.skip("the lobby never appeared while its id was being stored")
    joined = await fire(env, lambda: bea.click(lobby, label="Join"))
    for _ in range(20):
        await asyncio.sleep(0)
    release.set()
    await env.settle()
    monkeypatch.setattr(store, "set_table_message", real_set)
    _ = env.errors
    await env.settle()
    shown = channel.last_message
    assert shown is not None and shown.id == lobby.id
    later = await ann.click(shown, label="Start") if controls(shown) else None
    later_said = later.response.content if later is not None and later.response else None
    bea_told = joined.response and joined.response.content
    assert UNKEPT in (shown.content or "") and not controls(shown), (
        f"the closed lobby reads {shown.content!r} with {[c.label for c in controls(shown)]}; "
        f"bea was told {bea_told!r}; ann's Start on it then answered {later_said!r}"
    )
    assert joined.ephemeral, f"bea's Join was taken by a lobby being closed: {bea_told!r}"
