"""Test support: stacked decks and random playouts. Not used in play."""

from __future__ import annotations

import json
from typing import Any

from engine.core import Game, IllegalAction
from engine.registry import GAMES, load
from engine.rng import Rng


def stacked(
    kind: str,
    players: list[str],
    deck: list[str],
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> Game:
    """A new game whose deck is ``deck`` (first item = top card) instead of a shuffle.

    Each game documents how it deals from the deck (who gets which card), so a scenario
    test can set up exactly the hands it needs.
    """
    return GAMES[kind](players, seed=seed, options=options, deck=list(deck))


def choose(game: Game, player: str, rng: Rng, tries: int = 20) -> str:
    """A random legal action id for ``player``; for a pick, a random valid choice."""
    actions = game.legal_actions(player)
    if not actions:
        raise AssertionError(f"{player} is an actor with no legal action")
    plain = [a for a in actions if a.pick is None]
    for _ in range(tries):
        action = rng.choice(actions)
        if action.pick is None:
            return action.id
        pick = action.pick
        k = pick.min + rng.below(min(pick.max, len(pick.options)) - pick.min + 1)
        chosen = rng.sample(pick.options, k)
        action_id = f"{action.id}:{'.'.join(chosen)}"
        if _accepts(game, player, action_id):
            return action_id
    if plain:
        return rng.choice(plain).id
    raise AssertionError(f"no acceptable choice found for {player}")


def _accepts(game: Game, player: str, action_id: str) -> bool:
    """Whether ``action_id`` would be accepted, tried on a copy."""
    trial = load(json.loads(json.dumps(game.to_dict())))
    try:
        trial.apply(player, action_id)
    except IllegalAction:
        return False
    return True


def playout(game: Game, seed: int = 0, max_actions: int = 100_000) -> list[tuple[str, str]]:
    """Play random legal actions to the end; return the (player, action id) log.

    Fails if some state has no actor (the game would stall) or the game never ends.
    """
    rng = Rng(seed)
    log: list[tuple[str, str]] = []
    while not game.finished:
        if len(log) >= max_actions:
            raise AssertionError(f"{game.kind} did not end within {max_actions} actions")
        # An actor may have nothing to do (say, everyone may jump in but only holders of a
        # matching card can), but someone must.
        able = [p for p in game.actors() if game.legal_actions(p)]
        if not able:
            raise AssertionError(f"{game.kind}: nobody can act in an unfinished game")
        player = rng.choice(able)
        action_id = choose(game, player, rng)
        game.apply(player, action_id)
        log.append((player, action_id))
    return log
