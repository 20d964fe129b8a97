"""The game registry: ``GAMES``, ``new_game`` and ``load``."""

from __future__ import annotations

from typing import Any

from engine.cards import shared_data
from engine.core import Game
from engine.games.haymaker import Haymaker
from engine.games.ihaveit import IHaveIt
from engine.games.itemcollection import ItemCollection
from engine.games.uno import Uno
from engine.games.warofsuits import WarOfSuits

# In the order /newgame lists them.
GAMES: dict[str, type[Game]] = {
    cls.kind: cls for cls in (Uno, IHaveIt, WarOfSuits, ItemCollection, Haymaker)
}


def new_game(
    kind: str, players: list[str], seed: int = 0, options: dict[str, Any] | None = None
) -> Game:
    try:
        cls = GAMES[kind]
    except KeyError:
        raise ValueError(f"Unknown game {kind!r} (games: {', '.join(GAMES)}).") from None
    return cls(players, seed=seed, options=options)


def load(data: dict[str, Any]) -> Game:
    """Rebuild a game from ``Game.to_dict()``; it continues exactly as the original. Its
    strings (card codes, player ids) are shared with every other loaded game."""
    return GAMES[data["kind"]].from_dict(shared_data(data))
