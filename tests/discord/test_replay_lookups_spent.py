"""/replay once a member's lookups are spent (/history just before). Before, it said "There's
no such game on this server." about a game /history had just listed; now it says the channel
could not be checked just now."""

from __future__ import annotations

import pytest

from tests.discord.archived_games import games_in_archived_threads
from tests.discord.driver import message_text, server_with_eve

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
    guild, general, ann, bea, eve = server_with_eve(env)
    games, _ = await games_in_archived_threads(env, guild, general, ann, bea)
    for _ in range(2):
        text = message_text((await eve.slash(general, "history")).response)
        assert f"#{games[0]} " in text, text
    answer = await eve.slash(general, "replay", game=games[0])
    text = message_text(answer.response)
    assert "no such game" not in text, f"/replay of a game /history just listed: {text!r}"
