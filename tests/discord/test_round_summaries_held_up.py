"""Drawing under a misbehaving Discord: round summaries owed while posts are refused."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import Table, set_uno

BAN = 180.0  # seconds Discord answers the channel's posts with 429


async def test_two_rounds_ending_during_a_429_ban_get_both_summaries(simcord_env: Any) -> None:
    """Discord answers the channel's posts with 429 for three minutes (a ban of the bot's
    address). Round 1 of a UNO match ends (its summary is owed: tried again a minute later),
    then round 2 ends too within the ban. When the ban is over, only one summary is posted,
    and it is round 2's: round 1's (who went out, the cards that scored) is lost for good.
    The presenter merges the second failed pass into the retry already waiting and drops
    its job as a duplicate (``_wait_retry``: the same bound method ``post_round_summary``),
    and the job draws its text from the game as it is when it runs, not as the round ended.
    That was before; now each round's summary is written when the round ends and posted
    once Discord takes posts again."""
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
    view = (await table.game()).view(None)
    assert view["last_round"]["round"] == 1
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
    assert [t for t in texts if "**Round 1**" in t], (
        "round 1's summary was never posted (only round 2's)"
    )


async def test_a_round_summary_during_a_three_minute_5xx_outage_is_posted_after(
    simcord_env: Any,
) -> None:
    """A UNO round ends while Discord fails the channel's new messages with 503 for three
    minutes (an incident on message creation). The presenter tries the round summary again
    5, 10, 15... s apart, six times (105 s in all), then drops it for good: the players never
    learn who went out, which cards scored, nor the scores. The same outage answered 429 is
    tried for about an hour (``REFUSED_RETRY_AFTER``, test_posts_rate_limited.py), and the
    table, DMs and end post are caught up later; before, a summary owed after a 5xx was
    dropped after 105 s. Now it is tried minutes apart for about an hour."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5, target=500)
    ann = next(iter(table.members))
    await set_uno(table, [["R5"], ["G1", "Y5", "G2"]], "R3")
    env.inject_error(
        "POST",
        f"/channels/{table.channel.id}/messages",
        status=503,
        message="Service Unavailable",
        times=None,
    )
    await table.act(ann, "play:R5", via="dm")
    assert (await table.game()).view(None).get("last_round")
    await env.advance_time(BAN)
    env.backend.faults.clear()  # Discord is back
    await env.advance_time(600)
    summaries = [m for m in table.public_messages() if "**Round 1**" in (m.content or "")]
    assert summaries, "the round summary was dropped after 105 s of 5xx, never posted"
