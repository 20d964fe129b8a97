"""Bots see only what their seat may see.

For every game: positions from seeded games between Normal bots; for each, a *twin* game that
differs only in what the seat to move cannot see (other hands' unknown cards, the draw pile's
order, opponents' face-down or secret choices, the engine's RNG). The seat's view must be the
same in both, and both bot levels, given the same rng seed, must choose the same move.
Positions include the rare ones (known cards after swaps and challenges, a pending Wild Draw
Four whose guilt differs, restricted leads, secret choices already made, face-down cards).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
import engine.bots.haymaker as hay_bots
import engine.bots.ihaveit as ihi_bots
import engine.bots.itemcollection as ic_bots
import engine.bots.uno as uno_bots
import engine.bots.warofsuits as wos_bots
import engine.cards
from engine.bots import LEVELS, choose
from engine.core import Game

NAMES = ["ann", "bea", "cid", "dot", "eve"]


def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard's search budgets cut down: which cards a world holds, not how many worlds are
    searched, is what could leak; the samplers and rollouts are the same."""
    monkeypatch.setattr(uno_bots, "HARD_MOVES", 400)
    monkeypatch.setattr(uno_bots, "MIN_WORLDS", 4)
    monkeypatch.setattr(wos_bots, "HARD_ROLLOUTS", 40)
    monkeypatch.setattr(hay_bots, "HARD_ROLLOUTS", 40)
    monkeypatch.setattr(ihi_bots, "MOVE_BUDGET", 300)
    monkeypatch.setattr(ihi_bots, "MIN_DEALS", 4)
    monkeypatch.setattr(ic_bots, "WORLDS", 12)


def reload(data: dict[str, Any]) -> Game:
    return engine.load(json.loads(json.dumps(data)))


def positions(
    kind: str, n: int, seed: int, options: dict[str, Any] | None, want: int, keep: Any = None
) -> list[tuple[Game, str]]:
    """Positions (a copy of the game, the seat to ask) with a real choice, from a seeded game
    between Normal bots. ``keep(game, player)`` may prefer rare positions."""
    game = engine.new_game(kind, NAMES[:n], seed=seed, options=options)
    rng = random.Random(seed)
    found: list[tuple[Game, str]] = []
    step = 0
    while not game.finished and len(found) < want and step < 20_000:
        able = [p for p in game.actors() if game.legal_actions(p)]
        player = rng.choice(able)
        actions = game.legal_actions(player)
        if len(actions) >= 2 and (keep is None or keep(game, player)):
            found.append((game.copy(), player))
        game.apply(player, choose(kind, "normal", game.view(player), actions, rng))
        step += 1
    return found


def assert_same_choice(kind: str, game: Game, twin: Game, player: str, seed: int) -> None:
    assert twin.to_dict() != game.to_dict(), "the twin must differ in something hidden"
    view, other = game.view(player), twin.view(player)
    assert other == view, f"{kind}: the view of {player} shows hidden information"
    assert twin.legal_actions(player) == game.legal_actions(player)
    for level in LEVELS:
        mine = choose(
            kind, level, game.view(player), game.legal_actions(player), random.Random(seed)
        )
        theirs = choose(
            kind, level, twin.view(player), twin.legal_actions(player), random.Random(seed)
        )
        assert mine == theirs, f"{kind} {level}: the choice depends on cards {player} cannot see"


# -- UNO --------------------------------------------------------------------------------------
def uno_twin(game: Game, player: str, rng: random.Random) -> Game:
    """Other hands' cards the seat does not know, and the draw pile, dealt again; a pending
    Wild Draw Four's guilt flipped; the engine's RNG changed."""
    data = game.to_dict()
    state = data["state"]
    seat = game.players.index(player)
    hands = [h.split() for h in state["h"]]
    known = {h: c.split() for x, h, c in state.get("kn", []) if x == seat}
    keep: list[list[str]] = []
    hidden = state["d"].split()
    for i, hand in enumerate(hands):
        if i == seat:
            keep.append(hand)
            continue
        left = list(hand)
        kept = []
        for c in known.get(i, []):
            left.remove(c)
            kept.append(c)
        keep.append(kept)
        hidden += left
    # Face-up hands (custom rule 7) are seen by everyone: leave them alone.
    if state.get("fu", -1) >= 0:
        hidden = state["d"].split()
        keep = hands
    rng.shuffle(hidden)
    for i, hand in enumerate(hands):
        need = len(hand) - len(keep[i])
        keep[i] = keep[i] + hidden[:need]
        hidden = hidden[need:]
    state["h"] = [" ".join(h) for h in keep]
    state["d"] = " ".join(hidden)
    if state.get("w", -1) >= 0 and state.get("w") != seat:
        state["g"] = not state.get("g", False)
    data["rng"] = (data["rng"] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return reload(data)


UNO_MIXES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (3, {"stack_draws": True, "jump_in": True}),
    (4, {"seven_zero": True, "swap_hands": True, "draw_until_playable": True}),
    (3, {"custom_wilds": 3, "custom_rules": "5,6,7", "forced_play": True}),
    (4, {"custom_wilds": 3, "custom_rules": "1,2,3", "scoring": "lowest"}),
]


