"""Every game the bot hosts, registered once with all the bot needs to host it.

A new game is its modules (rules in ``engine/games``, bots in ``engine/bots``, looks in
``cogs/render``) plus one line in ``GAMES`` below. ``tests/cogs/test_hosting.py`` checks that
every engine game is fully registered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engine
import engine.bots
from cogs.render.haymaker import HaymakerRenderer
from cogs.render.ihaveit import IHaveItRenderer
from cogs.render.itemcollection import (
    ItemCollectionRenderer,
    negotiation_clock,
    negotiation_over,
)
from cogs.render.kinds import Renderer
from cogs.render.uno import UnoRenderer, uno_awaited
from cogs.render.warofsuits import WarOfSuitsRenderer
from engine import Game

PhaseClock = Callable[[dict[str, Any]], "tuple[str, int] | None"]
PhaseTimeout = Callable[[Game], list[tuple[str, str]]]


def actors_with_moves(game: Game) -> list[str]:
    """Whom the game waits for: by default every actor with something to do."""
    return [p for p in game.actors() if game.legal_actions(p)]


def no_phase_clock(view: dict[str, Any]) -> tuple[str, int] | None:
    return None


def nothing_on_timeout(game: Game) -> list[tuple[str, str]]:
    return []


@dataclass(frozen=True, slots=True)
class Hosted:
    kind: str
    engine: type[Game]
    renderer: Renderer
    turn_timer: int  # default seconds per turn (0: off); /newgame turn_timer overrides it
    awaited: Callable[[Game], list[str]] = actors_with_moves  # timed and nudged players
    # A phase with a clock of its own (Item Collection's negotiation): its key and length,
    # and the moves made when it runs out. Turn timers do not run during such a phase.
    phase_clock: PhaseClock = no_phase_clock
    phase_timeout: PhaseTimeout = nothing_on_timeout
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.engine.title

    def bot_levels(self) -> dict[str, str]:
        """{level: how it plays}, from the game's bot module."""
        return engine.bots.describe(self.kind)


def host(engine_cls: type[Game], renderer: type[Renderer], **policy: Any) -> Hosted:
    return Hosted(
        engine_cls.kind, engine_cls, renderer(engine_cls.kind, engine_cls.title), **policy
    )


GAMES: dict[str, Hosted] = {
    h.kind: h
    for h in (
        host(engine.GAMES["uno"], UnoRenderer, turn_timer=60, awaited=uno_awaited),
        host(engine.GAMES["ihaveit"], IHaveItRenderer, turn_timer=90),
        host(engine.GAMES["warofsuits"], WarOfSuitsRenderer, turn_timer=90),
        host(
            engine.GAMES["itemcollection"],
            ItemCollectionRenderer,
            turn_timer=90,
            phase_clock=negotiation_clock,
            phase_timeout=negotiation_over,
        ),
        host(engine.GAMES["haymaker"], HaymakerRenderer, turn_timer=90),
    )
}


def hosted(kind: str) -> Hosted:
    return GAMES[kind]


def renderer_for(kind: str) -> Renderer:
    return GAMES[kind].renderer
