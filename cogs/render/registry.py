"""Which renderer draws which game."""

from __future__ import annotations

import engine
from cogs.render.haymaker import HaymakerRenderer
from cogs.render.ihaveit import IHaveItRenderer
from cogs.render.itemcollection import ItemCollectionRenderer
from cogs.render.kinds import Renderer
from cogs.render.uno import UnoRenderer
from cogs.render.warofsuits import WarOfSuitsRenderer

_CLASSES: dict[str, type[Renderer]] = {
    "uno": UnoRenderer,
    "ihaveit": IHaveItRenderer,
    "warofsuits": WarOfSuitsRenderer,
    "itemcollection": ItemCollectionRenderer,
    "haymaker": HaymakerRenderer,
}
_RENDERERS: dict[str, Renderer] = {
    kind: cls(kind, engine.GAMES[kind].title) for kind, cls in _CLASSES.items()
}


def renderer_for(kind: str) -> Renderer:
    return _RENDERERS[kind]
