"""I Have It: scenario tests, one or more per rule (seed text + the "I Have It" rulings).

Stacked deals (see the deal order in engine/games/ihaveit.py): ``deal(ann, bea, cid, pile)``
takes each player's 10 cards, the 10th being the card they drew from the pile (it decides
who starts), and the top of the pile; the rest of the pile follows in deck order.
Late-game positions (empty pile, players running out) are built with ``position``, which
edits a saved game; every card not placed goes to the discard so the 52 stay accounted for.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine.cards import label, sort_key, standard_deck, value
from engine.games.ihaveit import IHaveIt, goal_met
from engine.testing import stacked

PLAYERS = ["Ann", "Bea", "Cid"]


def cards(text: str) -> list[str]:
    return text.split()


def deal(ann: str, bea: str, cid: str, pile: str = "", seed: int = 0) -> IHaveIt:
    a, b, c = cards(ann), cards(bea), cards(cid)
    assert len(a) == len(b) == len(c) == 10
    given = a[:9] + b[:9] + c[:9] + [a[9], b[9], c[9]] + cards(pile)
    rest = [x for x in standard_deck() if x not in given]
    game = stacked("ihaveit", PLAYERS, given + rest, seed=seed)
    assert isinstance(game, IHaveIt)
    return game


def position(
    hands: dict[str, str],
    *,
    current: str,
    phase: str = "lead",
    in_play: tuple[str, str] | None = None,
    pile: str = "",
    out: tuple[str, ...] = (),
    seed: int = 0,
) -> IHaveIt:
    """A mid-game position; cards not in a hand, the pile or play are in the discard."""
    data = engine.new_game("ihaveit", PLAYERS, seed=seed).to_dict()
    held = {p: sorted(cards(hands.get(p, "")), key=sort_key) for p in PLAYERS}
    play = {"player": in_play[0], "cards": cards(in_play[1])} if in_play else None
    placed = [c for h in held.values() for c in h] + cards(pile) + (play["cards"] if play else [])
    assert len(placed) == len(set(placed))
    data["state"].update(
        hands=held,
        pile=cards(pile),
        discard=[c for c in standard_deck() if c not in placed],
        in_play=play,
        current=current,
        phase=phase,
        limit=None,
        taken_by=None,
        out=list(out),
        moves=20,
    )
    game = engine.load(data)
    assert isinstance(game, IHaveIt)
    return game


def ids(game: IHaveIt, player: str) -> set[str]:
    return {a.id for a in game.legal_actions(player)}


def snapshot(game: IHaveIt) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def refused(game: IHaveIt, player: str, action_id: str) -> str:
    """Apply an action that must be refused; check nothing changed; return the message."""
    before = snapshot(game)
    with pytest.raises(engine.IllegalAction) as info:
        game.apply(player, action_id)
    assert snapshot(game) == before
    return str(info.value)


def public(events: list[engine.Event]) -> str:
    return " | ".join(e.public for e in events)


def all_cards(game: IHaveIt) -> list[str]:
    state: dict[str, Any] = game.to_dict()["state"]
    found = [c for h in state["hands"].values() for c in h] + state["pile"] + state["discard"]
    if state["in_play"]:
        found += state["in_play"]["cards"]
    return sorted(found)


# Game A: the answer table. Ann draws K♠, Bea K♦ (same rank: spades beat diamonds), Cid 6♣.
ANN_A = "4C 6D 8S 10D JC QD 3S 7C 7H KS"
BEA_A = "9D 9S 3C 5H 7D 7S 2H 2S 5D KD"
CID_A = "AC AD AH 4H 6S 8C 10C JD QH 6C"


def game_a(seed: int = 0) -> IHaveIt:
    return deal(ANN_A, BEA_A, CID_A, pile="8D JH", seed=seed)


# Game F: the seed's figures. Ann leads 7♣ (Figure 2), Bea answers Q♠ (Figure 3); Cid holds
# no single above Q, no pair, and four spades (Figure 4).
ANN_F = "2C 3C 4D 5D 6H 8H 9S 10S 7C KH"
BEA_F = "AD 2D 3H 4S 5C 6D 7D 8C QS JH"
CID_F = "2S 5S 8S JS AC 3D 4H 6C 9D 10H"


def game_f(seed: int = 0) -> IHaveIt:
    return deal(ANN_F, BEA_F, CID_F, pile="KC", seed=seed)


# -- players and setup -----------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4])
def test_exactly_three_players(n: int) -> None:
    with pytest.raises(ValueError, match="exactly 3"):
        engine.new_game("ihaveit", [f"p{i}" for i in range(n)])


def test_stacked_deck_must_hold_all_52_cards() -> None:
    with pytest.raises(ValueError, match="52"):
        stacked("ihaveit", PLAYERS, standard_deck()[:40])


def test_deal_nine_each_then_one_drawn_from_the_pile() -> None:
    game = game_a()
    view = game.view()
    assert view["hand_sizes"] == {"Ann": 10, "Bea": 10, "Cid": 10}
    assert view["pile"] == 22 and view["discard"] == 0
    assert view["redeals"] == 0 and view["out"] == [] and view["in_play"] is None
    assert game.view("Ann")["hand"] == sorted(cards(ANN_A), key=sort_key)
    assert game.view("Bea")["hand"] == sorted(cards(BEA_A), key=sort_key)
    assert game.view("Cid")["hand"] == sorted(cards(CID_A), key=sort_key)
    # Each player privately sees the card they drew, until the first move.
    assert [game.view(p)["drawn"] for p in PLAYERS] == ["KS", "KD", "6C"]
    assert "drawn" not in view
    assert len(all_cards(game)) == 52


def test_highest_drawn_card_starts_ties_by_suit() -> None:
    # K♠ and K♦ tie on rank; spades beat diamonds, so Ann starts.
    game = game_a()
    assert game.view()["starter"] == "Ann"
    assert game.actors() == ["Ann"]
    view = game.view()
    assert view["phase"] == "lead" and view["current"] == "Ann"
    assert view["prompt"] == "Ann to lead a single or a pair."


def test_only_the_drawn_card_decides_the_start_ace_low() -> None:
    # Ann holds a King among her dealt nine but drew A♠; Bea drew 2♣, Cid A♥: the 2 beats
    # both Aces (Ace low), so Bea starts.
    game = deal(
        "KC 3C 4D 5D 6H 8H 9S 10S 7C AS",
        "AD 2D 3H 4S 5C 6D 7D 8C QS 2C",
        "2S 5S 8S JS AC 3D 4H 6C 9D AH",
    )
    assert game.view()["starter"] == "Bea"
    assert game.actors() == ["Bea"]


def test_redeal_when_a_hand_meets_a_goal_right_after_the_deal() -> None:
    # Ann is dealt four Aces: the cards are gathered, shuffled with the game's RNG and dealt
    # again until no hand meets a goal.
    ann = "AC AD AH AS 2C 3C 4D 5D 6H KH"
    game = deal(ann, BEA_F.replace("AD", "7S"), CID_F.replace("AC", "QC"), seed=7)
    view = game.view()
    assert view["redeals"] >= 1
    assert not any(goal_met(game.view(p)["hand"]) for p in PLAYERS)
    assert game.view("Ann")["hand"] != sorted(cards(ann), key=sort_key)
    assert view["hand_sizes"] == {"Ann": 10, "Bea": 10, "Cid": 10} and view["pile"] == 22
    assert len(all_cards(game)) == 52
    # The re-deal comes from the RNG: the same seed deals the same hands again.
    again = deal(ann, BEA_F.replace("AD", "7S"), CID_F.replace("AC", "QC"), seed=7)
    assert snapshot(again) == snapshot(game)


def test_redeal_counts_the_drawn_tenth_card() -> None:
    # Six hearts dealt, the seventh drawn: the goal is met after the deal, so it is re-dealt.
    ann = "2H 3H 4H 5H 6H 8H 9S 10S 7C KH"
    bea = "AD 2D 3C 4S 5C 6D 7D 8C QS JS"
    cid = "2S 5S 8S JD AC 3D 4C 6C 9D 10C"
    game = deal(ann, bea, cid, seed=3)
    assert game.view()["redeals"] >= 1
    assert not any(goal_met(game.view(p)["hand"]) for p in PLAYERS)
    # With 10♦ drawn instead of that seventh heart, nothing is re-dealt.
    calm = deal(ann.replace("KH", "10D"), bea, cid.replace("10C", "KH"), seed=3)
    assert calm.view()["redeals"] == 0
    assert calm.view("Ann")["hand"] == sorted(cards(ann.replace("KH", "10D")), key=sort_key)


# -- the lead --------------------------------------------------------------------------------
def test_a_lead_is_any_single_or_any_pair() -> None:
    game = game_a()
    singles = {f"lead:{c}" for c in cards(ANN_A)}
    assert ids(game, "Ann") == singles | {"lead:7C.7H"}
    labels = {a.id: a.label for a in game.legal_actions("Ann")}
    assert labels["lead:7C"] == "Play 7♣"
    assert labels["lead:7C.7H"] == "Play pair 7♣ 7♥"
    events = game.apply("Ann", "lead:7C.7H")
    assert public(events) == "Ann leads pair 7♣ 7♥."
    view = game.view()
    assert view["in_play"] == {"player": "Ann", "cards": ["7C", "7H"]}
    assert view["phase"] == "answer" and view["current"] == "Bea"
    assert view["prompt"] == "Bea to answer Ann's pair 7♣ 7♥ or decline."
    assert view["hand_sizes"]["Ann"] == 8


# -- the answer table ------------------------------------------------------------------------
def test_answers_to_a_single() -> None:
    game = game_a()
    game.apply("Ann", "lead:7C")
    assert ids(game, "Bea") == {
        "answer:9D",  # higher single, other suit
        "answer:9S",
        "answer:KD",
        "answer:3C",  # same suit, lower rank
        "answer:2H.2S",  # any pair, even a lower one
        "answer:5D.5H",
        "answer:7D.7S",
        "answer:9D.9S",
        "decline",
    }
    # Lower or equal singles of another suit are no answer.
    for bad in ("answer:5H", "answer:2S", "answer:7D", "answer:7S"):
        assert refused(game, "Bea", bad) == "That move is not available right now."


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("answer:9D", "higher single"),
        ("answer:3C", "same-suit single"),
        ("answer:2H.2S", "lower pair on a single"),
    ],
)
def test_each_answer_to_a_single_is_accepted(answer: str, why: str) -> None:
    game = game_a()
    game.apply("Ann", "lead:7C")
    played = answer.split(":")[1].split(".")
    events = game.apply("Bea", answer)
    assert events[0].public.startswith("Bea answers Ann's 7♣ with"), why
    view = game.view()
    assert view["in_play"] == {"player": "Bea", "cards": played}
    assert view["current"] == "Cid" and view["phase"] == "answer"
    assert view["discard"] == 1  # the answered 7♣
    # Ann played one card, so she draws one: the pile's top card, 8♦.
    assert "8D" in game.view("Ann")["hand"] and view["pile"] == 21


def test_answers_to_a_pair_only_a_higher_pair() -> None:
    game = game_a()
    game.apply("Ann", "lead:7C.7H")
    assert ids(game, "Bea") == {"answer:9D.9S", "decline"}
    assert refused(game, "Bea", "answer:7D.7S")  # same rank is not higher
    assert refused(game, "Bea", "answer:5D.5H")  # lower pair refused
    assert refused(game, "Bea", "answer:KD")  # a single never answers a pair
    events = game.apply("Bea", "answer:9D.9S")
    # Ann played two cards, so she draws two: 8♦ and J♥ from the top of the pile.
    assert public(events) == (
        "Bea answers Ann's pair 7♣ 7♥ with pair 9♦ 9♠. | Ann draws 2 cards from the pile."
    )
    assert events[1].private == {"Ann": "You drew 8♦, J♥."}
    assert {"8D", "JH"} <= set(game.view("Ann")["hand"])
    assert game.view()["pile"] == 20
    assert game.view()["hand_sizes"] == {"Ann": 10, "Bea": 8, "Cid": 10}


def test_play_rolls_on_clockwise_each_play_answering_the_last() -> None:
    game = game_a()
    game.apply("Ann", "lead:7C")
    game.apply("Bea", "answer:9D")
    # Cid answers Bea's 9♦ (J♦ is higher and a diamond); Bea, answered, draws.
    assert "answer:JD" in ids(game, "Cid") and "answer:8C" not in ids(game, "Cid")
    game.apply("Cid", "answer:JD")
    assert game.view()["hand_sizes"]["Bea"] == 10
    # Back to Ann, who answers Cid's J♦.
    assert game.actors() == ["Ann"]
    assert game.view()["prompt"] == "Ann to answer Cid's J♦ or decline."
    assert "answer:QD" in ids(game, "Ann") and "answer:10D" in ids(game, "Ann")


# -- the seed's worked example (Figures 2-4) -------------------------------------------------
def test_figure_4_no_higher_single_but_four_spades() -> None:
    game = game_f()
    game.apply("Ann", "lead:7C")  # Figure 2: the previous player played 7♣
    assert "answer:QS" in ids(game, "Bea")
    game.apply("Bea", "answer:QS")  # Figure 3: Q♠ answers it (higher)
    # Figure 4: Cid has no single above the Queen and no pair, but four spades: she may play
    # one of them, or decline and let Bea take one card from her hand.
    actions = game.legal_actions("Cid")
    assert [(a.id, a.label) for a in actions] == [
        ("answer:2S", "Play 2♠"),
        ("answer:5S", "Play 5♠"),
        ("answer:8S", "Play 8♠"),
        ("answer:JS", "Play J♠"),
        ("decline", "Decline (let Bea take 1 card)"),
    ]
    assert refused(game, "Cid", "answer:10H")
    assert refused(game, "Cid", "answer:9D")


def test_figure_4_declining_lets_the_previous_player_take_one_card() -> None:
    game = game_f(seed=11)
    game.apply("Ann", "lead:7C")
    game.apply("Bea", "answer:QS")
    cid_before = set(game.view("Cid")["hand"])
    bea_before = set(game.view("Bea")["hand"])
    events = game.apply("Cid", "decline")
    taken = cid_before - set(game.view("Cid")["hand"])
    assert len(taken) == 1 and set(game.view("Bea")["hand"]) == bea_before | taken
    assert events[0].public == "Cid declines Bea's Q♠; Bea takes 1 card at random from Cid's hand."
    # Declining is allowed even holding eligible spades, and now Cid leads.
    assert game.actors() == ["Cid"] and game.view()["phase"] == "lead"


# -- declining, the random take and the restricted lead -------------------------------------
def test_decline_is_always_allowed() -> None:
    game = game_a()
    game.apply("Ann", "lead:7C")
    assert "decline" in ids(game, "Bea")  # though Bea holds several answers


def run_decline(seed: int) -> tuple[IHaveIt, list[engine.Event], str]:
    """Game A: Ann leads 7♣, Bea declines; return the game, events and the card taken."""
    game = game_a(seed)
    game.apply("Ann", "lead:7C")
    before = set(game.view("Bea")["hand"])
    events = game.apply("Bea", "decline")
    (taken,) = before - set(game.view("Bea")["hand"])
    return game, events, taken


def test_decline_random_take_private_to_taker_and_decliner() -> None:
    game, events, taken = run_decline(seed=5)
    name = label(taken)
    assert taken in game.view("Ann")["hand"]
    # Public text says only how many; which card goes privately to Ann and Bea, not Cid.
    assert events[0].public == "Bea declines Ann's 7♣; Ann takes 1 card at random from Bea's hand."
    assert name not in public(events)
    assert events[0].private["Ann"] == (
        f"You took {name} from Bea. "
        f"Bea's lead: a single or a pair of rank {taken[:-1]} or lower, if they have one."
    )
    assert events[0].private["Bea"] == (
        f"Ann took {name} from you. "
        f"Lead a single or a pair of rank {taken[:-1]} or lower if you can."
    )
    assert "Cid" not in events[0].private
    view = game.view()
    assert view["hand_sizes"] == {"Ann": 10, "Bea": 9, "Cid": 10}
    assert view["in_play"] is None and view["discard"] == 1  # the declined 7♣
    assert view["pile"] == 22  # nobody draws from the pile after a decline


def test_the_take_is_random_from_the_rng() -> None:
    taken = {run_decline(seed)[2] for seed in range(30)}
    assert len(taken) >= 5  # different seeds take different cards
    assert run_decline(4)[2] == run_decline(4)[2]  # the same seed takes the same card


def test_restricted_lead_no_higher_than_the_lowest_rank_taken() -> None:
    for seed in range(30):
        game, _, taken = run_decline(seed)
        limit = taken[:-1]
        assert game.actors() == ["Bea"]
        view = game.view()
        assert view["phase"] == "lead" and view["restricted"] is True
        # The limit tells the rank Ann took: only Ann and Bea see it.
        assert game.view("Bea")["lead_limit"] == limit
        assert game.view("Ann")["lead_limit"] == limit
        assert game.view("Cid")["lead_limit"] is None and view["lead_limit"] is None
        assert view["prompt"] == (
            "Bea to lead a single or a pair no higher than the lowest rank Ann took, if any fits."
        )
        top = value(taken)
        hand = game.view("Bea")["hand"]
        low = [c for c in hand if value(c) <= top]
        legal = ids(game, "Bea")
        assert low, "Bea always keeps a card as low as the one taken here (two 2s)"
        assert {f"lead:{c}" for c in low} <= legal
        for action_id in legal:
            played = action_id.split(":")[1].split(".")
            assert value(played[0]) <= top
        high = [c for c in hand if value(c) > top]
        for c in high:
            assert refused(game, "Bea", f"lead:{c}")


def test_restricted_pair_lead_and_limit_by_rank_not_suit() -> None:
    # Ann took K♦ from Bea: the limit is King, so Bea may lead anything (suits do not count).
    for seed in range(60):
        game, _, taken = run_decline(seed)
        if taken == "KD":
            break
    else:
        pytest.fail("no seed in range took K♦")
    hand = game.view("Bea")["hand"]
    assert ids(game, "Bea") == {f"lead:{c}" for c in hand} | {
        "lead:2H.2S",
        "lead:5D.5H",
        "lead:7D.7S",
        "lead:9D.9S",
    }
    # Ann took 7♠: Bea may still lead her 2s, 5s and the 3♣ (singles or the pairs), not 7♦.
    for seed in range(60):
        game, _, taken = run_decline(seed)
        if taken == "7S":
            break
    else:
        pytest.fail("no seed in range took 7♠")
    assert game.view("Bea")["lead_limit"] == "7"
    assert ids(game, "Bea") == {
        "lead:2H",
        "lead:2S",
        "lead:3C",
        "lead:5D",
        "lead:5H",
        "lead:7D",
        "lead:2H.2S",
        "lead:5D.5H",
    }


def test_restricted_lead_with_no_such_card_may_lead_anything() -> None:
    # Bea's lowest card, 3♣, is unique: when Ann takes it, Bea has nothing that low and may
    # lead anything; when Ann takes another card, Bea must lead low.
    seen = set()
    for seed in range(40):
        game = position(
            {"Ann": "KC QD", "Bea": "3C 8D 9S JH", "Cid": "4D 6D"},
            current="Bea",
            phase="answer",
            in_play=("Ann", "2C"),
            seed=seed,
        )
        game.apply("Bea", "decline")
        hand = game.view("Bea")["hand"]
        if "3C" in game.view("Ann")["hand"]:
            seen.add("lowest taken")
            assert game.view("Bea")["lead_limit"] == "3"
            assert len(hand) == 3 and "3C" not in hand
            assert ids(game, "Bea") == {f"lead:{c}" for c in hand}
        else:
            seen.add("other taken")
            (taken,) = set(game.view("Ann")["hand"]) - {"KC", "QD"}
            assert ids(game, "Bea") == {f"lead:{c}" for c in hand if value(c) <= value(taken)}
            assert "lead:3C" in ids(game, "Bea")
    assert seen == {"lowest taken", "other taken"}


def test_a_restricted_lead_is_answered_normally_and_lifts_the_limit() -> None:
    game, _, _ = run_decline(seed=2)
    lead = sorted(ids(game, "Bea"))[0]
    game.apply("Bea", lead)
    view = game.view()
    assert view["restricted"] is False and game.view("Bea")["lead_limit"] is None
    assert view["current"] == "Cid" and view["phase"] == "answer"


def test_decline_of_a_pair_takes_two_cards() -> None:
    game = game_a(seed=9)
    game.apply("Ann", "lead:7C.7H")
    labels = {a.id: a.label for a in game.legal_actions("Bea")}
    assert labels["decline"] == "Decline (let Ann take 2 cards)"
    before = set(game.view("Bea")["hand"])
    events = game.apply("Bea", "decline")
    taken = before - set(game.view("Bea")["hand"])
    assert len(taken) == 2 and taken <= set(game.view("Ann")["hand"])
    assert "takes 2 cards at random" in events[0].public
    lowest = min(taken, key=sort_key)
    assert game.view("Bea")["lead_limit"] == lowest[:-1]


# -- goals -----------------------------------------------------------------------------------
def test_goal_four_of_a_rank_after_an_answer_draw() -> None:
    game = deal(
        "7C 7H 7D 2C 4D 6S 9H JC QD KS",
        "3S 5S 8C 10D JH QH AS 2H 4C KD",
        "AC AD AH 3C 3D 5C 6C 8D 9D 10C",
        pile="7S",
    )
    game.apply("Ann", "lead:2C")
    events = game.apply("Bea", "answer:4C")
    # Ann draws the fourth 7 from the pile and wins at once.
    assert events[-1].public == "Ann has four 7s and wins!"
    assert game.finished and game.winners == ["Ann"]
    assert game.scores == {"Ann": 1, "Bea": 0, "Cid": 0}
    assert game.actors() == [] and game.legal_actions("Cid") == []
    view = game.view()
    assert view["phase"] == "over" and view["current"] is None and view["prompt"] == "Ann wins."
    assert refused(game, "Cid", "decline") == "This game is over."


def test_goal_seven_of_a_suit_after_a_take() -> None:
    # Ann holds six hearts; Bea declines Ann's 2♣ and has only hearts, so Ann takes a heart.
    game = position(
        {"Ann": "AH 3H 4H 5H 6H 8H KC", "Bea": "9H JH", "Cid": "4D 6D"},
        current="Bea",
        phase="answer",
        in_play=("Ann", "2C"),
    )
    events = game.apply("Bea", "decline")
    assert events[-1].public == "Ann has seven hearts ♥ and wins!"
    assert game.winners == ["Ann"] and game.finished
    assert game.scores["Ann"] == 1


def test_goal_four_of_a_rank_after_a_take() -> None:
    # Ann holds three 9s; Bea declines with the fourth as her only card.
    game = position(
        {"Ann": "9C 9D 9H KC", "Bea": "9S", "Cid": "4D 6D"},
        current="Bea",
        phase="answer",
        in_play=("Ann", "2C"),
    )
    events = game.apply("Bea", "decline")
    assert events[-1].public == "Ann has four 9s and wins!"
    assert game.winners == ["Ann"]


def test_no_goal_no_win_and_goal_text_names_no_card() -> None:
    assert goal_met(cards("7C 7D 7H 2S")) is None
    assert goal_met(cards("7C 7D 7H 7S")) == "four 7s"
    assert goal_met(cards("AC AD AH AS")) == "four Aces"
    assert goal_met(cards("AS 2S 3S 4S 5S 6S")) is None
    assert goal_met(cards("AS 2S 3S 4S 5S 6S KS")) == "seven spades ♠"


# -- players running out --------------------------------------------------------------------
def test_an_empty_hand_waiting_for_an_answer_is_not_out_and_draws() -> None:
    game = position({"Ann": "5C", "Bea": "9C 2D", "Cid": "KD 4S"}, current="Ann", pile="8D 3S")
    game.apply("Ann", "lead:5C")
    view = game.view()
    assert view["hand_sizes"]["Ann"] == 0 and view["out"] == []
    assert game.actors() == ["Bea"]
    game.apply("Bea", "answer:9C")
    assert game.view("Ann")["hand"] == ["8D"] and game.view()["out"] == []


def test_running_out_and_being_skipped() -> None:
    game = position({"Ann": "5C", "Bea": "9C 2D 3H", "Cid": "KC 4S 6H"}, current="Ann")
    game.apply("Ann", "lead:5C")  # her last card; it awaits an answer, she is not out yet
    events = game.apply("Bea", "answer:9C")
    # The pile is empty, so Ann draws nothing: she is out.
    assert public(events) == (
        "Bea answers Ann's 5♣ with 9♣. | The pile is empty: Ann draws nothing. | "
        "Ann has no cards left and is out."
    )
    assert game.view()["out"] == ["Ann"]
    assert game.actors() == ["Cid"]
    game.apply("Cid", "answer:KC")
    # Ann is skipped: Bea answers Cid's K♣.
    assert game.actors() == ["Bea"]
    assert game.view()["prompt"] == "Bea to answer Cid's K♣ or decline."
    assert game.legal_actions("Ann") == []
    assert refused(game, "Ann", "decline") == "It is not your turn."


def test_a_decliner_left_with_no_card_is_out_and_the_next_leads_freely() -> None:
    game = position(
        {"Ann": "4C 4D 10S", "Bea": "2S", "Cid": "KD 8H 3C"},
        current="Ann",
    )
    game.apply("Ann", "lead:4C.4D")
    labels = {a.id: a.label for a in game.legal_actions("Bea")}
    assert labels == {"decline": "Decline (let Ann take 1 card)"}  # fewer than the two played
    events = game.apply("Bea", "decline")
    assert public(events) == (
        "Bea declines Ann's pair 4♣ 4♦; Ann takes 1 card at random from Bea's hand. | "
        "Bea has no cards left and is out."
    )
    assert game.view("Ann")["hand"] == ["2S", "10S"]
    view = game.view()
    assert view["out"] == ["Bea"] and view["current"] == "Cid" and view["phase"] == "lead"
    assert view["restricted"] is False
    assert ids(game, "Cid") == {"lead:3C", "lead:8H", "lead:KD"}


def test_last_player_not_out_wins() -> None:
    game = position({"Bea": "QC", "Cid": "3D"}, current="Bea", out=("Ann",))
    game.apply("Bea", "lead:QC")
    assert ids(game, "Cid") == {"decline"}  # 3♦ is lower and not a club
    events = game.apply("Cid", "decline")
    assert public(events).endswith(
        "Cid has no cards left and is out. | Bea is the last player not out and wins!"
    )
    assert game.finished and game.winners == ["Bea"]
    assert game.scores == {"Ann": 0, "Bea": 1, "Cid": 0}


def test_last_player_not_out_wins_even_with_an_empty_hand() -> None:
    game = position({"Bea": "QC", "Cid": "KC"}, current="Bea", out=("Ann",))
    game.apply("Bea", "lead:QC")
    events = game.apply("Cid", "answer:KC")
    assert public(events).endswith(
        "Bea has no cards left and is out. | Cid is the last player not out and wins!"
    )
    assert game.winners == ["Cid"] and game.view()["hand_sizes"]["Cid"] == 0


def test_the_pile_runs_short_and_is_never_refilled() -> None:
    game = position(
        {"Ann": "4C 4D 10S", "Bea": "6C 6D 2H", "Cid": "KD 8H 3C"}, current="Ann", pile="9H"
    )
    game.apply("Ann", "lead:4C.4D")
    events = game.apply("Bea", "answer:6C.6D")
    assert events[1].public == "Ann draws 1 card from the pile (the pile ran short)."
    assert events[1].private == {"Ann": "You drew 9♥."}
    assert game.view()["pile"] == 0
    discard = game.view()["discard"]
    game.apply("Cid", "decline")
    # Played cards stay out of the game: the pile stays empty.
    assert game.view()["pile"] == 0 and game.view()["discard"] == discard + 2


# -- refusals --------------------------------------------------------------------------------
def test_refusals_change_nothing() -> None:
    game = game_a()
    assert refused(game, "Bea", "lead:9D") == "It is not your turn."
    assert refused(game, "Zed", "lead:7C") == "You are not playing in this game."
    assert refused(game, "Ann", "lead:9D")  # not her card
    assert refused(game, "Ann", "lead:7C.KS")  # not a pair
    assert refused(game, "Ann", "lead:7H.7C")  # pairs are written in suit order
    assert refused(game, "Ann", "decline")  # nothing to decline
    assert refused(game, "Ann", "answer:7C")  # nothing to answer
    assert refused(game, "Ann", "")
    game.apply("Ann", "lead:7C")
    assert refused(game, "Ann", "answer:KS")  # her own play
    assert refused(game, "Bea", "lead:9D")  # must answer or decline, not lead
    assert refused(game, "Bea", "answer:9C")  # not her card


def test_views_list_every_key_and_hide_hands() -> None:
    game = game_a()
    game.apply("Ann", "lead:7C")
    view = game.view()
    for key in (
        "phase",
        "prompt",
        "current",
        "in_play",
        "pile",
        "discard",
        "hand_sizes",
        "out",
        "lead_limit",
        "restricted",
        "starter",
        "redeals",
    ):
        assert key in view, key
    assert "hand" not in view and "drawn" not in view
    assert "hand" not in game.view("Zed")
    text = json.dumps(view)
    for c in game.view("Bea")["hand"] + game.view("Cid")["hand"]:
        assert f'"{c}"' not in text
    json.dumps(game.view("Bea"))  # JSON-able


def test_round_trip_mid_game_continues_identically() -> None:
    game, _, _ = run_decline(seed=3)
    loaded = engine.load(json.loads(json.dumps(game.to_dict())))
    assert snapshot(loaded) == snapshot(game)
    action = sorted(ids(game, "Bea"))[0]
    assert [e.public for e in loaded.apply("Bea", action)] == [
        e.public for e in game.apply("Bea", action)
    ]
    loaded.apply("Cid", "decline")
    game.apply("Cid", "decline")
    assert snapshot(loaded) == snapshot(game)  # the random take agrees too
