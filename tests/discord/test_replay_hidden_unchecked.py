"""/replay once a member's lookups are spent, for a game in a channel hidden from them.
Before, "I couldn't check that game's channel just now" answered only for games that exist,
telling an outsider a hidden game was there; now, lookups spent (or the server known by its id
alone), every /replay of a game not theirs gets those words, whether or not it exists."""

from __future__ import annotations

import discord
import pytest

from tests.discord.archived_games import games_in_archived_threads
from tests.discord.driver import message_text, server_with_eve

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_replay_does_not_tell_an_outsider_a_hidden_game_exists(simcord_env) -> None:
    """ann and bea played ten games in threads of #staff (eve cannot see #staff), since
    archived. eve runs /history twice (her minute's lookups are spent on those threads),
    then /replay of one of those games and of an id no game has. Before: the hidden game
    answered "I couldn't check that game's channel just now." and the missing one "There's
    no such game on this server.": eve learns that game N exists in a channel hidden from
    her, which the code's own comment promises never to tell ("not even whether there was
    one")."""
    env = simcord_env
    guild, general, ann, bea, eve = server_with_eve(env)
    staff = guild.create_text_channel(
        "staff",
        overwrites={
            guild.roles["@everyone"]: discord.PermissionOverwrite(view_channel=False),
            ann: discord.PermissionOverwrite(view_channel=True),
            bea: discord.PermissionOverwrite(view_channel=True),
        },
    )
    games, _ = await games_in_archived_threads(env, guild, staff, ann, bea)
    for _ in range(2):
        text = message_text((await eve.slash(general, "history")).response)
        assert f"#{games[0]} " not in text, text
    hidden = message_text((await eve.slash(general, "replay", game=games[0])).response)
    missing = message_text((await eve.slash(general, "replay", game=games[-1] + 50)).response)
    assert hidden == missing, (
        f"a hidden game answers {hidden!r}, a missing one {missing!r}: eve learns it exists"
    )
