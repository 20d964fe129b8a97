"""/newgame's custom_rules as a member types it, following what /rules says."""

from __future__ import annotations

import pytest

from cogs.rules import rules_screen

# What a command answers: the same on either database, so run on one.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.mark.parametrize("typed", ['""', "random", " Random "])
async def test_random_custom_rules_can_be_typed(simcord_env, typed: str) -> None:
    """Before, /rules said of custom_rules '"" picks distinct ones at random', and a host who
    typed exactly that (Discord sends no empty option) was refused: "must be rule numbers
    like "1,4,7", not '""'". Now the page says to leave it out or type random, and two
    quotes or "random" open the lobby with rules drawn at random."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    page = "\n".join((rules_screen("uno", i).embed.description or "") for i in range(17))
    assert "leave it out (or type random) for distinct ones at random" in page
    opened = await ann.slash(
        channel, "newgame uno", turn_timer=0, custom_wilds=2, custom_rules=typed
    )
    text = opened.response.content if opened.response is not None else ""
    assert not opened.ephemeral, f"refused: {text}"
    row = await env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.options["custom_wilds"] == 2
