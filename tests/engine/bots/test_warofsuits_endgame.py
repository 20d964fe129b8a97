"""A War of Suits bots at the last battles, when every card left is known.

With both decks empty, every card of the opponent's colour that is not on the battlefield or
in a victory pile is in its hand: the seat knows exactly what it faces. In the positions below
one move wins where the bot's rules of thumb ("send the lowest card, keep the high ones to
double"; "Aces left at the end only score their points: use them") lose or draw. Before,
Normal played by those rules alone here (Hard found the win); it now searches the end of the
game. The same Normal policy also plays a member's timed-out turn.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.bots import choose
from engine.bots.warofsuits import decide, table_of
from engine.games.warofsuits import COLOUR_CARDS, WarOfSuits, points

R, B = "rose", "bert"  # Red sits first, Black second


def endgame(red_hand: list[str], black_hand: list[str]) -> WarOfSuits:
    """Both decks empty; every other card in its own colour's victory pile."""
    data = engine.new_game("warofsuits", [R, B], seed=1).to_dict()
    used = set(red_hand) | set(black_hand)
    piles = [[c for c in COLOUR_CARDS[s] if c not in used] for s in (0, 1)]
    data["state"].update(
        hands=[list(red_hand), list(black_hand)], decks=[[], []], piles=piles, battle=22
    )
    data["scores"] = {R: points(piles[0]), B: points(piles[1])}
    game = engine.load(json.loads(json.dumps(data)))
    assert isinstance(game, WarOfSuits)
    return game


def final_winner(game: WarOfSuits, player: str, card: str) -> list[str]:
    """Play ``card`` for ``player`` and let both sides play on by Normal's rules of thumb
    (without its endgame search) to the end."""
    game = game.copy()
    assert isinstance(game, WarOfSuits)
    game.apply(player, f"choose:{card}")
    while not game.finished:
        p = game.actors()[0]
        ids = [a.id for a in game.legal_actions(p)]
        game.apply(p, ids[0] if len(ids) == 1 else decide(table_of(game, p), ids))
    return game.winners


# (red hand, black hand, the seat to move, the card that wins, the card Normal sends)
CASES = [
    # Red 33, Black 31. Red's last card is the 9♥. The J♣ beats it: Black takes 3 points
    # and keeps the 3♠ (35-33). The 3♠ loses to it: Red takes 2 points (35-33 for Red).
    (["9H"], ["JC", "3S"], B, "JC", "3S"),
    # Red 31, Black 32. Black's last card is the J♣. The K♦ beats it (Red 36-32); the 8♦
    # loses it and Black wins 35-33.
    (["8D", "KD"], ["JC"], R, "KD", "8D"),
    # Red 30, Black 29. Red holds the last two Kings. A King from Black ties and Black wins
    # the head to head 31-26 (38-30); the 5♠ loses even after doubling with a King, since
    # Red doubles back with its second King (37-31).
    (["KH", "KD"], ["KS", "KC", "5S"], B, "KS", "5S"),
]


@pytest.mark.parametrize("level", ["normal", "hard"])
@pytest.mark.parametrize(("red", "black", "seat", "good", "bad"), CASES)
def test_the_last_battle_is_won_with_the_card_that_wins_it(
    red: list[str], black: list[str], seat: str, good: str, bad: str, level: str
) -> None:
    game = endgame(red, black)
    # The rules as the bot's own Normal plays them out: one card wins, the other loses.
    assert final_winner(game, seat, good) == [seat]
    assert final_winner(game, seat, bad) not in ([seat], [])
    view = game.view(seat)
    actions = game.legal_actions(seat)
    good_rank = good[:-1]
    for s in range(4):
        picked = choose("warofsuits", level, view, actions, random.Random(s))
        assert picked.split(":")[1][:-1] == good_rank, (
            f"{level} sends {picked} and loses a game it wins with {good} "
            f"(its hand {view['hand']}, the opponent's last cards are known)"
        )


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_keeps_its_ace_for_the_last_battle_when_claiming_now_only_draws(level: str) -> None:
    # Red 31, Black 30, both decks empty. Battle: 10♥ against 4♣; Black holds A♣ 6♣, Red
    # only the K♥ (known: every other red card has been seen). Claiming now with the Ace
    # wins 4 points, then the K♥ takes the 6♣: 34-34, a draw. Accepting gives Red 2, then
    # the Ace claims the K♥ battle (K♥ 6♣ A♣, 5 points): Black wins 35-33.
    game = endgame(["10H", "KH"], ["4C", "AC", "6C"])
    game.apply(R, "choose:10H")
    game.apply(B, "choose:4C")
    assert sorted(a.id for a in game.legal_actions(B)) == ["accept", "ace:AC"]

    def result(first: str) -> list[str]:
        trial = game.copy()
        trial.apply(B, first)
        rng = random.Random(0)
        while not trial.finished:
            p = trial.actors()[0]
            trial.apply(
                p, choose("warofsuits", "normal", trial.view(p), trial.legal_actions(p), rng)
            )
        return trial.winners

    assert result("accept") == [B]
    assert result("ace:AC") == []  # a draw
    for s in range(4):
        picked = choose("warofsuits", level, game.view(B), game.legal_actions(B), random.Random(s))
        assert picked == "accept", f"{level} claims now and draws a game it wins"
