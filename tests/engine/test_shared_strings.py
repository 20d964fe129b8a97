"""Games loaded from a save share their strings: memory per live game stays small (issue 8)."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

import engine
from engine.rng import Rng
from engine.testing import choose

SEATS = {"uno": 4, "ihaveit": 3, "warofsuits": 2, "itemcollection": 4, "haymaker": 2}


def strings(value: Any, seen: set[int] | None = None) -> list[str]:
    """Every string a game object holds, in a fixed order (its attributes, recursively)."""
    seen = set() if seen is None else seen
    if isinstance(value, str):
        return [value]
    if id(value) in seen or isinstance(value, (int, float, bool, type(None))):
        return []
    seen.add(id(value))
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k, seen) + strings(v, seen)]
    if isinstance(value, (list, tuple)):
        return [s for x in value for s in strings(x, seen)]
    fields = dict(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(value, name):
                fields[name] = getattr(value, name)
    return [s for k in sorted(fields) for s in strings(fields[k], seen)]


@pytest.mark.parametrize("kind", list(SEATS))
def test_two_loads_of_one_save_hold_the_same_string_objects(kind: str) -> None:
    game = engine.new_game(kind, [f"{10**17 + i}" for i in range(SEATS[kind])], seed=3)
    for step in range(12):  # a few moves in, so hands, piles and logs are all filled
        if game.finished or not game.actors():
            break
        player = sorted(game.actors())[0]
        game.apply(player, choose(game, player, Rng(step)))
    saved = json.dumps(game.to_dict())
    first, second = engine.load(json.loads(saved)), engine.load(json.loads(saved))
    a, b = strings(first), strings(second)
    assert a == b and len(a) > 20
    # Equal strings, and the very same objects: one copy per card code for all games.
    separate = [x for x, y in zip(a, b, strict=True) if x is not y]
    assert separate == []


@pytest.mark.parametrize("kind", list(SEATS))
def test_a_new_deal_holds_the_shared_card_codes(kind: str) -> None:
    game = engine.new_game(kind, [f"p{i}" for i in range(SEATS[kind])], seed=5)
    # Player ids are the caller's; one-character strings are shared by Python itself.
    held = [s for s in strings(game) if s not in game.players and len(s) > 1]
    assert len(held) > 20
    assert [s for s in held if sys.intern(s) is not s] == []
