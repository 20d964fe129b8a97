"""I Have It positions for the Discord tests: three players, bea to answer ann's card."""

from __future__ import annotations

from engine.cards import standard_deck
from tests.discord.driver import Table

BEA = ["7C", "8D", "9H", "10S", "JC"]
CY = ["2D", "3H", "4S", "5C", "6D"]


async def bea_to_answer(
    table: Table, ann_hand: list[str], led: str, on_top: tuple[str, ...] = ()
) -> tuple[str, str, str]:
    """ann led ``led`` and holds ``ann_hand``; bea (``BEA``) is to answer, cy holds ``CY``;
    the pile starts with ``on_top``. The players, in seat order."""
    ann, bea, cy = (await table.game()).players
    hands = {ann: ann_hand, bea: BEA, cy: CY}
    used = {c for h in hands.values() for c in h} | {led, *on_top}
    await table.set_state(
        hands=hands,
        pile=[*on_top, *(c for c in standard_deck() if c not in used)],
        discard=[],
        in_play={"player": ann, "cards": [led]},
        current=bea,
        phase="answer",
        limit=None,
        taken_by=None,
        out=[],
        moves=5,
    )
    return ann, bea, cy
