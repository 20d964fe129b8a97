"""Item Collection Game: scenario tests, one or more per rule, built from stacked decks."""

from __future__ import annotations

import json

import pytest

import engine
from engine.cards import RANKS, label, rank, sort_key, value
from engine.core import Event, IllegalAction
from engine.games.itemcollection import ItemCollection, classify
from engine.testing import stacked

P = ["ann", "bea", "cid", "dee"]  # seats 0-3 own clubs, diamonds, hearts, spades
SUIT = dict(zip(P, "CDHS", strict=True))


def new(**ranks: str) -> ItemCollection:
    """A stacked game: ``ann="3 5"`` puts 3♣ and 5♣ first in ann's deck (so in her hand).

    Per player, the listed ranks come off the top first, the rest of the suit follows A..K;
    the top 7 are the hand. Seat 0 (ann) starts round 1 with a stacked deck.
    """
    deck = [r + SUIT[p] for p, text in ranks.items() for r in text.split()]
    game = stacked("itemcollection", P, deck)
    assert isinstance(game, ItemCollection)
    return game


def hand(game: ItemCollection, player: str) -> list[str]:
    return game.view(player)["hand"]


def ids(game: ItemCollection, player: str) -> list[str]:
    return [a.id for a in game.legal_actions(player)]


def everyone_ready(game: ItemCollection) -> list[Event]:
    """What the Discord layer does when the negotiation timer runs out."""
    events: list[Event] = []
    for player in list(game.actors()):
        events += game.apply(player, "ready")
    return events


def play_round(
    game: ItemCollection,
    cards: dict[str, str],
    mode: str | None = "high",
    claims: dict[str, str] | None = None,
    swap: str | None = None,
) -> list[Event]:
    """One whole round: the starting player sets ``mode``, all ready, everyone claims (their
    card's rank unless ``claims`` says otherwise) and places ``cards[player]``, then the
    starting player swaps for ``swap`` or keeps. ``mode`` None: nobody chooses High/Low."""
    claims = claims or {}
    events: list[Event] = []
    if game.view()["phase"] == "negotiation":  # else the test already ended the negotiation
        if mode is not None:
            events += game.apply(game.view()["starting"], mode)
        events += everyone_ready(game)
    assert game.view()["phase"] == "declaration"
    for player in game.view()["order"]:
        assert game.actors() == [player]
        events += game.apply(player, f"claim:{claims.get(player, rank(cards[player]))}")
        events += game.apply(player, f"place:{cards[player]}")
    starting = game.view()["starting"]
    assert game.actors() == [starting] and game.view()["phase"] == "swap"
    events += game.apply(starting, f"swap:{swap}" if swap else "keep")
    return events


def public_text(events: list[Event]) -> str:
    return "\n".join(e.public for e in events)


# -- setup ---------------------------------------------------------------------------------


def test_each_seat_owns_a_suit_and_draws_seven() -> None:
    game = new(ann="3 5")
    view = game.view()
    assert view["suits"] == {"ann": "C", "bea": "D", "cid": "H", "dee": "S"}
    assert view["hand_sizes"] == dict.fromkeys(P, 7)
    assert view["deck_sizes"] == dict.fromkeys(P, 6)
    assert hand(game, "ann") == ["AC", "2C", "3C", "4C", "5C", "6C", "7C"]
    assert hand(game, "bea") == ["AD", "2D", "3D", "4D", "5D", "6D", "7D"]
    assert game.decks["ann"] == ["8C", "9C", "10C", "JC", "QC", "KC"]  # top first
    assert all(c.endswith(SUIT[p]) for p in P for c in game.hands[p] + game.decks[p])
    assert view["starting"] == "ann" and view["order"] == P
    assert view["phase"] == "negotiation" and view["mode"] is None and view["joker"] == "high"
    assert view["scored"] == {p: [] for p in P} and view["revealed"] is None


def test_exactly_four_players() -> None:
    with pytest.raises(ValueError, match="exactly 4"):
        engine.new_game("itemcollection", P[:3])
    with pytest.raises(ValueError, match="exactly 4"):
        engine.new_game("itemcollection", [*P, "eve"])


