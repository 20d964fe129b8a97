"""A War of Suits: scenario tests, one or more per rule, including every worked example.

Decks are stacked with engine.testing.stacked: the red cards listed are the top of Red's deck
in order, the black cards the top of Black's; each side's first three are its hand. Positions
near the end of a game are built with ``position``: the given hands and decks, every other card
in its own colour's victory pile (so all Aces not listed are publicly seen).
"""

from __future__ import annotations

import json
import re

import pytest

import engine
from engine.cards import label
from engine.core import Event, IllegalAction
from engine.games.warofsuits import COLOUR_CARDS, WarOfSuits, points
from engine.testing import stacked

R, B = "rose", "bert"  # Red sits first, Black second
CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")


def new(red: list[str], black: list[str]) -> WarOfSuits:
    game = stacked("warofsuits", [R, B], red + black)
    assert isinstance(game, WarOfSuits)
    return game


def position(
    red_hand: list[str],
    black_hand: list[str],
    red_deck: tuple[str, ...] = (),
    black_deck: tuple[str, ...] = (),
) -> WarOfSuits:
    """A game late on: these hands and decks, all other cards in their colour's victory pile."""
    data = engine.new_game("warofsuits", [R, B]).to_dict()
    used = set(red_hand) | set(black_hand) | set(red_deck) | set(black_deck)
    piles = [[c for c in COLOUR_CARDS[s] if c not in used] for s in (0, 1)]
    data["state"].update(
        hands=[list(red_hand), list(black_hand)],
        decks=[list(red_deck), list(black_deck)],
        piles=piles,
        battle=20,
    )
    data["scores"] = {R: points(piles[0]), B: points(piles[1])}
    game = engine.load(json.loads(json.dumps(data)))
    assert isinstance(game, WarOfSuits)
    return game


def ids(game: WarOfSuits, player: str) -> list[str]:
    return [a.id for a in game.legal_actions(player)]


def battle(game: WarOfSuits, red_card: str, black_card: str) -> list[Event]:
    events = game.apply(R, f"choose:{red_card}")
    return events + game.apply(B, f"choose:{black_card}")


def refused(game: WarOfSuits, player: str, action_id: str, message: str | None = None) -> None:
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=message):
        game.apply(player, action_id)
    assert game.to_dict() == before


def public(events: list[Event]) -> str:
    return " ".join(e.public for e in events)


def cards_in(obj: object) -> set[str]:
    return set(CODE.findall(json.dumps(obj, ensure_ascii=False)))


# -- setup ------------------------------------------------------------------------------------


def test_each_side_has_its_own_shuffled_26_card_deck_and_a_hand_of_3() -> None:
    game = engine.new_game("warofsuits", [R, B], seed=11)
    state = game.to_dict()["state"]
    assert sorted(state["hands"][0] + state["decks"][0]) == sorted(COLOUR_CARDS[0])
    assert sorted(state["hands"][1] + state["decks"][1]) == sorted(COLOUR_CARDS[1])
    view = game.view(R)
    assert view["sides"] == {R: "red", B: "black"}
    assert view["hand_sizes"] == {R: 3, B: 3}
    assert view["deck_sizes"] == {R: 23, B: 23}
    assert view["victory_sizes"] == {R: 0, B: 0}
    assert all(c[-1] in "DH" for c in view["hand"])
    assert all(c[-1] in "CS" for c in game.view(B)["hand"])
    assert game.to_dict() != engine.new_game("warofsuits", [R, B], seed=12).to_dict()


def test_stacked_deck_tops_each_colour_and_fills_the_rest_in_order() -> None:
    game = new(["9H", "KD", "2H", "5D"], ["JS", "3C", "QC", "10S"])
    assert game.view(R)["hand"] == ["2H", "9H", "KD"]
    assert game.view(B)["hand"] == ["3C", "JS", "QC"]
    state = game.to_dict()["state"]
    assert state["decks"][0][:3] == ["5D", "AD", "AH"]
    assert state["decks"][1][:3] == ["10S", "AC", "AS"]
    with pytest.raises(ValueError):
        new(["9H", "9H"], [])
    with pytest.raises(ValueError):
        new(["1H"], [])


