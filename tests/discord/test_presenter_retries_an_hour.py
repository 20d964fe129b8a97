"""The presenter's retries: a post is tried for an hour after it first failed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table, set_uno

# The presenter's retries do not depend on the database (as test_presenter_retries_merged).
pytestmark = [
    pytest.mark.parametrize("database", ["sqlite"], indirect=True),
    pytest.mark.simcord(settle_timeout=1.0),
]


def posts_of(env: Any, text: str) -> list[Any]:
    return [
        e
        for e in env.backend.http_requests
        if e.method == "POST"
        and isinstance(e.json, dict)
        and text in str(e.json.get("content") or "")
    ]


async def test_a_refused_notice_keeps_its_hour_when_a_later_one_fails_too(
    simcord_env: Any,
) -> None:
    """Discord refuses the game channel's new messages (429s, a ban of the bot's address)
    for 25 minutes. A notice is refused at minute 0, another at minute 10. The
    presenter promises a refused post is tried 1, 2, 4... minutes apart for about an hour
    ("a lock lifted within the hour loses none"): the first notice's own schedule would try
    it again at minutes 1, 3, 7, 15, 31 and 63. But each job counts *passes*, and a merged
    retry runs at the soonest job's time: the second notice (1, 2, 4 minutes) drags the
    first one along, one try per pass, so the first notice used up its six tries by about
    minute 17 and is dropped (the first turn reminder likewise). When Discord accepts posts
    again at minute 25, only the second notice is posted; the players never see the
    first. That was before (each post counted its tries, and rode along with newer
    failures); now a post is tried for an hour after it first failed, however often it is
    tried meanwhile."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5)
    await env.settle()
    env.inject_error(
        "POST",
        f"/channels/{table.channel.id}/messages",
        status=429,
        message="You are being rate limited.",
        times=None,
    )
    presenter = table.bot.presenter
    presenter.announce(await table.session(), "first notice of the ban")
    await env.advance_time(600)
    presenter.announce(await table.session(), "second notice of the ban")
    await env.advance_time(900)
    env.backend.faults.clear()  # the ban is over after 25 minutes
    await env.advance_time(3600)
    texts = [m.content or "" for m in table.public_messages()]
    assert [t for t in texts if "second notice" in t], texts
    tries = len(posts_of(env, "first notice"))
    assert [t for t in texts if "first notice" in t], (
        f"the first notice was tried {tries} times within 25 minutes, then dropped: never "
        "posted although the ban ended within its hour"
    )


async def test_a_round_summary_outlives_a_five_minute_incident_while_play_goes_on(
    simcord_env: Any,
) -> None:
    """A UNO match (to 500): round 1 ends during a five-minute Discord incident on the game
    channel (every post and edit there answered 503), and the players go on with round 2
    from their DMs, a move every 20 s. The round summary is owed for about an hour (5, 10,
    15 s, then 1, 2, 4... minutes). But every move's pass fails on the table too, and the
    table's newest failure gets a fresh schedule (5 s): the merged retry runs every few
    seconds and each pass uses up one of the summary's nine tries, so it is dropped within
    about a minute. When the channel works again the table catches up, but the players
    never learn who went out in round 1, which cards scored, nor the scores. (Before this
    commit the summary was retried for as long as other failures came.) Now it is tried for
    an hour after it first failed, however fast the table's retries come."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=5, target=500)
    ann = next(iter(table.members))
    await set_uno(table, [["R5"], ["G1", "Y5", "G2"]], "R3")
    env.inject_error(
        "*",
        f"/channels/{table.channel.id}/messages*",
        status=503,
        message="Service Unavailable",
        times=None,
    )
    await table.act(ann, "play:R5", via="dm")
    assert (await table.game()).view(None)["last_round"]["round"] == 1
    for _ in range(12):  # round 2 goes on from the DMs for four minutes
        await env.advance_time(20)
        game = await table.game()
        if game.view(None).get("finished"):
            break
        await table.some_move(via="dm")
    await env.advance_time(60)
    env.backend.faults.clear()  # Discord is back after five minutes
    await env.advance_time(1800)
    summaries = [m for m in table.public_messages() if "**Round 1**" in (m.content or "")]
    tries = len(posts_of(env, "**Round 1**"))
    assert summaries, (
        f"the round summary was tried {tries} times in the incident's first minutes, then "
        "dropped: never posted"
    )