def test_round_one_starting_player_is_random() -> None:
    starters = {engine.new_game("itemcollection", P, seed=s).view()["starting"] for s in range(40)}
    assert starters == set(P)


def test_personal_decks_are_shuffled_in_play() -> None:
    hands = {tuple(engine.new_game("itemcollection", P, seed=s).hands["ann"]) for s in range(5)}
    assert len(hands) == 5
    game = engine.new_game("itemcollection", P, seed=1)
    for p in P:
        assert sorted(game.hands[p] + game.decks[p], key=sort_key) == [r + SUIT[p] for r in RANKS]


# -- negotiation -----------------------------------------------------------------------------


def test_negotiation_everyone_may_press_ready_at_once_even_before_high_low() -> None:
    game = new()
    assert game.actors() == P
    assert ids(game, "ann") == ["high", "low", "ready"]
    for p in P[1:]:
        assert ids(game, p) == ["ready"]
    assert "ann to set High or Low" in game.view()["prompt"]


def test_starting_player_sets_high_or_low_once() -> None:
    game = new()
    events = game.apply("ann", "low")
    assert "ann sets Low" in public_text(events)
    view = game.view()
    assert view["mode"] == "low" and view["joker"] == "low"
    assert ids(game, "ann") == ["ready"]
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        game.apply("ann", "high")
    assert game.to_dict() == before


def test_phase_ends_when_all_have_pressed_ready() -> None:
    game = new()
    game.apply("ann", "high")
    for p in ["cid", "ann", "dee"]:
        game.apply(p, "ready")
        assert game.view()["phase"] == "negotiation"
    assert game.actors() == ["bea"] and game.view()["ready"] == ["cid", "ann", "dee"]
    events = game.apply("bea", "ready")
    view = game.view()
    assert view["phase"] == "declaration" and view["mode"] == "high"
    assert game.actors() == ["ann"]
    assert "Declaration order: ann, bea, cid, dee" in public_text(events)


def test_timer_readies_everyone_and_the_face_up_joker_stays() -> None:
    game = new(ann="2 K", bea="5 2", cid="9 5", dee="K 9")
    # Round 1: nobody chose; the seed starts with the black joker (High) face up.
    events = everyone_ready(game)
    assert game.view()["mode"] == "high" and game.view()["phase"] == "declaration"
    assert "face-up joker stays, High" in public_text(events)
    # Finish the round (high card: dee's K♠), round 2 bea sets Low.
    play_round(game, {"ann": "2C", "bea": "5D", "cid": "9H", "dee": "KS"}, mode=None)
    assert game.view()["starting"] == "bea"
    play_round(game, {"bea": "2D", "cid": "5H", "dee": "9S", "ann": "KC"}, mode="low")
    # Round 3: the timer runs out with no choice: Low stays face up.
    assert game.view()["starting"] == "cid" and game.view()["joker"] == "low"
    assert game.view()["mode"] is None
    everyone_ready(game)
    assert game.view()["mode"] == "low"


def test_timer_after_some_players_pressed_ready() -> None:
    game = new()
    game.apply("ann", "low")
    game.apply("bea", "ready")
    assert game.actors() == ["ann", "cid", "dee"]
    everyone_ready(game)
    assert game.view()["phase"] == "declaration" and game.view()["mode"] == "low"


def test_starting_player_who_presses_ready_gives_up_the_choice() -> None:
    game = new()
    game.apply("ann", "ready")
    assert "ann" not in game.actors()
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply("ann", "low")
    assert game.to_dict() == before
    everyone_ready(game)
    assert game.view()["mode"] == "high"


# -- declaration ---------------------------------------------------------------------------


