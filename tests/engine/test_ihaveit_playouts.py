"""I Have It: random playouts of thousands of complete games, checking invariants every step.

Legal moves are checked against an independent reading of the rules (``expected_ids``);
cards are conserved; no view or event shows a card a player may not see; the game is total
and ends; saved games and seeds reproduce the same play.
"""

from __future__ import annotations

import json
import re
from typing import Any

import engine
from engine.cards import RANK_VALUE, label, standard_deck, value
from engine.games.ihaveit import IHaveIt, goal_met
from engine.rng import Rng
from engine.testing import choose, playout

PLAYERS = ["Ann", "Bea", "Cid"]
SEEDS = range(300)
DECK = sorted(standard_deck())


def expected_ids(view: dict[str, Any]) -> set[str]:
    """The legal ids for the player whose private view this is, straight from the rules."""
    hand = view["hand"]
    plays = [[c] for c in hand] + [
        [a, b] for i, a in enumerate(hand) for b in hand[i + 1 :] if a[:-1] == b[:-1]
    ]
    if view["phase"] == "lead":
        if view["lead_limit"] is not None:
            top = RANK_VALUE[view["lead_limit"]]
            plays = [p for p in plays if value(p[0]) <= top] or plays
        return {"lead:" + ".".join(p) for p in plays}
    prev = view["in_play"]["cards"]
    ok = {"decline"}
    for p in plays:
        if len(prev) == 1:
            fits = len(p) == 2 or value(p[0]) > value(prev[0]) or p[0][-1] == prev[0][-1]
        else:
            fits = len(p) == 2 and value(p[0]) > value(prev[0])
        if fits:
            ok.add("answer:" + ".".join(p))
    return ok


CODE = re.compile(r'"((?:10|[2-9AJQK])[CDHS])"')
LABEL = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


def codes_in(obj: Any) -> set[str]:
    """Every card code anywhere in a JSON-able value (as a whole string, key or value)."""
    return set(CODE.findall(json.dumps(obj)))


def state(game: IHaveIt) -> dict[str, Any]:
    return game.to_dict()["state"]


def check_position(game: IHaveIt) -> None:
    """Invariants of a position, read through the views and the saved state."""
    st = state(game)
    hands = st["hands"]
    in_play = st["in_play"]["cards"] if st["in_play"] else []
    assert sorted(
        [c for h in hands.values() for c in h] + st["pile"] + st["discard"] + in_play
    ) == (DECK), "cards not conserved"
    view = game.view()
    owner = view["in_play"]["player"] if view["in_play"] else None
    for p in PLAYERS:
        if p in view["out"]:
            assert not hands[p]
        elif p != owner and not game.finished:
            assert hands[p], f"{p} is not out but has no card"
    # Nobody sees a card they may not: public cards are the play in front and the cards
    # played before it; a player also sees their own hand and the cards taken from it,
    # which the taker still holds.
    assert view["played"] == st["discard"]
    assert codes_in(view) <= set(in_play) | set(st["discard"])
    private = {p: game.view(p) for p in PLAYERS}
    for p in PLAYERS:
        known = private[p]["known"]
        assert all(set(cards) <= set(hands[q]) for q, cards in known.items()), known
        seen = {c for cards in known.values() for c in cards}
        assert codes_in(private[p]) <= set(in_play) | set(st["discard"]) | set(hands[p]) | seen
    if game.finished:
        assert view["phase"] == "over" and game.actors() == []
        (winner,) = game.winners
        alive = [p for p in PLAYERS if p not in view["out"]]
        assert goal_met(hands[winner]) or alive == [winner]
        assert game.scores == {p: int(p == winner) for p in PLAYERS}
        return
    assert not any(goal_met(h) for h in hands.values())
    assert len([p for p in PLAYERS if p not in view["out"]]) >= 2
    assert game.actors() == [view["current"]]
    current = view["current"]
    assert current not in view["out"]
    assert view["phase"] in ("lead", "answer")
    assert (view["phase"] == "answer") == (owner is not None)
    assert current != owner
    assert {a.id for a in game.legal_actions(current)} == expected_ids(private[current])
    for p in PLAYERS:
        if p != current:
            assert game.legal_actions(p) == []


