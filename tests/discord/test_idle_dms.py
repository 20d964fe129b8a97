"""A game nobody touched for a while: which DMs the next move redraws. Before, the sweep that
drops a game idle for half an hour dropped what each DM showed with it, so the next move
redrew every DM; an hour on, Discord refuses those edits and each player got a new DM (a
notification) showing what they had. Now what was shown is kept (as hashes) across the
sweep, and the move redraws only the DMs it changed."""

from __future__ import annotations

from tests.discord.driver import Table

EDIT_LIMIT = dict(
    status=400,
    code=30046,
    message="Maximum number of edits to messages older than 1 hour reached. Try again later",
    times=None,
)


async def test_a_move_after_an_idle_hour_sends_fresh_dms_to_players_it_did_not_touch(
    simcord_env,
) -> None:
    """Four players, UNO, no turn timer; the first move comes 65 minutes after the deal. The
    game was dropped from memory after half an hour (``Sessions.sweep``), and with it what
    each DM shows (``Session.shown``, memory only), so the move redraws every player's DM,
    not only those it changed. The DMs are over an hour old and Discord refuses their edits
    (30046, modelled as in test_dm_refusals.py), so each is replaced by a fresh DM: players
    whose hand and turn the move did not touch get a new DM (a notification) showing exactly
    what they had. Without the half-hour sweep (a 20-minute pause) the same move touches only
    the DM that changed. Expected: a move redraws only the DMs it changed, idle or not
    (keep what was shown across the sweep, e.g. stored drawn revision per DM, or compare
    with the stored state)."""
    env = simcord_env
    table = await Table.start(env, "uno", 4, seed=7)
    await env.advance_time(65 * 60)
    before = {p: table.dm_message(p) for p in table.members}
    for dm in before.values():
        assert dm is not None
        env.inject_error("PATCH", f"/channels/{dm.channel.id}/messages/{dm.id}", **EDIT_LIMIT)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    legal = [a.id for a in game.legal_actions(mover)]
    plain = [a for a in legal if a.startswith("play:") and a.split(":")[1][1:].isdigit()]
    await table.act(mover, (plain or legal)[0], via="picker")
    await env.advance_time(2)
    await env.bot.presenter.idle()
    session = await table.session()
    game = await table.game()
    turn = set(game.actors())
    untouched = [p for p in table.members if p != mover and p not in turn]
    assert untouched, "someone the move did not concern"
    fresh = [session.names[p] for p in untouched if table.dm_message(p).id != before[p].id]
    assert not fresh, (
        f"{fresh} got a brand-new DM though the move changed nothing of theirs "
        f"(the move was {session.names[mover]}'s; now {sorted(session.names[p] for p in turn)})"
    )
