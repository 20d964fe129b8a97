"""Drawing under a misbehaving Discord: a quick retry merged into a refused one's wait."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, controls
from tests.discord.test_channel_locked import deny_bot
from tests.discord.test_turn_clocks import NUDGE, a_move, current


def versions(message: Any) -> set[int]:
    return {
        int(c.custom_id.split(":")[2]) for c in controls(message) if c.custom_id.startswith("g:")
    }


async def test_a_dm_failing_once_in_a_locked_channel_is_redrawn_in_seconds(
    simcord_env: Any,
) -> None:
    """A moderator locks the game's channel (the bot loses Send Messages; editing its own
    table still works) and the players go on from their DMs. The turn reminder is refused
    (403), so it is tried again a minute later (then 2, 4... minutes). ann then plays, and
    bea's DM edit meets one 5xx, which is ordinarily tried again 5 s later. That quick
    retry is merged into the reminder's refused retry already waiting (``_wait_retry``
    keeps the waiting one's time): ann's DM goes on showing the card she played for about
    a minute (up to the two-minute catch-up later on), while Discord has long taken edits
    again. That was before; now a merged retry runs at the sooner of the two times. (She
    plays on the table's picker: her hand changes, so her DM is edited.)"""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    first = await current(table)
    await env.advance_time(NUDGE + 1)  # first's reminder: refused, tried again in a minute
    other = next(p for p in table.members if p != first)
    dm = table.dm_message(first)
    assert dm is not None
    env.inject_error("PATCH", f"/channels/{dm.channel.id}/messages/{dm.id}", times=1)
    await table.act(first, await a_move(table, first), via="picker")
    assert await current(table) == other
    await env.advance_time(15)  # three times the quick retry's 5 s
    version = (await table.session()).version
    shown = table.dm_message(first)
    hand = (await table.game()).view(first)["hand"]
    assert shown is not None and versions(shown) == {version}, (
        f"15 s after the move {first}'s DM still shows version {versions(shown)}; the game is "
        f"at {version}"
    )
    assert f"({len(hand)} card" in shown.embeds[0].description
