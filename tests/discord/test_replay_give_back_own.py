"""/replay giving back the lookups it set aside and did not use. Before, it removed the newest
records, which could be another command's taken while /replay awaited its fetch: that lookup's
time was lost and the member got 21 lookups in a minute. Now the very lookups it set aside
go back."""

from __future__ import annotations

import pytest

import cogs.visibility as visibility
from cogs.visibility import MEMBER_LOOKUPS, member_lookups
from tests.discord.driver import message_text
from tests.discord.test_visibility_threads import _archived_thread_game

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


async def test_replay_release_keeps_a_concurrent_commands_lookup_on_record(
    simcord_env, monkeypatch
) -> None:
    env = simcord_env
    general, _thread, _ann, _bea, row = await _archived_thread_game(env)
    eve = general.guild.add_member(env.create_user("eve"))  # reads the archived public thread
    clock = _Clock()
    monkeypatch.setattr(visibility, "time", clock)
    original = env.bot.fetch_channel

    async def fetch_while_eve_runs_history(channel_id):
        found = await original(channel_id)
        clock.now += 2.0  # two seconds on, eve's /history spends one lookup meanwhile
        assert member_lookups(env.bot).take(eve.id) is not None
        return found

    monkeypatch.setattr(env.bot, "fetch_channel", fetch_while_eve_runs_history)
    shown = await eve.slash(general, "replay", game=row.id)  # reserves 2, fetches 1
    assert f"Replay of game #{row.id}" in message_text(shown.response)

    # Lookups really made: /replay's fetch at 1000, /history's at 1002. At 1060 the first is a
    # minute old; /history's is not, so 19 more fit in the minute from 1002 to 1062.
    clock.now = 1060.0
    lookups = member_lookups(env.bot)
    taken = sum(lookups.take(eve.id) is not None for _ in range(MEMBER_LOOKUPS))
    assert taken == MEMBER_LOOKUPS - 1, (
        f"{taken} lookups taken at 1060 besides the one at 1002: "
        f"{taken + 1} within one minute (limit {MEMBER_LOOKUPS})"
    )
