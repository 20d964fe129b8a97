"""/history, /replay and /games tell a member about a game only when the member may read the
channel or thread it was played in (``cogs/visibility.py``). Threads broke that check twice:

- Private threads leaked. Discord shows a private thread only to its members and to those
  with Manage Threads, but the check asked discord.py's ``Thread.permissions_for``, which
  resolves only the parent channel's permissions and never looks at the thread's membership:
  a member who could read the parent saw every private thread's games in /games and
  /history, and could /replay them.
- Archived threads vanished. Discord archives a thread by itself after its auto-archive time
  without a new message (a day by default), so every game played in a thread ends up in an
  archived one, still readable by everyone who can read its parent. discord.py drops archived
  threads from its cache (``parse_thread_update``), and the check took a channel missing from
  the cache as one the member may not see: the game disappeared from /history and /games and
  /replay refused it, even for the players who played it.

A private channel's games stay private as before (test_stats_private_channels.py,
test_games_list_private.py), and a game whose thread was deleted stays invisible."""

from __future__ import annotations

import discord
import pytest
from simcord.backend.access import channel_accessible
from simcord.builders import ChannelHandle
from simcord.enums import ChannelType

from tests.discord.driver import message_text
from tests.discord.test_stats import finished_game
from tests.discord.test_threads_archived import thread_game

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def _private_thread(env):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    eve = guild.add_member(env.create_user("eve"))  # reads #general, not in the thread
    made = env.backend.create_thread(
        general.id, "ann and bea", ann.id, type=ChannelType.PRIVATE_THREAD
    )
    env.backend.add_thread_member(made.id, bea.id)
    return guild, general, ChannelHandle(env, guild, made), ann, bea, eve


async def _archive(env, thread_id: int) -> None:
    """A day without messages: Discord archives the thread (discord.py forgets it)."""
    env.backend.edit_channel(thread_id, {}, thread_metadata={"archived": True})
    await env.settle()
    assert env.bot.get_channel(thread_id) is None


def _channel_fetches(env, channel_id: int, since: int = 0) -> int:
    return sum(
        1
        for r in env.http_requests[since:]
        if r.method == "GET" and r.path.rstrip("/").endswith(f"/channels/{channel_id}")
    )


# -- private threads -------------------------------------------------------------------------


async def test_games_does_not_list_a_private_threads_game_to_outsiders(simcord_env) -> None:
    """ann and bea play in a private thread eve was never added to; /games in #general showed
    eve "#1 Haymaker in <#thread> — 2 players, in progress" with a link to its table."""
    env = simcord_env
    _guild, general, thread, ann, bea, eve = _private_thread(env)
    await ann.slash(thread, "newgame haymaker", turn_timer=0)
    await bea.click(thread.last_message, label="Join")
    await ann.click(thread.last_message, label="Start")
    row = await env.bot.store.open_game_in_channel(thread.id)
    assert row is not None and row.status == "active"
    assert env.backend.channels[thread.id].type == ChannelType.PRIVATE_THREAD
    # eve really cannot see the thread (simcord refuses her any look at it).
    assert not channel_accessible(env.backend, thread.id, eve.id)

    seen_by_ann = await ann.slash(general, "games")
    assert f"#{row.id} " in message_text(seen_by_ann.response)  # its players see it
    seen_by_eve = await eve.slash(general, "games")
    text = message_text(seen_by_eve.response)
    assert f"#{row.id} " not in text and str(thread.id) not in text, text


async def test_history_and_replay_keep_a_private_threads_game_from_outsiders(simcord_env) -> None:
    """/history listed the private thread's game (its players, the result, a link) to eve,
    and /replay let her step through every card played in it."""
    env = simcord_env
    guild, general, thread, ann, bea, eve = _private_thread(env)
    await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    (row,) = await env.bot.store.history(guild.id)

    mine = await ann.slash(general, "history")
    assert f"#{row.id} " in message_text(mine.response)  # its players see it

    listed = await eve.slash(general, "history")
    text = message_text(listed.response)
    assert f"#{row.id} " not in text, text
    replay = await eve.slash(general, "replay", game=row.id)
    text = message_text(replay.response)
    assert "Replay of game" not in text, text


async def test_a_member_who_left_a_private_thread_no_longer_sees_its_games(simcord_env) -> None:
    """Membership is asked of Discord, not taken once: bea, removed from the thread, is an
    outsider like eve."""
    env = simcord_env
    guild, general, thread, ann, bea, _eve = _private_thread(env)
    await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    (row,) = await env.bot.store.history(guild.id)
    assert f"#{row.id} " in message_text((await bea.slash(general, "history")).response)

    env.backend.remove_thread_member(thread.id, bea.id)
    await env.settle()
    text = message_text((await bea.slash(general, "history")).response)
    assert f"#{row.id} " not in text, text


async def test_manage_threads_sees_a_private_threads_game(simcord_env) -> None:
    """Discord shows every private thread to those with Manage Threads: so does /history."""
    env = simcord_env
    guild, general, thread, ann, bea, _eve = _private_thread(env)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_threads=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    (row,) = await env.bot.store.history(guild.id)
    text = message_text((await mod.slash(general, "history")).response)
    assert f"#{row.id} " in text, text


