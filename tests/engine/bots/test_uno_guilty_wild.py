"""UNO bots never bluff a Wild Draw Four to avoid an unfair swap.

Positions: chosen hands and top card, the rest of the real deck as the draw pile
(``uno_table``), so a bot's count of unseen cards is exact.
"""

from __future__ import annotations

import random

import pytest

from engine import Game
from engine.bots import choose
from tests.engine.test_bots_sight_moves import NAMES, uno_table

ANN = NAMES[0]


def decide(game: Game, player: str, level: str, seed: int) -> str:
    return choose("uno", level, game.view(player), game.legal_actions(player), random.Random(seed))


# ann holds the colour in play only as a seven-zero 0 / 7 that would hand her a big hand, plus a
# Wild Draw Four. Drawing (the bot's own rule for an unfair swap) or the swap are honest moves;
# the Wild Draw Four is a bluff that a challenge punishes with four cards.
POSITIONS = {
    # 3 players: the blue 0 passes every hand on, and cat's 10 cards come to ann.
    "zero_passes_a_big_hand": (
        [
            ["B0", "R4", "G3", "W4"],
            ["Y1", "Y2", "Y3", "Y4", "Y6"],
            ["R1", "R2", "R3", "G1", "G2", "G4", "G5", "G6", "Y7", "Y8"],
        ],
        "B5",
    ),
    # 2 players: the blue 7 must swap with bob's 8 cards.
    "seven_swaps_for_a_big_hand": (
        [["B7", "R4", "G3", "W4"], ["Y1", "Y2", "Y3", "Y4", "Y6", "R1", "R2", "R3"]],
        "B5",
    ),
}


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize("name", list(POSITIONS))
def test_never_plays_a_guilty_wild_draw_four_to_avoid_an_unfair_swap(name: str, level: str) -> None:
    """Blue in play; the bot's only blue card is a 0 or 7 that would hand it a big hand.
    Before, it bluffed a Wild Draw Four (a challenge then shows its blue and it draws four):
    a guilty Wild Draw Four counted as a "fair" play, swapping nothing. Now it draws, as
    its own rules say (never a Wild Draw Four while holding the colour in play)."""
    hands, top = POSITIONS[name]
    game = uno_table(hands, top, {"seven_zero": True})
    view = game.view(ANN)
    assert any(c[0] == view["color"] for c in view["hand"] if c != "W4")  # ann holds blue
    for seed in range(3):
        picked = decide(game, ANN, level, seed)
        assert ":W4" not in picked, (
            f"{level} bluffs {picked} holding {view['hand']} with "
            f"{view['color']} in play (seed {seed})"
        )
