"""I Have It bots: Normal's named behaviours, the view's memory, honesty, complete games.

``position`` builds a mid-game table: the given hands, the play in front, the cards listed as
``gone`` in the discard, every other card in the pile (so goals stay reachable unless a test
says otherwise).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
import engine.bots.ihaveit as bots
from engine.bots import choose, describe
from engine.cards import sort_key, standard_deck
from engine.games.ihaveit import IHaveIt

PLAYERS = ["Ann", "Bea", "Cid"]
LEVELS = ("normal", "hard")


def cards(text: str) -> list[str]:
    return text.split()


def position(
    hands: dict[str, str],
    *,
    current: str,
    phase: str = "lead",
    in_play: tuple[str, str] | None = None,
    gone: str = "",
    out: tuple[str, ...] = (),
    known: dict[str, dict[str, list[str]]] | None = None,
) -> IHaveIt:
    data = engine.new_game("ihaveit", PLAYERS, seed=3).to_dict()
    held = {p: sorted(cards(hands.get(p, "")), key=sort_key) for p in PLAYERS}
    play = {"player": in_play[0], "cards": cards(in_play[1])} if in_play else None
    placed = [c for h in held.values() for c in h] + cards(gone) + (play["cards"] if play else [])
    assert len(placed) == len(set(placed))
    data["state"].update(
        hands=held,
        pile=[c for c in standard_deck() if c not in placed],
        discard=cards(gone),
        in_play=play,
        current=current,
        phase=phase,
        limit=None,
        taken_by=None,
        out=list(out),
        moves=20,
        known={p: (known or {}).get(p, {}) for p in PLAYERS},
    )
    game = engine.load(json.loads(json.dumps(data)))
    assert isinstance(game, IHaveIt)
    return game


def bot(game: IHaveIt, player: str, level: str = "normal", seed: int = 0) -> str:
    view = game.view(player)
    return choose("ihaveit", level, view, game.legal_actions(player), random.Random(seed))


# -- Normal's named behaviours ----------------------------------------------------------------
def test_answers_rather_than_declines() -> None:
    game = position(
        {"Ann": "2D 9H", "Bea": "4S 5S", "Cid": "JC QC"},
        current="Ann",
        phase="answer",
        in_play=("Cid", "7C"),
    )
    assert {a.id for a in game.legal_actions("Ann")} == {"answer:9H", "decline"}
    assert bot(game, "Ann") == "answer:9H"


def test_leads_its_lowest_pair_first() -> None:
    game = position({"Ann": "3C 3D 9C 9S KH 2D", "Bea": "4S 5S", "Cid": "JC QC"}, current="Ann")
    assert bot(game, "Ann") == "lead:3C.3D"


def test_answers_a_single_with_a_pair_the_next_player_must_top() -> None:
    game = position(
        {"Ann": "4C 4D 6S KH", "Bea": "2S 5S", "Cid": "JC QC"},
        current="Ann",
        phase="answer",
        in_play=("Cid", "5H"),
    )
    assert bot(game, "Ann") == "answer:4C.4D"


def test_answers_a_pair_with_its_lowest_higher_pair() -> None:
    game = position(
        {"Ann": "9C 9D QC QS 2H", "Bea": "2S 5S", "Cid": "JC QH"},
        current="Ann",
        phase="answer",
        in_play=("Cid", "6C 6D"),
    )
    assert bot(game, "Ann") == "answer:9C.9D"


def test_leads_its_lowest_single_without_a_pair() -> None:
    game = position({"Ann": "KH 5C 2D 9S", "Bea": "4S 6S", "Cid": "JC QC"}, current="Ann")
    assert bot(game, "Ann") == "lead:2D"


def test_keeps_three_of_a_kind_toward_four() -> None:
    # The fourth 5 is still in play (in Bea's hand), so the pair of 5s stays in hand.
    game = position({"Ann": "5C 5D 5H 9S KD", "Bea": "5S 6S", "Cid": "JC QC"}, current="Ann")
    assert bot(game, "Ann") == "lead:9S"


def test_breaks_three_of_a_kind_once_the_fourth_is_played() -> None:
    game = position(
        {"Ann": "5C 5D 5H 9S KD", "Bea": "4S 6S", "Cid": "JC QC"}, current="Ann", gone="5S"
    )
    assert bot(game, "Ann") == "lead:5C.5D"


def test_keeps_a_long_suit_toward_seven() -> None:
    game = position({"Ann": "2C 4C 6C 8C 10C QC KD", "Bea": "4S 6S", "Cid": "JD QD"}, current="Ann")
    assert bot(game, "Ann") == "lead:KD"


def test_a_suit_that_cannot_reach_seven_is_not_kept() -> None:
    # Seven clubs are gone: the six in hand can never become seven, so the lowest card leads.
    game = position(
        {"Ann": "2C 4C 6C 8C 10C QC KD", "Bea": "4S 6S", "Cid": "JD QD"},
        current="Ann",
        gone="AC 3C 5C 7C 9C JC KC",
    )
    assert bot(game, "Ann") == "lead:2C"


def test_leads_within_a_restriction() -> None:
    game = position({"Ann": "3C 9C 9D", "Bea": "4S 6S", "Cid": "JD QD"}, current="Ann")
    assert bot(game, "Ann") == "lead:9C.9D"
    data = game.to_dict()
    data["state"].update(limit="5", taken_by="Cid")
    limited = engine.load(data)
    assert isinstance(limited, IHaveIt)
    assert bot(limited, "Ann") == "lead:3C"


def test_declines_only_when_it_cannot_answer() -> None:
    game = position(
        {"Ann": "2D 3H", "Bea": "4S 6S", "Cid": "JD QD"},
        current="Ann",
        phase="answer",
        in_play=("Cid", "9C 9S"),
    )
    for level in LEVELS:
        assert bot(game, "Ann", level) == "decline"


# -- what the view remembers -------------------------------------------------------------------
def test_view_lists_the_played_cards() -> None:
    game = position({"Ann": "2D 9H", "Bea": "4S 5S", "Cid": "7C QC"}, current="Cid", gone="AC AD")
    game.apply("Cid", "lead:7C")
    game.apply("Ann", "answer:9H")  # Cid's 7♣ leaves the game
    assert game.view()["played"] == ["AC", "AD", "7C"]
    assert game.view("Bea")["played"] == ["AC", "AD", "7C"]
    assert game.view()["discard"] == 3


def test_known_remembers_the_cards_a_taker_holds_until_played() -> None:
    game = position(
        {"Ann": "2D 3H", "Bea": "2S 6S 8S", "Cid": "JD QD KD"},
        current="Ann",
        phase="answer",
        in_play=("Cid", "9C 9S"),
    )
    game.apply("Ann", "decline")  # Cid takes both of Ann's cards; Ann is out
    assert game.view("Ann")["known"] == {"Cid": ["2D", "3H"]}
    assert game.view("Cid")["known"] == {} and game.view("Bea")["known"] == {}
    assert "known" not in game.view()
    game.apply("Bea", "lead:2S")
    game.apply("Cid", "answer:3H")  # a card Ann knows Cid held: now played
    assert game.view("Ann")["known"] == {"Cid": ["2D"]}
    saved = engine.load(json.loads(json.dumps(game.to_dict())))
    assert saved.view("Ann") == game.view("Ann")


def test_a_random_take_keeps_the_taker_and_decliner_informed_and_the_third_forgets() -> None:
    game = position(
        {"Ann": "2D 3H", "Bea": "4S 6S 8S", "Cid": "JD QD KD"},
        current="Cid",
        phase="answer",
        in_play=("Bea", "5C"),
        known={"Ann": {"Cid": ["JD"]}, "Bea": {"Cid": ["QD"]}},
    )
    game.apply("Cid", "decline")  # Bea takes one card at random from Cid
    (taken,) = set(game.hands["Bea"]) - {"4S", "6S", "8S"}
    assert game.view("Cid")["known"] == {"Bea": [taken]}
    # Ann cannot tell which card moved; Bea saw it, so she still knows whether Cid has Q♦.
    assert game.view("Ann")["known"] == {}
    assert game.view("Bea")["known"] == ({} if taken == "QD" else {"Cid": ["QD"]})


def test_a_game_saved_before_the_memory_existed_still_loads() -> None:
    game = position({"Ann": "2D 9H", "Bea": "4S 5S", "Cid": "7C QC"}, current="Cid")
    data = game.to_dict()
    del data["state"]["known"]
    old = engine.load(data)
    assert old.view("Ann")["known"] == {}
    assert old.view("Ann")["played"] == game.view("Ann")["played"]


# -- honesty, worlds and complete games ----------------------------------------------------------
def played_to(seed: int, moves: int) -> IHaveIt:
    """A game after ``moves`` moves of Normal play (random declines mixed in for variety)."""
    game = engine.new_game("ihaveit", PLAYERS, seed=seed)
    assert isinstance(game, IHaveIt)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.finished:
            break
        player = game.actors()[0]
        actions = game.legal_actions(player)
        if rng.random() < 0.2:
            action = rng.choice(actions).id
        else:
            action = choose("ihaveit", "normal", game.view(player), actions, rng)
        game.apply(player, action)
    return game


def hidden_permuted(game: IHaveIt, me: str, rng: random.Random) -> IHaveIt:
    """The same game for ``me``: the cards ``me`` cannot see dealt again among the others."""
    data = json.loads(json.dumps(game.to_dict()))
    state: dict[str, Any] = data["state"]
    known = state["known"][me]
    others = [p for p in PLAYERS if p != me]
    loose = {p: [c for c in state["hands"][p] if c not in known.get(p, [])] for p in others}
    pool = [c for p in others for c in loose[p]] + state["pile"]
    rng.shuffle(pool)
    for p in others:
        fixed = [c for c in state["hands"][p] if c in known.get(p, [])]
        n = len(loose[p])
        state["hands"][p] = sorted(fixed + pool[:n], key=sort_key)
        pool = pool[n:]
    state["pile"] = pool
    # The others' tenth cards are theirs alone; keep them held by their new owners' hands.
    state["drawn"] = {
        p: (state["drawn"][p] if p == me else (state["hands"][p] or [state["drawn"][p]])[0])
        for p in PLAYERS
    }
    state["starter"] = game.starter
    twin = engine.load(data)
    assert isinstance(twin, IHaveIt)
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_a_choice_depends_only_on_what_the_seat_can_see(level: str) -> None:
    checked = 0
    for seed, moves in [(1, 0), (2, 5), (3, 11), (4, 17), (5, 23), (6, 8)]:
        game = played_to(seed, moves)
        if game.finished:
            continue
        me = game.actors()[0]
        twin = hidden_permuted(game, me, random.Random(seed))
        assert twin.to_dict()["state"]["hands"] != game.to_dict()["state"]["hands"] or not any(
            game.hands[p] for p in PLAYERS if p != me
        )
        assert twin.view(me) == game.view(me)
        assert bot(twin, me, level, seed) == bot(game, me, level, seed)
        checked += 1
    assert checked >= 4


def test_sampled_worlds_agree_with_the_view_and_hide_nothing_seen() -> None:
    rng = random.Random(0)
    for seed in range(40):
        game = played_to(seed, seed % 25)
        if game.finished:
            continue
        me = game.actors()[0]
        view = game.view(me)
        world = bots.sample_world(view, rng)
        assert world.view(me) == view
        seen = set(view["hand"]) | set(view["played"])
        for p in PLAYERS:
            if p != me:
                assert not seen & set(world.hands[p])
        assert not seen & set(world.pile)
        for p, held in view["known"].items():
            assert set(held) <= set(world.hands[p])


def test_each_level_is_described() -> None:
    about = describe("ihaveit")
    assert set(about) == set(LEVELS)
    assert all(len(text) > 40 and text.endswith(".") for text in about.values())


@pytest.mark.parametrize(("level", "games"), [("normal", 4), ("hard", 1)], ids=["normal", "hard"])
def test_each_level_plays_complete_games_with_legal_moves(
    level: str, games: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The search's size does not change what is legal; a small one keeps the test quick.
    monkeypatch.setattr(bots, "MOVE_BUDGET", 200)
    monkeypatch.setattr(bots, "MIN_DEALS", 2)
    for seed in range(games):
        game = engine.new_game("ihaveit", PLAYERS, seed=100 + seed)
        rngs = {p: random.Random(seed * 10 + i) for i, p in enumerate(PLAYERS)}
        levels = {
            p: level if i == seed % 3 or level == "normal" else "normal"
            for i, p in enumerate(PLAYERS)
        }
        moves = 0
        while not game.finished:
            (player,) = game.actors()
            legal = {a.id for a in game.legal_actions(player)}
            action = choose(
                "ihaveit",
                levels[player],
                game.view(player),
                game.legal_actions(player),
                rngs[player],
            )
            assert action in legal
            game.apply(player, action)
            moves += 1
            assert moves < 400
        assert len(game.winners) == 1
