"""/rules shows each game's rules page, privately, split over several messages if long."""

from __future__ import annotations

import pytest

from tests.discord.driver import message_text

PAGES = {
    "ihaveit": ("I Have It", ("The restricted lead",)),
    "warofsuits": ("A War of Suits", ("Head to head",)),
    "itemcollection": ("Item Collection Game", ("small straight",)),
    "haymaker": ("Haymaker", ("Technical knockout",)),
}


@pytest.mark.parametrize("kind", sorted(PAGES))
async def test_rules_page(simcord_env, kind: str) -> None:
    title, phrases = PAGES[kind]
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("rules")
    ann = guild.add_member(simcord_env.create_user("ann"))
    result = await ann.slash(channel, "rules", game=kind)
    assert result.ephemeral
    assert result.response.embeds[0].title == title
    pages = [result.response, *result.followups]
    text = "\n".join(message_text(page.message) for page in pages)
    for phrase in (*phrases, "Playing on Discord"):
        assert phrase in text
