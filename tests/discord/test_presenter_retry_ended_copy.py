"""A waiting retry of a game that ended meanwhile, when a failed write had replaced the copy
its failed pass held. Before, the retry drew that older copy (an ended game is not cached),
over the ended table: live buttons, for good. Now a retry of a game no longer cached draws
it as stored. The open-game case is test_presenter_retry_newest_copy.py."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.presenter import RETRY_AFTER
from tests.discord.driver import Table, controls
from tests.discord.presenter_retry import a_retry_waiting, refused_then_stored

pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


def moves_offered(table: Table) -> list[str]:
    return [c.custom_id for c in controls(table.table_message()) if c.custom_id.startswith("g:")]


async def test_a_retry_never_draws_an_ended_game_from_an_older_copy(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann plays from her DM; Discord fails that table edit once (a 5xx): a retry waits 5 s
    holding the game's copy. bea clicks while the database blinks (refused; the copy is
    dropped), clicks again (stored on a fresh copy, drawn), and ann ends the game with
    /endgame: the table shows it ended, no move buttons. Then the retry runs: the game is
    not cached any more (ended), so it draws the old copy, and the ended game's table goes
    back to a running game at ann's move, with live move buttons, for good."""
    env = simcord_env
    table, _first, second = await a_retry_waiting(env, monkeypatch)
    await refused_then_stored(env, monkeypatch, table, second)
    host = table.members[next(iter(table.members))]
    ended = await host.slash(table.channel, "endgame")
    assert not ended.ephemeral, ended.response.content
    await env.bot.presenter.idle()
    assert moves_offered(table) == [], "the ended table still offers moves"
    await env.advance_time(RETRY_AFTER + 1)  # the waiting retry runs
    await env.bot.presenter.idle()
    offered = moves_offered(table)
    assert offered == [], f"the ended game's table offers moves again: {offered[:3]}"
