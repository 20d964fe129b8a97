"""A War of Suits: thousands of random games with invariants checked at every step.

Card conservation (52 cards across decks, hands, battlefield and victory piles, each colour on
its own side until won), hidden information (public views, the other player's view and public
event text never name a card still in a hand or a secret choice), totality (someone can always
act; every game ends), scores, JSON round trips and determinism.
"""

from __future__ import annotations

import json
import re
from typing import Any

import engine
from engine.cards import label, standard_deck
from engine.core import Event
from engine.games.warofsuits import WarOfSuits, points
from engine.rng import Rng
from engine.testing import choose

R, B = "rose", "bert"
ALL = sorted(standard_deck())
CODE = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")
LABEL = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")
SEEDS = range(500)
DEEP = range(0, 500, 10)  # every tenth game also checks views and round trips at every step


def check_cards(game: WarOfSuits) -> None:
    s = game.to_dict()["state"]
    everything = [c for side in (0, 1) for key in ("decks", "hands", "field") for c in s[key][side]]
    everything += s["piles"][0] + s["piles"][1]
    assert sorted(everything) == ALL
    for side, suits in ((0, "DH"), (1, "CS")):
        own = s["decks"][side] + s["hands"][side] + s["field"][side]
        assert all(c[-1] in suits for c in own)
        assert len(s["hands"][side]) <= 3
    assert game.scores == {R: points(s["piles"][0]), B: points(s["piles"][1])}


def secrets_of(game: WarOfSuits, side: int) -> set[str]:
    """Card codes only ``side``'s player may know: its hand (its secret choice is in it)."""
    return set(game.hands[side])


def check_events(game: WarOfSuits, player: str, events: list[Event]) -> None:
    hidden = secrets_of(game, 0) | secrets_of(game, 1)
    hidden_labels = {label(c) for c in hidden}
    for event in events:
        assert not set(CODE.findall(event.public)) & hidden
        assert not set(LABEL.findall(event.public)) & hidden_labels
        assert set(event.private) <= {R, B}
        # The choice event's private text goes to the chooser only.
        if "has chosen" in event.public or "has decided" in event.public:
            assert set(event.private) == {player}


def check_views(game: WarOfSuits) -> None:
    public = json.dumps(game.view(), ensure_ascii=False)
    assert "hand" not in game.view() and "choice" not in game.view()
    for side, me in ((0, R), (1, B)):
        other = B if me == R else R
        mine = secrets_of(game, side)
        assert not set(CODE.findall(public)) & mine
        theirs = game.view(other)
        assert not set(CODE.findall(json.dumps(theirs))) & mine
        own = game.view(me)
        assert sorted(own["hand"]) == sorted(mine)
        pending = game.to_dict()["state"]["pending"][side]
        if pending is not None and pending != "reinforce":
            assert pending not in public and pending not in json.dumps(theirs)


def play(seed: int, deep: bool) -> tuple[WarOfSuits, list[tuple[str, str]]]:
    game = engine.new_game("warofsuits", [R, B], seed=seed)
    assert isinstance(game, WarOfSuits)
    rng = Rng(seed * 7919 + 1)
    log: list[tuple[str, str]] = []
    check_cards(game)
    while not game.finished:
        assert len(log) < 1000, "game did not end"
        actors = game.actors()
        assert actors, "nobody can act in an unfinished game"
        assert all(game.legal_actions(p) for p in actors)
        player = rng.choice(actors)
        action_id = choose(game, player, rng)
        events = game.apply(player, action_id)
        log.append((player, action_id))
        check_cards(game)
        check_events(game, player, events)
        if deep:
            check_views(game)
            assert game.view()["actors"] == game.actors()
    return game, log


def final_checks(game: WarOfSuits) -> None:
    state = game.to_dict()["state"]
    assert state["hands"] == [[], []] and state["decks"] == [[], []]
    assert state["field"] == [[], []]
    red, black = game.scores[R], game.scores[B]
    assert red + black == 68
    expected = [] if red == black else [R] if red > black else [B]
    assert game.winners == expected
    assert game.actors() == [] and game.view()["phase"] == "over"


def replay(seed: int, log: list[tuple[str, str]]) -> WarOfSuits:
    game = engine.new_game("warofsuits", [R, B], seed=seed)
    for player, action_id in log:
        game.apply(player, action_id)
    assert isinstance(game, WarOfSuits)
    return game


def test_random_playouts_keep_every_invariant() -> None:
    outcomes: dict[str, int] = {"red": 0, "black": 0, "draw": 0}
    phases: set[str] = set()
    for seed in SEEDS:
        game, log = play(seed, deep=seed in DEEP)
        final_checks(game)
        outcomes["draw" if not game.winners else "red" if game.winners == [R] else "black"] += 1
        phases.update(a.split(":")[0] for _, a in log)
    # The random games reach every kind of action and every outcome.
    assert phases == {"choose", "double", "ace", "accept", "reinforce"}
    assert all(outcomes.values()), outcomes


def test_json_round_trip_and_determinism() -> None:
    for seed in range(0, 2000, 20):
        game, log = play(seed, deep=False)
        final: dict[str, Any] = game.to_dict()
        # Same seed and actions: the same game.
        assert replay(seed, log).to_dict() == final
        # Saved and loaded mid-game (at a random point), it continues identically.
        cut = Rng(seed).below(len(log) + 1)
        half = replay(seed, log[:cut])
        loaded = engine.load(json.loads(json.dumps(half.to_dict())))
        assert loaded.to_dict() == half.to_dict()
        for player, action_id in log[cut:]:
            assert loaded.legal_actions(player) == half.legal_actions(player)
            loaded.apply(player, action_id)
            half.apply(player, action_id)
        assert loaded.to_dict() == final