def test_declaration_claim_then_place_in_turn_order() -> None:
    game = new()
    game.apply("ann", "high")
    everyone_ready(game)
    claims = ids(game, "ann")
    assert claims == [f"claim:{r}" for r in RANKS] + ["claim:none"]
    assert game.view()["prompt"] == "ann to claim a rank (or none)."
    events = game.apply("ann", "claim:Q")
    assert public_text(events) == "ann claims a Queen."
    assert game.actors() == ["ann"]
    assert ids(game, "ann") == [f"place:{c}" for c in hand(game, "ann")]
    assert game.view()["prompt"] == "ann to place a card face down."
    assert game.view()["declarations"] == [{"player": "ann", "claim": "Q", "placed": False}]
    game.apply("ann", "place:3C")
    assert game.actors() == ["bea"]
    assert public_text(game.apply("bea", "claim:none")) == "bea makes no claim."
    game.apply("bea", "place:AD")
    assert public_text(game.apply("cid", "claim:8")) == "cid claims an 8."
    assert game.view()["declarations"] == [
        {"player": "ann", "claim": "Q", "placed": True},
        {"player": "bea", "claim": None, "placed": True},
        {"player": "cid", "claim": "8", "placed": False},
    ]
    assert game.view()["hand_sizes"] == {"ann": 6, "bea": 6, "cid": 7, "dee": 7}


def test_bluffed_claims_are_allowed_and_the_real_cards_decide() -> None:
    game = new()
    # Everybody claims a King (nobody holds one); the cards make a pair of 2s.
    claims = dict.fromkeys(P, "K")
    events = play_round(
        game, {"ann": "2C", "bea": "5D", "cid": "2H", "dee": "7S"}, mode="high", claims=claims
    )
    assert public_text(events).count("claims a King") == 4
    revealed = game.view()["revealed"]
    assert revealed["claims"] == dict.fromkeys(P, "K")
    assert revealed["row"] == "pair" and revealed["scorers"] == ["ann", "cid"]


def test_face_down_cards_are_secret_until_the_reveal() -> None:
    game = new(dee="K")
    game.apply("ann", "high")
    everyone_ready(game)
    game.apply("ann", "claim:3")
    events = game.apply("ann", "place:5C")
    assert public_text(events) == "ann places a card face down."
    assert events[0].private == {"ann": "You place 5♣ face down."}
    assert game.view("ann")["placed"] == "5C"
    for viewer in [None, "bea", "cid", "dee"]:
        view = game.view(viewer)
        assert "5C" not in json.dumps(view)
        assert view.get("placed") is None
    game.apply("bea", "claim:none")
    game.apply("bea", "place:5D")
    assert "5C" not in json.dumps(game.view("bea")) and "5D" in json.dumps(game.view("bea"))
    game.apply("cid", "claim:none")
    game.apply("cid", "place:6H")
    game.apply("dee", "claim:none")
    game.apply("dee", "place:KS")
    public = json.dumps(game.view())
    assert not any(c in public for c in ["5C", "5D", "6H", "KS"])
    events = game.apply("ann", "keep")
    assert "Reveal (High): ann 5♣, bea 5♦, cid 6♥, dee K♠." in public_text(events)


# -- the starting player's exchange ------------------------------------------------------


def test_starting_player_may_swap_once_and_keeps_first_place() -> None:
    game = new()
    game.apply("ann", "high")
    everyone_ready(game)
    for p, card in zip(P, ["2C", "6D", "5H", "7S"], strict=True):
        game.apply(p, "claim:5")
        game.apply(p, f"place:{card}")
    assert game.view()["phase"] == "swap" and game.actors() == ["ann"]
    swaps = ids(game, "ann")
    assert swaps == [f"swap:{c}" for c in hand(game, "ann")] + ["keep"]
    assert "swap:2C" not in swaps  # the face-down card is not in hand
    events = game.apply("ann", "swap:5C")
    assert events[0].public == "ann exchanges their face-down card for one from their hand."
    assert events[0].private == {"ann": "You take back 2♣ and place 5♣ face down."}
    # 5-6-7 with 5 doubled: ann's 5 kept the first place, so it is in the straight, not cid's.
    revealed = game.view()["revealed"]
    assert revealed["order"] == P and revealed["cards"]["ann"] == "5C"
    assert revealed["row"] == "small straight"
    assert revealed["scorers"] == ["ann", "bea", "dee"] and revealed["swapped"] is True
    assert "2C" in game.hands["ann"] and game.scored["ann"] == ["5C"]


def test_keep_leaves_the_card() -> None:
    game = new()
    events = play_round(game, {"ann": "2C", "bea": "6D", "cid": "5H", "dee": "7S"})
    assert "ann keeps their face-down card." in public_text(events)
    revealed = game.view()["revealed"]
    assert revealed["swapped"] is False and revealed["cards"]["ann"] == "2C"
    assert revealed["row"] == "small straight" and revealed["scorers"] == ["bea", "cid", "dee"]


