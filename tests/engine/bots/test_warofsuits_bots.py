"""A War of Suits bots: the Normal heuristic's named behaviours, honesty, complete games.

Decks are stacked (engine.testing.stacked): the red cards listed are the top of Red's deck in
order, the black cards the top of Black's; each side's first three are its hand. ``position``
builds a late game: the given hands and decks, every other card in its colour's victory pile.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import choose, describe
from engine.bots.warofsuits import p_fewer_than
from engine.games.warofsuits import WarOfSuits
from tests.engine.test_warofsuits import B, R, new, position

LEVELS = ("normal", "hard")


def bot(game: WarOfSuits, player: str, level: str = "normal", seed: int = 0) -> str:
    return choose(
        "warofsuits", level, game.view(player), game.legal_actions(player), random.Random(seed)
    )


def battle(game: WarOfSuits, red_card: str, black_card: str) -> None:
    game.apply(R, f"choose:{red_card}")
    game.apply(B, f"choose:{black_card}")


# -- the view remembers what was played -----------------------------------------------------
def test_the_view_lists_every_victory_pile() -> None:
    game = new(["7H", "2D", "5D"], ["JC", "3S", "4C"])
    battle(game, "7H", "JC")
    game.apply(R, "accept")
    view = game.view()
    assert view["victory_piles"] == {R: [], B: ["7H", "JC"]}
    assert game.view(R)["victory_piles"] == view["victory_piles"]


# -- first card -----------------------------------------------------------------------------
def test_never_sends_an_ace_first_while_it_holds_another_card() -> None:
    game = new(["AH", "AD", "9H"], ["5C", "6C", "7C"])
    assert bot(game, R) == "choose:9H"


def test_sends_its_lowest_card_and_keeps_the_high_ones_to_double() -> None:
    # The 2 is turned by a double when Black shows a 7 or a King; the King is not.
    game = new(["2D", "7H", "KD"], ["5C", "6C", "8C"])
    assert bot(game, R) == "choose:2D"


def test_plays_one_of_a_pair_to_keep_its_twin_for_a_double() -> None:
    # With 8 + 8 = 16 any single card is beaten after a double; the 3 has less help.
    game = new(["3H", "8D", "8H"], ["5C", "6C", "9C"])
    assert bot(game, R) in ("choose:8D", "choose:8H")


def test_a_hand_of_aces_still_plays() -> None:
    game = position(["AD", "AH"], ["5C", "6C"])
    assert bot(game, R) in ("choose:AD", "choose:AH")


# -- doubles ----------------------------------------------------------------------------------
def test_doubles_when_the_double_wins() -> None:
    game = new(["4H", "4D", "QD"], ["QC", "2S", "3S"])
    battle(game, "4H", "QC")  # 4 against 12: Red's window
    assert bot(game, R) == "double:QD"  # 4 + 12 = 16 wins; 4 + 4 = 8 would not


def test_never_doubles_when_the_double_still_loses() -> None:
    game = new(["4H", "4D", "5H"], ["QC", "2S", "3S"])
    battle(game, "4H", "QC")  # 4 + 4 = 8 against 12 loses anyway
    assert [a.id for a in game.legal_actions(R)] == ["double:4D", "accept"]
    assert bot(game, R) == "accept"


# -- Aces -----------------------------------------------------------------------------------
def test_keeps_its_ace_for_a_battle_worth_it() -> None:
    game = new(["2H", "AH", "9D"], ["3C", "5S", "6S"])
    battle(game, "2H", "3C")  # two number cards (2 points) at stake, Black may hold an Ace
    assert "ace:AH" in [a.id for a in game.legal_actions(R)]
    assert bot(game, R) == "accept"


def test_claims_a_rich_battle_with_an_ace() -> None:
    game = new(["JH", "AH", "2D"], ["KC", "5S", "6S"])
    battle(game, "JH", "KC")  # Jack and King (4 points); Black is unlikely to hold an Ace
    assert bot(game, R) == "ace:AH"


def test_claims_when_no_answer_is_possible() -> None:
    # Black's Aces are both seen: Red's claim cannot be answered, even on a cheap battle.
    game = position(["2H", "AH", "9D"], ["3C", "5S", "6S"], ("4H",), ("4C",))
    battle(game, "2H", "3C")
    assert bot(game, R) == "ace:AH"


def test_answers_an_ace_with_an_ace() -> None:
    game = new(["9H", "AH", "2D"], ["5C", "AC", "6S"])
    battle(game, "9H", "5C")
    game.apply(B, "ace:AC")
    assert bot(game, R) == "ace:AH"


def test_ace_odds_follow_the_unseen_cards() -> None:
    # No Ace unseen: the opponent surely holds none; both unseen and all in hand: surely one.
    assert p_fewer_than(1, 0, 10, 3) == 1.0
    assert p_fewer_than(1, 2, 2, 2) == 0.0
    assert p_fewer_than(1, 2, 23, 2) == pytest.approx(210 / 253)
    assert p_fewer_than(3, 2, 5, 1) == 1.0  # one card cannot hold two Aces


# -- ties -----------------------------------------------------------------------------------
def test_reinforces_a_tie_with_a_strong_hand() -> None:
    game = new(["7H", "KD", "QH"], ["7C", "2S", "3S"])
    battle(game, "7H", "7C")
    assert game.view()["phase"] == "tie"
    assert bot(game, R) == "reinforce"


def test_stops_a_tie_with_an_ace_when_its_hand_is_weak() -> None:
    game = new(["7H", "AH", "2D"], ["7C", "KS", "QS"])
    battle(game, "7H", "7C")
    assert bot(game, R) == "ace:AH"


# -- every level, every phase ---------------------------------------------------------------
def test_each_level_is_described() -> None:
    about = describe("warofsuits")
    assert set(about) == set(LEVELS) and all(len(text) > 40 for text in about.values())


def hidden_twin(game: WarOfSuits, player: str, rng: random.Random) -> WarOfSuits:
    """The same game with the cards ``player`` cannot see dealt differently: the opponent's
    hand and deck shuffled together, and ``player``'s own deck reordered."""
    data = game.to_dict()
    state = data["state"]
    s = game.players.index(player)
    o = 1 - s
    secret = state["pending"][o] or ""
    kept = [c for c in state["hands"][o] if secret.endswith(f":{c}")]  # its secret choice
    their = [c for c in state["hands"][o] + state["decks"][o] if c not in kept]
    rng.shuffle(their)
    n = len(state["hands"][o]) - len(kept)
    state["hands"][o], state["decks"][o] = kept + their[:n], their[n:]
    rng.shuffle(state["decks"][s])
    if secret.startswith("choose:"):
        # A different secret card: the seat cannot tell which one was chosen.
        state["hands"][o].sort()
        state["pending"][o] = f"choose:{state['hands'][o][-1]}"
    twin = engine.load(data)
    assert isinstance(twin, WarOfSuits)
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_a_choice_depends_only_on_what_the_seat_can_see(level: str) -> None:
    rng = random.Random(5)
    game = engine.new_game("warofsuits", [R, B], seed=21)
    assert isinstance(game, WarOfSuits)
    checked = 0
    while not game.finished and checked < (12 if level == "normal" else 4):
        player = game.actors()[0]
        twin = hidden_twin(game, player, rng)
        if game.to_dict()["state"] != twin.to_dict()["state"]:
            assert twin.view(player) == game.view(player)
            assert twin.legal_actions(player) == game.legal_actions(player)
            assert bot(twin, player, level, seed=9) == bot(game, player, level, seed=9)
            checked += 1
        game.apply(player, bot(game, player, "normal"))
    assert checked


@pytest.mark.parametrize(("level", "games"), [("normal", 6), ("hard", 2)])
def test_each_level_plays_complete_games_with_legal_moves(level: str, games: int) -> None:
    for seed in range(games):
        game = engine.new_game("warofsuits", [R, B], seed=100 + seed)
        rngs = {R: random.Random(seed), B: random.Random(seed + 50)}
        levels = {R: level, B: "normal"} if seed % 2 == 0 else {R: "normal", B: level}
        while not game.finished:
            player = game.actors()[0]
            actions = game.legal_actions(player)
            action = choose("warofsuits", levels[player], game.view(player), actions, rngs[player])
            assert isinstance(action, str)
            game.apply(player, action)  # an illegal id would raise here
        assert sum(game.scores.values()) == 68
