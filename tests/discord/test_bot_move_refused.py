"""A bot move the rules refuse (a policy's mistake) is replaced by a plain legal move."""

from __future__ import annotations

from typing import Any

import engine.bots
from tests.discord.driver import Table

CAP = 20  # refusals before the fake policy behaves (keeps a failing run short)


async def test_a_refused_bot_move_is_replaced_by_a_legal_one(simcord_env, monkeypatch) -> None:
    """Before, when the engine refused the move a bot policy chose, ``_settle`` stored the
    same, already due, bot clock and the loop fired it again at once with the same seeded
    choice: hundreds of refused moves a second, each a database write and a warning, and the
    table stalled. Now the clock plays a plain legal move instead."""
    table = await Table.start(simcord_env, "haymaker", 1, bots=1, seed=8)
    (ann,) = table.members
    real = engine.bots.choose
    refused: list[int] = []

    def buggy(kind: str, level: str, view: Any, actions: Any, rng: Any) -> str:
        if len(refused) < CAP:
            refused.append(1)
            return "not-a-move"
        return real(kind, level, view, actions, rng)

    monkeypatch.setattr("cogs.timers.engine.bots.choose", buggy)
    game = await table.game()
    if ann in game.actors():  # make it the bot's turn
        action = next(a for a in game.legal_actions(ann) if a.pick is None)
        await table.act(ann, action.id)
    await simcord_env.advance_time(10)
    assert len(refused) <= 6, f"{len(refused)} refused bot moves within 10 s of virtual time"
    assert refused, "the bot was never asked"
    game = await table.game()
    assert game.finished or ann in game.actors(), "the bot never moved: the game waits on it"
