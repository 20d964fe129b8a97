"""UNO scenario tests: each rule of the seed rulebook, each ruling and each house rule.

Stacking (see engine/games/uno.py): with a stacked deck seat 0 deals, hands are dealt one
card at a time starting with seat 1, then the first discard is flipped, then the draw pile
(top first). ``deal()`` builds such a deck from the hands. ``position()`` loads a mid-round
position (any hands, top card, draw pile) through the saved state, for rules that need small
hands or a particular moment.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

import engine
from engine import IllegalAction, InvalidOption, load
from engine.core import Action, Event, Game
from engine.games import uno
from engine.games.uno import Uno
from engine.games.uno_cards import CUSTOM_RULES, POINTS, build_deck, classic_deck, sort_hand
from engine.testing import stacked

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "joe"]
ANN, BOB, CAT, DAN = NAMES[:4]
FILL = ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]


def deal(
    hands: list[list[str]],
    first: str,
    draw: Iterable[str] = (),
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> Game:
    """A new game: seat i (``NAMES[i]``) holds ``hands[i]`` (7 cards); seat 0 deals."""
    n = len(hands)
    assert all(len(h) == 7 for h in hands)
    deck = [hands[k % n][r] for r in range(7) for k in range(1, n + 1)]
    return stacked("uno", NAMES[:n], [*deck, first, *draw], seed=seed, options=options)


def position(
    hands: list[list[str]],
    top: str,
    *,
    color: str = "",
    draw: Iterable[str] = ("G9",) * 10,
    under: Iterable[str] = (),
    cur: int = 0,
    direction: int = 1,
    options: dict[str, Any] | None = None,
    scores: dict[str, int] | None = None,
    **state: Any,
) -> Game:
    """A round in progress: hands per seat, ``top`` on ``under``, ``draw`` top first."""
    n = len(hands)
    game = deal([FILL] * n, "R0", options=options)
    data = game.to_dict()
    data["state"].update(
        h=[" ".join(h) for h in hands],
        d=" ".join(reversed(list(draw))),
        x=" ".join([*under, top]),
        c=color or top[0],
        v=direction,
        t=cur,
        ph="play",
        **state,
    )
    if scores:
        data["scores"].update(scores)
    return load(json.loads(json.dumps(data)))


def number(card: str) -> bool:
    return card[0] != "W" and card[1:].isdigit()


def ids(game: Game, player: str) -> list[str]:
    return [a.id for a in game.legal_actions(player)]


def hand(game: Game, player: str) -> list[str]:
    return game.view(player)["hand"]


def public(events: list[Event]) -> str:
    return " ".join(e.public for e in events)


def refused(game: Game, player: str, action: str) -> str:
    """Apply must refuse and change nothing; the message."""
    before = json.dumps(game.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        game.apply(player, action)
    assert json.dumps(game.to_dict(), sort_keys=True) == before
    return str(err.value)


# -- the deck and the deal ------------------------------------------------------------------
def test_classic_deck_is_108_cards_and_the_extras_make_112() -> None:
    deck = Counter(classic_deck())
    assert sum(deck.values()) == 108
    for col in "RYGB":
        assert sum(n for c, n in deck.items() if c[0] == col and c[1:].isdigit()) == 19
        assert deck[col + "0"] == 1 and deck[col + "9"] == 2
        assert deck[col + "D2"] == deck[col + "R"] == deck[col + "S"] == 2
    assert deck["W"] == deck["W4"] == 4
    assert len(build_deck(True, [1, 2, 3])) == 112
    game = engine.new_game("uno", NAMES[:4], seed=1, options={"swap_hands": True})
    counts = sum(game.view()["hand_sizes"].values()) + game.view()["draw_pile"] + 1
    assert counts == 109


def test_card_points() -> None:
    assert POINTS["R7"] == 7 and POINTS["B0"] == 0
    assert POINTS["GD2"] == POINTS["YR"] == POINTS["BS"] == 20
    assert POINTS["W"] == POINTS["W4"] == 50
    assert POINTS["WS"] == POINTS["WC3"] == 40


def test_stacked_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    hands = [
        ["R1", "R2", "R3", "R4", "R5", "R6", "R7"],
        ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"],
        ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
    ]
    game = deal(hands, "B5", draw=["B8", "B9"])
    view = game.view()
    assert view["dealer"] == ANN and view["current"] == BOB
    assert view["top"] == "B5" and view["color"] == "B" and view["round"] == 1
    assert view["draw_pile"] == 2 and view["discard_pile"] == 1
    for i, h in enumerate(hands):
        assert hand(game, NAMES[i]) == h
    game.apply(BOB, "draw")
    assert "B8" in hand(game, BOB)  # the draw pile's top card is the first after the flip


def test_dealer_draw_highest_number_deals_symbols_zero_ties_draw_again() -> None:
    ties = 0
    for seed in range(300):
        view = engine.new_game("uno", NAMES[:5], seed=seed).view()
        draws = view["dealer_draw"]
        contenders = set(NAMES[:5])
        for k, draw in enumerate(draws):
            assert set(draw) == contenders  # exactly the tied players draw again
            value = {
                p: (int(c[1]) if c[0] != "W" and c[1:].isdigit() else 0) for p, c in draw.items()
            }
            best = max(value.values())
            contenders = {p for p, v in value.items() if v == best}
            if k < len(draws) - 1:
                assert len(contenders) > 1
        assert contenders == {view["dealer"]}
        ties += len(draws) > 1
        # The player left of the dealer starts (unless the first card says otherwise).
        if view["top"][1:].isdigit():
            assert view["current"] == NAMES[(NAMES.index(view["dealer"]) + 1) % 5]
    assert ties > 10


def test_the_deal_passes_left_each_round_and_scores_carry_over() -> None:
    game = position([["R5"], ["G1", "G2"], ["Y1"]], "R1", cur=0, dl=0)
    game.apply(ANN, "play:R5")
    view = game.view()
    assert view["round"] == 2 and view["dealer"] == BOB
    assert view["scores"][ANN] == 4  # 1 + 2 + 1
    assert sum(view["hand_sizes"].values()) >= 21 and view["discard_pile"] == 1
    assert view["last_round"] == {
        "round": 1,
        "winner": ANN,
        "points": {ANN: 0, BOB: 3, CAT: 1},
        "hands": {ANN: [], BOB: ["G1", "G2"], CAT: ["Y1"]},  # revealed as they are counted
        "deadlock": False,
    }


# -- the first discard --------------------------------------------------------------------
def test_first_number_card_left_of_the_dealer_starts() -> None:
    game = deal([FILL] * 3, "G7")
    assert game.actors() == [BOB] and game.view()["direction"] == 1
    assert game.view()["phase"] == "play"


def test_first_wild_draw_four_is_returned_and_another_flipped() -> None:
    game = deal([FILL] * 3, "W4", draw=["Y3", "R1", "R2"])
    view = game.view()
    assert view["top"] == "Y3" and view["color"] == "Y" and view["discard_pile"] == 1
    assert view["draw_pile"] == 3  # the Wild Draw Four went back into the draw pile
    assert "W4" in game.to_dict()["state"]["d"].split()
    assert game.actors() == [BOB]


def test_first_wild_the_player_left_of_the_dealer_chooses_the_colour() -> None:
    for wild in ("W", "WS", "WC4"):
        options = {"swap_hands": True, "custom_wilds": 1, "custom_rules": "4"}
        game = deal([FILL] * 3, wild, options=options)
        view = game.view()
        assert view["phase"] == "color" and view["color"] is None
        assert game.actors() == [BOB]
        assert ids(game, BOB) == ["color:R", "color:Y", "color:G", "color:B"]
        assert ids(game, CAT) == []
        refused(game, CAT, "color:R")
        events = game.apply(BOB, "color:G")
        assert "bob chooses Green" in public(events)
        view = game.view()
        assert view["color"] == "G" and view["phase"] == "play"
        assert view["current"] == BOB  # ...and then plays first
        assert view["hand_sizes"] == {ANN: 7, BOB: 7, CAT: 7}  # no swap, no custom rule
        assert "play:B1" not in ids(game, BOB)


def test_first_draw_two_the_first_player_draws_two_and_is_skipped() -> None:
    game = deal([FILL] * 3, "RD2", draw=["Y1", "Y2", "Y3"])
    view = game.view()
    assert view["hand_sizes"][BOB] == 9 and view["current"] == CAT
    assert hand(game, BOB)[:2] == ["Y1", "Y2"]


def test_first_draw_two_is_not_stackable() -> None:
    hands = [FILL, ["YD2", *FILL[:6]], FILL]
    game = deal(hands, "RD2", draw=["Y1", "Y2"], options={"stack_draws": True})
    assert game.view()["hand_sizes"][BOB] == 9 and game.view()["current"] == CAT


def test_first_reverse_the_dealer_goes_first_and_play_goes_right() -> None:
    game = deal([FILL] * 4, "GR")
    view = game.view()
    assert view["current"] == ANN and view["direction"] == -1
    game.apply(ANN, "draw")  # nothing to draw, nothing to play: the turn passes to the right
    assert game.view()["current"] == DAN


def test_first_skip_the_player_left_of_the_dealer_is_skipped() -> None:
    game = deal([FILL] * 4, "GS")
    assert game.view()["current"] == CAT


# -- matching, drawing, passing -------------------------------------------------------------
def test_match_by_colour_number_or_symbol_or_play_a_wild() -> None:
    # The rulebook's example: on a red 7, a red card or any 7, or a Wild.
    game = position([["R2", "B7", "G4", "W", "W4", "YS", "R7"], FILL, FILL], "R7")
    assert ids(game, ANN) == [
        "play:R2",
        "play:B7",
        *[f"play:W:{c}" for c in "RYGB"],
        *[f"play:W4:{c}" for c in "RYGB"],
        "play:R7",
        "draw",
    ]
    assert refused(game, ANN, "play:G4") == "That move is not available right now."
    refused(game, ANN, "play:YS")
    game = position([["GS", "YS", "BD2", "W"], FILL, FILL], "RS")
    assert ids(game, ANN)[:2] == ["play:GS", "play:YS"]  # symbol on symbol
    assert "play:BD2" not in ids(game, ANN)


def test_a_wild_on_top_is_matched_by_the_declared_colour_only() -> None:
    game = position([["R4", "G4", "W"], FILL, FILL], "W", color="G")
    assert ids(game, ANN) == ["play:G4", *[f"play:W:{c}" for c in "RYGB"], "draw"]


def test_identical_cards_give_one_action() -> None:
    game = position([["R4", "R4", "W", "W"], FILL, FILL], "R1")
    assert ids(game, ANN).count("play:R4") == 1
    assert ids(game, ANN).count("play:W:R") == 1


def test_playing_a_card_moves_to_the_left() -> None:
    game = position([["R4", "B1"], FILL, FILL], "R1")
    events = game.apply(ANN, "play:R4")
    assert public(events) == "ann plays Red 4."
    view = game.view()
    assert view["top"] == "R4" and view["current"] == BOB and view["hand_sizes"][ANN] == 1


def test_wild_chooses_any_colour_even_the_one_in_play() -> None:
    game = position([["R4", "W", "B1"], FILL, FILL], "R1")
    game.apply(ANN, "play:W:R")
    assert game.view()["color"] == "R" and game.view()["top"] == "W"


def test_drawing_is_allowed_while_holding_a_playable_card() -> None:
    game = position([["R4", "B1"], FILL, FILL], "R1", draw=["G9"])
    assert "draw" in ids(game, ANN)
    events = game.apply(ANN, "draw")
    assert public(events) == "ann draws 1 card and the turn passes."
    assert events[0].private == {ANN: "You drew Green 9."}
    # The unplayable drawn card ends the turn: the playable R4 cannot be played any more.
    assert game.view()["current"] == BOB and "G9" in hand(game, ANN)


def test_a_playable_drawn_card_may_be_played_at_once_but_no_other_card() -> None:
    game = position([["R4", "B1"], FILL, FILL], "R1", draw=["R9"])
    events = game.apply(ANN, "draw")
    assert public(events) == "ann draws 1 card."
    view = game.view(ANN)
    assert view["phase"] == "drawn" and view["drawn"] == "R9" and view["current"] == ANN
    assert "drawn" not in game.view() and "drawn" not in game.view(BOB)
    assert ids(game, ANN) == ["play:R9", "pass"]
    refused(game, ANN, "play:R4")
    game.apply(ANN, "play:R9")
    assert game.view()["top"] == "R9" and game.view()["current"] == BOB


def test_pass_keeps_the_drawn_card() -> None:
    game = position([["R4", "B1"], FILL, FILL], "R1", draw=["W4"])
    game.apply(ANN, "draw")
    assert ids(game, ANN) == [*[f"play:W4:{c}" for c in "RYGB"], "pass"]
    events = game.apply(ANN, "pass")
    assert public(events) == "ann keeps the card."
    assert "W4" in hand(game, ANN) and game.view()["current"] == BOB
    assert game.view()["phase"] == "play"


def test_forced_play_a_playable_drawn_card_must_be_played() -> None:
    game = position([["B1"], FILL, FILL], "R1", draw=["R9"], options={"forced_play": True})
    game.apply(ANN, "draw")
    assert ids(game, ANN) == ["play:R9", "play+uno:R9"]  # two cards: the play may call UNO
    refused(game, ANN, "pass")


def test_draw_until_playable() -> None:
    options = {"draw_until_playable": True}
    game = position(
        [["B1", "B2"], FILL, FILL], "R1", draw=["G2", "Y5", "G1", "B8"], options=options
    )
    events = game.apply(ANN, "draw")
    assert public(events) == "ann draws 3 cards."
    assert events[0].private == {ANN: "You drew Yellow 5, Green 1, Green 2."}
    assert game.view(ANN)["drawn"] == "G1" and ids(game, ANN) == ["play:G1", "pass"]
    # Without the option only one card is drawn.
    game = position([["B1", "B2"], FILL, FILL], "R1", draw=["G2", "Y5", "G1"])
    game.apply(ANN, "draw")
    assert game.view()["hand_sizes"][ANN] == 3 and game.view()["current"] == BOB


def test_draw_until_playable_stops_when_the_piles_run_out() -> None:
    options = {"draw_until_playable": True}
    game = position([["B1", "B2"], FILL, FILL], "R1", draw=["G2", "Y5"], options=options)
    events = game.apply(ANN, "draw")
    assert public(events) == "ann draws 2 cards and the turn passes."
    assert game.view()["current"] == BOB


# -- action cards ----------------------------------------------------------------------------
def test_skip_the_next_player_loses_their_turn() -> None:
    game = position([["RS", "B1"], FILL, FILL], "R1")
    events = game.apply(ANN, "play:RS")
    assert public(events) == "ann plays Red Skip: bob is skipped."
    assert game.view()["current"] == CAT


def test_reverse_changes_the_direction() -> None:
    hands = [["RR", "B1", "B2"], ["G1", "B2", "B3"], ["Y1", "Y2"], ["R3", "B2"]]
    game = position(hands, "R1", cur=0)
    game.apply(ANN, "play:RR")
    assert game.view()["direction"] == -1 and game.view()["current"] == DAN
    game.apply(DAN, "play:R3")
    assert game.view()["current"] == CAT


def test_draw_two_the_next_player_draws_two_and_misses_their_turn() -> None:
    game = position([["RD2", "B1"], FILL, FILL], "R1", draw=["Y1", "Y2", "Y3"])
    events = game.apply(ANN, "play:RD2")
    assert public(events) == "ann plays Red Draw Two. bob draws 2 cards and is skipped."
    assert events[1].private == {BOB: "You drew Yellow 1, Yellow 2."}
    assert game.view()["current"] == CAT and game.view()["hand_sizes"][BOB] == 9


@pytest.mark.parametrize("card", ["RS", "RR", "RD2", "W4:G"])
def test_two_players_after_skip_reverse_draw_two_or_four_the_same_player_plays_again(
    card: str,
) -> None:
    game = position([["RS", "RR", "RD2", "W4", "B1"], FILL], "R1", draw=["Y1"] * 8)
    game.apply(ANN, f"play:{card}")
    if card.startswith("W4"):
        assert game.actors() == [BOB]
        game.apply(BOB, "accept")
    assert game.actors() == [ANN]
    assert game.view()["current"] == ANN


def test_reverse_in_a_two_player_game_acts_like_skip() -> None:
    game = position([["RR", "B1"], FILL], "R1")
    events = game.apply(ANN, "play:RR")
    assert game.view()["current"] == ANN and game.view()["direction"] == -1
    assert public(events) == "ann plays Red Reverse."


# -- Wild Draw Four ----------------------------------------------------------------------
def w4_game(ann: list[str], **kw: Any) -> Game:
    draw = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"]
    return position([ann, ["B1", "B2"], ["G1", "G2"]], "R1", draw=draw, **kw)


def test_wild_draw_four_may_always_be_played() -> None:
    game = w4_game(["R5", "W4", "B9"])
    assert "play:W4:G" in ids(game, ANN)  # even while holding a red card: bluffing allowed


def test_wild_draw_four_accept_draw_four_and_lose_the_turn() -> None:
    game = w4_game(["R5", "W4", "B9"])
    game.apply(ANN, "play:W4:G")
    view = game.view()
    assert view["phase"] == "challenge" and view["wild_draw_four_by"] == ANN
    assert view["pending_draw"] == 4 and game.actors() == [BOB]
    assert ids(game, BOB) == ["challenge", "accept"]
    assert game.legal_actions(BOB)[1].label == "Draw 4 and lose your turn"
    assert ids(game, CAT) == [] and ids(game, ANN) == []
    refused(game, CAT, "challenge")  # only the next player may challenge
    events = game.apply(BOB, "accept")
    assert public(events) == "bob draws 4 cards and loses the turn."
    view = game.view()
    assert view["hand_sizes"][BOB] == 6 and view["current"] == CAT and view["color"] == "G"


def test_wild_draw_four_challenge_guilty_offender_draws_four_challenger_plays() -> None:
    game = w4_game(["R5", "W4", "B9"])
    game.apply(ANN, "play:W4:G")
    events = game.apply(BOB, "challenge")
    assert "bob challenges the Wild Draw Four: ann is guilty." in public(events)
    shown = [e.private for e in events if BOB in e.private]
    assert shown == [{BOB: "ann's hand: Red 5, Blue 9."}]  # to the challenger only
    assert all(set(e.private) <= {ANN, BOB} for e in events)
    assert "Red 5" not in public(events)
    view = game.view()
    assert view["hand_sizes"][ANN] == 6 and view["hand_sizes"][BOB] == 2
    assert view["current"] == BOB and view["color"] == "G"  # the declared colour stands
    assert view["phase"] == "play" and "play:B1" not in ids(game, BOB)


def test_wild_draw_four_challenge_innocent_challenger_draws_six_loses_turn() -> None:
    # Matching numbers, symbols of other colours and Wilds do not make the player guilty.
    game = w4_game(["B1", "GR", "W", "W4", "W4"])
    game.apply(ANN, "play:W4:Y")
    events = game.apply(BOB, "challenge")
    assert "ann is innocent" in public(events)
    assert next(e.private for e in events if BOB in e.private) == {
        BOB: "ann's hand: Green Reverse, Blue 1, Wild, Wild Draw Four."
    }
    view = game.view()
    assert view["hand_sizes"][BOB] == 8 and view["hand_sizes"][ANN] == 4
    assert view["current"] == CAT and view["color"] == "Y"


def test_wild_draw_four_guilt_is_judged_on_the_colour_before_it() -> None:
    # On a wild declared green, holding a green card makes the player guilty.
    game = position([["G5", "W4", "R1"], ["B1", "B2"], FILL], "W", color="G", draw=["Y1"] * 4)
    game.apply(ANN, "play:W4:R")
    game.apply(BOB, "challenge")
    assert game.view()["hand_sizes"][ANN] == 6


# -- UNO ------------------------------------------------------------------------------
def test_uno_call_after_the_next_to_last_card() -> None:
    game = position([["R4", "B1"], ["G1", "G2"], ["Y1", "Y2"]], "R1", draw=["Y9"] * 4)
    game.apply(ANN, "play:R4")
    view = game.view()
    assert view["uno_window"] == ANN and view["current"] == BOB
    assert game.actors() == [ANN, BOB, CAT]  # everyone may act during the window
    assert ids(game, ANN) == ["uno"]
    assert ids(game, BOB) == ["draw", "catch:ann"]
    assert ids(game, CAT) == ["catch:ann"]
    events = game.apply(ANN, "uno")
    assert public(events) == "ann calls UNO!"
    view = game.view()
    assert view["uno_window"] is None and view["uno_called"] == [ANN]
    assert game.actors() == [BOB] and ids(game, CAT) == []
    refused(game, CAT, "catch:ann")


def test_caught_without_uno_draws_two() -> None:
    game = position([["R4", "B1"], ["G1", "G2"], ["Y1", "Y2"]], "R1", draw=["Y8", "Y9"])
    game.apply(ANN, "play:R4")
    events = game.apply(CAT, "catch:ann")
    assert public(events) == "cat catches ann without an UNO call: ann draws 2."
    assert events[0].private == {ANN: "You drew Yellow 8, Yellow 9."}
    assert game.view()["hand_sizes"][ANN] == 3 and game.view()["uno_window"] is None
    assert game.actors() == [BOB] and ids(game, ANN) == []


def test_the_uno_window_closes_when_the_next_player_acts() -> None:
    game = position([["R4", "B1"], ["R5", "G2"], ["Y1", "Y2"]], "R1", draw=["Y9"] * 4)
    game.apply(ANN, "play:R4")
    game.apply(BOB, "play:R5")
    assert game.view()["uno_window"] == BOB  # bob's own window now; ann's has closed
    assert "catch:ann" not in ids(game, CAT)
    assert ids(game, CAT) == ["draw", "catch:bob"]


def test_uno_window_stays_open_through_an_automatic_draw_two() -> None:
    hands = [["RD2", "B1"], ["G1", "G2"], ["Y1", "Y2"]]
    game = position(hands, "R1", draw=["Y9"] * 4)
    game.apply(ANN, "play:RD2")
    assert game.view()["current"] == CAT and game.view()["uno_window"] == ANN
    game.apply(BOB, "catch:ann")  # bob was skipped; cat has not acted yet
    assert game.view()["hand_sizes"][ANN] == 3


def test_play_and_call_uno_in_one_move_leaves_nothing_to_catch() -> None:
    game = position([["R4", "B1"], ["G1", "G2"], ["Y1", "Y2"]], "R1", draw=["Y9"] * 4)
    assert ids(game, ANN) == ["play:R4", "play:B1", "draw", "play+uno:R4", "play+uno:B1"]
    label = next(a.label for a in game.legal_actions(ANN) if a.id == "play+uno:R4")
    assert label == "Play Red 4 and call UNO!"
    events = game.apply(ANN, "play+uno:R4")
    assert public(events) == "ann plays Red 4. ann calls UNO!"
    view = game.view()
    assert view["uno_window"] is None and view["uno_called"] == [ANN]
    assert game.actors() == [BOB] and ids(game, CAT) == []
    refused(game, CAT, "catch:ann")


def test_play_and_call_uno_is_offered_only_with_two_cards() -> None:
    game = position([["R4", "B1", "B2"], FILL, FILL], "R1")
    assert "play+uno:R4" not in ids(game, ANN)
    refused(game, ANN, "play+uno:R4")
    wild = position([["W", "B1"], FILL, FILL], "R1")
    assert "play+uno:W:G" in ids(game=wild, player=ANN)
    wild.apply(ANN, "play+uno:W:G")
    assert wild.view()["color"] == "G" and wild.view()["uno_window"] is None


def test_no_uno_window_with_more_than_one_card_left() -> None:
    game = position([["R4", "B1", "B2"], FILL, FILL], "R1")
    game.apply(ANN, "play:R4")
    assert game.view()["uno_window"] is None and game.actors() == [BOB]


# -- piles -------------------------------------------------------------------------------
def test_empty_draw_pile_reshuffles_the_discard_pile_but_its_top_card() -> None:
    game = position([["B1"], FILL, FILL], "R1", under=["W4", "W", "G5", "Y2"], draw=[])
    events = game.apply(ANN, "draw")
    assert "The discard pile is shuffled into a new draw pile." in public(events)
    view = game.view()
    assert view["top"] == "R1" and view["discard_pile"] == 1 and view["color"] == "R"
    assert view["draw_pile"] == 3 and view["hand_sizes"][ANN] == 2
    # Used wilds go back as plain wilds: no colour travels with them.
    pile = game.to_dict()["state"]["d"].split() + hand(game, ANN)
    assert sorted(pile) == sorted(["B1", "W4", "W", "G5", "Y2"])


def test_both_piles_empty_a_player_draws_fewer() -> None:
    game = position([["RD2", "B1"], ["G1"], FILL], "R1", draw=[])
    events = game.apply(ANN, "play:RD2")
    assert "bob draws 1 card and is skipped." in public(events)
    assert game.view()["hand_sizes"][BOB] == 2


def test_with_nothing_to_draw_a_player_with_a_playable_card_must_play() -> None:
    game = position([["R5", "B2"], FILL, FILL], "R1", draw=[])
    assert ids(game, ANN) == ["play:R5", "play+uno:R5"]
    game = position([["G5", "B2"], FILL, FILL], "R1", draw=[])
    assert ids(game, ANN) == ["draw"]
    assert game.legal_actions(ANN)[0].label == "Pass (both piles are empty)"
    events = game.apply(ANN, "draw")
    assert public(events) == "ann can neither play nor draw and passes."
    assert game.view()["current"] == BOB


def test_deadlock_a_full_circle_of_passes_ends_the_round_fewest_points_win() -> None:
    hands = [["G5", "B1"], ["GS", "B2"], ["Y0", "B0", "G0"]]
    game = position(hands, "R3", draw=[], cur=0)
    game.apply(ANN, "draw")
    game.apply(BOB, "draw")
    assert game.view()["round"] == 1
    events = game.apply(CAT, "draw")
    assert "Nobody can play or draw: the round ends." in public(events)
    assert "cat wins round 1 and scores 28" in public(events)
    assert game.view()["scores"][CAT] == 28 and game.view()["round"] == 2
    assert game.view()["last_round"]["deadlock"] is True


def test_a_play_resets_the_deadlock_count() -> None:
    hands = [["G5", "B1"], ["R2", "B2", "B3"], ["Y0", "G0"]]
    game = position(hands, "R3", draw=[], cur=0)
    game.apply(ANN, "draw")
    game.apply(BOB, "play:R2")  # the discard pile now has 2 cards: a reshuffle is possible
    assert game.to_dict()["state"].get("st", 0) == 0
    game.apply(CAT, "draw")
    assert game.view()["round"] == 1 and game.view()["hand_sizes"][CAT] == 3


# -- going out and scoring --------------------------------------------------------------
def test_going_out_scores_the_cards_left_in_the_others_hands() -> None:
    hands = [["R5"], ["G1", "YD2", "W"], ["WS", "BR", "B9"]]
    game = position(hands, "R1", options={"swap_hands": True})
    events = game.apply(ANN, "play:R5")
    assert "ann wins round 1 and scores 140 (bob 71, cat 69)." in public(events)
    assert game.view()["scores"] == {ANN: 140, BOB: 0, CAT: 0}


@pytest.mark.parametrize(("card", "debt"), [("RD2", 2), ("W4:B", 4)])
def test_a_final_draw_two_or_four_is_drawn_and_counted(card: str, debt: int) -> None:
    draw = ["Y9", "G9", "B9", "R9"]
    game = position([[card.split(":")[0]], ["G1"], ["Y1"]], "R1", draw=draw)
    events = game.apply(ANN, f"play:{card}")
    assert f"bob draws {debt} cards for the last card." in public(events)
    expected = 1 + 9 * debt + 1
    assert game.view()["scores"][ANN] == expected
    assert game.view()["phase"] == "play" and game.view()["round"] == 2  # no challenge


def test_the_first_to_the_target_wins() -> None:
    game = position([["R5"], ["G9"], ["Y1"]], "R1", scores={ANN: 495}, options={"target": 500})
    events = game.apply(ANN, "play:R5")
    assert game.finished and game.winners == [ANN]
    assert game.view()["scores"][ANN] == 505 and game.actors() == []
    assert "ann wins!" in public(events) and game.view()["phase"] == "over"
    assert refused(game, BOB, "draw") == "This game is over."


def test_lowest_scoring_running_tally_lowest_wins_when_someone_reaches_target() -> None:
    options = {"scoring": "lowest", "target": 100}
    game = position([["R5"], ["WS", "G9"], ["Y1"]], "R1", options=options, scores={BOB: 60})
    events = game.apply(ANN, "play:R5")
    assert "ann wins round 1; points left: bob 49, cat 1." in public(events)
    assert game.finished and game.view()["scores"] == {ANN: 0, BOB: 109, CAT: 1}
    assert game.winners == [ANN]
    # Not reached: no winner yet, the next round starts.
    game = position([["R5"], ["G9"], ["Y1"]], "R1", options=options)
    game.apply(ANN, "play:R5")
    assert not game.finished and game.view()["scores"] == {ANN: 0, BOB: 9, CAT: 1}


def test_lowest_scoring_tied_lowest_totals_share_the_win() -> None:
    options = {"scoring": "lowest", "target": 50}
    game = position([["R5"], ["W"], ["Y1"]], "R1", options=options, scores={CAT: -1})
    game.apply(ANN, "play:R5")
    assert game.finished and sorted(game.winners) == [ANN, CAT]


# -- options -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"colour": True}, "colour"),
        ({"target": 0}, "target"),
        ({"target": "500"}, "target"),
        ({"scoring": "highest"}, "scoring"),
        ({"custom_wilds": 4}, "custom_wilds"),
        ({"swap_hands": 1}, "swap_hands"),
        ({"jump_in": "yes"}, "jump_in"),
        ({"custom_wilds": 2, "custom_rules": "1,8"}, "custom_rules"),
        ({"custom_wilds": 2, "custom_rules": "1,1"}, "custom_rules"),
        ({"custom_wilds": 2, "custom_rules": "1"}, "custom_rules"),
        ({"custom_wilds": 1, "custom_rules": "one"}, "custom_rules"),
        ({"custom_rules": "3"}, "custom_rules"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, Any], named: str) -> None:
    with pytest.raises(InvalidOption, match=named):
        engine.new_game("uno", NAMES[:3], options=options)


def test_options_default_off() -> None:
    game = engine.new_game("uno", NAMES[:3])
    assert game.config == {
        "target": 500,
        "scoring": "standard",
        "swap_hands": False,
        "custom_wilds": 0,
        "custom_rules": "",
        "stack_draws": False,
        "seven_zero": False,
        "jump_in": False,
        "draw_until_playable": False,
        "forced_play": False,
    }
    assert game.view()["house_rules"] == [] and game.view()["custom_rules"] == {}


def test_custom_rules_drawn_at_random_are_distinct_and_in_the_deck() -> None:
    seen = set()
    for seed in range(40):
        game = engine.new_game("uno", NAMES[:2], seed=seed, options={"custom_wilds": 3})
        rules = game.view()["custom_rules"]
        assert len(rules) == 3 and set(rules) <= {f"WC{k}" for k in range(1, 8)}
        assert all(rules[f"WC{k}"] == CUSTOM_RULES[k] for k in (int(c[2]) for c in rules))
        seen |= set(rules)
        data = game.to_dict()["state"]
        cards = " ".join([*data["h"], data["d"], data["x"]]).split()
        assert sorted(c for c in cards if c.startswith("WC")) == sorted(rules)
        assert len(cards) == 111
    assert seen == {f"WC{k}" for k in range(1, 8)}
    explicit = engine.new_game(
        "uno", NAMES[:2], options={"custom_wilds": 2, "custom_rules": "7, 2"}
    )
    assert list(explicit.view()["custom_rules"]) == ["WC7", "WC2"]


def test_player_ids_longer_than_50_characters_are_refused() -> None:
    with pytest.raises(ValueError, match="50"):
        engine.new_game("uno", ["a" * 51, "b"])
    game = engine.new_game("uno", ["1" * 20, "2" * 20], options={"swap_hands": True})
    assert all(len(a.id) <= 64 for p in game.players for a in game.legal_actions(p))


# -- Wild Swap Hands -------------------------------------------------------------------
def test_wild_swap_hands_choose_an_opponent_and_a_colour_swap_whole_hands() -> None:
    hands = [["WS", "B1", "B2"], ["G1", "G2", "G3", "G4"], ["Y1"]]
    game = position(hands, "R1", options={"swap_hands": True})
    acts = [a for a in game.legal_actions(ANN) if a.id.startswith("play:WS")]
    assert [a.id for a in acts] == [f"play:WS:{c}:{p}" for p in (BOB, CAT) for c in "RYGB"]
    assert acts[0].label == "Play Wild Swap Hands, choose Red, swap with bob"
    events = game.apply(ANN, "play:WS:Y:bob")
    assert (
        public(events) == "ann plays Wild Swap Hands and chooses Yellow and swaps hands with bob."
    )
    assert hand(game, ANN) == ["G1", "G2", "G3", "G4"]
    assert hand(game, BOB) == ["B1", "B2"]
    assert game.view()["color"] == "Y" and game.view()["current"] == BOB


def test_wild_swap_hands_as_the_last_card_ends_the_round_without_a_swap() -> None:
    game = position([["WS"], ["G1", "G2"], ["Y1"]], "R1", options={"swap_hands": True})
    game.apply(ANN, "play:WS:R:bob")
    assert game.view()["scores"][ANN] == 4 and game.view()["round"] == 2


def test_wild_swap_hands_leaving_one_card_opens_the_uno_window() -> None:
    game = position([["WS", "B1"], ["G1"], ["Y1", "Y2"]], "R1", options={"swap_hands": True})
    game.apply(ANN, "play:WS:R:bob")
    assert hand(game, ANN) == ["G1"] and game.view()["uno_window"] == ANN


# -- custom rules ----------------------------------------------------------------------
def custom(rule: int, hands: list[list[str]], **kw: Any) -> Game:
    options = {"custom_wilds": 1, "custom_rules": str(rule), **kw.pop("options", {})}
    return position(hands, "R1", options=options, **kw)


def test_custom_rule_1_next_player_draws_until_the_declared_colour() -> None:
    game = custom(1, [["WC1", "B1"], ["G1"], ["Y1"]], draw=["R2", "WS", "B3", "G3", "B4"])
    events = game.apply(ANN, "play:WC1:B")
    assert "bob draws 3 cards looking for Blue." in public(events)
    assert hand(game, BOB) == ["R2", "G1", "B3", "WS"]
    assert game.view()["current"] == BOB  # then plays the turn as usual
    assert "play:B3" in ids(game, BOB)


def test_custom_rule_2_everyone_else_discards_their_wilds() -> None:
    hands = [["WC2", "W", "B1"], ["W4", "G1", "W"], ["Y1", "WS"]]
    game = custom(2, hands, options={"swap_hands": True})
    events = game.apply(ANN, "play:WC2:G")
    assert "bob discards Wild, Wild Draw Four." in public(events)
    assert "cat discards Wild Swap Hands." in public(events)
    assert hand(game, ANN) == ["B1", "W"] and hand(game, BOB) == ["G1"]
    assert hand(game, CAT) == ["Y1"]
    view = game.view()
    assert view["top"] == "WC2" and view["discard_pile"] == 5 and view["current"] == BOB


def test_custom_rule_2_a_player_left_with_no_cards_wins_the_round() -> None:
    game = custom(2, [["WC2", "B1", "B2"], ["G1"], ["W"]])
    game.apply(ANN, "play:WC2:G")
    assert game.view()["round"] == 2 and game.view()["last_round"]["winner"] == CAT
    assert game.view()["scores"][CAT] == 4


def test_custom_rule_3_next_player_who_cannot_play_takes_three() -> None:
    draw = ["Y5", "Y6", "Y7", "Y8"]
    game = custom(3, [["WC3", "B1", "B2"], ["G1", "Y1"], ["Y2"]], draw=draw)
    events = game.apply(ANN, "play:WC3:B")
    assert "If bob can't play, they take three cards." in public(events)
    assert game.view()["draw_three"] == BOB
    assert len(game.legal_actions(BOB)) == 1
    assert game.legal_actions(BOB)[0].label == "Draw 3 cards (you cannot play)"
    events = game.apply(BOB, "draw")
    assert public(events) == "bob draws 3 cards (custom rule 3) and the turn passes."
    assert game.view()["hand_sizes"][BOB] == 5 and game.view()["current"] == CAT
    assert game.view()["draw_three"] is None


def test_custom_rule_3_a_player_who_can_play_draws_one_as_usual() -> None:
    game = custom(3, [["WC3", "B1"], ["B5", "Y1"], ["Y2"]], draw=["Y5", "Y6", "Y7"])
    game.apply(ANN, "play:WC3:B")
    assert "play:B5" in ids(game, BOB)
    game.apply(BOB, "draw")
    assert game.view()["hand_sizes"][BOB] == 3


def test_custom_rule_4_take_an_extra_turn() -> None:
    game = custom(4, [["WC4", "B1", "B2"], ["G1"], ["Y1"]])
    events = game.apply(ANN, "play:WC4:B")
    assert "ann takes an extra turn." in public(events)
    assert game.view()["current"] == ANN and "play:B1" in ids(game, ANN)


def test_custom_rule_5_next_player_draws_up_to_seven() -> None:
    game = custom(5, [["WC5", "B1"], ["G1", "G2"], ["Y1"]], draw=["Y9"] * 6)
    events = game.apply(ANN, "play:WC5:B")
    assert "bob draws 5 cards up to 7." in public(events)
    assert game.view()["hand_sizes"][BOB] == 7 and game.view()["current"] == BOB


def test_custom_rule_5_next_player_discards_down_to_seven_by_choice() -> None:
    bob = ["G1", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "W"]
    game = custom(5, [["WC5", "B1", "B2"], bob, ["Y1"]])
    game.apply(ANN, "play:WC5:B")
    view = game.view()
    assert view["phase"] == "discard" and view["discarding"] == {BOB: 2}
    assert game.actors() == [BOB] and view["current"] == BOB
    (act,) = game.legal_actions(BOB)
    assert act.id == "discard" and act.pick is not None
    assert act.pick.options == ["G1", "G1_2", "G2", "G3", "G4", "G5", "G6", "G7", "W"]
    assert act.pick.min == act.pick.max == 2
    refused(game, BOB, "discard:G1")
    refused(game, BOB, "discard:G1.G1")
    events = game.apply(BOB, "discard:G1.G1_2")
    assert public(events) == "bob discards Green 1, Green 1."
    assert hand(game, BOB) == ["G2", "G3", "G4", "G5", "G6", "G7", "W"]
    view = game.view()
    assert view["phase"] == "play" and view["current"] == BOB and view["top"] == "WC5"
    assert view["discard_pile"] == 4


def test_custom_rule_6_everyone_draws_or_discards_to_three() -> None:
    hands = [["WC6", "B1", "B2", "B3", "B4"], ["G1"], ["Y1", "Y2", "Y3", "Y4"], ["R7", "R8", "R9"]]
    game = custom(6, hands, draw=["B9", "B8"])
    events = game.apply(ANN, "play:WC6:B")
    assert "bob draws 2 cards up to 3." in public(events)
    view = game.view()
    assert view["discarding"] == {ANN: 1, CAT: 1} and game.actors() == [ANN, CAT]
    assert ids(game, BOB) == [] and ids(game, DAN) == []
    game.apply(CAT, "discard:Y4")
    assert game.actors() == [ANN]
    game.apply(ANN, "discard:B1")
    view = game.view()
    assert view["hand_sizes"] == {ANN: 3, BOB: 3, CAT: 3, DAN: 3}
    assert view["phase"] == "play" and view["current"] == BOB


def test_custom_rule_7_hands_face_up_until_the_players_next_turn() -> None:
    hands = [["WC7", "B1", "B2"], ["B3", "G1"], ["B4", "Y1"]]
    game = custom(7, hands)
    game.apply(ANN, "play:WC7:B")
    view = game.view()
    assert view["face_up"] == {ANN: ["B1", "B2"], BOB: ["G1", "B3"], CAT: ["Y1", "B4"]}
    assert view["face_up_until"] == ANN
    game.apply(BOB, "play:B3")
    assert game.view()["face_up"][BOB] == ["G1"]
    events = game.apply(CAT, "play:B4")
    assert "Hands go face down again." in public(events)
    assert game.view()["face_up"] == {} and game.view()["current"] == ANN


def test_a_custom_wild_as_the_last_card_only_ends_the_round() -> None:
    game = custom(5, [["WC5"], ["G1"], ["Y1"]])
    game.apply(ANN, "play:WC5:B")
    assert game.view()["round"] == 2 and game.view()["scores"][ANN] == 2


# -- house rules ----------------------------------------------------------------------------
def test_stack_draws_draw_two_on_draw_two_the_one_who_does_not_stack_draws_all() -> None:
    hands = [["RD2", "B1", "B2"], ["GD2", "YD2", "G5"], ["Y1", "Y2"]]
    game = position(hands, "R1", options={"stack_draws": True}, draw=["B9"] * 6)
    game.apply(ANN, "play:RD2")
    view = game.view()
    assert view["phase"] == "stack" and view["pending_draw"] == 2 and view["current"] == BOB
    assert ids(game, BOB) == ["play:GD2", "play:YD2", "accept"]
    game.apply(BOB, "play:GD2")
    assert game.view()["pending_draw"] == 4 and ids(game, CAT) == ["accept"]
    events = game.apply(CAT, "accept")
    assert public(events) == "cat draws 4 cards and loses the turn."
    assert game.view()["current"] == ANN and game.view()["pending_draw"] == 0


def test_stack_draws_wild_draw_four_on_wild_draw_four() -> None:
    hands = [["W4", "B1", "B2"], ["W4", "G5", "G6"], ["Y1", "Y2"]]
    game = position(hands, "R1", options={"stack_draws": True}, draw=["B9"] * 10)
    game.apply(ANN, "play:W4:G")
    assert ids(game, BOB) == [*[f"play:W4:{c}" for c in "RYGB"], "challenge", "accept"]
    game.apply(BOB, "play:W4:Y")  # bob held a green card: guilty
    assert game.view()["pending_draw"] == 8 and game.view()["wild_draw_four_by"] == BOB
    game.apply(CAT, "challenge")
    assert game.view()["hand_sizes"][BOB] == 10 and game.view()["current"] == CAT


def test_stack_draws_a_stacked_last_card_makes_the_next_player_draw_the_total() -> None:
    hands = [["RD2", "B1", "B2"], ["GD2"], ["Y1", "Y2"]]
    game = position(hands, "R1", options={"stack_draws": True}, draw=["B9"] * 6)
    game.apply(ANN, "play:RD2")
    events = game.apply(BOB, "play:GD2")
    assert "cat draws 4 cards for the last card." in public(events)
    assert game.view()["last_round"]["points"] == {ANN: 3, BOB: 0, CAT: 39}


def test_no_jump_in_while_a_draw_is_pending() -> None:
    hands = [["RD2", "B1", "B2"], ["Y1", "Y2"], ["RD2", "G1", "G2"]]
    game = position(hands, "R1", options={"stack_draws": True, "jump_in": True})
    game.apply(ANN, "play:RD2")
    assert game.actors() == [BOB] and ids(game, CAT) == []
    refused(game, CAT, "play:RD2")


def test_without_stacking_a_draw_two_cannot_be_answered() -> None:
    hands = [["RD2", "B1"], ["GD2", "G5"], ["Y1", "Y2"]]
    game = position(hands, "R1", draw=["B9"] * 6)
    game.apply(ANN, "play:RD2")
    assert game.view()["hand_sizes"][BOB] == 4 and game.view()["current"] == CAT


def test_seven_zero_a_seven_swaps_with_a_chosen_player() -> None:
    hands = [["R7", "B1", "B2"], ["G1"], ["Y1", "Y2", "Y3", "Y4"]]
    game = position(hands, "R1", options={"seven_zero": True})
    assert [i for i in ids(game, ANN) if i.startswith("play:R7")] == ["play:R7:bob", "play:R7:cat"]
    events = game.apply(ANN, "play:R7:cat")
    assert public(events) == "ann plays Red 7 and swaps hands with cat."
    assert hand(game, ANN) == ["Y1", "Y2", "Y3", "Y4"] and hand(game, CAT) == ["B1", "B2"]


def test_seven_zero_a_zero_passes_every_hand_in_the_direction_of_play() -> None:
    hands = [["R0", "B1"], ["G1"], ["Y1", "Y2"], ["B5", "B6", "B7"]]
    game = position(hands, "R1", options={"seven_zero": True})
    events = game.apply(ANN, "play:R0")
    assert public(events) == "ann plays Red 0: every hand passes to the left."
    assert [hand(game, p) for p in NAMES[:4]] == [["B5", "B6", "B7"], ["B1"], ["G1"], ["Y1", "Y2"]]
    game = position(hands, "R1", options={"seven_zero": True}, direction=-1)
    game.apply(ANN, "play:R0")
    assert [hand(game, p) for p in NAMES[:4]] == [["G1"], ["Y1", "Y2"], ["B5", "B6", "B7"], ["B1"]]


def test_without_seven_zero_sevens_and_zeros_are_plain_numbers() -> None:
    game = position([["R7", "R0", "B1"], ["G1"], ["Y1"]], "R1")
    assert ids(game, ANN)[:2] == ["play:R7", "play:R0"]


def test_jump_in_an_identical_card_out_of_turn_play_continues_from_there() -> None:
    hands = [["R5", "B1", "B9"], ["G1", "G2"], ["G3", "G4"], ["R5", "B2", "B3"]]
    game = position(hands, "G5", options={"jump_in": True})
    game.apply(ANN, "play:R5")
    assert game.actors() == NAMES[:4]  # everyone, whatever they hold
    assert ids(game, CAT) == [] and ids(game, DAN) == ["play:R5"]
    events = game.apply(DAN, "play:R5")
    assert public(events) == "dan jumps in with Red 5."
    assert game.view()["current"] == ANN and game.view()["hand_sizes"][DAN] == 2


def test_jump_in_needs_the_same_colour_and_value() -> None:
    hands = [["R5", "B1", "B9"], ["G1", "G2"], ["G5", "R6"], ["W", "B2", "B3"]]
    game = position(hands, "R7", options={"jump_in": True})
    game.apply(ANN, "play:R5")
    assert ids(game, CAT) == [] and ids(game, DAN) == []
    refused(game, CAT, "play:G5")
    # Without the option, nobody but the current player acts.
    game = position([["R5", "B1", "B9"], FILL, FILL, ["R5", "B2"]], "G5")
    game.apply(ANN, "play:R5")
    assert game.actors() == [BOB] and ids(game, DAN) == []


def test_jump_in_with_an_action_card_takes_its_effect() -> None:
    hands = [["RS", "B1", "B9"], ["G1", "G2"], ["G3", "G4"], ["RS", "B2", "B3"]]
    game = position(hands, "R1", options={"jump_in": True})
    game.apply(ANN, "play:RS")
    game.apply(DAN, "play:RS")
    assert game.view()["current"] == BOB  # dan's skip skips ann


# -- refusals, views, saving ---------------------------------------------------------------
def test_refusals_change_nothing() -> None:
    game = position([["R5", "B1"], ["G1"], ["Y1"]], "R1")
    assert refused(game, BOB, "draw") == "It is not your turn."
    assert refused(game, "zed", "draw") == "You are not playing in this game."
    assert refused(game, ANN, "play:G1") == "That move is not available right now."
    assert refused(game, ANN, "pass") == "That move is not available right now."
    refused(game, ANN, "challenge")
    refused(game, ANN, "uno")
    refused(game, ANN, "catch:bob")
    refused(game, ANN, "play:W:R")
    refused(game, ANN, "discard:R5")


def test_views_show_only_the_own_hand() -> None:
    game = engine.new_game("uno", NAMES[:3], seed=5)
    public_view = game.view()
    assert "hand" not in public_view and "drawn" not in public_view
    for p in NAMES[:3]:
        view = game.view(p)
        assert view["hand"] == sort_hand(game.hands[game.seat[p]])
        private = ("hand", "you", "known")  # the seat's own id and secrets
        assert {k: v for k, v in view.items() if k not in private} == public_view
    assert isinstance(public_view["prompt"], str) and public_view["phase"] == "play"
    assert public_view["hand_sizes"] == {p: 7 for p in NAMES[:3]}
    for key in ("current", "top", "color", "direction", "draw_pile", "discard_pile", "round"):
        assert key in public_view


def test_hands_are_sorted_by_colour_then_value() -> None:
    game = position([["W4", "B1", "RD2", "R2", "G0", "YS"], FILL], "R1")
    assert hand(game, ANN) == ["R2", "RD2", "YS", "G0", "B1", "W4"]


def test_save_and_load_continue_identically_and_stay_small() -> None:
    options = {"swap_hands": True, "custom_wilds": 3, "seven_zero": True, "target": 100}
    game = engine.new_game("uno", NAMES[:4], seed=11, options=options)
    copy = load(json.loads(json.dumps(game.to_dict())))
    assert copy.to_dict() == game.to_dict()
    assert len(json.dumps(game.to_dict(), separators=(",", ":"))) < 4096
    for _ in range(50):
        if game.finished:
            break
        player = next(p for p in game.actors() if game.legal_actions(p))
        action = game.legal_actions(player)[-1].id
        assert [e.public for e in game.apply(player, action)] == [
            e.public for e in copy.apply(player, action)
        ]
        assert copy.to_dict() == game.to_dict()


def test_registry() -> None:
    assert engine.GAMES["uno"] is Uno
    assert Uno.min_players == 2 and Uno.max_players == 10 and Uno.summary
    with pytest.raises(ValueError):
        engine.new_game("uno", ["solo"])
    with pytest.raises(ValueError):
        engine.new_game("uno", [*NAMES, "kim"])


def test_a_swap_that_leaves_one_card_is_offered_with_the_uno_call() -> None:
    """Issue #11's one-click "+ UNO!" for plays that leave one card: a Wild Swap Hands onto a
    one-card hand leaves one card too (it was offered for two-card hands only, so the swapper
    could be caught before calling)."""
    game = engine.new_game("uno", ["ann", "bea", "cy"], seed=0, options={"swap_hands": True})
    data = game.to_dict()
    hands = ["WS B1 B2", "G1", "Y1 Y2 G4"]
    data["state"].update({"h": hands, "x": "R3", "c": "R", "t": 0, "ph": "play"})
    game = engine.load(data)
    ids = {a.id for a in game.legal_actions("ann")}
    assert "play+uno:WS:R:bea" in ids and "play+uno:WS:R:cy" not in ids
    events = game.apply("ann", "play+uno:WS:R:bea")
    view = game.view()
    assert view["hand_sizes"]["ann"] == 1 and view["uno_window"] is None
    assert view["uno_called"] == ["ann"] and any("calls UNO" in e.public for e in events)


def test_the_uno_call_twins_kept_in_memory_are_bounded() -> None:
    """Swap plays name their target player ("play:WS:R:<player>"): the twins made once per
    play id were kept for every player a process ever hosted, never dropped."""
    for player in range(2 * uno.CALLED_KEPT):
        twin = uno._called(Action(f"play:WS:R:{player}", "Wild Swap Hands"))
        assert twin.id == f"play+uno:WS:R:{player}"
    assert len(uno._CALLED) <= uno.CALLED_KEPT


def test_the_face_down_line_follows_a_winning_jump_in_at_once() -> None:
    """ann plays Wild Custom #7 (hands face up until her next turn), bob plays Red 5 and ann
    jumps in with her last card, the other Red 5, winning the round. Before (this
    session's second version), the face-down line was told after the round's end and
    scoring, as if the hands went face down in the next round. Now it comes right after
    the jump-in's line."""
    game = custom(7, [["WC7", "R5"], ["R5", "G1"], ["B4", "Y1"]], options={"jump_in": True})
    game.apply(ANN, "play:WC7:R")
    game.apply(BOB, "play:R5")
    events = game.apply(ANN, "play:R5")
    lines = [e.public for e in events if e.public]
    assert "Hands go face down again." in lines, lines
    jumped = next(i for i, line in enumerate(lines) if "jumps in" in line)
    face_down = lines.index("Hands go face down again.")
    assert face_down == jumped + 1, f"told in this order: {lines}"
