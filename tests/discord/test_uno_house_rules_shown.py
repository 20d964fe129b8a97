"""UNO house-rule options as players read them on Discord (table, DM prompt).

Each docstring tells what players saw before the fix; the assertions are what they see now."""

from __future__ import annotations

import pytest

from tests.discord.driver import Table, message_text

# What players read: the same on either database, so drawn on one.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_forced_play_prompt_does_not_offer_to_keep_the_drawn_card(simcord_env) -> None:
    """With `forced_play` on, ann draws a playable card. The rules (docs/rules/uno.md, house
    rules) say it must be played, and indeed the only move left is to play it: no
    "Keep it (pass)" button. Yet her DM says "**Your turn:** play the drawn card or keep it."
    and the public table says "ann to play the drawn card or keep it." — an untrue offer
    (she looks for a Keep button that is not there). The prompt should say she must play
    it ("ann to play the drawn card (forced play)")."""
    table = await Table.start(simcord_env, "uno", 2, seed=3, forced_play=True)
    ann, _bea = (await table.game()).players
    # ann to play on a Red 5 with no red card; the top of the draw pile is a Red 9.
    await table.set_state(
        h=["G1 G2 B3", "Y4 Y5 Y6"], d="Y7 Y8 R9", x="R5", c="R", t=0, ph="play", dr=""
    )
    await table.act(ann, "draw", via="table")
    game = await table.game()
    assert game.view(None)["phase"] == "drawn"
    legal = [a.id for a in game.legal_actions(ann)]
    assert "pass" not in legal and legal == ["play:R9"]  # the rule itself holds
    await simcord_env.bot.presenter.idle()
    dm = message_text(table.dm_message(ann))
    public = message_text(table.table_message())
    assert "keep it" not in dm.lower(), f"the DM offers to keep a card that must be played:\n{dm}"
    assert "keep it" not in public.lower(), (
        f"the table offers to keep a card that must be played:\n{public}"
    )


async def test_table_says_which_house_rules_are_on(simcord_env) -> None:
    """A game opened with every house rule and the Wild Swap Hands card. The table (the message
    everyone plays from, reposted when it grows old, and what /replay shows) lists the
    target, the scoring and each custom card's rule, but nothing says that draws stack, that
    7s and 0s swap hands, that anyone may jump in, that a draw goes on until a playable card,
    that a drawn card must be played, or that the deck holds a Wild Swap Hands. Players who
    missed the lobby only learn it when it surprises them. The table should list the house
    rules in play (e.g. "House rules: Stack draws · Seven-zero · Jump-in · ...")."""
    table = await Table.start(
        simcord_env,
        "uno",
        2,
        seed=3,
        stack_draws=True,
        seven_zero=True,
        jump_in=True,
        draw_until_playable=True,
        forced_play=True,
        swap_hands=True,
    )
    await simcord_env.bot.presenter.idle()
    text = message_text(table.table_message()).lower()
    wanted = {
        "stack_draws": ("stack",),
        "seven_zero": ("seven", "7-0", "7/0"),
        "jump_in": ("jump",),
        "draw_until_playable": ("until playable", "draw until"),
        "forced_play": ("forced",),
        "swap_hands": ("swap hands",),
    }
    missing = [name for name, words in wanted.items() if not any(w in text for w in words)]
    assert not missing, f"the table never mentions {missing}:\n{text}"
