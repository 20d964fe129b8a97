"""A reminder's unsaved id stored by a retry that draws a reloaded copy of the game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_reminder_id_unsaved import reminded_unsaved
from tests.discord.test_turn_clocks import NUDGE, a_move, current


def _reminders(table: Table) -> list[Any]:
    return [m for m in table.public_messages() if "your turn" in (m.content or "")]


async def test_a_reminder_stored_by_a_retry_on_a_reloaded_copy_is_deleted_later(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann is reminded of her turn (reminder 1) during a database blink: storing its id
    fails, and so does another write of the game in that blink, which drops the cached copy
    (``Sessions.forget``, as ``apply`` does on a failed write); the game is loaded afresh,
    without reminder 1's id. The retry of the reminder job stores reminder 1's id in the
    database (``_nudges_unsaved``) and returns, but never puts it on the copy in memory,
    whose ``nudge_message_id`` stays None (the fresh copy is what the moves and the next
    reminder use; ``Presenter._retry`` even draws it now). ann plays; bea's reminder
    replaces "the previous one" = None, so "@ann, your turn" stays in the channel beside
    bea's for good (two reminders, one untrue). That was before; now the copy in memory
    learns the id too: one reminder, bea's."""
    env = simcord_env
    table, ann = await reminded_unsaved(env, monkeypatch)
    assert len(_reminders(table)) == 1
    env.bot.sessions.forget(table.game_id)  # the blink failed a write of the game too
    await table.session()  # loaded afresh from the database
    await env.advance_time(14)  # the retry stores reminder 1's id
    assert not env.bot.get_cog("Timers")._nudges_unsaved
    for _ in range(3):
        await table.act(ann, await a_move(table, ann), via="dm")
        if await current(table) != ann:
            break
    assert await current(table) != ann, "the move did not pass the turn: pick another seed"
    await env.advance_time(NUDGE + 5)  # bea reminded
    await env.bot.presenter.idle()
    await env.advance_time(5)  # the old reminder's delete
    reminders = _reminders(table)
    assert len(reminders) == 1, [m.content for m in reminders]
