"""The bot's channel posts while Discord refuses them for minutes: a post is owed, not dropped.

A UNO round's summary stands for every post (reminders and notices go the same way).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table, set_uno

BAN = 180.0  # seconds Discord refuses the channel's new messages


async def _round_ends_while_posts_fail(env: Any, status: int, message: str) -> Table:
    """A UNO match (to 500) whose first round ends while Discord answers every new message
    in the channel with ``status``."""
    table = await Table.start(env, "uno", 2, seed=5, target=500)
    ann = next(iter(table.members))
    await set_uno(table, [["R5"], ["G1", "Y5", "G2"]], "R3")
    env.inject_error(
        "POST",
        f"/channels/{table.channel.id}/messages",
        status=status,
        message=message,
        times=None,
    )
    await table.act(ann, "play:R5", via="dm")
    assert (await table.game()).view(None)["last_round"]["round"] == 1
    return table


@pytest.mark.parametrize(
    ("status", "message"), [(429, "You are being rate limited."), (503, "Service Unavailable")]
)
async def test_a_round_summary_refused_for_three_minutes_is_posted_after(
    simcord_env: Any, status: int, message: str
) -> None:
    """For three minutes Discord answers the channel's posts with 429 (a Cloudflare ban of
    the bot's address, which discord.py does not wait out, or a long global limit that
    outlasts its five tries) or 503 (an incident on message creation). Before, the presenter
    tried the round summary again 5, 10, 15... s apart, six times (105 s in all), then
    dropped it: the players never learnt who went out, which cards scored, nor the scores.
    Now it is tried again minutes apart after the first few, for about an hour."""
    env = simcord_env
    table = await _round_ends_while_posts_fail(env, status, message)
    await env.advance_time(BAN)
    env.backend.faults.clear()  # Discord is back
    await env.advance_time(600)
    summaries = [m for m in table.public_messages() if "**Round 1**" in (m.content or "")]
    assert summaries, f"the round summary was dropped after 105 s of {status}s, never posted"


async def test_two_rounds_ending_during_a_429_ban_get_both_summaries(simcord_env: Any) -> None:
    """Round 1 ends during a three-minute 429 ban (its summary is owed), then round 2 ends
    too within the ban. Before, only round 2's summary was posted when the ban was over:
    the second failed pass joined the retry already waiting, its job taken for the same one
    (the same bound method), and the job drew its text from the game as it was when it ran.
    Now each round's summary is written when the round ends, and both are posted."""
    env = simcord_env
    table = await _round_ends_while_posts_fail(env, 429, "You are being rate limited.")
    ann = next(iter(table.members))
    await env.advance_time(30)
    await set_uno(table, [["B7"], ["G1", "Y5", "G2"]], "B3")
    await table.act(ann, "play:B7", via="dm")
    view = (await table.game()).view(None)
    assert view["last_round"]["round"] == 2 and not view.get("finished")
    await env.advance_time(BAN)
    env.backend.faults.clear()  # the ban is over
    await env.advance_time(600)
    texts = [m.content or "" for m in table.public_messages()]
    assert [t for t in texts if "**Round 2**" in t], texts
    assert [t for t in texts if "**Round 1**" in t], "round 1's summary was never posted"
