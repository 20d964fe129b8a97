"""The end post's forfeit line must say what happened to the seat that won."""

from __future__ import annotations

from tests.discord.driver import Table

TIMER = 30


async def test_forfeit_line_does_not_say_a_timed_out_member_left(simcord_env) -> None:
    """ann never leaves: she stops playing; after three timed-out turns a bot plays her
    seat, and that bot wins. Before, the end post said "🏳️ bea wins by forfeit in the
    stats: a player left the game.", untrue: nobody left. Now it gives the reason."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1, turn_timer=TIMER)
    ann, bea = table.members
    for _ in range(100):
        game = await table.game()
        if game.finished:
            break
        if bea in game.actors() and game.legal_actions(bea):
            await table.act(bea, game.legal_actions(bea)[-1].id, via="dm")
        else:
            await simcord_env.advance_time(TIMER + 1)
    await simcord_env.bot.presenter.idle()
    game = await table.game()
    assert game.finished and game.winners == [ann]  # the bot playing ann's seat won
    seat = (await table.session()).seat(int(ann))
    assert seat is not None and seat.away == "timeout"
    end = next(m.content for m in table.public_messages() if "Final scores" in (m.content or ""))
    assert "wins by forfeit" in end, end
    assert end.splitlines()[-2].endswith(
        "a player was away and a bot played their seat to the end."
    ), end
