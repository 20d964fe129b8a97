"""/history decides which games a member may see with at most ``LOOKUPS`` REST calls per
command (``cogs/visibility.py``). Before, ten, spent again on every deleted channel, and a
channel left undecided counted as invisible, silently. Now deleted channels are remembered
(heard of, or found missing), twenty may be spent, and games left unchecked are said to be."""

from __future__ import annotations

import pytest
from simcord.builders import ChannelHandle
from simcord.enums import ChannelType

from tests.discord.driver import message_text
from tests.discord.test_stats import finished_game
from tests.discord.test_visibility_threads import _archive

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_deleted_channels_games_hide_a_members_own_game_from_history(simcord_env) -> None:
    """ann and bea played a game in a public thread, which Discord has since archived (it
    is still there, and they read it). Later the server played ten games in rooms it
    deleted afterwards. Before, ann's /history answered "No finished game on this server
    that you can see yet.": each deleted room cost one of the command's ten REST look-ups,
    and the archived thread, left undecided, was counted as one she may not see. Now the
    bot remembers the deleted rooms (it hears of them), and her own game is listed."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    made = env.backend.create_thread(general.id, "haymaker night", ann.id)
    thread = ChannelHandle(env, guild, made)
    own = await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    await _archive(env, thread.id)
    for i in range(10):  # newer games, in rooms deleted since
        room = guild.create_text_channel(f"room-{i}")
        await finished_game(env.bot, guild.id, room.id, ann.id, bea.id)
        env.backend.delete_channel(room.id)
    await env.settle()
    text = message_text((await ann.slash(general, "history")).response)
    assert f"#{own} " in text, f"ann's own game, in a thread she reads, is not listed: {text!r}"


async def test_history_lists_every_game_of_archived_private_threads(simcord_env) -> None:
    """A server plays each game in its own private thread (ann and bea are its members);
    Discord archives each a day later. ann asks /history: six finished games, all in
    threads she belongs to. Each archived private thread costs two of the command's ten
    REST look-ups (the thread, then her membership): before, only five were listed and the
    sixth silently left out, as if it were not hers to see. Now all six are."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    games = []
    for i in range(6):
        made = env.backend.create_thread(
            general.id, f"game {i}", ann.id, type=ChannelType.PRIVATE_THREAD
        )
        env.backend.add_thread_member(made.id, bea.id)
        games.append(await finished_game(env.bot, guild.id, made.id, ann.id, bea.id))
        await _archive(env, made.id)
    text = message_text((await ann.slash(general, "history")).response)
    missing = [g for g in games if f"#{g} " not in text]
    assert not missing, f"ann's games {missing} are left out of /history: {text!r}"
