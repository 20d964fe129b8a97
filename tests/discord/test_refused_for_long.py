"""A running game whose channel Discord keeps refusing (moved where the bot lost View Channel:
403 50001 on every table edit, post and reminder), its players going on from their DMs.

Before, the presenter retried (``MAX_RETRIES``) and the catch-up started that whole run again
every two minutes alone on the database (``Endings.redraw_unshown``), every clock poll (two
seconds) sharing one (``Timers.redraw_orphans``), for as long as the game stayed open: a
stream of refusals, which count towards Discord's invalid-request limit (10,000 per ten
minutes, then every call of the bot is refused for an hour). Now each look comes twice as late
as the one before and is tried once; access given back is still caught
(tests/discord/test_long_outages.py)."""

from __future__ import annotations

import discord
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from tests.discord.driver import Table


async def quiet(env, minutes: int) -> None:
    for _ in range(minutes):
        await env.advance_time(60)


async def test_a_channel_hidden_from_the_bot_is_not_hammered_for_ever(
    simcord_env, make_bot, database
) -> None:
    env = simcord_env
    if database.startswith("postgresql://"):
        # Sharing a database, the orphan redraw looks every clock poll: thirty seconds here
        # (the tests' default, 300 s, slows it right down).
        await env.restart_bot(make_bot(clock_poll=30.0))
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    channel_id = table.channel.id
    # The channel moves into a category the bot may not see (its overwrites synced).
    env.backend.set_overwrite(
        channel_id,
        Overwrite(
            target_id=env.backend.bot_user.id,
            type=OverwriteType.MEMBER,
            deny=discord.Permissions(view_channel=True).value,
        ),
    )
    await env.settle()
    await table.some_move(via="dm")  # the DMs still work
    await quiet(env, 15)  # retries, a reminder, looks now and then
    since = len(env.http_requests)
    await quiet(env, 10)  # ten more minutes in which nothing changes
    refused = [r for r in env.http_requests[since:] if f"/channels/{channel_id}/" in r.path]
    assert (await table.session()).row.status == "active"
    assert len(refused) <= 3, (
        f"{len(refused)} calls to the channel the bot cannot see in ten quiet minutes, a "
        f"quarter of an hour after it was hidden (every one refused with 403)"
    )