def test_exactly_two_players() -> None:
    with pytest.raises(ValueError, match="exactly 2"):
        engine.new_game("warofsuits", [R, B, "cid"])


# -- the secret simultaneous choice ---------------------------------------------------------


def test_both_choose_at_once_and_the_first_choice_stays_secret() -> None:
    game = new(["7H", "2H", "5D"], ["JC", "3S", "9C"])
    assert game.actors() == [R, B]
    assert game.view()["phase"] == "choose"
    events = game.apply(R, "choose:7H")
    assert [e.public for e in events] == ["Red (rose) has chosen a card."]
    assert "7♥" in events[0].private[R] and set(events[0].private) == {R}
    assert "7H" not in cards_in([game.view(), game.view(B)])
    assert game.view()["chosen"] == [R] and game.view(B)["chosen"] == [R]
    assert game.view(R)["choice"] == "choose:7H"
    assert game.view(B)["choice"] is None
    assert game.view()["battlefield"] == {R: [], B: []}
    # Red has chosen: no longer an actor, and a choice is final.
    assert game.actors() == [B]
    refused(game, R, "choose:2H", "not your turn")
    events = game.apply(B, "choose:JC")
    assert "Red (rose) plays 7♥, Black (bert) plays J♣: 7 against 11" in public(events)
    view = game.view()
    assert view["battlefield"] == {R: ["7H"], B: ["JC"]}
    assert view["totals"] == {R: 7, B: 11}
    assert view["chosen"] == []


def test_black_may_choose_first_too() -> None:
    game = new(["7H", "2H", "5D"], ["JC", "3S", "9C"])
    events = game.apply(B, "choose:3S")
    assert public(events) == "Black (bert) has chosen a card."
    assert "3S" not in cards_in([game.view(), game.view(R)])
    assert game.actors() == [R]


# -- Fig. 2 and a plain battle ---------------------------------------------------------------


def test_fig2_the_higher_card_wins_the_battle() -> None:
    game = new(["7H", "2H", "5D", "8H", "9D"], ["JC", "3S", "9C", "4C"])
    battle(game, "7H", "JC")
    # Red is lower and might hold an Ace, so it has the window; Black waits.
    assert game.view()["phase"] == "react"
    assert game.actors() == [R] and game.view()["window"] == [R]
    assert ids(game, R) == ["accept"]
    refused(game, B, "accept", "not your turn")
    events = game.apply(R, "accept")
    assert "Black (bert) wins battle 1 and takes 2 cards" in public(events)
    state = game.to_dict()["state"]
    assert state["piles"] == [[], ["7H", "JC"]]
    assert game.view()["last_battle"] == {"winner": B, "battlefield": {R: ["7H"], B: ["JC"]}}
    assert game.scores == {R: 0, B: 3}


# -- Fig. 3 and Fig. 4: head to head, or an Ace to stop it ----------------------------------


def fig3() -> WarOfSuits:
    game = new(["7H", "AD", "2H", "9D", "6H"], ["7C", "JS", "10C", "4S"])
    battle(game, "7H", "7C")
    return game


def test_fig3_matching_cards_go_head_to_head_with_the_whole_hand() -> None:
    game = fig3()
    assert game.view()["phase"] == "tie"
    assert game.actors() == [R, B]
    assert ids(game, R) == ["ace:AD", "reinforce"]
    assert ids(game, B) == ["reinforce"]  # Black holds no Ace but is asked all the same
    game.apply(R, "reinforce")
    events = game.apply(B, "reinforce")
    text = public(events)
    assert "Head to head: Red (rose) adds A♦, 2♥, Black (bert) adds 10♣, J♠: 10 against 28" in text
    assert "Black (bert) wins battle 1 and takes 6 cards" in text
    assert sorted(game.to_dict()["state"]["piles"][1]) == sorted(
        ["7H", "AD", "2H", "7C", "JS", "10C"]
    )
    assert game.scores == {R: 0, B: 8}


