"""Haymaker on Discord: the turn prompt names only moves the attacker might have."""

from __future__ import annotations

import engine.games.haymaker
from tests.discord.driver import Table, controls, message_text, open_picker


async def test_haymaker_prompt_offers_no_haymaker_to_a_one_card_attacker(simcord_env) -> None:
    """Before, ann attacking with a single card in hand (the table shows "1 card in hand") was
    told on the table and in her DM "attack bea with a card or a haymaker", though a haymaker
    needs two or more cards of one suit and her picker rightly offered no Haymaker button.
    Now the prompt leaves "or a haymaker" out when the attacker holds fewer than two cards
    (hand sizes are public, so the wording reveals nothing)."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    ann, bea = (await table.game()).players
    ann_hand, bea_hand = ["7H"], ["2C", "9S", "5D"]
    rest = [c for c in engine.games.haymaker.full_deck() if c not in ann_hand + bea_hand]
    await table.set_state(
        attacker=ann,
        phase="attack",
        hands={ann: ann_hand, bea: bea_hand},
        deck=rest[:4],
        burned=rest[4:8],
        discards={ann: rest[8:20], bea: rest[20:]},
        attack=[],
        haymaker=False,
        attacked_last=bea,
    )
    menu = await open_picker(table, ann)
    assert [c.label for c in controls(menu)] == ["Attack with 7♥", "Leave game"]  # no Haymaker
    picker = message_text(menu)
    table_text = message_text(table.table_message())
    assert "1 card in hand" in table_text
    assert "or a haymaker" not in table_text, table_text
    assert "or a haymaker" not in picker, picker
    assert (await table.game()).view()["prompt"] == f"{ann} to attack {bea} with a card."
