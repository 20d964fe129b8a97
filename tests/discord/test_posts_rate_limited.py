"""Rate limits on the bot's channel posts: a post answered 429 is owed, not dropped."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, set_uno

BAN = 180.0  # seconds Discord answers the channel's posts with 429


async def test_a_round_summary_answered_429_for_three_minutes_is_posted_after(
    simcord_env: Any,
) -> None:
    """A UNO round ends while Discord answers the channel's posts with 429 (a Cloudflare
    ban of the bot's address, which discord.py does not wait out, or a long global limit
    that outlasts its five tries), for three minutes. Before, the presenter tried the round
    summary again 5, 10, 15... s apart, six times (105 s in all), then dropped it: the
    players never learnt who went out, which cards scored, nor the scores. Now a 429, which
    only says "later", is tried for about an hour, as a 403 is (``REFUSED_RETRY_AFTER``)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5, target=500)
    ann = next(iter(table.members))
    await set_uno(table, [["R5"], ["G1", "Y5", "G2"]], "R3")
    env.inject_error(
        "POST",
        f"/channels/{table.channel.id}/messages",
        status=429,
        message="You are being rate limited.",
        times=None,
    )
    await table.act(ann, "play:R5", via="dm")
    session = await table.session()
    assert session.game is not None and session.game.view(None).get("last_round")
    await env.advance_time(BAN)
    env.backend.faults.clear()  # the ban is over
    await env.advance_time(600)
    summaries = [m for m in table.public_messages() if "Round 1" in (m.content or "")]
    assert summaries, "the round summary was dropped after 105 s of 429s, never posted"