def test_fig4_an_ace_stops_the_head_to_head_before_the_reinforcements() -> None:
    game = fig3()
    events = game.apply(R, "ace:AD")
    assert public(events) == "Red (rose) has decided."
    assert "A♦" in events[0].private[R]
    assert "AD" not in cards_in([game.view(), game.view(B)])
    events = game.apply(B, "reinforce")
    assert "Red (rose) plays A♦ to stop the fight" in public(events)
    # Black might still hold an Ace: it may answer, but it has none here.
    assert game.actors() == [B] and game.view()["phase"] == "answer"
    assert game.view()["ace"] == R
    assert ids(game, B) == ["accept"]
    game.apply(B, "accept")
    state = game.to_dict()["state"]
    assert sorted(state["piles"][0]) == ["7C", "7H", "AD"]
    assert state["piles"][1] == []
    assert {"JS", "10C"} <= set(game.view(B)["hand"])  # Black's reinforcements never joined


# -- Fig. 5 and Fig. 6: doubles ------------------------------------------------------------


def test_fig5_double_with_a_card_matching_your_own_first_card() -> None:
    game = new(["4H", "4D", "9H", "2D", "3D"], ["7C", "2S", "QC", "5C"])
    battle(game, "4H", "7C")
    assert ids(game, R) == ["double:4D", "accept"]
    events = game.apply(R, "double:4D")
    assert "Red (rose) doubles with 4♦: 8 against 7" in public(events)
    assert game.view()["totals"] == {R: 8, B: 7}
    assert game.view()["doubled"] == {R: True, B: False}
    # Now Black is lower and has the window.
    assert game.actors() == [B]
    assert ids(game, B) == ["accept"]
    game.apply(B, "accept")
    assert sorted(game.to_dict()["state"]["piles"][0]) == ["4D", "4H", "7C"]
    assert game.scores == {R: 3, B: 0}


def test_fig6_double_with_a_card_matching_the_opponents_first_card() -> None:
    game = new(["2H", "7D", "9H"], ["7C", "3S", "QC"])
    battle(game, "2H", "7C")
    assert ids(game, R) == ["double:7D", "accept"]
    events = game.apply(R, "double:7D")
    assert "9 against 7" in public(events)
    game.apply(B, "accept")
    assert sorted(game.to_dict()["state"]["piles"][0]) == ["2H", "7C", "7D"]


def test_a_card_matching_neither_first_card_is_no_double() -> None:
    game = new(["2H", "7D", "9H"], ["7C", "3S", "QC"])
    battle(game, "2H", "7C")
    refused(game, R, "double:9H", "not available")


def test_no_second_double_for_the_same_side() -> None:
    game = new(["2H", "2D", "9H"], ["9C", "3S", "QC"])
    battle(game, "2H", "9C")
    assert ids(game, R) == ["double:2D", "double:9H", "accept"]
    game.apply(R, "double:2D")
    # 4 against 9: Red is still lower and keeps the window, but its double is spent.
    assert game.actors() == [R]
    assert ids(game, R) == ["accept"]
    refused(game, R, "double:9H", "not available")
    assert "double" not in game.view()["prompt"]


def test_after_a_double_the_other_side_may_double_back_but_not_again() -> None:
    game = new(["4H", "4D", "7H"], ["7C", "7S", "QC"])
    battle(game, "4H", "7C")
    game.apply(R, "double:4D")
    assert ids(game, B) == ["double:7S", "accept"]
    game.apply(B, "double:7S")
    assert game.view()["totals"] == {R: 8, B: 14}
    assert game.actors() == [R]
    assert ids(game, R) == ["accept"]  # 7♥ would match, but Red has doubled already
    refused(game, R, "double:7H", "not available")
    game.apply(R, "accept")
    assert sorted(game.to_dict()["state"]["piles"][1]) == ["4D", "4H", "7C", "7S"]


def test_the_higher_side_has_no_window() -> None:
    game = new(["2H", "7D", "9H"], ["7C", "2S", "QC"])
    battle(game, "2H", "7C")
    refused(game, B, "double:2S", "not your turn")
    refused(game, B, "accept", "not your turn")


