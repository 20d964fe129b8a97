"""Which renderer draws which game."""

from __future__ import annotations

import engine
from cogs.render.kinds import Renderer
from cogs.render.uno import UnoRenderer

_RENDERERS: dict[str, Renderer] = {
    "uno": UnoRenderer("uno", engine.GAMES["uno"].title),
}


def renderer_for(kind: str) -> Renderer:
    found = _RENDERERS.get(kind)
    if found is None:
        # Any engine game is playable with the generic look until it gets its own.
        found = _RENDERERS[kind] = Renderer(kind, engine.GAMES[kind].title)
    return found
