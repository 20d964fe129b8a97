"""A rematch lobby that could not be shown (the answer to Play again refused). Before, it
kept the rematch's one ping claimed, and the next Play again pinged nobody; now the ping is
handed back when the lobby is closed unseen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import answer_fails
from tests.discord.test_rematch import _ended

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_rematch_never_shown_hands_its_ping_back(simcord_env: Any) -> None:
    """bea presses Play again; the rematch lobby is created and its ping claimed
    (``claim_rematch``), but Discord refuses the answer that would post it (10062: the 3 s
    went by). ``_open`` ends the lobby ("nothing was shown, so nothing is left") without
    ``release_rematch`` (done for the unkept and first-read-failed cases only). bea presses
    Play again a moment later: the rematch opens without mentioning ann and cy, who were
    never pinged."""
    env = simcord_env
    table, post = await _ended(env)
    ann, bea, cy = table.members.values()
    answer_fails(env)
    await bea.click(post, label="Play again")
    await env.settle()
    assert await env.bot.store.open_game_in_channel(table.channel.id) is None, "lobby stayed"
    await env.advance_time(5)
    again = await bea.click(post, label="Play again")
    assert not again.ephemeral, again.response and again.response.content
    pinged = {u.id for u in again.response.message.mentions}
    assert {ann.id, cy.id} <= pinged, (
        f"the rematch that opened pinged {sorted(pinged)}: {again.response.message.content!r}"
    )
