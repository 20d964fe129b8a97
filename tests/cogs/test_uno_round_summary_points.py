"""UNO's points read as English: "1 point", in round summaries and in the goal."""

from __future__ import annotations

import random

import engine
import engine.bots
from cogs.render.uno import UnoRenderer, goal

RENDER = UnoRenderer("uno", "UNO")


def test_a_hand_worth_one_point_is_not_called_1_points() -> None:
    """A four-player match (seed 15, normal bots) ends round 1 with player 2 holding a single
    Yellow 1. The round summary posted in the channel reads "• bea: 🟨 Yellow 1 — 1 points"
    (also seen in a 10-seat game with bots: "🤖 Hopper: 🟦 Blue 1 — 1 points"). Over a long
    match with many rounds this comes up again and again. It should say "1 point", as the
    rest of the bot does with ``plural`` ("1 card"). From ``UnoRenderer.round_summary``:
    ``points = f"{last['points'].get(p, 0)} points"``."""
    players = ["1", "2", "3", "4"]
    game = engine.new_game("uno", players, 15, {"target": 10_000})
    moves = 0
    while game.view(None)["round"] == 1:
        player = next(p for p in game.actors() if game.legal_actions(p))
        choice = engine.bots.choose(
            "uno", "normal", game.view(player), game.legal_actions(player), random.Random(moves)
        )
        game.apply(player, choice)
        moves += 1
    view = game.view(None)
    assert view["last_round"]["points"]["2"] == 1, "the setup: a hand worth one point"
    names = {"1": "ann", "2": "bea", "3": "cy", "4": "dee"}
    text = RENDER.round_summary(view, names)
    assert text is not None
    line = next(row for row in text.splitlines() if row.startswith("• bea"))
    assert "1 points" not in line, line
    assert line.endswith("— 1 point"), line


def test_a_target_of_one_point_is_not_called_1_points() -> None:
    """``target:1`` is allowed (1 to 10,000): the table read "first to 1 points"."""
    assert goal({"target": 1}) == "first to 1 point"
    assert goal({"target": 500}) == "first to 500 points"
    assert goal({"target": 1, "scoring": "lowest"}).startswith("ends when someone reaches 1 point,")
