"""A crash between ending a game and redrawing it: the restarted bot shows the game over.

``/endgame`` stores the end, answers, then the presenter redraws the table (buttons gone) and
every DM. A process that died in between left a table and DMs with live buttons for a game
that is over, and the redraw at start looked only at running games.
"""

from __future__ import annotations

import asyncio

from cogs.clock import now
from tests.discord.driver import Table, controls
from tests.discord.test_crash_redraw import never_drawn
from tests.discord.test_uno_discord import past_first_colour


async def test_a_game_ended_but_never_redrawn_loses_its_buttons_after_a_restart(
    simcord_env, make_bot, database
) -> None:
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    await past_first_colour(table)
    host = next(iter(table.members.values()))
    assert [c for c in controls(table.table_message()) if not c.disabled]
    never_drawn(table)
    await host.slash(table.channel, "endgame")
    assert (await table.session()).row.status == "cancelled"
    assert [c for c in controls(table.table_message()) if not c.disabled], "not redrawn yet"

    await simcord_env.restart_bot(make_bot())
    if database.startswith("postgresql://"):
        # Sharing a database, the clock pass redraws what a dead process left undrawn.
        await simcord_env.bot.get_cog("Timers").redraw_orphans(now() + 3600)
    await simcord_env.settle()
    await asyncio.wait_for(simcord_env.bot.presenter.idle(), 10)

    live = [c.label for c in controls(table.table_message()) if not c.disabled]
    assert live == [], f"the table of an ended game still offers {live}"
    for player in table.members:
        dm = table.dm_message(player)
        offered = [c.label for c in controls(dm) if not c.disabled] if dm else []
        assert offered == [], f"{player}'s DM of an ended game still offers {offered}"
