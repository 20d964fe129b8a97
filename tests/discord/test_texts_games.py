"""Texts: what the table and the end of a game say, game by game."""

from __future__ import annotations

import pytest

from tests.discord.driver import Table, message_text

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_warofsuits_says_remaining_1_cards(simcord_env) -> None:
    """Red has run out of cards while Black still holds one Ace; Black accepts the loss of
    the last battle and the table's Recent log reads "Black (bea) adds its remaining 1 cards
    to its victory pile." It should say "its remaining card" (or "1 card")."""
    table = await Table.start(simcord_env, "warofsuits", 2, seed=1)
    _red, black = (await table.game()).players
    piles = [
        "QD 2S 3D AC 6H 4C KH 9C 4H 2C 10H 3S 7D 6C JD 8S KD 7S JH 4S 9D 9H KS 8D 3C".split(),
        "2H 10S AD QC 2D JC 5D QS AH 5S 4D 5C 7H 8C 3H 10C 8H KC 5H 6S 6D 9S 10D JS".split(),
    ]
    await table.set_state(
        decks=[[], []],
        hands=[[], ["AS"]],
        field=[["QH"], ["7C"]],
        piles=piles,
        pending=[None, None],
        doubled=[False, False],
        turn=1,
        ace=None,
        phase="react",
        battle=25,
        last={"winner": 1, "field": [["10D"], ["JS"]]},
    )
    await table.act(black, "accept", via="picker")
    game = await table.game()
    assert game.finished
    await simcord_env.settle()
    shown = "\n".join(message_text(m) for m in table.channel.history())
    assert "adds its remaining" in shown, shown
    assert "remaining 1 cards" not in shown, shown


async def test_uno_discard_button_says_card_s(simcord_env) -> None:
    """Custom rule 5 leaves bea one card over 7: her move picker offers a button reading
    "Discard 1 card(s)" (and then a menu with that placeholder). It should read
    "Discard 1 card"."""
    from cogs import ids
    from tests.discord.driver import controls, target_of

    table = await Table.start(simcord_env, "uno", 2, seed=1, custom_wilds=1, custom_rules="5")
    ann, bea = (await table.game()).players
    await table.set_state(h=["WC5 R3 R4", "G1 G2 G3 G4 G5 G6 G7 G8"], x="R7", c="R", t=0, ph="play")
    game = await table.game()
    play = next(a.id for a in game.legal_actions(ann) if a.id.startswith("play:WC5"))
    await table.act(ann, play, via="picker")
    game = await table.game()
    assert any(a.id == "discard" for a in game.legal_actions(bea)), game.legal_actions(bea)
    member = table.members[bea]
    table_msg = table.table_message()
    root = next(c for c in controls(table_msg) if target_of(c.custom_id) == ids.ROOT)
    picker = await member.click(table_msg, custom_id=root.custom_id)
    labels = [c.label for c in controls(picker.response)]
    discard = [label for label in labels if label.startswith("Discard")]
    assert discard, labels
    assert discard[0] == "Discard 1 card", discard[0]
