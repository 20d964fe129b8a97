"""/replay and a member's other command taking a lookup at the same moment. Before, /replay
checked there was room for two lookups but reserved none: another command could take the
second while /replay awaited its first fetch, and the decision stopped half-way with "I
couldn't check" for a game that exists only. Now /replay reserves both up front."""

from __future__ import annotations

import pytest

from cogs.visibility import MEMBER_LOOKUPS, MemberLookups, member_lookups
from tests.discord.driver import message_text
from tests.discord.test_stats import finished_game
from tests.discord.test_visibility_threads import _archive, _private_thread

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_replay_answers_alike_when_a_concurrent_command_spends_a_lookup(
    simcord_env, monkeypatch
) -> None:
    env = simcord_env
    guild, general, thread, ann, bea, eve = _private_thread(env)
    game = await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    await _archive(env, thread.id)
    original = env.bot.fetch_channel

    async def fetch_while_eve_runs_history(channel_id):
        found = await original(channel_id)
        member_lookups(env.bot).take(eve.id)  # eve's /history, meanwhile, spends one
        return found

    monkeypatch.setattr(env.bot, "fetch_channel", fetch_while_eve_runs_history)

    answers = []
    for asked in (game, game + 50):
        env.bot.member_lookups = MemberLookups()
        for _ in range(MEMBER_LOOKUPS - 2):
            member_lookups(env.bot).take(eve.id)  # 2 left: /replay may look (2 needed)
        answers.append(message_text((await eve.slash(general, "replay", game=asked)).response))
    hidden, missing = answers
    assert hidden == missing, (
        f"a hidden game answers {hidden!r}, a missing one {missing!r}: eve learns it exists"
    )