def test_a_double_that_makes_a_tie_leads_to_the_tie_choice() -> None:
    game = new(["4H", "4D", "9H"], ["8C", "8S", "QC"])
    battle(game, "4H", "8C")
    game.apply(R, "double:4D")
    assert game.view()["phase"] == "tie"
    assert game.view()["totals"] == {R: 8, B: 8}
    assert game.actors() == [R, B]
    assert ids(game, B) == ["reinforce"]  # no doubles in a tie, even with 8♠ in hand
    game.apply(R, "reinforce")
    game.apply(B, "reinforce")
    # Head to head: Red 8 + 9 = 17, Black 8 + 8 + 12 = 28.
    assert len(game.to_dict()["state"]["piles"][1]) == 6


# -- Aces ------------------------------------------------------------------------------------


def test_an_ace_claims_the_battle_and_closes_doubles() -> None:
    game = new(["5H", "AH", "8D"], ["9C", "5C", "QC"])
    battle(game, "5H", "9C")
    assert ids(game, R) == ["ace:AH", "accept"]
    events = game.apply(R, "ace:AH")
    assert "Red (rose) plays A♥ to claim the battle" in public(events)
    assert game.actors() == [B] and game.view()["phase"] == "answer"
    assert ids(game, B) == ["accept"]  # 5♣ matches Red's 5, but doubles are closed
    refused(game, B, "double:5C", "not available")
    game.apply(B, "accept")
    assert sorted(game.to_dict()["state"]["piles"][0]) == ["5H", "9C", "AH"]
    assert game.scores[R] == 4


def test_the_gameplay_example() -> None:
    """Red 3♥, Black 5♣; Red doubles with 3♦; Black claims with A♣; Red answers with A♥."""
    game = new(["3H", "3D", "AH"], ["5C", "AC", "9S"])
    battle(game, "3H", "5C")
    assert game.view()["totals"] == {R: 3, B: 5}  # 5 is higher than 3: Black will win
    assert ids(game, R) == ["double:3D", "ace:AH", "accept"]
    game.apply(R, "double:3D")
    assert game.view()["totals"] == {R: 6, B: 5}  # 6 is higher than 5: Red will win
    assert game.actors() == [B]
    game.apply(B, "ace:AC")  # Black adds A♣ to block Red's win
    assert game.actors() == [R] and game.view()["ace"] == B
    assert ids(game, R) == ["ace:AH", "accept"]
    game.apply(R, "ace:AH")  # Red adds A♥ to block Black's win
    assert ids(game, B) == ["accept"]  # Black has no further moves
    events = game.apply(B, "accept")
    assert "Red (rose) wins battle 1 and takes 5 cards" in public(events)
    assert sorted(game.to_dict()["state"]["piles"][0]) == ["3D", "3H", "5C", "AC", "AH"]
    assert game.scores == {R: 7, B: 0}


def test_the_last_ace_wins_and_a_side_known_to_have_no_ace_is_not_asked() -> None:
    game = new(["5H", "AH", "AD"], ["9C", "AC", "AS"])
    battle(game, "5H", "9C")
    game.apply(R, "ace:AH")
    game.apply(B, "ace:AC")
    game.apply(R, "ace:AD")
    events = game.apply(B, "ace:AS")
    # Both red Aces are on the field: Red surely cannot answer, so Black wins at once.
    assert "Black (bert) wins battle 1 and takes 6 cards" in public(events)
    assert game.view()["phase"] == "choose"
    assert sorted(game.to_dict()["state"]["piles"][1]) == ["5H", "9C", "AC", "AD", "AH", "AS"]


def test_an_ace_played_as_the_first_card_has_no_power() -> None:
    game = new(["AH", "2D", "9H"], ["5C", "2S", "QC"])
    battle(game, "AH", "5C")
    assert game.view()["totals"] == {R: 1, B: 5}
    assert game.view()["phase"] == "react" and game.actors() == [R]
    assert ids(game, R) == ["accept"]  # the Ace on the field claims nothing
    game.apply(R, "accept")
    assert sorted(game.to_dict()["state"]["piles"][1]) == ["5C", "AH"]


