"""PLACEHOLDER: being written. I Have It."""

from engine.core import Game


class IHaveIt(Game):
    kind = "ihaveit"
    title = "I Have It"
    min_players = 2
    max_players = 10
