"""Haymaker on Discord: what the Pass button promises when the deck is empty."""

from __future__ import annotations

import engine
import engine.games.haymaker
from tests.discord.driver import Table, controls, target_of


async def test_pass_does_not_promise_a_draw_from_an_empty_deck(simcord_env) -> None:
    """The deck is empty and ann, who attacked last turn, may pass. The table's (and DM's)
    button reads "Pass (roles switch, both draw)", yet nobody draws: the rules page says
    "Each player draws a card if the deck has one", and Recent then says "The deck is
    empty: nobody draws."."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    ann, bea = (await table.game()).players
    ann_hand, bea_hand = ["3C", "7C"], ["2H", "9S"]
    rest = [c for c in engine.games.haymaker.full_deck() if c not in ann_hand + bea_hand]
    await table.set_state(
        attacker=ann,
        phase="attack",
        hands={ann: ann_hand, bea: bea_hand},
        deck=[],
        burned=rest[:4],
        discards={ann: rest[4:20], bea: rest[20:]},
        attack=[],
        haymaker=False,
        attacked_last=ann,
    )
    game = await table.game()
    assert game.view()["deck"] == 0 and "pass" in {a.id for a in game.legal_actions(ann)}
    labels = [c.label for c in controls(table.table_message()) if target_of(c.custom_id) == "pass"]
    assert labels, "Pass is a table button"
    await table.act(ann, "pass", via="table")
    recent = "\n".join(
        "\n".join(f.value for f in m.embeds[0].fields) for m in [table.table_message()]
    )
    assert "nobody draws" in recent  # what really happened
    assert "both draw" not in labels[0], labels[0]
