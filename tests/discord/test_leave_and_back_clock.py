"""Leaving and coming back buys neither a fresh turn nor a clean record of timeouts."""

from __future__ import annotations

from tests.discord.driver import Table

TIMER = 30


async def test_leave_and_back_within_the_bot_pause_restarts_the_turn_clock(
    simcord_env, make_bot
) -> None:
    """UNO, 30 s turn timer, bots pause 10 s (the default 2 s leaves the same gap, shorter).
    With 15 s of her turn left, Ann types /leave, confirms, and /back a second later, before
    the bot in her seat moved. Before, her turn clock started over in full: repeated, one
    member kept the table waiting for ever. Now she gets back what was left of her turn."""
    env = simcord_env
    await env.restart_bot(make_bot(bot_pause=10))
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=TIMER)
    session = await table.session()
    player = session.hosted.awaited(session.game)[0]
    member = table.members[player]
    deadline = session.row.clocks["turn"][player]
    before = session.version
    await env.advance_time(TIMER - 15)  # 15 s left (the simulator runs what is due in 5 s)
    ask = await member.slash(table.channel, "leave")
    await member.click(ask.response, label="Leave the game")
    await env.advance_time(1)
    back = await member.slash(table.channel, "back")
    assert back.ephemeral and "Welcome back" in back.response.content
    session = await table.session()
    assert session.version == before  # the bot did not move in her place: still her turn
    given = session.row.clocks["turn"][player]
    assert given <= deadline + 1, (
        f"her turn clock was restarted: {given - deadline:.0f} s added to her turn"
    )


async def test_leave_and_back_keeps_the_strikes(simcord_env) -> None:
    """Ann runs out of time once (strike 1), then leaves and comes back. Before, /back wiped
    her strikes: leaving and coming back cleared a record of timeouts. Now they stay."""
    table = await Table.start(simcord_env, "uno", 2, seed=7, turn_timer=TIMER)
    session = await table.session()
    player = session.hosted.awaited(session.game)[0]
    member = table.members[player]
    await simcord_env.advance_time(TIMER + 1)
    assert (await table.session()).seat(int(player)).strikes == 1  # type: ignore[union-attr]
    ask = await member.slash(table.channel, "leave")
    await member.click(ask.response, label="Leave the game")
    back = await member.slash(table.channel, "back")
    assert back.ephemeral and "Welcome back" in back.response.content
    assert (await table.session()).seat(int(player)).strikes == 1  # type: ignore[union-attr]