def test_only_the_starting_player_swaps() -> None:
    game = new()
    game.apply("ann", "high")
    everyone_ready(game)
    for p in P:
        game.apply(p, "claim:none")
        game.apply(p, f"place:A{SUIT[p]}")
    before = game.to_dict()
    for player, action in [("bea", "keep"), ("bea", "swap:2D"), ("ann", "swap:AC")]:
        with pytest.raises(IllegalAction):
            game.apply(player, action)
        assert game.to_dict() == before


# -- the reveal table ------------------------------------------------------------------------

ROWS = [
    # (cards in declaration order ann, bea, cid, dee; mode; row; scorers)
    (["7C", "7D", "7H", "7S"], "high", "four of a kind", P),
    (["8C", "5D", "7H", "6S"], "low", "large straight", P),
    (["4C", "9D", "4H", "9S"], "high", "two pairs", P),
    (["2C", "2D", "KH", "2S"], "high", "three of a kind", ["ann", "bea", "dee"]),
    (["9C", "JD", "10H", "3S"], "high", "small straight", ["ann", "bea", "cid"]),
    (["5C", "9D", "5H", "KS"], "high", "pair", ["ann", "cid"]),
    (["2C", "5D", "9H", "QS"], "high", "high card", ["dee"]),
    (["2C", "5D", "9H", "QS"], "low", "low card", ["ann"]),
    # Straights with the Ace low or high, never wrapping.
    (["AC", "2D", "3H", "9S"], "high", "small straight", ["ann", "bea", "cid"]),
    (["3C", "AD", "4H", "2S"], "high", "large straight", P),
    (["QC", "6D", "AH", "KS"], "high", "small straight", ["ann", "cid", "dee"]),
    (["AC", "KD", "JH", "QS"], "low", "large straight", P),
    (["KC", "AD", "2H", "7S"], "high", "high card", ["ann"]),  # K-A-2 is no straight
    (["KC", "AD", "2H", "7S"], "low", "low card", ["bea"]),
    (["QC", "KD", "AH", "2S"], "high", "small straight", ["ann", "bea", "cid"]),  # not K-A-2
    (["KC", "AD", "2H", "3S"], "high", "small straight", ["bea", "cid", "dee"]),  # not K-A
    # High/Low: the Ace counts 1.
    (["9C", "JD", "4H", "AS"], "high", "high card", ["bea"]),
    (["9C", "JD", "4H", "AS"], "low", "low card", ["dee"]),
    # A pair beats High/Low even when a higher single card is on the table.
    (["3C", "KD", "3H", "QS"], "high", "pair", ["ann", "cid"]),
]


@pytest.mark.parametrize(("cards", "mode", "row", "scorers"), ROWS)
def test_reveal_rows(cards: list[str], mode: str, row: str, scorers: list[str]) -> None:
    game = new(**{p: rank(c) for p, c in zip(P, cards, strict=True)})
    events = play_round(game, dict(zip(P, cards, strict=True)), mode=mode)
    revealed = game.view()["revealed"]
    assert revealed["row"] == row and revealed["scorers"] == scorers
    assert revealed["cards"] == dict(zip(P, cards, strict=True)) and revealed["mode"] == mode
    assert f"{row.capitalize()}: " in public_text(events)
    for p, c in zip(P, cards, strict=True):
        assert game.scored[p] == ([c] if p in scorers else [])
        assert game.scores[p] == (1 if p in scorers else 0)


