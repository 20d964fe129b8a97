"""Bots for haymaker (placeholder: a random legal action until the real policies land)."""

from __future__ import annotations

from typing import Any

from engine.bots.base import GameBots, Rand
from engine.bots.registry import register
from engine.core import Action


def _first_plain(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    plain = [a for a in actions if a.pick is None]
    return rng.choice(plain).id if plain else actions[0].id + ":"


register("haymaker", GameBots(_first_plain, _first_plain, {"normal": "", "hard": ""}))