def test_a_first_card_ace_is_not_a_claim_for_black_either_and_aces_never_double() -> None:
    game = new(["3H", "2D", "9H"], ["AC", "AS", "QC"])
    battle(game, "3H", "AC")
    assert game.actors() == [B]
    # A♠ matches Black's first card, but an Ace from hand is always a claim, never a double.
    assert ids(game, B) == ["ace:AS", "accept"]
    game.apply(B, "ace:AS")
    assert game.actors() == [R] and ids(game, R) == ["accept"]
    game.apply(R, "accept")
    assert sorted(game.to_dict()["state"]["piles"][1]) == ["3H", "AC", "AS"]


def test_two_first_card_aces_tie() -> None:
    game = new(["AH", "2D", "9H"], ["AC", "2S", "QC"])
    battle(game, "AH", "AC")
    assert game.view()["phase"] == "tie"


# -- ties ---------------------------------------------------------------------------------------


def test_a_tie_choice_is_secret_until_both_decide() -> None:
    game = new(["7H", "AD", "2H"], ["7C", "AS", "10C"])
    battle(game, "7H", "7C")
    events = game.apply(B, "ace:AS")
    assert public(events) == "Black (bert) has decided."
    assert set(events[0].private) == {B} and "A♠" in events[0].private[B]
    assert game.view(B)["choice"] == "ace:AS"
    assert "AS" not in cards_in([game.view(), game.view(R)])
    assert "ace:AS" not in json.dumps([game.view(), game.view(R)])
    assert game.view()["chosen"] == [B]
    assert game.actors() == [R]
    assert "Red (rose) to play an Ace or reinforce; Black has decided" in game.view()["prompt"]


def test_two_aces_in_a_tie_cancel_and_both_choose_again() -> None:
    game = new(["7H", "AH", "2H"], ["7C", "AC", "3C"])
    battle(game, "7H", "7C")
    game.apply(R, "ace:AH")
    events = game.apply(B, "ace:AC")
    assert "the Aces cancel (8 against 8)" in public(events)
    assert game.view()["phase"] == "tie"
    assert game.view()["battlefield"] == {R: ["7H", "AH"], B: ["7C", "AC"]}
    # Each side's other Ace is unseen, so both are asked again.
    assert game.actors() == [R, B]
    game.apply(R, "reinforce")
    events = game.apply(B, "reinforce")
    assert "10 against 11" in public(events)
    assert sorted(game.to_dict()["state"]["piles"][1]) == ["2H", "3C", "7C", "7H", "AC", "AH"]


def test_one_ace_in_a_tie_can_be_answered_by_an_ace() -> None:
    game = new(["7H", "AH", "2H"], ["7C", "AC", "3C"])
    battle(game, "7H", "7C")
    game.apply(R, "ace:AH")
    game.apply(B, "reinforce")
    assert game.actors() == [B] and ids(game, B) == ["ace:AC", "accept"]
    game.apply(B, "ace:AC")
    assert game.actors() == [R]  # A♦ is unseen: Red may still answer
    assert ids(game, R) == ["accept"]
    game.apply(R, "accept")
    state = game.to_dict()["state"]
    assert sorted(state["piles"][1]) == ["7C", "7H", "AC", "AH"]
    assert "2H" in game.view(R)["hand"]


def test_a_tie_where_nobody_can_hold_an_ace_goes_straight_to_head_to_head() -> None:
    game = position(["7H", "2H", "KH"], ["7C", "9S", "3S"], red_deck=("5D",), black_deck=("5S",))
    battle(game, "7H", "7C")
    # All four Aces are in victory piles: no choice to make.
    assert game.view()["phase"] == "choose"
    assert sorted(game.view()["last_battle"]["battlefield"][R]) == ["2H", "7H", "KH"]
    assert game.view()["last_battle"]["winner"] == R


