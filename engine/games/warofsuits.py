"""PLACEHOLDER: being written. A War of Suits."""

from engine.core import Game


class WarOfSuits(Game):
    kind = "warofsuits"
    title = "A War of Suits"
    min_players = 2
    max_players = 10
