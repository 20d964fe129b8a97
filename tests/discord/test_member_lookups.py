"""One member's commands and the bot's REST calls (Discord's 50 a second per bot, shared by
every server) spent on channel lookups. Before, nothing limited a member across commands: each
/history could spend ``LOOKUPS`` (20) calls on archived threads, and each /replay step a
non-player pressed one more. Now a member may spend ``MEMBER_LOOKUPS`` a minute over all their
commands (the rest said to be unchecked), and a replay's own buttons look nothing up again."""

from __future__ import annotations

import random

import pytest
from simcord.builders import ChannelHandle
from simcord.enums import ChannelType

from tests.discord.driver import message_text
from tests.discord.test_stats import finished_game
from tests.discord.test_threads_archived import thread_game
from tests.discord.test_visibility_threads import _archive

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def _lookups(env, since: int) -> int:
    """GETs of channels (threads) and of thread members since request ``since``."""
    return sum(
        1
        for r in env.http_requests[since:]
        if r.method == "GET" and "/channels/" in r.path and "/messages" not in r.path
    )


async def test_history_spam_spends_twenty_rest_calls_each_time(simcord_env) -> None:
    """A server plays each game in its own private thread (ann and bea its members), which
    Discord archives a day later (25 finished games). One member runs /history five times in
    ten seconds (a script, or an impatient finger). Each run fetches ten archived threads and
    ann's membership of each again (``LOOKUPS`` = 20 calls): 100 REST calls for one
    member in ten seconds, two whole seconds of the bot's global budget, during which every
    other server's table edits and DMs wait. A member's lookups should be limited (say
    ``LOOKUPS`` per member per minute, the rest told "couldn't check just now"), or the
    fetched threads kept for a while."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    for i in range(25):
        made = env.backend.create_thread(
            general.id, f"game {i}", ann.id, type=ChannelType.PRIVATE_THREAD
        )
        env.backend.add_thread_member(made.id, bea.id)
        await finished_game(env.bot, guild.id, made.id, ann.id, bea.id)
        await _archive(env, made.id)
    since = len(env.http_requests)
    for i in range(5):
        answer = await ann.slash(general, "history")
        assert answer.response is not None
        if i == 0:
            assert "Last games" in message_text(answer.response)
        await env.advance_time(2)
    spent = _lookups(env, since)
    assert spent <= 25, f"5 /history by one member in 10 s cost {spent} REST lookups"


async def test_replay_steps_each_fetch_the_archived_thread(simcord_env) -> None:
    """ann and bea finished a game in a thread Discord has since archived. eve (who did not
    play) opens its /replay and presses Last and First back and forth twenty times: every
    press fetches the thread again, one REST call of the bot's global budget per click with
    no cooldown, where the first lookup's answer would do for the whole replay."""
    env = simcord_env
    table = await thread_game(env, "haymaker", seed=3)
    await table.play_random(random.Random(1))
    thread = table.channel
    guild = thread.guild
    row = await env.bot.store.get_game(table.game_id)
    assert row is not None and row.status == "finished"
    general = ChannelHandle(env, guild, env.backend.channels[thread._channel.parent_id])
    eve = guild.add_member(env.create_user("eve"))
    await _archive(env, thread.id)
    answer = await eve.slash(general, "replay", game=row.id)
    message = answer.response
    assert "Replay of game" in message_text(message)
    since = len(env.http_requests)
    for i in range(20):
        result = await eve.click(message, label="Last" if i % 2 == 0 else "First")
        assert "Replay of game" in message_text(result.response or message)
    spent = _lookups(env, since)
    assert spent <= 2, f"20 replay steps by one member cost {spent} REST lookups"
