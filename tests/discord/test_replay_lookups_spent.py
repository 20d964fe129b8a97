"""/replay once a member's lookups are spent (/history just before). Before, it said "There's
no such game on this server." about a game /history had just listed; now it says the channel
could not be checked just now."""

from __future__ import annotations

import pytest

from tests.discord.driver import message_text
from tests.discord.test_stats import finished_game
from tests.discord.test_visibility_threads import _archive

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_replay_listed_by_history_is_said_not_to_exist_once_lookups_are_spent(
    simcord_env,
) -> None:
    """ann and bea played ten games in public threads Discord has since archived. eve (a
    member who reads them all) runs /history twice, then the `/replay game:N` /history
    itself suggests. Her minute's lookups are spent by /history, so /replay answers
    "There's no such game on this server." of a game it just listed: untrue (it should
    say it could not check just now, or not count toward the budget)."""
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    eve = guild.add_member(env.create_user("eve"))
    games = []
    for i in range(10):
        made = env.backend.create_thread(general.id, f"game {i}", ann.id)
        games.append(await finished_game(env.bot, guild.id, made.id, ann.id, bea.id))
        await _archive(env, made.id)
    for _ in range(2):
        text = message_text((await eve.slash(general, "history")).response)
        assert f"#{games[0]} " in text, text
    answer = await eve.slash(general, "replay", game=games[0])
    text = message_text(answer.response)
    assert "no such game" not in text, f"/replay of a game /history just listed: {text!r}"
