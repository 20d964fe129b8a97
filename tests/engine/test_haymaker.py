"""Haymaker scenario tests: each rule of the seed text and each ruling, from stacked decks.

Deal (see engine/games/haymaker.py): the dealer is drawn with the RNG, the other player
attacks first; cards 0-19 alternate first attacker / dealer, 20-23 are burned, 24-39 are the
deck (24 on top). ``deal()`` builds such a deck with a seed where ann attacks first.
``position()`` starts from a dealt game and replaces its saved state with a mid-game position
(hands, deck, discard piles), for rules that only matter late in a match.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from engine import IllegalAction, load
from engine.cards import SUITS, label, value
from engine.core import Event, Game
from engine.games.haymaker import Haymaker, full_deck
from engine.testing import stacked

ANN, BEA = "ann", "bea"
PLAYERS = [ANN, BEA]
# The first seed whose RNG makes bea the dealer, so ann attacks first.
SEED = next(s for s in range(100) if Haymaker(PLAYERS, seed=s).attacker == ANN)


def _key(card: str) -> tuple[int, int]:
    return SUITS.index(card[-1]), value(card)


def deal(
    ann: list[str], bea: list[str], deck: Iterable[str] = (), burned: Iterable[str] = ()
) -> Game:
    """A new game: ann (first attacker) holds ``ann``, bea (dealer) holds ``bea``.

    ``deck`` are the top cards of the draw pile; ``burned`` the burned cards (else the
    first unused cards); unused cards fill the rest.
    """
    assert len(ann) == len(bea) == 10
    deck, burned = list(deck), list(burned)
    used = set(ann) | set(bea) | set(deck) | set(burned)
    rest = [c for c in full_deck() if c not in used]
    if not burned:
        burned, rest = rest[:4], rest[4:]
    dealt = [card for pair in zip(ann, bea, strict=True) for card in pair]
    game = stacked("haymaker", PLAYERS, dealt + burned + deck + rest, seed=SEED)
    assert game.view()["attacker"] == ANN
    return game


def position(
    ann: list[str],
    bea: list[str],
    *,
    attacker: str = ANN,
    deck: Iterable[str] = (),
    ann_discards: int | None = None,
    attacked_last: str | None = None,
) -> Game:
    """A game at the start of a turn with these hands and draw pile (top first).

    Four unused cards are burned; the remaining ones are discarded, ``ann_discards`` of
    them to ann (default: alternately) and the rest to bea.
    """
    deck = list(deck)
    used = set(ann) | set(bea) | set(deck)
    rest = [c for c in full_deck() if c not in used]
    burned, rest = rest[:4], rest[4:]
    if ann_discards is None:
        piles = {ANN: rest[0::2], BEA: rest[1::2]}
    else:
        piles = {ANN: rest[:ann_discards], BEA: rest[ann_discards:]}
    data = deal(*_ten_each()).to_dict()
    data["scores"] = {p: len(piles[p]) for p in PLAYERS}
    data["state"].update(
        attacker=attacker,
        phase="attack",
        hands={ANN: sorted(ann, key=_key), BEA: sorted(bea, key=_key)},
        deck=deck,
        burned=burned,
        discards=piles,
        attack=[],
        haymaker=False,
        attacked_last=attacked_last,
        result=None,
    )
    return load(json.loads(json.dumps(data)))


def _ten_each() -> tuple[list[str], list[str]]:
    cards = full_deck()
    return cards[:10], cards[10:20]


def ids(game: Game, player: str) -> list[str]:
    return [a.id for a in game.legal_actions(player)]


def action(game: Game, player: str, action_id: str) -> Any:
    return next(a for a in game.legal_actions(player) if a.id == action_id)


def public(events: list[Event]) -> str:
    return " ".join(e.public for e in events)


def private(events: list[Event], player: str) -> str:
    return " ".join(e.private[player] for e in events if player in e.private)


def refused(game: Game, player: str, action_id: str, message: str | None = None) -> str:
    """Assert ``action_id`` is refused and changes nothing; return the message."""
    before = json.dumps(game.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        game.apply(player, action_id)
    assert json.dumps(game.to_dict(), sort_keys=True) == before
    if message is not None:
        assert str(info.value) == message
    return str(info.value)


# Hands used by several tests: ann holds odd clubs and diamonds, bea even clubs, odd hearts.
ANN_HAND = ["AC", "3C", "5C", "7C", "9C", "AD", "3D", "5D", "7D", "9D"]
BEA_HAND = ["2C", "4C", "6C", "8C", "10C", "AH", "3H", "5H", "7H", "9H"]


# -- setup --------------------------------------------------------------------------------
def test_deal_alternates_from_the_first_attacker_then_burns_four() -> None:
    cards = full_deck()  # AC..10C, AD..10D, AH..10H, AS..10S
    game = stacked("haymaker", PLAYERS, cards, seed=SEED)
    state = game.to_dict()["state"]
    assert state["dealer"] == BEA and state["attacker"] == ANN
    assert state["hands"][ANN] == sorted(cards[0:20:2], key=_key)
    assert state["hands"][BEA] == sorted(cards[1:20:2], key=_key)
    assert state["burned"] == cards[20:24]
    assert state["deck"] == cards[24:]
    view = game.view()
    assert view["hand_sizes"] == {ANN: 10, BEA: 10}
    assert (view["deck"], view["burned"], view["discards"]) == (16, 4, {ANN: 0, BEA: 0})
    assert view["phase"] == "attack" and view["actors"] == [ANN]
    assert view["result"] is None and view["attack"] is None


def test_dealer_is_random_and_the_other_player_attacks_first() -> None:
    dealers = set()
    for seed in range(40):
        game = Haymaker(PLAYERS, seed=seed)
        view = game.view()
        dealers.add(view["dealer"])
        assert view["attacker"] != view["dealer"]
        assert game.actors() == [view["attacker"]]
    assert dealers == {ANN, BEA}


def test_shuffled_deal_holds_the_forty_cards_without_face_cards() -> None:
    game = Haymaker(PLAYERS, seed=7)
    state = game.to_dict()["state"]
    cards = state["hands"][ANN] + state["hands"][BEA] + state["burned"] + state["deck"]
    assert sorted(cards) == sorted(full_deck())
    assert len(cards) == 40 and not any(c[:-1] in "JQK" for c in cards)
    assert (len(state["burned"]), len(state["deck"])) == (4, 16)


def test_bad_player_counts_and_decks_are_rejected() -> None:
    with pytest.raises(ValueError):
        Haymaker([ANN])
    with pytest.raises(ValueError):
        Haymaker([ANN, BEA, "cid"])
    with pytest.raises(ValueError):
        stacked("haymaker", PLAYERS, [*full_deck()[:-1], "KS"])


def test_views_list_every_key_and_hide_hands_and_burned_cards() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    burned = game.to_dict()["state"]["burned"]
    keys = {"phase", "prompt", "dealer", "attacker", "defender", "attack", "attacked_last"}
    keys |= {"can_pass", "hand_sizes", "deck", "discards", "burned", "result"}
    pub = game.view()
    assert keys <= set(pub) and "hand" not in pub
    assert game.view(ANN)["hand"] == sorted(ANN_HAND, key=_key)
    assert game.view(BEA)["hand"] == sorted(BEA_HAND, key=_key)
    text = json.dumps(pub)
    assert not any(f'"{c}"' in text for c in ANN_HAND + BEA_HAND + burned)
    ann_text = json.dumps(game.view(ANN))
    assert not any(f'"{c}"' in ann_text for c in BEA_HAND + burned)
    assert pub["prompt"] == "ann to attack bea with a card or a haymaker."


# -- attack -------------------------------------------------------------------------------
def test_first_attack_offers_each_card_and_a_haymaker_but_no_pass() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    actions = game.legal_actions(ANN)
    hand = sorted(ANN_HAND, key=_key)
    assert [a.id for a in actions] == [f"attack:{c}" for c in hand] + ["haymaker"]
    assert actions[3].label == "Attack with 7♣"
    hay = actions[-1]
    assert hay.label == "Haymaker (2+ cards of one suit)"
    assert hay.pick is not None
    assert (hay.pick.options, hay.pick.min, hay.pick.max) == (hand, 2, 10)
    assert game.legal_actions(BEA) == []
    refused(game, ANN, "pass", "That move is not available right now.")


def test_normal_attack_plays_one_card_face_up_with_its_number_as_strength() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    events = game.apply(ANN, "attack:7C")
    assert public(events) == "ann attacks with 7♣ (strength 7)."
    view = game.view()
    assert view["attack"] == {"cards": ["7C"], "strength": 7, "haymaker": False}
    assert view["phase"] == "defend" and view["actors"] == [BEA]
    assert view["hand_sizes"] == {ANN: 9, BEA: 10}
    assert view["prompt"] == "bea to block 7♣ (strength 7) or take the hit."


def test_ace_counts_one() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    game.apply(ANN, "attack:AC")
    assert game.view()["attack"]["strength"] == 1


def test_haymaker_sums_two_or_more_cards_of_one_suit() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    events = game.apply(ANN, "haymaker:9C.AC.5C")
    assert public(events) == "ann throws a haymaker: A♣, 5♣, 9♣ (strength 15)."
    assert game.view()["attack"] == {"cards": ["AC", "5C", "9C"], "strength": 15, "haymaker": True}
    assert game.view()["hand_sizes"][ANN] == 7
    assert game.view()["prompt"] == (
        "bea to block the haymaker A♣, 5♣, 9♣ (strength 15) or take the hit."
    )


def test_haymaker_has_no_card_limit() -> None:
    spades = [f"{r}S" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    game = deal(spades, BEA_HAND)
    game.apply(ANN, "haymaker:" + ".".join(spades))
    assert game.view()["attack"]["strength"] == 55
    assert game.view()["hand_sizes"][ANN] == 0


def test_mixed_suit_haymaker_is_refused_and_changes_nothing() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    refused(game, ANN, "haymaker:7C.3D", "A haymaker must be cards of one suit; you chose 7♣, 3♦.")
    refused(game, ANN, "haymaker:7C", "Choose between 2 and 10 cards.")
    refused(game, ANN, "haymaker:7C.2C")  # 2♣ is bea's card


def test_haymaker_is_offered_only_when_a_suit_has_two_cards() -> None:
    game = position(["AC", "2D", "3H", "4S"], ["5C", "6C"])
    assert ids(game, ANN) == ["attack:AC", "attack:2D", "attack:3H", "attack:4S"]
    refused(game, ANN, "haymaker:AC.2D", "That move is not available right now.")
    game = position(["AC", "2D", "3H", "4D"], ["5C", "6C"])
    assert "haymaker" in ids(game, ANN)


# -- defend: block and reversals ----------------------------------------------------------
def test_block_is_one_pick_over_the_whole_hand() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    game.apply(ANN, "attack:7C")
    block = action(game, BEA, "block")
    assert block.label == "Block (cards summing to 7 or more)"
    assert block.pick is not None
    assert (block.pick.options, block.pick.min, block.pick.max) == (
        sorted(BEA_HAND, key=_key),
        1,
        10,
    )
    assert ids(game, BEA) == ["block", "hit"]
    assert action(game, BEA, "hit").label == "Take the hit (give 1 random card)"
    assert game.legal_actions(ANN) == []


def test_block_too_small_is_refused_and_changes_nothing() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    game.apply(ANN, "attack:7C")
    refused(game, BEA, "block:3H.2C", "Your block is 5; it must be at least 7.")
    refused(game, BEA, "block:4C.AC", "You cannot choose AC for that.")  # ann's card
    refused(game, BEA, "block:4C.4C", "You chose the same card twice.")
    refused(game, BEA, "block:", "Choose between 1 and 10 cards.")


def test_block_is_not_offered_when_the_whole_hand_falls_short() -> None:
    game = position(["9C", "2C"], ["AH", "3H", "4D"])
    game.apply(ANN, "attack:9C")
    assert ids(game, BEA) == ["hit"]
    refused(game, BEA, "block:AH.3H.4D", "That move is not available right now.")


def test_equal_block_is_a_reversal_and_the_new_attacker_draws_first() -> None:
    game = deal(ANN_HAND, BEA_HAND, deck=["5S", "6S"])
    game.apply(ANN, "attack:7C")
    events = game.apply(BEA, "block:4C.3H")
    text = public(events)
    assert text.startswith("bea blocks with 4♣, 3♥ (strength 7). Reversal (the block equals")
    assert "bea adds the 3 cards played to their discard pile" in text
    assert "bea and ann each draw a card." in text
    assert "5♠" not in text and "6♠" not in text
    assert private(events, BEA) == "You drew 5♠."  # the new attacker draws first
    assert private(events, ANN) == "You drew 6♠."
    view = game.view()
    assert view["discards"] == {ANN: 0, BEA: 3} and game.scores == {ANN: 0, BEA: 3}
    assert (view["attacker"], view["defender"], view["actors"]) == (BEA, ANN, [BEA])
    assert view["hand_sizes"] == {ANN: 10, BEA: 9} and view["deck"] == 14
    assert view["attack"] is None and view["attacked_last"] == ANN
    assert "5S" in game.view(BEA)["hand"] and "6S" in game.view(ANN)["hand"]
    # bea did not attack last turn, so she may not pass.
    assert "pass" not in ids(game, BEA) and view["can_pass"] is False


def test_blocking_a_haymaker_is_a_reversal_even_with_a_bigger_block() -> None:
    game = deal(ANN_HAND, BEA_HAND, deck=["5S", "6S"])
    game.apply(ANN, "haymaker:AC.3C")  # strength 4
    events = game.apply(BEA, "block:9H")
    assert "Reversal (the attack was a haymaker)!" in public(events)
    view = game.view()
    assert view["discards"] == {ANN: 0, BEA: 3}
    assert view["attacker"] == BEA and view["hand_sizes"] == {ANN: 9, BEA: 10}
    assert private(events, BEA) == "You drew 5♠."


def test_blocking_an_attacker_who_has_no_cards_left_is_a_reversal() -> None:
    game = position(["5C"], ["9D", "2H"], deck=["AS", "2S", "3S"])
    game.apply(ANN, "attack:5C")
    events = game.apply(BEA, "block:9D")
    assert "Reversal (ann has no cards left)!" in public(events)
    view = game.view()
    assert view["attacker"] == BEA and view["deck"] == 1
    assert game.view(BEA)["hand"] == ["2H", "AS"]  # the new attacker draws first
    assert game.view(ANN)["hand"] == ["2S"]
    assert view["discards"][BEA] == game.to_dict()["scores"][BEA]


def test_a_block_can_meet_several_reversal_conditions_at_once() -> None:
    game = position(["AC", "3C"], ["4D", "2H"])
    game.apply(ANN, "haymaker:AC.3C")
    text = public(game.apply(BEA, "block:4D"))
    assert (
        "Reversal (the block equals the attack; the attack was a haymaker; ann has no cards left)!"
        in text
    )


def test_block_without_reversal_goes_to_the_attackers_discard_pile() -> None:
    game = deal(ANN_HAND, BEA_HAND, deck=["5S", "6S"])
    game.apply(ANN, "attack:7C")
    events = game.apply(BEA, "block:8C")
    assert public(events) == (
        "bea blocks with 8♣ (strength 8). ann adds the 2 cards played to their discard pile."
    )
    view = game.view()
    assert view["discards"] == {ANN: 2, BEA: 0} and game.scores == {ANN: 2, BEA: 0}
    assert view["hand_sizes"] == {ANN: 9, BEA: 9} and view["deck"] == 16  # nobody draws
    assert (view["attacker"], view["phase"], view["attacked_last"]) == (ANN, "attack", ANN)
    assert view["can_pass"] is True and ids(game, ANN)[-1] == "pass"
    assert view["prompt"] == "ann to attack bea with a card or a haymaker, or pass."


# -- defend: take the hit -----------------------------------------------------------------
def test_take_the_hit_gives_one_random_card_told_privately_to_both() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    game.apply(ANN, "attack:7C")
    events = game.apply(BEA, "hit")
    bea_hand = game.view(BEA)["hand"]
    (given,) = [c for c in BEA_HAND if c not in bea_hand]
    assert given in game.view(ANN)["hand"]
    glabel = label(given)
    assert public(events) == (
        "bea takes the hit and gives ann 1 random card. "
        "ann adds the 1 card played to their discard pile."
    )
    assert private(events, BEA) == f"You gave ann {glabel}."
    assert private(events, ANN) == f"bea gave you {glabel}."
    view = game.view()
    assert view["hand_sizes"] == {ANN: 10, BEA: 9}
    assert view["discards"] == {ANN: 1, BEA: 0} and view["deck"] == 16
    assert (view["attacker"], view["attacked_last"], view["can_pass"]) == (ANN, ANN, True)


def test_take_the_hit_against_a_haymaker_gives_two_random_cards() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    game.apply(ANN, "haymaker:AD.3D.5D")
    assert action(game, BEA, "hit").label == "Take the hit (give 2 random cards)"
    events = game.apply(BEA, "hit")
    given = [c for c in BEA_HAND if c not in game.view(BEA)["hand"]]
    assert len(given) == 2 and set(given) <= set(game.view(ANN)["hand"])
    assert "gives ann 2 random cards" in public(events)
    for card in given:
        assert card not in public(events)
        assert label(card) not in public(events)
        assert label(card) in private(events, ANN) and label(card) in private(events, BEA)
    view = game.view()
    assert view["hand_sizes"] == {ANN: 9, BEA: 8} and view["discards"] == {ANN: 3, BEA: 0}
    # The public view never shows which cards moved.
    assert not any(f'"{c}"' in json.dumps(view) for c in given)


def test_the_random_cards_differ_between_seeds() -> None:
    given = set()
    for seed in range(SEED, SEED + 200):
        game = Haymaker(PLAYERS, seed=seed)
        if game.attacker != ANN:
            continue
        before = game.view(BEA)["hand"]
        game.apply(ANN, f"attack:{game.view(ANN)['hand'][0]}")
        game.apply(BEA, "hit")
        given.add(before.index(next(c for c in before if c not in game.view(BEA)["hand"])))
    assert len(given) >= 8  # every hand position gets picked in some game


# -- ways to win --------------------------------------------------------------------------
def test_knockout_when_the_defender_cannot_give_enough_cards() -> None:
    game = position(["AC", "3C", "9D"], ["10H"])
    game.apply(ANN, "haymaker:AC.3C")
    hit = action(game, BEA, "hit")
    assert hit.label == "Take the hit (you cannot give enough cards: knockout)"
    events = game.apply(BEA, "hit")
    assert public(events) == "bea takes the hit but cannot give 2 cards: ann wins by knockout."
    view = game.view()
    assert view["finished"] and view["winners"] == [ANN] and view["result"] == "knockout"
    assert view["phase"] == "over" and view["actors"] == []
    assert view["prompt"] == "ann wins by knockout."
    refused(game, BEA, "block:10H", "This game is over.")


def test_a_defender_with_no_cards_must_take_the_hit_and_is_knocked_out() -> None:
    game = position(["4C", "6D"], [], attacker=BEA, attacked_last=BEA)
    # bea attacked last turn and has no cards: her only move is to pass.
    assert ids(game, BEA) == ["pass"]
    assert game.view()["prompt"] == "bea has no cards and must pass."
    game.apply(BEA, "pass")  # empty deck: nobody draws
    game.apply(ANN, "attack:4C")
    assert ids(game, BEA) == ["hit"]
    assert game.view()["prompt"] == "bea has no cards and must take the hit."
    refused(game, BEA, "block:", "That move is not available right now.")
    game.apply(BEA, "hit")
    assert (game.finished, game.winners, game.view()["result"]) == (True, [ANN], "knockout")


def test_technical_knockout_when_a_reversal_leaves_the_new_attacker_empty() -> None:
    # ann blocks bea's 7 with her last card: a reversal, but the deck is empty, so ann
    # starts her turn as attacker with no cards and no pass (bea attacked last).
    game = position(["7S"], ["7H", "2C"], attacker=BEA)
    game.apply(BEA, "attack:7H")
    events = game.apply(ANN, "block:7S")
    assert public(events).endswith(
        "The deck is empty: nobody draws. "
        "ann has no cards and cannot pass: bea wins by technical knockout."
    )
    view = game.view()
    assert view["result"] == "technical knockout" and view["winners"] == [BEA]
    assert view["discards"][ANN] == len(game.to_dict()["state"]["discards"][ANN])
    assert view["prompt"] == "bea wins by technical knockout."


def test_technical_knockout_after_a_pass_to_an_empty_handed_player() -> None:
    game = position(["4C", "6D"], [], attacked_last=ANN)
    assert ids(game, ANN) == ["attack:4C", "attack:6D", "pass"]
    events = game.apply(ANN, "pass")
    assert public(events) == (
        "ann passes; the roles switch and bea attacks next. The deck is empty: nobody draws. "
        "bea has no cards and cannot pass: ann wins by technical knockout."
    )
    assert game.winners == [ANN] and game.view()["result"] == "technical knockout"


@pytest.mark.parametrize(
    ("ann_discards", "winners", "result", "prompt"),
    [
        (20, [ANN], "decision", "ann wins by decision, 20 discarded cards to 16."),
        (10, [BEA], "decision", "bea wins by decision, 26 discarded cards to 10."),
        (18, [], "draw", "The game is a draw by decision: both discard piles hold 18 cards."),
    ],
)
def test_decision_when_neither_player_has_cards(
    ann_discards: int, winners: list[str], result: str, prompt: str
) -> None:
    # 40 cards: 2 in hands, 4 burned, 34 discarded; the reversal adds 2 to bea's pile.
    game = position(["5C"], ["5D"], ann_discards=ann_discards)
    assert game.scores == {ANN: ann_discards, BEA: 34 - ann_discards}
    game.apply(ANN, "attack:5C")
    events = game.apply(BEA, "block:5D")
    assert "Neither player has cards: decision." in public(events)
    view = game.view()
    assert view["finished"] and view["winners"] == winners and view["result"] == result
    assert game.scores == {ANN: ann_discards, BEA: 36 - ann_discards}
    assert view["prompt"] == prompt


def test_the_match_goes_on_while_one_player_has_cards() -> None:
    game = position(["5C"], ["5D", "6D"])
    game.apply(ANN, "attack:5C")
    game.apply(BEA, "block:5D")  # reversal; ann is out of cards but bea attacks
    assert not game.finished and game.actors() == [BEA]


# -- pass ---------------------------------------------------------------------------------
def test_pass_after_attacking_draws_for_both_new_attacker_first() -> None:
    game = deal(ANN_HAND, BEA_HAND, deck=["5S", "6S"])
    game.apply(ANN, "attack:7C")
    game.apply(BEA, "hit")
    assert action(game, ANN, "pass").label == "Pass (roles switch, both draw)"
    events = game.apply(ANN, "pass")
    assert public(events) == (
        "ann passes; the roles switch and bea attacks next. bea and ann each draw a card."
    )
    assert private(events, BEA) == "You drew 5♠." and private(events, ANN) == "You drew 6♠."
    view = game.view()
    assert (view["attacker"], view["defender"], view["attacked_last"]) == (BEA, ANN, None)
    assert view["hand_sizes"] == {ANN: 11, BEA: 10} and view["deck"] == 14
    assert view["discards"] == {ANN: 1, BEA: 0}
    # bea did not attack last turn (ann did), so no pass for her.
    assert "pass" not in ids(game, BEA)
    refused(game, BEA, "pass", "That move is not available right now.")
    # Once bea has attacked and stays attacker, she may pass.
    game.apply(BEA, "attack:9H")
    game.apply(ANN, "hit")
    assert "pass" in ids(game, BEA)


def test_no_pass_right_after_passing_or_being_reversed() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    game.apply(ANN, "attack:7C")
    game.apply(BEA, "block:7H")  # reversal: bea attacks
    game.apply(BEA, "attack:2C")
    game.apply(ANN, "block:3C")  # no reversal: bea stays attacker and may pass
    assert "pass" in ids(game, BEA)
    game.apply(BEA, "pass")
    assert game.view()["attacker"] == ANN and "pass" not in ids(game, ANN)


def test_pass_with_one_card_left_in_the_deck_draws_it_for_the_new_attacker() -> None:
    game = position(["4C", "6D"], ["9H"], deck=["AS"], attacked_last=ANN)
    events = game.apply(ANN, "pass")
    assert "bea draws the last card of the deck." in public(events)
    assert private(events, BEA) == "You drew A♠." and private(events, ANN) == ""
    assert game.view()["deck"] == 0 and game.view()["hand_sizes"] == {ANN: 2, BEA: 2}


# -- refusals -----------------------------------------------------------------------------
def test_out_of_turn_and_outsiders_are_refused() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    refused(game, BEA, "attack:2C", "It is not your turn.")
    refused(game, "cid", "attack:AC", "You are not playing in this game.")
    refused(game, ANN, "attack:2C", "That move is not available right now.")
    refused(game, ANN, "hit", "That move is not available right now.")
    game.apply(ANN, "attack:AC")
    refused(game, ANN, "attack:3C", "It is not your turn.")
    refused(game, BEA, "attack:2C", "That move is not available right now.")


# -- saving -------------------------------------------------------------------------------
def test_saved_game_continues_identically_including_random_hits() -> None:
    game = deal(ANN_HAND, BEA_HAND)
    game.apply(ANN, "haymaker:AC.3C")
    copy = load(json.loads(json.dumps(game.to_dict())))
    assert copy.view(BEA) == game.view(BEA)
    assert [e.private for e in copy.apply(BEA, "hit")] == [
        e.private for e in game.apply(BEA, "hit")
    ]
    assert copy.to_dict() == game.to_dict()