async def test_an_archived_private_threads_game_stays_with_its_members(simcord_env) -> None:
    """Both rules at once: fetched because archived, then its membership asked."""
    env = simcord_env
    guild, general, thread, ann, bea, eve = _private_thread(env)
    await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    (row,) = await env.bot.store.history(guild.id)
    await _archive(env, thread.id)

    text = message_text((await bea.slash(general, "history")).response)
    assert f"#{row.id} " in text, text
    replay = await bea.slash(general, "replay", game=row.id)
    assert "Replay of game" in message_text(replay.response)

    text = message_text((await eve.slash(general, "history")).response)
    assert f"#{row.id} " not in text, text
    replay = await eve.slash(general, "replay", game=row.id)
    assert "There's no such game on this server." in message_text(replay.response)


# -- archived threads ------------------------------------------------------------------------


async def _archived_thread_game(env):
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    made = env.backend.create_thread(general.id, "haymaker night", ann.id)
    thread = ChannelHandle(env, guild, made)
    await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    (row,) = await env.bot.store.history(guild.id)
    before = await ann.slash(general, "history")
    assert f"#{row.id} " in message_text(before.response)  # listed while the thread is active
    await _archive(env, thread.id)
    return general, thread, ann, bea, row


async def test_history_still_lists_a_game_whose_public_thread_was_archived(simcord_env) -> None:
    """ann's own game was gone from /history: "No game has finished on this server yet."."""
    general, _thread, ann, _bea, row = await _archived_thread_game(simcord_env)
    listed = await ann.slash(general, "history")
    text = message_text(listed.response)
    assert f"#{row.id} " in text, f"ann's own game is gone from /history: {text!r}"


async def test_replay_works_for_a_game_whose_public_thread_was_archived(simcord_env) -> None:
    """/replay told bea, who played the game: "There's no such game on this server."."""
    general, _thread, _ann, bea, row = await _archived_thread_game(simcord_env)
    replay = await bea.slash(general, "replay", game=row.id)
    text = message_text(replay.response)
    assert "Replay of game" in text, text


async def test_games_still_lists_an_open_game_whose_public_thread_was_archived(
    simcord_env,
) -> None:
    """A game waits in a thread that Discord archived (its players went quiet for the
    thread's auto-archive time). /games is where they would look for it; it was gone from
    the list for everyone, its own players included."""
    env = simcord_env
    table = await thread_game(env, "haymaker")
    thread = table.channel
    ann = next(iter(table.members.values()))
    general = ChannelHandle(env, thread.guild, env.backend.channels[thread._channel.parent_id])
    row = await env.bot.store.open_game_in_channel(thread.id)
    assert row is not None and row.status == "active"
    before = await ann.slash(general, "games")
    assert f"#{row.id} " in message_text(before.response)
    await _archive(env, thread.id)
    listed = await ann.slash(general, "games")
    text = message_text(listed.response)
    assert f"#{row.id} " in text, f"ann's running game is gone from /games: {text!r}"


async def test_many_games_in_one_archived_thread_cost_one_fetch(simcord_env) -> None:
    """The thread is fetched once per command, however many of its games are listed, and
    fetched again by the next command (nothing is kept between commands)."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    thread = env.backend.create_thread(general.id, "haymaker night", ann.id)
    for _ in range(12):
        await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    await _archive(env, thread.id)

    for _ in range(2):
        since = len(env.http_requests)
        text = message_text((await ann.slash(general, "history")).response)
        assert text.count("`/replay game:") == 10, text
        assert _channel_fetches(env, thread.id, since) == 1


async def test_a_game_whose_thread_was_deleted_stays_invisible(simcord_env) -> None:
    """What was private stays private: a thread Discord no longer has shows nothing in the
    server's /history, nor to a member who did not play. Its own players may still replay
    it: its log holds nothing they did not see (test_replay_channel_gone.py)."""
    env = simcord_env
    general, thread, ann, _bea, row = await _archived_thread_game(env)
    env.backend.delete_channel(thread.id)
    await env.settle()
    text = message_text((await ann.slash(general, "history")).response)
    assert text == "No finished game on this server that you can see yet.", text
    stranger = general.guild.add_member(env.create_user("zed"))
    replay = await stranger.slash(general, "replay", game=row.id)
    assert "There's no such game on this server." in message_text(replay.response)
    replay = await ann.slash(general, "replay", game=row.id)
    assert "Replay of game" in message_text(replay.response)


async def test_one_command_spends_few_rest_calls_on_channels_it_must_look_up(
    simcord_env,
) -> None:
    """Games in many channels discord.py does not know (deleted ones here) are looked up by
    REST at most ``LOOKUPS`` times per command (Discord's calls are not spent without end on
    one command); those left unchecked are said to be, and channels found deleted are not
    looked up again."""
    from cogs.visibility import LOOKUPS

    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    gone = [900 + i for i in range(LOOKUPS + 5)]
    for channel_id in gone:
        await finished_game(env.bot, guild.id, channel_id, ann.id, bea.id)
    since = len(env.http_requests)
    text = message_text((await ann.slash(general, "history")).response)
    # Five channels left unchecked: said, not passed off as games ann may not see.
    assert "couldn't check just now" in text, text
    assert sum(_channel_fetches(env, c, since) for c in gone) == LOOKUPS
    # Channels found deleted are remembered: the next /history looks up only the others
    # (a minute later: a member's lookups are limited across commands too).
    await env.advance_time(60)
    since = len(env.http_requests)
    text = message_text((await ann.slash(general, "history")).response)
    assert text == "No finished game on this server that you can see yet.", text
    assert sum(_channel_fetches(env, c, since) for c in gone) == 5
