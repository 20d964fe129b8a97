"""A moderator changing the bot's permissions in a game's channel by hand, mid-game (a channel
"locked" for a raid takes Send Messages, a channel moved into a staff category loses View
Channel), while the players go on from their DMs: the table stays true where Discord allows,
the result is posted once the lock is lifted, and refusals are not hammered.

Discord (and simcord) let the bot edit its own messages without Send Messages; posting needs it.
"""

from __future__ import annotations

import random

import discord
import pytest
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from tests.discord.driver import Table, controls, play_to_last_move
from tests.discord.restarts import to_a_round_end
from tests.discord.test_dm_reopened import player_with_closed_dms
from tests.discord.test_restart_retries import way


def deny_bot(env, channel_id: int, **perms: bool) -> None:  # type: ignore[no-untyped-def]
    """A moderator denies the bot ``perms`` in the channel (a member overwrite)."""
    env.backend.set_overwrite(
        channel_id,
        Overwrite(
            target_id=env.backend.bot_user.id,
            type=OverwriteType.MEMBER,
            deny=discord.Permissions(**perms).value,
        ),
    )


def versions(message) -> set[int]:  # type: ignore[no-untyped-def]
    return {
        int(c.custom_id.split(":")[2]) for c in controls(message) if c.custom_id.startswith("g:")
    }


async def test_a_locked_channel_keeps_its_table_showing_moves_after_fifty_minutes(
    simcord_env,
) -> None:
    """A moderator takes the bot's Send Messages (the channel is locked); the players go on
    from their DMs and the table is edited in place. Before, once the table was 50 minutes
    old the presenter only tried to repost it (refused: 403) and never edited it again: the
    table showed a turn that was over. Now a refused repost falls back to an edit."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    await table.some_move(via="dm")
    for _ in range(10):  # 51 minutes of a slow game
        await env.advance_time(306)
    await table.some_move(via="dm")
    await env.advance_time(10)
    await env.bot.presenter.idle()
    session = await table.session()
    shown = table.table_message()
    assert versions(shown) == {session.version}, (
        f"the table (still editable, 51 minutes old) shows version {versions(shown)}, "
        f"the game is at {session.version}"
    )


async def test_the_result_is_posted_once_a_one_minute_lock_is_lifted(simcord_env) -> None:
    """The last move lands while a moderator has taken the bot's Send Messages for a minute.
    Before, the refused end post was given up at once, as if the channel were gone for good:
    the result and its Play again button were never posted. Now a refused end post is tried
    again further and further apart (``END_REFUSALS_KEPT``)."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=1)
    rng = random.Random(1)
    player, action_id = await play_to_last_move(table, rng, via="picker")
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    await table.act(player, action_id, via="picker")
    assert (await table.game()).finished
    await env.advance_time(60)
    env.backend.delete_overwrite(table.channel.id, env.backend.bot_user.id)  # lock lifted
    await env.settle()
    for _ in range(20):
        await env.advance_time(60)
    await env.bot.presenter.idle()
    ends = [m for m in table.public_messages() if "Final scores" in (m.content or "")]
    assert len(ends) == 1, "the result was never posted after a one-minute lock"