def check_step(
    game: IHaveIt, before: dict[str, Any], player: str, action_id: str, events: list[engine.Event]
) -> None:
    """What one action did: draws, takes, and what each event text reveals."""
    after = state(game)
    assert len(after["pile"]) <= len(before["pile"])
    assert len(after["discard"]) >= len(before["discard"])
    assert after["out"][: len(before["out"])] == before["out"]
    taken: set[str] = set()
    if action_id == "decline":
        owner = before["in_play"]["player"]
        n = len(before["in_play"]["cards"])
        taken = set(before["hands"][player]) - set(after["hands"][player])
        assert len(taken) == min(n, len(before["hands"][player]))
        assert taken <= set(after["hands"][owner])
        assert after["pile"] == before["pile"]
    elif action_id.startswith("answer:"):
        owner = before["in_play"]["player"]
        n = len(before["in_play"]["cards"])
        drew = min(n, len(before["pile"]))
        assert after["pile"] == before["pile"][drew:]
        assert set(before["pile"][:drew]) <= set(after["hands"][owner])
    else:
        assert after["pile"] == before["pile"]
    holder = {label(c): p for p, h in after["hands"].items() for c in h}
    taken_labels = {label(c) for c in taken}
    for event in events:
        named = set(LABEL.findall(event.public))
        assert not named & holder.keys(), f"public text names a hidden card: {event.public}"
        for to, text in event.private.items():
            assert to in PLAYERS
            for name in LABEL.findall(text):
                if holder.get(name, to) != to:
                    # Only the decliner learns which of their cards were taken.
                    assert to == player and name in taken_labels, f"{to} told {name}: {text}"


def test_random_playouts_keep_every_invariant() -> None:
    endings = {"goal": 0, "last": 0}
    lengths = []
    for seed in SEEDS:
        game = engine.new_game("ihaveit", PLAYERS, seed=seed)
        assert isinstance(game, IHaveIt)
        rng = Rng(seed)
        deep = seed % 10 == 0  # every step also round-tripped through JSON
        log: list[tuple[str, str]] = []
        check_position(game)
        while not game.finished:
            assert len(log) < 400, "the game should have ended"
            (player,) = game.actors()
            action_id = choose(game, player, rng)
            before = state(game)
            copy = engine.load(json.loads(json.dumps(game.to_dict()))) if deep else None
            events = game.apply(player, action_id)
            check_step(game, before, player, action_id, events)
            check_position(game)
            if copy is not None:
                copy_events = copy.apply(player, action_id)
                assert copy.to_dict() == game.to_dict()
                assert [(e.public, e.private) for e in copy_events] == [
                    (e.public, e.private) for e in events
                ]
            log.append((player, action_id))
        lengths.append(len(log))
        alive = [p for p in PLAYERS if p not in game.view()["out"]]
        endings["last" if alive == game.winners else "goal"] += 1
        if deep:
            # Determinism: the same seed and actions give the same game.
            again = engine.new_game("ihaveit", PLAYERS, seed=seed)
            for player, action_id in log:
                again.apply(player, action_id)
            assert again.to_dict() == game.to_dict()
    # Both ways of winning happen, and games are neither trivial nor endless.
    assert endings["goal"] > 20 and endings["last"] > 20
    assert max(lengths) < 200 and sum(lengths) / len(lengths) > 10


def test_engine_playout_helper_finishes_games_and_redeals_happen() -> None:
    redeals = 0
    for seed in range(300):
        game = engine.new_game("ihaveit", PLAYERS, seed=10_000 + seed)
        redeals += game.view()["redeals"]
        log = playout(game, seed=seed)
        assert game.finished and len(game.winners) == 1 and log
        # A saved finished game loads as finished.
        loaded = engine.load(json.loads(json.dumps(game.to_dict())))
        assert loaded.finished and loaded.winners == game.winners and loaded.actors() == []
    assert redeals > 0  # a hand meets a goal straight from the deal now and then
