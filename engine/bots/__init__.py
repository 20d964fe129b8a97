"""Bot players: pure, seeded policies that see only what their seat may see.

    import random, engine.bots
    action_id = engine.bots.choose("uno", "normal", game.view(p), game.legal_actions(p),
                                   random.Random(seed))

A policy is a function of one seat's ``view(player)`` (which holds the public history a good
player remembers), its ``legal_actions(player)`` and a seeded RNG. It never sees the engine's
state: a level that searches samples the unseen cards from what the seat could know.
"""

from engine.bots.base import LEVELS, GameBots, Policy, Rand
from engine.bots.registry import BOTS, choose, describe, optional_moves

__all__ = ["BOTS", "LEVELS", "GameBots", "Policy", "Rand", "choose", "describe", "optional_moves"]