@pytest.mark.parametrize("taken", ["view_channel", "send_messages"])
async def test_a_move_in_a_channel_closed_to_the_bot_costs_no_run_of_refusals(
    simcord_env, taken: str
) -> None:
    """The bot loses View Channel (or Send Messages) in the game's channel; the players go on
    from their DMs, a move every two minutes. Before, every refused table edit and turn
    reminder was retried six times within 105 s, whatever the error: eight minutes, four
    moves, about 50 refused calls (each counting towards Discord's invalid-request ban). Now
    a 403 is not retried quickly: the table and DMs are looked at again by the catch-up,
    further and further apart, and a post (the turn reminder) a minute later, then two...:
    two to four calls a move here (the edit, the reminder, now and then a retry; sharing
    the database, the look for games left unshown too)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    deny_bot(env, table.channel.id, **{taken: True})
    await env.settle()
    await table.some_move(via="dm")
    for _ in range(5):
        await env.advance_time(60)
    since = len(env.http_requests)
    for _ in range(4):
        await table.some_move(via="dm")
        await env.advance_time(60)
        await env.advance_time(60)
    await env.bot.presenter.idle()
    at_channel = [
        r for r in env.http_requests[since:] if f"/channels/{table.channel.id}/" in r.path
    ]
    refused = [r for r in at_channel if taken == "view_channel" or r.method == "POST"]
    assert len(refused) <= 16, (
        f"{len(refused)} refused calls to the channel for 4 moves in 8 minutes "
        f"({taken} denied): {sorted({(r.method, r.path.count('/')) for r in refused})}"
    )


async def test_a_player_blocking_the_bot_in_a_locked_channel_costs_no_run_of_refusals(
    simcord_env,
) -> None:
    """A player blocks the bot (50007 on their DM) while the channel is locked for the bot.
    Before, the seat was marked DMs-closed only after the notice "I can't send you direct
    messages..." was posted, and that post was refused: the DM and the notice were tried
    again and again, some 45 refused calls in five minutes after one move. Now a refused
    notice is given up (nobody can be told in a locked channel) and the seat marked."""
    env = simcord_env
    table, _other, dm = await player_with_closed_dms(env)
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    since = len(env.http_requests)
    await table.some_move(via="picker")
    for _ in range(10):
        await env.advance_time(30)
    await env.bot.presenter.idle()
    calls = env.http_requests[since:]
    to_dm = [r for r in calls if f"/channels/{dm.channel.id}/" in r.path]
    posts = [r for r in calls if r.method == "POST" and f"/channels/{table.channel.id}/" in r.path]
    refused = len(to_dm) + len(posts)
    assert refused <= 10, (
        f"{refused} refused calls in 5 minutes after one move: {len(to_dm)} to the blocked DM, "
        f"{len(posts)} posts to the locked channel"
    )


async def test_a_locked_channel_is_not_sent_a_refused_repost_at_every_move(simcord_env) -> None:
    """A moderator locks the game's channel (the bot loses Send Messages) and the players go
    on from their DMs for a long while. Once the table is 50 minutes old, every move's redraw
    first tries to *repost* the table (``Presenter._draw_table``): Discord refuses it (403),
    then the old table is edited. The refused post is tried again at every single move, for
    as long as the lock lasts: five moves, five refused calls, each counting towards
    Discord's invalid-request ban (before). Now a refused repost is remembered for ten
    minutes, the moves meanwhile shown by editing the table."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    await table.some_move(via="dm")
    # The table was posted 51 minutes ago (a slow game): as if that time had passed.
    session = await table.session()
    posted = (session.row.table_posted_at or 0.0) - 51 * 60
    assert session.row.table_message_id is not None
    await env.bot.store.set_table_message(table.game_id, session.row.table_message_id, posted)
    session.row.table_posted_at = posted
    since = len(env.http_requests)
    for _ in range(5):  # then five moves within a minute
        await table.some_move(via="dm")
        await env.advance_time(10)
    await env.bot.presenter.idle()
    posts = [
        r
        for r in env.http_requests[since:]
        if r.method == "POST"
        and r.path.endswith(f"/channels/{table.channel.id}/messages")
        and (r.json or {}).get("embeds")  # the table (not a turn reminder)
    ]
    assert len(posts) <= 2, (
        f"{len(posts)} refused reposts of the table in a locked channel for 5 moves"
    )


async def test_a_round_summary_refused_during_a_one_minute_lock_is_still_posted(
    simcord_env,
) -> None:
    """UNO, a match to 500. A moderator locks the channel (the bot loses Send Messages) for a
    minute, and round 1 ends meanwhile (the players play from their DMs). The round summary
    (who won the round, the hands that scored, the scores) is refused with a 403. Before
    today's change the presenter tried it again 5, 10, ... 30 s later (105 s in all), so a
    one-minute lock lost nothing; now a 403 is never retried quickly (``Presenter._refused``)
    and, unlike the end post (``END_REFUSALS_KEPT``), nothing catches a summary up later: once
    the lock is lifted, the channel never learned who won round 1 (before). Now a refused
    post is tried again 1, 2, 4... minutes apart."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=3)
    player, action_id = await to_a_round_end(table, random.Random(4))
    renderer = (await table.session()).hosted.renderer
    deny_bot(env, table.channel.id, send_messages=True)
    await env.settle()
    await table.act(player, action_id, via=way(renderer, action_id))
    await env.bot.presenter.idle()
    assert not [m for m in table.public_messages() if "**Round 1**" in (m.content or "")]
    await env.advance_time(40)
    env.backend.delete_overwrite(table.channel.id, env.backend.bot_user.id)  # lock lifted
    await env.settle()
    for _ in range(10):
        await env.advance_time(60)
    await env.bot.presenter.idle()
    summaries = [m.content for m in table.public_messages() if "**Round 1**" in (m.content or "")]
    assert len(summaries) == 1, "round 1's summary was never posted after a short lock"