def test_head_to_head_still_tied_draws_from_the_decks() -> None:
    game = new(["7H", "2H", "5H", "9D", "KD", "4D"], ["7C", "3C", "4S", "9S", "10C", "6C"])
    battle(game, "7H", "7C")
    game.apply(R, "reinforce")
    events = game.apply(B, "reinforce")
    text = public(events)
    assert "14 against 14" in text
    assert "Still tied: Red (rose) adds 9♦, Black (bert) adds 9♠ from the deck: 23 against 23" in (
        text
    )
    assert "Red (rose) adds K♦, Black (bert) adds 10♣ from the deck: 36 against 33" in text
    assert "Red (rose) wins battle 1 and takes 10 cards" in text
    # The hands were emptied by the head to head and are refilled from the decks.
    assert game.view(R)["hand"] == ["AD", "AH", "4D"]
    assert game.view()["deck_sizes"] == {R: 26 - 8, B: 26 - 8}


def test_head_to_head_when_only_one_side_can_still_draw() -> None:
    game = position(["7H", "2H", "5H"], ["7C", "3C", "4S"], black_deck=("2S",))
    battle(game, "7H", "7C")
    state = game.to_dict()["state"]
    assert game.view()["last_battle"]["winner"] == B
    assert {"7H", "2H", "5H", "7C", "3C", "4S", "2S"} <= set(state["piles"][1])
    assert game.finished  # both sides are out of cards now


def test_all_tied_with_nothing_left_each_side_takes_back_its_own_cards_and_draws() -> None:
    game = position(["7H", "2H"], ["7C", "2S"])
    events = battle(game, "7H", "7C")
    text = public(events)
    assert "Head to head" in text and "9 against 9" in text
    assert "each side takes back its own cards" in text
    state = game.to_dict()["state"]
    assert set(state["piles"][0]) == set(COLOUR_CARDS[0])
    assert set(state["piles"][1]) == set(COLOUR_CARDS[1])
    # Equal scores: the game is a draw, with no winners.
    assert game.finished and game.winners == []
    assert game.scores == {R: 34, B: 34}
    assert "a draw" in text and "a draw" in game.view()["prompt"]
    assert game.view()["phase"] == "over" and game.actors() == []


# -- refills, running out, scoring ---------------------------------------------------------------


def test_hands_are_refilled_to_three_and_only_the_owner_learns_the_cards() -> None:
    game = new(["4H", "4D", "9H", "2D", "3D"], ["7C", "2S", "QC", "5C"])
    battle(game, "4H", "7C")
    game.apply(R, "double:4D")
    events = game.apply(B, "accept")
    refill = next(e for e in events if e.public.startswith("Hands refilled"))
    assert refill.public == "Hands refilled: Red draws 2, Black draws 1."
    assert refill.private == {R: "You draw 2♦, 3♦.", B: "You draw 5♣."}
    assert game.view(R)["hand"] == ["2D", "3D", "9H"]
    assert game.view(B)["hand"] == ["2S", "5C", "QC"]
    assert game.view()["deck_sizes"] == {R: 21, B: 22}
    assert game.view()["battle"] == 2 and game.actors() == [R, B]


def test_a_short_deck_refills_what_it_can() -> None:
    game = position(["5H", "6H", "7H"], ["9C", "10C", "JC"], red_deck=("8H",))
    battle(game, "5H", "9C")
    game_state = game.to_dict()["state"]
    assert game_state["hands"][0] == ["6H", "7H", "8H"]
    assert game_state["hands"][1] == ["10C", "JC"]
    assert not game.finished


def test_running_out_ends_the_game_and_the_other_side_keeps_its_cards() -> None:
    game = position(["5H"], ["9C", "2S"], black_deck=("3S",))
    events = battle(game, "5H", "9C")
    text = public(events)
    # Red has no card left to react with, so the battle is decided at once.
    assert "Black (bert) wins battle 20" in text
    assert "Red has run out of cards: Black (bert) adds its remaining 2 cards" in text
    assert game.finished and game.winners == [B]
    state = game.to_dict()["state"]
    assert state["hands"] == [[], []] and state["decks"] == [[], []]
    assert {"9C", "5H", "2S", "3S"} <= set(state["piles"][1])
    assert game.scores == {R: 33, B: 35}
    assert "Game over: Red 33, Black 35; Black (bert) wins." in text


