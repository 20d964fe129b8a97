"""Item Collection Game: random playouts with invariants at every step."""

from __future__ import annotations

import json
import re
from collections import Counter

import engine
from engine.cards import RANKS, label, sort_key, standard_deck
from engine.games.itemcollection import ItemCollection
from engine.rng import Rng
from engine.testing import choose, playout

P = ["ann", "bea", "cid", "dee"]
SUIT = dict(zip(P, "CDHS", strict=True))
ALL_CARDS = standard_deck()
MAX_ROUNDS = 17  # each round scores >= 1 card; the 17th scored card gives someone 5


CARD_SET = set(ALL_CARDS)
QUOTED = re.compile(r'"([^"]*)"')
LABELS = re.compile("|".join(re.escape(label(c)) for c in sorted(ALL_CARDS, key=len, reverse=True)))
BY_LABEL = {label(c): c for c in ALL_CARDS}


def _codes_in(obj: object) -> set[str]:
    return set(QUOTED.findall(json.dumps(obj))) & CARD_SET


def _named(text: str) -> set[str]:
    return {BY_LABEL[m] for m in LABELS.findall(text)}


def check_conservation(game: ItemCollection) -> None:
    """Every player's 13 cards are in exactly one place: hand, deck, face down or scored."""
    for p in P:
        placed = [d["card"] for d in game.decls if d["player"] == p and d["card"] is not None]
        if game.phase in ("negotiation", "over"):
            placed = []  # after the reveal the round's cards have gone to rows/decks
        cards = game.hands[p] + game.decks[p] + placed + game.scored[p]
        assert Counter(cards) == Counter(r + SUIT[p] for r in RANKS), (p, cards)
        assert game.scores[p] == len(game.scored[p])


def check_secrecy(game: ItemCollection) -> None:
    """The public view names only face-up cards; a player's view adds exactly their own hand
    and face-down card to it."""
    face_up = {c for p in P for c in game.scored[p]}
    if game.revealed is not None:
        face_up |= set(game.revealed["cards"].values())
    public = game.view(None)
    assert "hand" not in public and "placed" not in public
    hidden_keys = {k: v for k, v in public.items() if k not in ("revealed", "scored")}
    assert _codes_in(hidden_keys) == set()
    assert _codes_in(public) <= face_up
    for p in P:
        view = game.view(p)
        placed = next((d["card"] for d in game.decls if d["player"] == p), None)
        assert view.pop("hand") == sorted(game.hands[p], key=sort_key)
        assert view.pop("placed") == placed
        assert view == public


def check_event(game: ItemCollection, player: str, action: str, events: list) -> None:
    """Public text names only the cards of a reveal made by this action; private text goes
    only to players entitled to it and names only their own cards."""
    revealing = action == "keep" or action.startswith("swap:")
    allowed = set(game.revealed["cards"].values()) if revealing else set()
    for event in events:
        named = _named(event.public)
        assert named <= allowed, (action, event.public)
        for who, text in event.private.items():
            assert who in P
            if not event.public.endswith("a card."):  # the draw event informs everyone
                assert who == player
            assert all(c.endswith(SUIT[who]) for c in _named(text))


def careful_playout(game: ItemCollection, seed: int) -> list[tuple[str, str]]:
    """``engine.testing.playout`` with every invariant checked after every action."""
    rng = Rng(seed)
    log: list[tuple[str, str]] = []
    check_conservation(game)
    check_secrecy(game)
    while not game.finished:
        actors = game.actors()
        assert actors, "nobody can act in an unfinished game"
        assert all(game.legal_actions(p) for p in actors)
        if game.phase == "negotiation":
            assert actors == [p for p in game.order() if p not in game.ready]
        else:
            assert len(actors) == 1
        if game.phase == "declaration" and not (game.decls and game.decls[-1]["card"] is None):
            assert len(game.hands[actors[0]]) == 7  # hands never run out
        player = rng.choice(actors)
        action = choose(game, player, rng)
        events = game.apply(player, action)
        log.append((player, action))
        check_event(game, player, action, events)
        check_conservation(game)
        check_secrecy(game)
        assert game.round <= MAX_ROUNDS
    return log


def test_careful_playouts() -> None:
    for seed in range(80):
        game = engine.new_game("itemcollection", P, seed=seed)
        assert isinstance(game, ItemCollection)
        careful_playout(game, seed)
        assert game.finished and game.phase == "over" and game.winners
        assert game.winners == [p for p in P if game.scores[p] >= 5]
        assert game.view()["actors"] == []


def test_thousands_of_playouts_end_and_round_trip() -> None:
    winners_sizes: Counter[int] = Counter()
    for seed in range(1000):
        game = engine.new_game("itemcollection", P, seed=seed)
        start = json.dumps(game.to_dict())
        log = playout(game, seed=seed)
        assert game.finished and game.round <= MAX_ROUNDS
        assert game.winners == [p for p in P if game.scores[p] >= 5]
        check_conservation(game)
        winners_sizes[len(game.winners)] += 1
        if seed % 4:
            continue  # replaying every game would double the runtime; a quarter is plenty
        # Determinism: the same seed and actions give the same game.
        again = engine.load(json.loads(start))
        # JSON round trip at a point in the middle: the loaded game continues identically.
        cut = Rng(seed).below(len(log))
        for i, (player, action) in enumerate(log):
            if i == cut:
                again = engine.load(json.loads(json.dumps(again.to_dict())))
            again.apply(player, action)
        assert again.to_dict() == game.to_dict()
    # Random play reaches both solo and shared victories.
    assert winners_sizes[1] > 0 and winners_sizes[2] > 0


def test_every_row_occurs_in_random_reveals() -> None:
    """Across random rounds every row of the table comes up (the classifier is reachable)."""
    seen: Counter[str] = Counter()
    for seed in range(400):
        game = engine.new_game("itemcollection", P, seed=seed)
        rng = Rng(seed)
        last = 0
        while not game.finished:
            player = rng.choice(game.actors())
            game.apply(player, choose(game, player, rng))
            if game.revealed is not None and game.revealed["round"] != last:
                last = game.revealed["round"]
                seen[game.revealed["row"]] += 1
    expected = {
        "four of a kind",
        "large straight",
        "two pairs",
        "three of a kind",
        "small straight",
        "pair",
        "high card",
        "low card",
    }
    assert set(seen) == expected, seen


def test_same_seed_same_playout() -> None:
    for seed in range(20):
        a = engine.new_game("itemcollection", P, seed=seed)
        b = engine.new_game("itemcollection", P, seed=seed)
        assert playout(a, seed=seed) == playout(b, seed=seed)
        assert a.to_dict() == b.to_dict()
