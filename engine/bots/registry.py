"""Which bots play which game, and the one entry point tools outside the project use."""

from __future__ import annotations

from typing import Any

from engine.bots.base import LEVELS, GameBots, Rand
from engine.core import Action

BOTS: dict[str, GameBots] = {}


def register(kind: str, bots: GameBots) -> None:
    BOTS[kind] = bots


def choose(kind: str, level: str, view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    """The action id a bot of ``level`` chooses, given only its seat's view and actions."""
    if not actions:
        raise ValueError("A bot was asked to move with no legal action.")
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r} (levels: {', '.join(LEVELS)}).")
    _load()
    bots = BOTS[kind]
    policy = bots.normal if level == "normal" else bots.hard
    return policy(view, actions, rng)


def optional_moves(kind: str, view: dict[str, Any], actions: list[Action]) -> list[Action]:
    """Of the moves a seat may make though the game does not wait for it (an UNO catch or
    jump-in), those a bot would make; none: it lets the chance pass. Then ``choose`` picks
    among them."""
    _load()
    return BOTS[kind].optional(view, actions)


def describe(kind: str) -> dict[str, str]:
    """{level: how it plays}, for the lobby and /rules."""
    _load()
    return dict(BOTS[kind].about)


def _load() -> None:
    if not BOTS:
        # Imported on first use: each module registers itself (engine.bots.<kind>).
        from engine.bots import games  # noqa: F401
