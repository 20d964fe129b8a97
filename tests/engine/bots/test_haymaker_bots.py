"""Haymaker bots: the Normal heuristic's named behaviours, honesty, complete games.

``position`` builds a game at the start of a turn from chosen hands and deck: four unused
cards are burned and the others split between the discard piles.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.bots import choose, describe
from engine.bots.haymaker import cheapest_block, exact_block, opponent_bounds
from engine.cards import value
from engine.games.haymaker import Haymaker, full_deck
from engine.testing import stacked

ANN, BEA = "ann", "bea"
PLAYERS = [ANN, BEA]
LEVELS = ("normal", "hard")


def position(
    ann: list[str],
    bea: list[str],
    deck: tuple[str, ...] = (),
    attacker: str = ANN,
    attacked_last: str | None = None,
) -> Haymaker:
    used = set(ann) | set(bea) | set(deck)
    rest = [c for c in full_deck() if c not in used]
    burned, rest = rest[:4], rest[4:]
    data = engine.new_game("haymaker", PLAYERS, seed=1).to_dict()
    piles = {ANN: rest[0::2], BEA: rest[1::2]}
    data["scores"] = {p: len(piles[p]) for p in PLAYERS}
    data["state"].update(
        attacker=attacker,
        phase="attack",
        hands={ANN: list(ann), BEA: list(bea)},
        deck=list(deck),
        burned=burned,
        discards=piles,
        attack=[],
        haymaker=False,
        attacked_last=attacked_last,
        result=None,
    )
    game = engine.load(json.loads(json.dumps(data)))
    assert isinstance(game, Haymaker)
    return game


def bot(game: Haymaker, player: str, level: str = "normal", seed: int = 0) -> str:
    actions = game.legal_actions(player)
    return choose("haymaker", level, game.view(player), actions, random.Random(seed))


def chosen(action_id: str) -> list[str]:
    return sorted(action_id.split(":", 1)[1].split("."))


# -- the view remembers what was played ------------------------------------------------------
def test_the_view_lists_every_discard_pile() -> None:
    game = position(["7C", "2D"], ["9H", "3S"], deck=("4C", "4D"))
    game.apply(ANN, "attack:7C")
    game.apply(BEA, "block:9H")  # not a reversal: ann banks both cards
    piles = game.view()["discard_piles"]
    assert piles[ANN][-2:] == ["7C", "9H"] and len(piles[ANN]) == game.scores[ANN]
    assert game.view(BEA)["discard_piles"] == piles


def dealt(ann: list[str], bea: list[str]) -> Haymaker:
    """A new game where ann attacks first with ``ann`` against ``bea`` (ten cards each)."""
    seed = next(s for s in range(100) if Haymaker(PLAYERS, seed=s).attacker == ANN)
    rest = [c for c in full_deck() if c not in ann + bea]
    cards = [c for pair in zip(ann, bea, strict=True) for c in pair] + rest
    game = stacked("haymaker", PLAYERS, cards, seed=seed)
    assert isinstance(game, Haymaker)
    return game


LOW = ["AC", "2C", "3C", "AD", "2D", "3D", "AH", "2H", "3H", "4C"]
HIGH = ["10C", "9C", "8C", "10D", "9D", "8D", "10H", "9H", "8H", "7C"]


def test_the_view_keeps_the_public_history() -> None:
    game = dealt(HIGH, LOW)
    game.apply(ANN, "attack:9C")
    game.apply(BEA, "hit")
    assert game.view()["history"] == [
        {"player": ANN, "move": "attack", "cards": ["9C"]},
        {"player": BEA, "move": "hit", "given": 1},
    ]
    assert game.view(ANN)["history"] == game.view()["history"]


def test_a_hit_tells_that_nothing_in_hand_blocked_the_attack() -> None:
    game = dealt(HIGH, LOW)
    assert opponent_bounds(game.view(ANN), BEA) == [10] * 10
    game.apply(ANN, "attack:7C")
    game.apply(BEA, "hit")  # with a card of 7 or more bea would have blocked
    assert opponent_bounds(game.view(ANN), BEA) == [6] * 9
    # An attacker keeps little far above its attack: ann's other nine cards are believed to be
    # at most 7 + 2; the card bea gave it may be anything.
    assert opponent_bounds(game.view(BEA), ANN) == [9] * 9 + [10]


# -- defending -------------------------------------------------------------------------------
def test_block_finders() -> None:
    hand = ["10H", "9S", "2C", "3H", "4S", "5H"]
    assert cheapest_block(hand, 17) == ("10H", "9S")
    assert cheapest_block(hand, 8) == ("9S",)
    assert cheapest_block(hand, 34) is None
    assert exact_block(hand, 7, 2) == ("3H", "4S")  # not 2 + 5: the lower top card
    assert exact_block(hand, 11, 1) is None


def test_blocks_with_an_exact_match_to_reverse() -> None:
    game = position(["7C", "2D", "3D"], ["7H", "9S", "4C", "3H"])
    game.apply(ANN, "attack:7C")
    action = bot(game, BEA)
    assert action == "block:7H"  # one card, equal: a reversal (not the 9, not 4 + 3)


def test_a_two_card_reversal_beats_a_one_card_block() -> None:
    game = position(["7C", "2D", "3D"], ["9S", "4C", "3H", "10D"])
    game.apply(ANN, "attack:7C")
    assert chosen(bot(game, BEA)) == ["3H", "4C"]


def test_blocks_a_haymaker_with_the_fewest_cards() -> None:
    game = position(["9C", "8C", "2D", "3D"], ["10H", "9S", "2C", "3H", "4S", "5H"])
    game.apply(ANN, "haymaker:9C.8C")  # 17: any block reverses
    assert chosen(bot(game, BEA)) == ["10H", "9S"]


def test_blocks_with_one_card_rather_than_take_the_hit() -> None:
    game = position(["5C", "2D", "3D"], ["9S", "8H", "AC"])
    game.apply(ANN, "attack:5C")
    assert bot(game, BEA) == "block:8H"  # the lowest card that is enough


def test_takes_the_hit_rather_than_spend_several_cards_without_a_reversal() -> None:
    game = position(["10C", "2D", "3D"], ["6S", "5H", "AC"])
    game.apply(ANN, "attack:10C")  # 6 + 5 = 11 blocks but does not reverse
    assert bot(game, BEA) == "hit"


def test_blocks_rather_than_be_knocked_out() -> None:
    game = position(["9C", "8C", "2D"], ["10H", "9S"])
    game.apply(ANN, "haymaker:9C.8C")
    assert chosen(bot(game, BEA)) == ["10H", "9S"]


# -- attacking -------------------------------------------------------------------------------
def test_chooses_its_haymaker_by_suit() -> None:
    # Two 10s are unseen, so Bea's two cards might block 20. Clubs reach 27 with three cards;
    # diamonds (19) and hearts (20 with all five) could be blocked.
    hand = ["10C", "9C", "8C", "10D", "9D", "2H", "3H", "4H", "5H", "6H"]
    game = position(hand, ["AS", "2S"], deck=("10S", "10H", "9S"), attacked_last=BEA)
    action = bot(game, ANN)
    assert action.startswith("haymaker:")
    assert chosen(action) == ["10C", "8C", "9C"]


def test_no_haymaker_while_the_defender_could_block_it() -> None:
    hand = ["2C", "3C", "9D", "10D", "4H", "6H", "5S"]
    game = position(hand, ["AC", "2H", "3H", "4D", "5D", "6D", "7S"])
    assert bot(game, ANN).startswith("attack:")  # a blocked haymaker only reverses the fight


def test_finishes_a_defender_who_cannot_survive_a_haymaker() -> None:
    game = position(["7C", "6C", "2D"], ["10H"])
    action = bot(game, ANN)
    assert chosen(action) == ["6C", "7C"]  # 13: one card cannot stop it nor pay for it


def test_any_attack_finishes_an_empty_hand() -> None:
    game = position(["7C", "6C", "2D"], [], attacked_last=BEA)
    assert bot(game, ANN).startswith("attack:")


def test_passes_only_with_nothing_to_attack_with() -> None:
    game = position([], ["7C", "6C"], deck=("2D", "3D"), attacked_last=ANN)
    assert bot(game, ANN) == "pass"
    game = position(["2D", "9S", "4H"], ["7C", "6C"], deck=("3D",), attacked_last=ANN)
    assert bot(game, ANN) != "pass"


def test_a_single_attack_avoids_cards_easily_blocked() -> None:
    game = position(["AC", "2D", "9S"], ["3C", "4C", "5C"])
    assert value(bot(game, ANN).split(":")[1]) == 9


# -- every level, every phase ----------------------------------------------------------------
def test_each_level_is_described() -> None:
    about = describe("haymaker")
    assert set(about) == set(LEVELS) and all(len(text) > 40 for text in about.values())


def hidden_twin(game: Haymaker, player: str, rng: random.Random) -> Haymaker:
    """The same game with the cards ``player`` cannot see dealt differently: the opponent's
    hand, the deck and the burned cards shuffled together."""
    data = game.to_dict()
    state = data["state"]
    other = next(p for p in PLAYERS if p != player)
    n_hand, n_deck = len(state["hands"][other]), len(state["deck"])
    hidden = state["hands"][other] + state["deck"] + state["burned"]
    rng.shuffle(hidden)
    state["hands"][other] = hidden[:n_hand]
    state["deck"] = hidden[n_hand : n_hand + n_deck]
    state["burned"] = hidden[n_hand + n_deck :]
    twin = engine.load(data)
    assert isinstance(twin, Haymaker)
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_a_choice_depends_only_on_what_the_seat_can_see(level: str) -> None:
    rng = random.Random(3)
    checked = 0
    for seed in (4, 5, 6):
        game = engine.new_game("haymaker", PLAYERS, seed=seed)
        assert isinstance(game, Haymaker)
        for step in range(200):
            if game.finished:
                break
            player = game.actors()[0]
            twin = hidden_twin(game, player, rng)
            # Hard is slow: check it every third move.
            if twin.to_dict()["state"] != game.to_dict()["state"] and (
                level == "normal" or step % 3 == 0
            ):
                assert twin.view(player) == game.view(player)
                assert bot(twin, player, level, seed=7) == bot(game, player, level, seed=7)
                checked += 1
            game.apply(player, bot(game, player, "normal"))
    assert checked >= 10


@pytest.mark.parametrize(("level", "games"), [("normal", 20), ("hard", 3)])
def test_each_level_plays_complete_games_with_legal_moves(level: str, games: int) -> None:
    for seed in range(games):
        game = engine.new_game("haymaker", PLAYERS, seed=200 + seed)
        rngs = {ANN: random.Random(seed), BEA: random.Random(seed + 50)}
        levels = {ANN: level, BEA: "normal"} if seed % 2 == 0 else {ANN: "normal", BEA: level}
        while not game.finished:
            player = game.actors()[0]
            actions = game.legal_actions(player)
            action = choose("haymaker", levels[player], game.view(player), actions, rngs[player])
            game.apply(player, action)  # an illegal id (a mixed haymaker, a short block) raises
        assert game.reason in ("knockout", "technical knockout", "decision", "draw")
