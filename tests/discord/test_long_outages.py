"""Discord failing for longer than the presenter's retries (MAX_RETRIES = 6, 5..30 s apart,
105 s in all): before, what was refused was never shown once Discord was back. Now a lone bot
looks again every CATCH_UP_ALONE seconds (``Endings._catching_up``).

SQLite only: sharing a database, the orphan redraw (``Timers.redraw_orphans``) does this after
ten clock polls, which these tests slow to five minutes (tests/discord/conftest.py); it is
tested in tests/discord/test_crash_redraw.py.

A Discord incident (5xx for a few minutes) or a moderator taking the bot's Send/View permission
for a few minutes are ordinary; each test below ends with Discord healthy again and asks only
that what was stored is shown at last.
"""

from __future__ import annotations

import random

import pytest

from cogs.presenter import MAX_RETRIES, RETRY_AFTER
from tests.discord.driver import Table, controls, play_to_last_move, start_with_posts_failing

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

OUTAGE = 180.0  # seconds: longer than all the retries together (105 s)
GIVEN_UP = sum(RETRY_AFTER * n for n in range(1, MAX_RETRIES + 1))


async def test_a_table_edit_refused_for_three_minutes_is_never_redrawn(simcord_env) -> None:
    """5xx on every table edit for 3 minutes; then Discord is back, and the table goes on
    showing the turn before the move for good (no timer: nothing else redraws it)."""
    assert GIVEN_UP < OUTAGE
    table = await Table.start(simcord_env, "uno", 2, seed=7, turn_timer=0)
    channel = table.channel
    before = table.table_message()
    simcord_env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=503, times=None)
    await table.some_move()
    await simcord_env.advance_time(OUTAGE)
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(600)
    await simcord_env.bot.presenter.idle()
    session = await table.session()
    shown = table.table_message()
    # The version is in every table button's custom_id: g:<game>:<version>:<action>.
    versions = {
        int(c.custom_id.split(":")[2]) for c in controls(shown) if c.custom_id.startswith("g:")
    }
    assert versions == {session.version}, (
        f"table still shows version {versions} (game at {session.version}); "
        f"table message {'unchanged' if shown.id == before.id else 'reposted'}"
    )


async def test_a_lost_send_permission_given_back_leaves_the_table_stale(simcord_env) -> None:
    """A moderator removes the bot's access to the channel (403 Missing Access) for three
    minutes while players go on in their DMs; access comes back, the table never does."""
    table = await Table.start(simcord_env, "uno", 2, seed=7, turn_timer=0)
    channel = table.channel
    for method in ("PATCH", "POST"):
        simcord_env.inject_error(
            method,
            f"/channels/{channel.id}/messages*",
            status=403,
            code=50001,
            message="Missing Access",
            times=None,
        )
    await table.some_move()
    await simcord_env.advance_time(OUTAGE)
    simcord_env.backend.faults.clear()  # permission given back
    await simcord_env.advance_time(600)
    await simcord_env.bot.presenter.idle()
    session = await table.session()
    versions = {
        int(c.custom_id.split(":")[2])
        for c in controls(table.table_message())
        if c.custom_id.startswith("g:")
    }
    assert versions == {session.version}, f"table shows {versions}, game at {session.version}"


async def test_a_start_during_a_three_minute_outage_never_gets_a_table(simcord_env) -> None:
    """Start pressed while posts fail: after the retries the game runs with no table and no
    DM, and nothing posts them once Discord is back (the lobby says "the table is below")."""
    table, lobby, _ = await start_with_posts_failing(simcord_env)
    channel = table.channel
    await simcord_env.advance_time(OUTAGE)
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(600)
    await simcord_env.bot.presenter.idle()
    assert (await table.session()).row.status == "active"
    tables = [m for m in channel.history() if m.id != lobby.id and controls(m)]
    dms = [table.dm_message(p) for p in table.members]
    said = lobby.embeds[0].description if lobby.embeds else lobby.content
    assert tables, f"no table posted; DMs: {dms}; lobby says: {said}"


async def test_the_result_refused_for_three_minutes_is_never_posted(simcord_env) -> None:
    """The last move lands while channel posts fail: the end post ("wins game #1 ... Final
    scores") is dropped after the retries and never posted once Discord is back."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    channel = table.channel
    rng = random.Random(1)
    # Play to one move before the end, then fail the posts and play the last move.
    player, action_id = await play_to_last_move(table, rng, via="picker")
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", status=502, times=None)
    await table.act(player, action_id, via="picker")
    assert (await table.game()).finished
    await simcord_env.advance_time(OUTAGE)
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(600)
    await simcord_env.bot.presenter.idle()
    ends = [m for m in table.public_messages() if "Final scores" in (m.content or "")]
    assert len(ends) == 1, "the result was never posted"
