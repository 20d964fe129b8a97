"""/replay's reserve of lookups and games the member can read. Before, every /replay of a
game not the member's own took two lookups from their minute, even a game in a public channel
needing no Discord call: ten replays emptied the allowance for /history and archived threads.
Now only a /replay that may be refused reserves, and what a shown game did not use goes back."""

from __future__ import annotations

import pytest

from cogs.visibility import MEMBER_LOOKUPS, member_lookups
from tests.discord.driver import message_text
from tests.discord.test_stats import finished_game
from tests.discord.test_visibility_threads import _archived_thread_game

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_replaying_a_public_game_does_not_spend_lookups_an_archived_one_needs(
    simcord_env,
) -> None:
    env = simcord_env
    general, _thread, ann, bea, row = await _archived_thread_game(env)
    guild = general.guild
    eve = guild.add_member(env.create_user("eve"))  # reads #general and its public thread
    public = await finished_game(env.bot, guild.id, general.id, ann.id, bea.id)
    for _ in range(MEMBER_LOOKUPS - 2):
        member_lookups(env.bot).take(eve.id)  # earlier /history: 2 lookups left
    first = await eve.slash(general, "replay", game=public)  # no lookup needed
    assert f"Replay of game #{public}" in message_text(first.response)
    second = await eve.slash(general, "replay", game=row.id)  # one fetch needed
    assert f"Replay of game #{row.id}" in message_text(second.response), message_text(
        second.response
    )


async def test_history_after_replaying_public_games_still_checks_archived_threads(
    simcord_env,
) -> None:
    env = simcord_env
    general, thread, ann, bea, _row = await _archived_thread_game(env)
    guild = general.guild
    eve = guild.add_member(env.create_user("eve"))
    publics = [
        await finished_game(env.bot, guild.id, general.id, ann.id, bea.id) for _ in range(10)
    ]
    for game in publics:  # eve steps through the last ten games of #general
        shown = await eve.slash(general, "replay", game=game)
        assert f"Replay of game #{game}" in message_text(shown.response)
    newest = await finished_game(env.bot, guild.id, thread.id, ann.id, bea.id)
    listed = message_text((await eve.slash(general, "history")).response)
    assert f"#{newest} " in listed, listed  # the archived public thread's game, eve reads it
