"""PLACEHOLDER: being written. UNO."""

from engine.core import Game


class Uno(Game):
    kind = "uno"
    title = "UNO"
    min_players = 2
    max_players = 10