def test_doubled_rank_inside_small_straight_earlier_card_counts() -> None:
    # Round 1, ann starts: ann 5♣ is placed before cid 5♥, so ann is in 5-6-7.
    game = new(ann="5 2", bea="6", cid="5 3", dee="7 4")
    play_round(game, {"ann": "5C", "bea": "6D", "cid": "5H", "dee": "7S"})
    revealed = game.view()["revealed"]
    assert revealed["row"] == "small straight"
    assert revealed["scorers"] == ["ann", "bea", "dee"]  # the pair of 5s does not also score
    # Round 2, bea starts: order bea, cid, dee, ann; now cid's 5♥ is the earlier one.
    play_round(game, {"bea": "4D", "cid": "3H", "dee": "4S", "ann": "2C"})
    assert game.view()["revealed"]["row"] == "small straight"
    assert game.view()["revealed"]["scorers"] == ["bea", "cid", "ann"]
    game3 = new(ann="5", bea="6", cid="5", dee="7")
    play_round(game3, {"ann": "AC", "bea": "AD", "cid": "AH", "dee": "AS"})  # so bea starts
    assert game3.view()["starting"] == "bea"
    play_round(game3, {"bea": "6D", "cid": "5H", "dee": "7S", "ann": "5C"})
    revealed = game3.view()["revealed"]
    assert revealed["order"] == ["bea", "cid", "dee", "ann"]
    assert revealed["scorers"] == ["bea", "cid", "dee"] and game3.scored["ann"] == ["AC"]


def test_doubled_ace_inside_q_k_a_and_a_2_3() -> None:
    assert classify(["AC", "QD", "AH", "KS"], "high") == ("small straight", [0, 1, 3])
    assert classify(["2C", "AD", "3H", "AS"], "low") == ("small straight", [0, 1, 2])


def test_high_low_ties_cannot_happen() -> None:
    # Four suits, one per player: equal ranks are always a pair, so the single card is unique.
    for a in RANKS:
        for b in RANKS:
            cards = [a + "C", b + "D", "2H", "9S"]
            row, scorers = classify(cards, "high")
            if row == "high card":
                assert len({value(c) for c in cards}) == 4 and len(scorers) == 1
            else:
                assert len(scorers) >= 2


# -- results: scoring, decks, redraw, rotation, winning -------------------------------------


def test_losing_cards_shuffle_back_and_everyone_draws_one() -> None:
    game = new(cid="9", dee="Q")  # dee's hand: Q♠ A♠-6♠; her deck starts 7♠
    before_hands = {p: list(game.hands[p]) for p in P}
    events = play_round(game, {"ann": "2C", "bea": "5D", "cid": "9H", "dee": "QS"})
    assert game.view()["revealed"]["scorers"] == ["dee"]
    assert game.scored == {"ann": [], "bea": [], "cid": [], "dee": ["QS"]}
    view = game.view()
    assert view["hand_sizes"] == dict.fromkeys(P, 7)
    assert view["deck_sizes"] == {"ann": 6, "bea": 6, "cid": 6, "dee": 5}
    # The scorer draws the top of the deck; the others draw from their shuffled deck, which
    # holds the card they just played.
    assert "7S" in game.hands["dee"] and game.decks["dee"] == ["8S", "9S", "10S", "JS", "KS"]
    for p, card in [("ann", "2C"), ("bea", "5D"), ("cid", "9H")]:
        assert card in game.hands[p] + game.decks[p]
        assert sorted(game.hands[p] + game.decks[p], key=sort_key) == [r + SUIT[p] for r in RANKS]
    text = public_text(events)
    assert "ann, bea and cid shuffle their card back into their deck." in text
    draw = next(e for e in events if e.public.endswith("draw a card."))
    assert set(draw.private) == set(P)
    for p in P:
        (new_card,) = set(game.hands[p]) - (set(before_hands[p]) - {game.revealed["cards"][p]})
        assert draw.private[p] == f"You draw {label(new_card)}."


def test_shuffle_back_uses_the_rng_and_is_deterministic() -> None:
    decks = set()
    for seed in range(8):
        game = stacked("itemcollection", P, [], seed=seed)
        play_round(game, {"ann": "2C", "bea": "4D", "cid": "6H", "dee": "7S"})
        assert game.revealed["scorers"] == ["dee"]
        decks.add(tuple(game.decks["ann"] + game.hands["ann"]))
        again = stacked("itemcollection", P, [], seed=seed)
        play_round(again, {"ann": "2C", "bea": "4D", "cid": "6H", "dee": "7S"})
        assert again.to_dict() == game.to_dict()
    assert len(decks) > 1


