"""UNO `jump_in` on Discord: what a player's DM may tell them.

Each docstring tells what players saw before the fix; the assertions are what they see now."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table, message_text

# What players read: the same on either database, so drawn on one.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def ann_to_play(simcord_env: Any, channel: str, bea_hand: str, **options: Any) -> Table:
    """UNO with jump-in: cy plays a Red 5, making ann the current player (bea holds
    ``bea_hand``)."""
    table = await Table.start(
        simcord_env, "uno", 3, channel_name=channel, seed=3, jump_in=True, **options
    )
    _ann, _bea, cy = (await table.game()).players
    await table.set_state(
        h=["G1 G2 B3 Y9", bea_hand, "R5 B8 B9 G7"],
        d="Y7 Y8 R9 G3 G4",
        x="R6",
        c="R",
        t=2,
        ph="play",
        dr="",
    )
    await table.act(cy, "play:R5", via="picker")
    await simcord_env.bot.presenter.idle()
    return table


async def _ann_to_play(simcord_env: Any, channel: str, bea_hand: str) -> str:
    """ann's DM, once cy's Red 5 made her the current player and she pressed Play in it."""
    table = await ann_to_play(simcord_env, channel, bea_hand)
    ann = (await table.game()).players[0]
    assert (await table.game()).view(None)["current"] == ann
    dm = table.dm_message(ann)
    assert dm is not None
    await table.open_dm_moves(ann, dm, "draw")
    dm = table.dm_message(ann)
    assert dm is not None
    return message_text(dm)


async def test_current_players_dm_does_not_reveal_that_someone_can_jump_in(simcord_env) -> None:
    """With `jump_in` on, cy plays a Red 5 and it is ann's turn. When nobody else holds the
    other Red 5, ann's DM says "**Your turn:** play a Red card or any 5, a wild, or draw."; when
    bea secretly holds it (so bea may jump in), ann's DM silently drops that line. The DM of
    the current player thus tells her that another hand holds a card identical to the top
    card: hidden information leaked, and a DM that no longer says it is her turn. The cause is
    cogs/show.py: with jump-in every player is an actor, so a possible jump-in makes
    ``_others_acting`` true and ``hand(dm=True)`` hides the prompt as in a simultaneous phase.
    The current player's DM should read the same whatever the others hold."""
    plain = await _ann_to_play(simcord_env, "plain", "Y4 Y5 Y6 B1")
    jump = await _ann_to_play(simcord_env, "jump", "Y4 Y5 R5 B1")
    assert "Your turn" in plain, plain
    assert "Your turn" in jump, (
        "ann's DM changes with what bea holds (no 'Your turn' when bea could jump in):\n" + jump
    )
