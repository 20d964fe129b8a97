"""PLACEHOLDER: being written. Item Collection Game."""

from engine.core import Game


class ItemCollection(Game):
    kind = "itemcollection"
    title = "Item Collection Game"
    min_players = 2
    max_players = 10