def test_starting_player_rotates_each_round() -> None:
    game = new()
    seen = []
    for _ in range(4):
        view = game.view()
        seen.append(view["starting"])
        order = view["order"]
        assert order[0] == view["starting"] and game.actors() == order
        cards = {p: game.view(p)["hand"][0] for p in P}
        play_round(game, cards, mode="low")
        assert not game.finished
    assert seen == ["ann", "bea", "cid", "dee"]
    assert game.view()["round"] == 5 and game.view()["starting"] == "ann"
    assert game.actors() == P


def test_all_four_win_together() -> None:
    game = new()
    for r in ["A", "2", "3", "4", "5"]:
        assert not game.finished
        play_round(game, {p: r + SUIT[p] for p in P})
        assert game.view()["revealed"]["row"] == "four of a kind"
    assert game.finished and game.winners == P
    assert game.scores == dict.fromkeys(P, 5)
    view = game.view()
    assert view["phase"] == "over" and view["actors"] == []
    assert view["prompt"] == "Game over: ann, bea, cid and dee win."
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="over"):
        game.apply("ann", "ready")
    assert game.to_dict() == before


def test_two_players_reach_five_together_and_win_alone_as_a_pair() -> None:
    game = new(ann="2 3 4 5 6", bea="2 3 4 5 6", cid="8 9 10 J Q K", dee="8 9 10 J Q K")
    for r in ["2", "3", "4", "5", "6"]:
        assert not game.finished
        # cid and dee play distinct ranks 8 or higher: no straight, no second pair.
        cid, dee = next(
            (x, y)
            for x in hand(game, "cid")
            for y in hand(game, "dee")
            if value(x) >= 8 and value(y) >= 8 and rank(x) != rank(y)
        )
        events = play_round(game, {"ann": r + "C", "bea": r + "D", "cid": cid, "dee": dee})
        assert game.view()["revealed"]["row"] == "pair"
    assert game.finished and game.winners == ["ann", "bea"]
    assert game.scores == {"ann": 5, "bea": 5, "cid": 0, "dee": 0}
    assert "ann and bea reach 5 scored cards and win together!" in public_text(events)


def test_four_scored_cards_do_not_win() -> None:
    game = new()
    for r in ["A", "2", "3", "4"]:
        play_round(game, {p: r + SUIT[p] for p in P})
    assert not game.finished and game.scores == dict.fromkeys(P, 4)
    assert game.view()["phase"] == "negotiation"


# -- refusals ----------------------------------------------------------------------------------


def refused(game: ItemCollection, player: str, action: str, match: str | None = None) -> None:
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=match):
        game.apply(player, action)
    assert game.to_dict() == before


def test_refusals_change_nothing() -> None:
    game = new()
    refused(game, "eve", "ready", "not playing")
    refused(game, "bea", "high")
    refused(game, "ann", "claim:5")
    refused(game, "ann", "place:AC")
    refused(game, "ann", "bogus")
    game.apply("bea", "ready")
    refused(game, "bea", "ready", "not your turn")
    game.apply("ann", "high")
    everyone_ready(game)
    refused(game, "bea", "claim:5", "not your turn")
    refused(game, "ann", "place:AC")  # claim first
    refused(game, "ann", "claim:1")
    refused(game, "ann", "ready")
    game.apply("ann", "claim:A")
    refused(game, "ann", "claim:2")
    refused(game, "ann", "place:AD")  # not her card
    refused(game, "ann", "place:KC")  # in her deck, not her hand
    game.apply("ann", "place:AC")
    refused(game, "ann", "place:2C", "not your turn")
    refused(game, "bea", "place:AD")


def test_json_round_trip_mid_round_continues_identically() -> None:
    game = new()
    game.apply("ann", "low")
    game.apply("cid", "ready")
    loaded = engine.load(json.loads(json.dumps(game.to_dict())))
    for g in (game, loaded):
        play_round(g, {"ann": "2C", "bea": "6D", "cid": "5H", "dee": "7S"}, mode=None)
        play_round(g, {"bea": "AD", "cid": "AH", "dee": "3S", "ann": "4C"})
    assert game.revealed["scorers"] == ["bea", "cid"]
    assert loaded.to_dict() == game.to_dict()
    assert loaded.view("ann") == game.view("ann")
