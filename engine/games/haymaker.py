"""PLACEHOLDER: being written. Haymaker."""

from engine.core import Game


class Haymaker(Game):
    kind = "haymaker"
    title = "Haymaker"
    min_players = 2
    max_players = 10