def test_scoring_counts_number_cards_1_and_faces_and_aces_2() -> None:
    assert points(["2H", "10C", "7S"]) == 3
    assert points(["JH", "QD", "KS", "AC"]) == 8
    assert points(COLOUR_CARDS[0]) == points(COLOUR_CARDS[1]) == 34


def test_the_higher_score_wins() -> None:
    game = position(["KH"], ["2C"])
    battle(game, "KH", "2C")
    assert game.finished
    assert game.scores == {R: 35, B: 33}
    assert game.winners == [R]


# -- refusals, persistence -------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    game = new(["7H", "2H", "5D"], ["JC", "3S", "9C"])
    refused(game, "zed", "choose:7H", "not playing")
    refused(game, R, "choose:KH", "not available")
    refused(game, R, "choose:JC", "not available")
    refused(game, R, "accept", "not available")
    refused(game, R, "nonsense", "not available")
    battle(game, "7H", "JC")
    refused(game, R, "ace:AH", "not available")
    refused(game, R, "choose:2H", "not available")
    refused(game, B, "accept", "not your turn")


def test_a_finished_game_refuses_everything() -> None:
    game = position(["KH"], ["2C"])
    battle(game, "KH", "2C")
    refused(game, R, "accept", "over")
    assert game.legal_actions(R) == []


def test_a_saved_game_keeps_a_secret_choice_and_continues_identically() -> None:
    game = new(["7H", "AD", "2H"], ["7C", "JS", "10C"])
    game.apply(R, "choose:7H")
    copy = engine.load(json.loads(json.dumps(game.to_dict())))
    assert copy.actors() == [B]
    assert copy.view(R)["choice"] == "choose:7H"
    for g in (game, copy):
        g.apply(B, "choose:7C")
        g.apply(R, "ace:AD")
        g.apply(B, "reinforce")
        g.apply(B, "accept")
    assert copy.to_dict() == game.to_dict()


def test_the_view_lists_every_documented_key() -> None:
    view = new(["7H", "2H", "5D"], ["JC", "3S", "9C"]).view(R)
    for key in (
        "phase",
        "prompt",
        "sides",
        "battle",
        "battlefield",
        "totals",
        "chosen",
        "deck_sizes",
        "hand_sizes",
        "victory_sizes",
        "window",
        "doubled",
        "ace",
        "last_battle",
        "hand",
        "choice",
    ):
        assert key in view
    assert "hand" not in new(["7H"], ["JC"]).view()
    assert "choice" not in new(["7H"], ["JC"]).view()


def test_action_labels_name_the_cards() -> None:
    game = new(["4H", "4D", "AH"], ["7C", "2S", "QC"])
    assert [a.label for a in game.legal_actions(R)] == [
        "Play A♥ face down",
        "Play 4♦ face down",
        "Play 4♥ face down",
    ]
    battle(game, "4H", "7C")
    labels = {a.id: a.label for a in game.legal_actions(R)}
    assert labels == {
        "double:4D": "Double with 4♦ (+4)",
        "ace:AH": f"Claim the battle with {label('AH')}",
        "accept": "Accept the loss",
    }


def test_a_side_with_no_ace_left_is_made_to_reinforce_publicly() -> None:
    """RULINGS: a side that surely holds no Ace can only reinforce, decided for it, publicly.
    Before: the view showed it as a side that had decided in secret."""
    # Every other card is in its colour's victory pile, both red Aces among them: seen, so Red
    # surely holds none; Black still might (A♠ in hand, unseen).
    game = position(["7H", "2H", "3H"], ["7C", "AS", "10C"])
    events = battle(game, "7H", "7C")
    assert game.view()["phase"] == "tie" and game.actors() == [B]
    assert game.view()["forced"] == [R] and game.view(R)["choice_forced"]
    assert not game.view(B)["choice_forced"]
    assert "Red (rose) has no Ace left: it reinforces." in public(events)
    prompt = game.view()["prompt"]
    assert prompt == "Black (bert) to play an Ace or reinforce; Red reinforces (no Ace left)."
