"""Haymaker random playouts: thousands of complete games checked at every step.

``engine.testing.choose`` finds picks by trial on JSON copies, which is slow, so most games
use ``policy`` below: it builds valid picks directly (a random same-suit subset for a
haymaker, a random sufficient subset for a block) and now and then tries an invalid one
(mixed suits, a block too small), which must be refused without changing anything.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from engine import IllegalAction, load
from engine.cards import suit, value
from engine.core import Event, Game
from engine.games.haymaker import Haymaker, full_deck
from engine.rng import Rng
from engine.testing import playout

PLAYERS = ["ann", "bea"]
GAMES = 300  # meets every result but a draw (checked)
# Draws are rare under this policy (7 in 2,000 games): these seeds end in one, so every game
# the test plays is checked at every step without playing a thousand games to meet one.
DRAW_SEEDS = [633, 779, 829]
ROUND_TRIP_GAMES = 150  # of those, the ones saved and reloaded at every step
RESULTS = {"knockout", "technical knockout", "decision", "draw"}


def policy(game: Game, player: str, rng: Rng) -> tuple[str, bool]:
    """A random legal action id, and whether it must be accepted.

    Biased towards single-card attacks and blocks so that long games (with decisions and
    technical knockouts) happen as well as quick knockouts.
    """
    acts = {a.id: a for a in game.legal_actions(player)}
    hand = list(game.view(player)["hand"])
    roll = rng.below(100)
    if game.view()["phase"] == "attack":
        if "pass" in acts and (roll < 25 or not hand):
            return "pass", True
        if "haymaker" in acts and roll < 40:
            suits = [s for s in "CDHS" if sum(suit(c) == s for c in hand) >= 2]
            chosen_suit = rng.choice(suits)
            same = [c for c in hand if suit(c) == chosen_suit]
            if roll < 28:  # mixed suits: refused
                other = [c for c in hand if suit(c) != suit(same[0])]
                if other:
                    return f"haymaker:{same[0]}.{rng.choice(other)}", False
            picked = rng.sample(same, 2 + rng.below(min(3, len(same) - 1)))
            return "haymaker:" + ".".join(picked), True
        return f"attack:{rng.choice(hand)}", True
    strength = game.view()["attack"]["strength"]
    if "block" in acts and roll < 92:
        pool = list(hand)
        rng.shuffle(pool)
        picked: list[str] = []
        enough = [c for c in hand if value(c) >= strength]
        if enough and roll < 60:  # a thrifty defender: one card, often an exact match
            return f"block:{min(enough, key=value)}", True
        while sum(value(c) for c in picked) < strength:
            picked.append(pool.pop())
        if roll < 5 and len(picked) > 1:  # one card short may be too small: check it
            short = picked[:-1]
            return "block:" + ".".join(short), sum(value(c) for c in short) >= strength
        return "block:" + ".".join(picked), True
    return "hit", True


def where_cards_are(game: Game) -> dict[str, Any]:
    return game.to_dict()["state"]


def check_conservation(state: dict[str, Any]) -> None:
    cards = state["deck"] + state["burned"] + state["attack"]
    for p in PLAYERS:
        cards += state["hands"][p] + state["discards"][p]
    assert Counter(cards) == Counter(full_deck()), "40 cards, each exactly once"


QUOTED_CODE = re.compile(r'"((?:10|[A2-9])[CDHS])"')


def strings(view: dict[str, Any]) -> set[str]:
    """Every card code a view holds as a JSON string."""
    return set(QUOTED_CODE.findall(json.dumps(view)))


CARD_LABEL = re.compile(r"(?<![0-9A-Z])(10|[A2-9])([♣♦♥♠])")
CARD_CODE = re.compile(r"\b(10|[A2-9])([CDHS])\b")
SUIT_OF = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def names(text: str, cards: list[str]) -> set[str]:
    """The cards among ``cards`` that ``text`` mentions, by label (7♠) or code (7S)."""
    found = {r + SUIT_OF[s] for r, s in CARD_LABEL.findall(text)}
    found |= {r + s for r, s in CARD_CODE.findall(text)}
    return found & set(cards)


def check_step(game: Game, events: list[Event]) -> None:
    state = where_cards_are(game)
    check_conservation(state)
    view = game.view()
    assert game.scores == {p: len(state["discards"][p]) for p in PLAYERS}
    assert view["discards"] == game.scores
    assert view["hand_sizes"] == {p: len(state["hands"][p]) for p in PLAYERS}
    assert (view["deck"], view["burned"]) == (len(state["deck"]), 4)
    # Hidden information: no hand, deck or burned card in the public view or log, and no
    # player sees the other's hand; a private text never names a deck or burned card.
    secret = state["deck"] + state["burned"] + state["hands"]["ann"] + state["hands"]["bea"]
    assert not strings(view) & set(secret)
    assert not names(view["prompt"], secret)
    for p in PLAYERS:
        other = state["hands"][PLAYERS[1 - PLAYERS.index(p)]]
        mine = game.view(p)
        assert mine["hand"] == state["hands"][p]
        # Only what p gave the other on a hit (and saw go) may name a card in their hand.
        known = mine.pop("known")
        gave = set(state["given"][p])
        assert all(set(cards) <= gave & set(other) for cards in known.values()), known
        assert not strings(mine) & set(other + state["deck"] + state["burned"])
    for event in events:
        assert not names(event.public, secret), event.public
        assert set(event.private) <= set(PLAYERS)
        for text in event.private.values():
            assert not names(text, state["deck"] + state["burned"]), text
    if game.finished:
        assert view["phase"] == "over" and view["actors"] == [] and view["result"] in RESULTS
        if view["result"] == "draw":
            assert game.winners == [] and game.scores["ann"] == game.scores["bea"]
        else:
            assert len(game.winners) == 1
        if view["result"] in {"decision", "draw"}:
            assert not state["hands"]["ann"] and not state["hands"]["bea"]
            assert not state["deck"] and not state["attack"]
        if view["result"] == "decision":
            (winner,) = game.winners
            assert game.scores[winner] == max(game.scores.values()) > min(game.scores.values())
        if view["result"] == "technical knockout":
            assert not state["hands"][view["attacker"]]
            assert game.winners == [view["defender"]]
    else:
        # Totality: exactly one actor, with something to do, in the right role.
        assert view["actors"] == [view["attacker" if view["phase"] == "attack" else "defender"]]
        assert game.legal_actions(view["actors"][0])
        assert bool(state["attack"]) == (view["phase"] == "defend")


def play(seed: int, round_trip: bool) -> tuple[Game, list[tuple[str, str]]]:
    game = Haymaker(PLAYERS, seed=seed)
    rng = Rng(seed ^ 0x5EED)
    log: list[tuple[str, str]] = []
    check_step(game, [])
    while not game.finished:
        assert len(log) < 500, "every game ends"
        (player,) = game.actors()
        action_id, valid = policy(game, player, rng)
        if not valid:
            before = json.dumps(game.to_dict(), sort_keys=True)
            with pytest.raises(IllegalAction):
                game.apply(player, action_id)
            assert json.dumps(game.to_dict(), sort_keys=True) == before
            continue
        copy = load(json.loads(json.dumps(game.to_dict()))) if round_trip else None
        events = game.apply(player, action_id)
        log.append((player, action_id))
        check_step(game, events)
        if copy is not None:
            copy_events = copy.apply(player, action_id)
            assert copy.to_dict() == game.to_dict()
            assert [(e.public, e.private) for e in copy_events] == [
                (e.public, e.private) for e in events
            ]
    return game, log


def test_random_playouts_keep_every_invariant() -> None:
    results: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    for seed in [*range(GAMES), *DRAW_SEEDS]:
        game, log = play(seed, round_trip=seed < ROUND_TRIP_GAMES)
        results[game.view()["result"]] += 1
        moves.update(a.split(":")[0] for _, a in log)
        if seed % 50 == 0:
            # Determinism: the same seed and actions give the same game.
            again = Haymaker(PLAYERS, seed=seed)
            for player, action_id in log:
                again.apply(player, action_id)
            assert again.to_dict() == game.to_dict()
    # The policy reaches every ending and every move, so the checks above saw them all.
    assert set(results) == RESULTS, results
    assert {"attack", "haymaker", "pass", "block", "hit"} <= set(moves), moves


def test_generic_playout_helper_finishes_games() -> None:
    # engine.testing.playout/choose (what generic tools use) must also drive the game.
    for seed in range(200):
        game = Haymaker(PLAYERS, seed=seed)
        log = playout(game, seed=seed)
        assert game.finished and log
        check_step(game, [])
