"""Item Collection on Discord: the negotiation (a 2-minute talk) and turn reminders."""

from __future__ import annotations

from tests.discord.driver import Table


async def test_nobody_is_pinged_your_turn_twenty_seconds_into_the_talk(simcord_env) -> None:
    """The negotiation is a 2-minute talk with its own clock ("nobody gets a strike for
    talking"); yet 20 seconds in, the bot posts "@ann, @bea, @cy, @dee, your turn in Item
    Collection Game #1" to every player who has not pressed Ready, while they are talking."""
    table = await Table.start(simcord_env, "itemcollection", 4, seed=2)
    game = await table.game()
    assert game.view()["phase"] == "negotiation"
    before = len(table.public_messages())
    await table.env.advance_time(30)
    assert (await table.game()).view()["phase"] == "negotiation"
    posted = [m.content for m in table.public_messages()[before:]]
    assert not any("your turn" in text for text in posted), posted
