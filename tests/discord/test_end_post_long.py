"""The end post at its longest: ten players with the longest names Discord allows, a leaver
whose bot won (the forfeit line names the other nine), and every rating change."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import set_uno
from tests.discord.test_names_on_buttons import start_named
from tests.discord.test_seat_change_endings import leave

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_the_longest_end_post_keeps_every_line_and_player(simcord_env: Any) -> None:
    """Before: the post was cut at 2,000 characters wherever that fell: the ratings line lost
    its last players (and could end in half a name). Now names are shortened in their middle
    until the whole post fits: every line is there, every player named in each, told apart."""
    names = [f"{'*_' * 15}{i:02d}" for i in range(10)]  # 32 characters, escaped to 62
    table = await start_named(simcord_env, "uno", names, target=1)
    players = list(table.members)
    await leave(table, players[1])
    hands = [["G1", "Y5"] for _ in players]
    hands[1] = ["R4"]
    hands[0] = ["R5", "G1", "Y5"]
    await set_uno(table, hands, "R1")
    await table.act(players[0], "play:R5", via="dm")  # then the bot in bea's seat goes out
    await simcord_env.advance_time(30)
    await simcord_env.bot.presenter.idle()
    assert (await table.game()).finished
    end = next(m.content for m in table.public_messages() if "Final scores" in (m.content or ""))
    assert len(end) <= 2000
    lines = end.splitlines()
    assert [line.split(" ", 1)[0] for line in lines[1:]] == ["Final", "🏳️", "Ratings:"]
    scores, forfeit, ratings = lines[1:]
    assert scores.count(" · ") == 9 and ratings.count(" → ") == 10
    assert forfeit.count(" and ") == 8 and forfeit.endswith("a player left the game.")
    for i in range(10):
        assert f"{i:02d}" in scores and f"{i:02d}" in ratings, i
        assert i == 1 or f"{i:02d}" in forfeit, i
