"""Every engine game is hosted: registered once with its renderer, clocks and bots."""

from __future__ import annotations

import random

import pytest

import engine
import engine.bots
from cogs.hosting import GAMES
from cogs.render.kinds import Renderer


def test_every_engine_game_is_registered_once_in_the_same_order() -> None:
    assert list(GAMES) == list(engine.GAMES)


@pytest.mark.parametrize("kind", list(engine.GAMES))
def test_a_registration_has_everything_to_host_the_game(kind: str) -> None:
    hosted = GAMES[kind]
    assert hosted.engine is engine.GAMES[kind] and hosted.kind == kind
    assert isinstance(hosted.renderer, Renderer) and hosted.renderer.kind == kind
    assert 30 <= hosted.turn_timer <= 600
    levels = hosted.bot_levels()
    assert set(levels) == set(engine.bots.LEVELS) and all(levels.values())
    # The clock and bot policies work on a fresh game.
    cls = engine.GAMES[kind]
    game = engine.new_game(kind, [f"p{i}" for i in range(cls.min_players)], seed=1)
    awaited = hosted.awaited(game)
    assert awaited and set(awaited) <= set(game.actors())
    hosted.phase_clock(game.view(None))
    for player in awaited:
        actions = game.legal_actions(player)
        choice = engine.bots.choose(kind, "normal", game.view(player), actions, random.Random(1))
        game.copy().apply(player, choice)  # a legal move
