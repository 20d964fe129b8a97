"""Two processes share PostgreSQL: a DM's Play pressed in one (Discord sends DM clicks to
shard 0), the game drawn by the other (the shard of its server)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import controls, message_text
from tests.discord.test_uno_jump_in_dm import ann_to_play

pytestmark = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


async def test_a_dm_opened_on_another_shard_is_redrawn_when_its_turn_is_taken(
    simcord_env: Any,
) -> None:
    """UNO with jump-in. cy plays a Red 5: ann's turn; her DM, drawn between turns, offers
    Play. She presses it; the click may reach another process than the one drawing the game
    (Discord sends every DM click to shard 0). Before, the answer drew her moves into the
    DM, which the drawing process never learnt of: when bea jumped in with the other Red 5
    (ann's turn gone, her hand unchanged), ann's DM went on saying "Your turn" with move
    buttons that only answered "out of date". Now, sharing the database, Play opens the
    moves privately and the DM stays as the drawing process knows it."""
    env = simcord_env
    if not env.bot.sessions.shared:
        pytest.skip("one process on SQLite")
    table = await ann_to_play(env, "games", "Y4 Y5 R5 B1", turn_timer=0)
    ann, bea, _cy = (await table.game()).players
    assert (await table.game()).view(None)["current"] == ann
    dm = table.dm_message(ann)
    assert dm is not None and "Your turn" not in message_text(dm)

    # ann presses Play in her DM: her moves, privately.
    play = next(c for c in controls(dm) if c.custom_id.endswith(":*"))
    answer = await table.members[ann].user.click(dm, custom_id=play.custom_id)
    assert answer.ephemeral and "Your turn" in message_text(answer.response)
    assert message_text(table.dm_message(ann)) == message_text(dm), "the DM as it was"
    assert any(a.id == "play:R5" for a in (await table.game()).legal_actions(bea))
    await table.act(bea, "play:R5", via="picker")  # bea jumps in
    await env.advance_time(5)
    await env.bot.presenter.idle()
    game = await table.game()
    assert game.view(None)["current"] != ann
    assert not any(not a.id.startswith("catch:") for a in game.legal_actions(ann))
    now = table.dm_message(ann)
    assert now is not None
    text = message_text(now)
    version = (await table.session()).version
    moves = [
        c.custom_id
        for c in controls(now)
        if c.custom_id.startswith("g:")
        and int(c.custom_id.split(":")[2]) != version
        and not c.custom_id.endswith(":*")
    ]
    assert "Your turn" not in text and not moves, (
        f"ann's turn was taken by bea's jump-in (game at version {version}), yet her DM "
        f"still reads {text!r} with move buttons {moves}"
    )
