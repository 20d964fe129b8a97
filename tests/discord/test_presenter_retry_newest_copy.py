"""Drawing under a misbehaving Discord: a retry waiting with an old copy of the game."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.presenter import RETRY_AFTER
from tests.discord.driver import Table, controls
from tests.discord.presenter_retry import a_retry_waiting, refused_then_stored

# Retries are 5 s apart: a short settle window keeps them on the virtual clock. Alone on
# the database (SQLite): sharing it (PostgreSQL), the presenter reloads a dropped copy first.
pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


def table_version(table: Table) -> set[int]:
    """The game versions the table's buttons are drawn for."""
    return {
        int(c.custom_id.split(":")[2])
        for c in controls(table.table_message())
        if c.custom_id.startswith("g:")
    }


async def test_a_retry_waiting_with_an_old_copy_does_not_draw_over_a_newer_table(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann plays from her DM; Discord fails that table edit once (a 5xx), so the presenter
    waits 5 s to try again, holding the game's copy it was drawing. Meanwhile bea clicks
    while the database blinks: her move is refused ("nothing was changed") and the bot
    drops its cached copy, as after every failed write. She clicks again: the move is
    stored on a fresh copy and the table is drawn for it. Then the waiting retry runs with
    the old copy and edits the table back to the picture before bea's move (her turn
    again, buttons of the old version), and nothing draws it again until the next move:
    the channel shows a turn that is over. That was before; now a retry draws the game as
    it is now (the cached copy), never the copy a failed write dropped."""
    env = simcord_env
    table, first, second = await a_retry_waiting(env, monkeypatch)
    assert second != first
    await refused_then_stored(env, monkeypatch, table, second)
    now_version = (await table.session()).version
    assert table_version(table) == {now_version}
    await env.advance_time(RETRY_AFTER + 1)  # the waiting retry runs
    await env.bot.presenter.idle()
    assert (await table.session()).version == now_version
    assert table_version(table) == {now_version}, (
        f"the table shows version {table_version(table)}, the game is at {now_version}"
    )
