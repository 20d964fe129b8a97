"""How WarOfSuits looks on Discord."""

from __future__ import annotations

from cogs.render.kinds import Renderer


class WarOfSuitsRenderer(Renderer):
    pass
