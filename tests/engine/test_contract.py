"""The engine contract (ARCHITECTURE.md), checked the same way for every game."""

from __future__ import annotations

import json

import pytest

import engine
from engine.rng import Rng
from engine.testing import choose

KINDS = list(engine.GAMES)
SEATS = {"uno": 4, "ihaveit": 3, "warofsuits": 2, "itemcollection": 4, "haymaker": 2}


def players(kind: str) -> list[str]:
    return [f"p{i}" for i in range(SEATS[kind])]


def test_registry_lists_all_five_games_uno_first() -> None:
    assert KINDS == ["uno", "ihaveit", "warofsuits", "itemcollection", "haymaker"]


@pytest.mark.parametrize("kind", KINDS)
def test_class_metadata(kind: str) -> None:
    cls = engine.GAMES[kind]
    assert cls.kind == kind
    assert cls.title and cls.summary
    assert 2 <= cls.min_players <= cls.max_players <= 10
    for option in cls.options.values():
        option.check("x", option.default)  # every default is itself valid


@pytest.mark.parametrize("kind", KINDS)
def test_player_count_and_unknown_option_refused(kind: str) -> None:
    cls = engine.GAMES[kind]
    with pytest.raises(ValueError, match="players"):
        engine.new_game(kind, [f"p{i}" for i in range(cls.max_players + 1)])
    with pytest.raises(engine.InvalidOption, match="no_such_option"):
        engine.new_game(kind, players(kind), options={"no_such_option": True})


def test_unknown_kind_refused() -> None:
    with pytest.raises(ValueError, match="Unknown game"):
        engine.new_game("chess", ["a", "b"])


@pytest.mark.parametrize("kind", KINDS)
def test_contract_along_a_random_game(kind: str) -> None:
    """Views, actions, refusals and the JSON round trip at every step of one game."""
    names = players(kind)
    # A low UNO target keeps a uniformly random match short (a round takes ~2,000 moves).
    options = {"target": 10} if kind == "uno" else None
    game = engine.new_game(kind, names, seed=11, options=options)
    rng = Rng(5)
    steps = 0
    while not game.finished and steps < 20_000:
        public = game.view()
        assert "hand" not in public
        json.dumps(public)
        for p in names:
            mine = game.view(p)
            assert isinstance(mine["hand"], list)
            json.dumps(mine)
        able = [p for p in game.actors() if game.legal_actions(p)]
        assert able, "nobody can act in an unfinished game"
        for action in game.legal_actions(able[0]):
            assert action.id.isascii() and len(action.id) <= 64 and action.label
        # Someone who may not act is refused, and nothing changes.
        idle = [p for p in names if p not in game.actors()]
        if idle:
            before = game.to_dict()
            with pytest.raises(engine.IllegalAction):
                game.apply(idle[0], game.legal_actions(able[0])[0].id)
            assert game.to_dict() == before
        with pytest.raises(engine.IllegalAction):
            game.apply("stranger", "anything")
        player = rng.choice(able)
        action_id = choose(game, player, rng)
        # The round trip continues exactly as the original.
        copy = engine.load(json.loads(json.dumps(game.to_dict())))
        events = game.apply(player, action_id)
        copy_events = copy.apply(player, action_id)
        assert copy.to_dict() == game.to_dict()
        assert [(e.public, e.private) for e in events] == [
            (e.public, e.private) for e in copy_events
        ]
        for event in events:
            assert isinstance(event.public, str)
            assert set(event.private) <= set(names)
        steps += 1
    assert game.finished, f"{kind} did not finish in {steps} steps"
    assert set(game.winners) <= set(names)
    assert set(game.scores) == set(names)
    assert game.actors() == [] or all(not game.legal_actions(p) for p in names)
    with pytest.raises(engine.IllegalAction):
        game.apply(names[0], "anything")


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_game(kind: str) -> None:
    a = engine.new_game(kind, players(kind), seed=99)
    b = engine.new_game(kind, players(kind), seed=99)
    assert a.to_dict() == b.to_dict()
    c = engine.new_game(kind, players(kind), seed=100)
    assert c.to_dict() != a.to_dict()


@pytest.mark.parametrize("kind", KINDS)
def test_outcome_copy_and_defensive_api(kind: str) -> None:
    """Outcome as data at the end; copies are independent; callers cannot hurt the game."""
    names = players(kind)
    options = {"target": 10} if kind == "uno" else None
    game = engine.new_game(kind, names, seed=3, options=options)
    assert game.outcome is None
    rng = Rng(8)
    while not game.finished:
        able = [p for p in game.actors() if game.legal_actions(p)]
        player = able[0]
        # Changing the returned list changes nothing in the game.
        game.legal_actions(player).clear()
        assert game.legal_actions(player)
        for bad in (None, 7, ["draw"]):
            with pytest.raises(engine.IllegalAction):
                game.apply(player, bad)  # type: ignore[arg-type]
        pick = next((a for a in game.legal_actions(player) if a.pick), None)
        if pick is not None and len(pick.pick.options) >= 2:  # type: ignore[union-attr]
            a, b = pick.pick.options[:2]  # type: ignore[union-attr]
            before = game.to_dict()
            for forged in (f"{pick.id}:{a}..{b}", f"{pick.id}:{a}.", f"{pick.id}:.{a}"):
                with pytest.raises(engine.IllegalAction):
                    game.apply(player, forged)
            assert game.to_dict() == before
        action = choose(game, player, rng)
        twin = game.copy()
        game.apply(player, action)
        # The copy did not move with the original, and continues the same way.
        assert twin.to_dict() != game.to_dict()
        twin.apply(player, action)
        assert twin.to_dict() == game.to_dict()
    outcome = game.outcome
    assert outcome is not None and outcome.winners == game.winners
    assert outcome.reason and outcome.reason != "finished"
    placed = [p for place in outcome.placings for p in place]
    assert sorted(placed) == sorted(names)
    if outcome.winners:
        assert sorted(outcome.placings[0]) == sorted(outcome.winners)
    assert engine.load(game.to_dict()).outcome == outcome


@pytest.mark.parametrize("bad", ["ann é", "a:b", "x" * 51, ""])
def test_player_ids_are_short_ascii_without_separators(bad: str) -> None:
    with pytest.raises(ValueError, match="Player id"):
        engine.new_game("uno", ["ok", bad])
