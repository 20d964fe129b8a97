"""/replay and the minute's lookup budget, probed by an outsider. Before, a game in an
archived thread of a channel hidden from eve cost her a lookup per /replay ("There's no such
game on this server."), while an id no game has cost nothing and got the same words: after
enough tries the answers differed, telling whether game N was there. Now every refused
/replay costs what the most costly one does, and none stops half-way for want of lookups."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.visibility import MEMBER_LOOKUPS
from tests.discord.archived_games import games_in_archived_threads
from tests.discord.driver import message_text, server_with_eve

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_probing_replay_does_not_tell_whether_a_hidden_game_exists(simcord_env: Any) -> None:
    env = simcord_env
    guild, general, ann, bea, eve = server_with_eve(env)
    cy = guild.add_member(env.create_user("cy"))
    staff = guild.create_text_channel(
        "staff",
        overwrites={
            guild.roles["@everyone"]: discord.PermissionOverwrite(view_channel=False),
            ann: discord.PermissionOverwrite(view_channel=True),
            bea: discord.PermissionOverwrite(view_channel=True),
        },
    )
    games, _ = await games_in_archived_threads(env, guild, staff, ann, bea, count=1)
    hidden, missing = games[0], games[0] + 50

    async def probe(member: Any, game: int) -> list[str]:
        answers = []
        for _ in range(MEMBER_LOOKUPS):
            answer = await member.slash(general, "replay", game=game)
            answers.append(message_text(answer.response))
        answer = await member.slash(general, "replay", game=missing)
        return [*answers, message_text(answer.response)]

    after_hidden = await probe(eve, hidden)  # game N exists, hidden from eve
    after_missing = await probe(cy, missing)  # no such game
    assert "There's no such game" in after_hidden[0], after_hidden[0]
    assert after_hidden == after_missing, (
        f"probing a hidden game: {after_hidden!r}; probing a missing one: "
        f"{after_missing!r}: the answers tell whether the hidden game exists"
    )
