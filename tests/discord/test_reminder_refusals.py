"""Turn reminders when a delete fails: "at most one reminder exists at a time" (timers.py)."""

from __future__ import annotations

from cogs.timing import Timing
from tests.discord.driver import Table

NUDGE = Timing().nudge_after


async def test_a_failed_delete_leaves_an_untrue_reminder_for_good(simcord_env) -> None:
    """The old reminder's DELETE fails once (a 500): the new one is posted anyway and the id
    of the old one is forgotten, so "<@ann>, your turn" stays in the channel after her turn
    (never deleted, not even when the game ends)."""
    table = await Table.start(simcord_env, "uno", 2, seed=7, turn_timer=0)
    await simcord_env.advance_time(NUDGE + 1)
    first = [m for m in table.public_messages() if "your turn in" in (m.content or "")]
    assert len(first) == 1
    game = await table.game()
    player = next(p for p in game.actors() if game.legal_actions(p))
    legal = game.legal_actions(player)
    plays = [a.id for a in legal if a.id.startswith("play:")]
    simcord_env.inject_error(
        "DELETE", f"/channels/{table.channel.id}/messages/{first[0].id}", status=500, times=1
    )
    await table.act(player, plays[0] if plays else legal[0].id, via="dm")
    await simcord_env.advance_time(NUDGE + 1)
    await simcord_env.advance_time(60)
    await simcord_env.bot.presenter.idle()
    shown = [m.content for m in table.public_messages() if "your turn in" in (m.content or "")]
    assert len(shown) == 1, shown
