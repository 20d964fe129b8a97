"""Pure rules for every game the bot hosts. Standard library only: no Discord, no SQL, no I/O.

import engine
g = engine.new_game("uno", ["alice", "bob"], seed=123)
g.apply("bob", g.legal_actions("bob")[0].id)
"""

from engine.core import Action, Event, Game, IllegalAction, Pick
from engine.options import InvalidOption, Option
from engine.registry import GAMES, load, new_game

__all__ = [
    "GAMES",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOption",
    "Option",
    "Pick",
    "load",
    "new_game",
]