def uno_rare(game: Game, player: str) -> bool:
    view = game.view(player)
    return bool(
        view["known"]
        or view["phase"] != "play"
        or view["lacks"]
        or view["face_up"]
        or view["current"] != player
    )


@pytest.mark.parametrize("mix", range(len(UNO_MIXES)))
def test_uno_choice_ignores_hidden_cards(mix: int, monkeypatch: pytest.MonkeyPatch) -> None:
    small_budgets(monkeypatch)
    n, options = UNO_MIXES[mix]
    options = {**options, "target": 300}
    rng = random.Random(mix)
    checked = 0
    for seed in (mix, mix + 20):
        for game, player in positions("uno", n, seed, options, 6, uno_rare):
            twin = uno_twin(game, player, rng)
            if twin.to_dict()["state"] == game.to_dict()["state"]:
                continue
            assert_same_choice("uno", game, twin, player, seed * 100 + checked)
            checked += 1
    assert checked >= 6


def test_uno_challenger_cannot_read_guilt(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pending Wild Draw Four: whether the offender was guilty is hidden until challenged."""
    small_budgets(monkeypatch)
    checked = 0
    for seed in range(40):
        for game, player in positions(
            "uno",
            3,
            seed,
            {"stack_draws": True},
            2,
            lambda g, p: g.view(p)["phase"] == "challenge",
        ):
            twin = uno_twin(game, player, random.Random(seed))
            assert_same_choice("uno", game, twin, player, seed)
            checked += 1
        if checked >= 4:
            break
    assert checked >= 4


# -- I Have It -----------------------------------------------------------------------------
def ihaveit_twin(game: Game, player: str, rng: random.Random) -> Game:
    """Other hands' cards the seat does not know and the pile dealt again; the RNG changed."""
    data = game.to_dict()
    state = data["state"]
    known = state["known"].get(player, {})
    hidden = list(state["pile"])
    keep: dict[str, list[str]] = {}
    for p, hand in state["hands"].items():
        if p == player:
            keep[p] = list(hand)
            continue
        mine = [c for c in hand if c in known.get(p, [])]
        keep[p] = mine
        hidden += [c for c in hand if c not in mine]
    rng.shuffle(hidden)
    for p, hand in state["hands"].items():
        need = len(hand) - len(keep[p])
        keep[p] = sorted(keep[p] + hidden[:need], key=engine.cards.sort_key)
        hidden = hidden[need:]
    state["hands"] = keep
    state["pile"] = hidden
    # Another player's memory and tenth card are theirs alone.
    for p in state["known"]:
        if p != player:
            state["known"][p] = {}
    for p in state["drawn"]:
        if p != player:
            state["drawn"][p] = keep[p][0] if keep[p] else state["drawn"][p]
    data["rng"] = (data["rng"] + 0x9E3779B97F4A7C15) % (1 << 64)
    return reload(data)


def test_ihaveit_choice_ignores_hidden_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    small_budgets(monkeypatch)
    rng = random.Random(1)
    checked = 0
    rare = 0
    for seed in range(4):
        for game, player in positions(
            "ihaveit",
            3,
            seed,
            None,
            6,
            lambda g, p: bool(g.view(p)["known"] or g.view(p)["restricted"]) or g.moves < 3,
        ):
            twin = ihaveit_twin(game, player, rng)
            if twin.to_dict()["state"] == game.to_dict()["state"]:
                continue
            view = game.view(player)
            rare += bool(view["known"] or view["restricted"])
            assert_same_choice("ihaveit", game, twin, player, seed * 100 + checked)
            checked += 1
    assert checked >= 10 and rare >= 3


# -- A War of Suits ------------------------------------------------------------------------
def warofsuits_twin(game: Game, player: str, rng: random.Random) -> Game:
    """The opponent's hand and deck dealt again from its unseen cards, its secret choice (if
    made) changed, the seat's own deck reordered; the RNG changed."""
    data = game.to_dict()
    state = data["state"]
    s = game.players.index(player)
    o = 1 - s
    hidden = state["hands"][o] + state["decks"][o]
    rng.shuffle(hidden)
    n = len(state["hands"][o])
    state["hands"][o], state["decks"][o] = hidden[:n], hidden[n:]
    rng.shuffle(state["decks"][s])
    pending = state["pending"][o]
    if pending is not None and pending.startswith("choose:") and state["hands"][o]:
        state["pending"][o] = "choose:" + rng.choice(state["hands"][o])
    elif pending is not None and state["phase"] == "tie":
        aces = [c for c in state["hands"][o] if c.startswith("A")]
        options = ["reinforce"] + [f"ace:{c}" for c in aces]
        state["pending"][o] = rng.choice(options)
    data["rng"] = (data["rng"] + 12345) % (1 << 64)
    return reload(data)


def test_warofsuits_choice_ignores_hidden_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    small_budgets(monkeypatch)
    rng = random.Random(2)
    checked = 0
    secret_made = 0
    for seed in range(6):
        for game, player in positions("warofsuits", 2, seed, None, 8):
            twin = warofsuits_twin(game, player, rng)
            if twin.to_dict()["state"] == game.to_dict()["state"]:
                continue
            secret_made += any(c is not None for c in game.to_dict()["state"]["pending"])
            assert_same_choice("warofsuits", game, twin, player, seed * 100 + checked)
            checked += 1
    assert checked >= 20 and secret_made >= 3


# -- Item Collection -----------------------------------------------------------------------
def itemcollection_twin(game: Game, player: str, rng: random.Random) -> Game:
    """Every other player's hand, deck and face-down card dealt again from their own unscored
    cards; the seat's own deck reordered; the RNG changed."""
    data = game.to_dict()
    state = data["state"]
    decls = state["decls"]
    for p in game.players:
        if p == player:
            rng.shuffle(state["decks"][p])
            continue
        placed = [d for d in decls if d["player"] == p and d["card"] is not None]
        cards = state["hands"][p] + state["decks"][p] + [d["card"] for d in placed]
        rng.shuffle(cards)
        for d in placed:
            d["card"] = cards.pop()
        n = len(state["hands"][p])
        state["hands"][p], state["decks"][p] = cards[:n], cards[n:]
    data["rng"] = (data["rng"] + 777) % (1 << 64)
    return reload(data)


def test_itemcollection_choice_ignores_hidden_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    small_budgets(monkeypatch)
    rng = random.Random(3)
    checked = 0
    phases: set[str] = set()
    for seed in range(3):
        for game, player in positions(
            "itemcollection", 4, seed, None, 12, lambda g, p: g.view(p)["phase"] != "negotiation"
        ):
            twin = itemcollection_twin(game, player, rng)
            phases.add(game.view(player)["phase"])
            assert_same_choice("itemcollection", game, twin, player, seed * 100 + checked)
            checked += 1
    assert checked >= 20 and {"declaration", "swap"} <= phases


# -- Haymaker ------------------------------------------------------------------------------
def haymaker_twin(game: Game, player: str, rng: random.Random) -> Game:
    data = game.to_dict()
    state = data["state"]
    other = next(p for p in game.players if p != player)
    n_hand, n_deck = len(state["hands"][other]), len(state["deck"])
    hidden = state["hands"][other] + state["deck"] + state["burned"]
    rng.shuffle(hidden)
    state["hands"][other] = hidden[:n_hand]
    state["deck"] = hidden[n_hand : n_hand + n_deck]
    state["burned"] = hidden[n_hand + n_deck :]
    data["rng"] = (data["rng"] + 99) % (1 << 64)
    return reload(data)


def test_haymaker_choice_ignores_hidden_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    small_budgets(monkeypatch)
    rng = random.Random(4)
    checked = 0
    for seed in range(4):
        for game, player in positions("haymaker", 2, seed, None, 8):
            twin = haymaker_twin(game, player, rng)
            assert_same_choice("haymaker", game, twin, player, seed * 100 + checked)
            checked += 1
    assert checked >= 20
