"""DMs when Discord refuses them mid-game: old DM messages (30046) and their replacement, a
player blocking the bot while the channel post that tells them so fails. Each failed before
its fix."""

from __future__ import annotations

from tests.discord.driver import Table, controls


def versions(message) -> set[int]:  # type: ignore[no-untyped-def]
    return {
        int(c.custom_id.split(":")[2]) for c in controls(message) if c.custom_id.startswith("g:")
    }


async def _move_by(table: Table, player: str) -> None:
    game = await table.game()
    legal = game.legal_actions(player)
    plays = [a.id for a in legal if a.id.startswith("play:")]
    await table.act(player, plays[0] if plays else legal[0].id, via="picker")


async def _dm_an_hour_old(env):  # type: ignore[no-untyped-def]
    """A 2-player UNO game an hour on: the DM of the player to move, whose hand their move
    (made on the table's picker) changes, can no longer be edited (Discord's 30046 for
    messages over an hour old)."""
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=0)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    other = mover  # the DM's owner
    dm = table.dm_message(other)
    assert dm is not None
    await env.advance_time(65 * 60)
    env.inject_error(
        "PATCH",
        f"/channels/{dm.channel.id}/messages/*",
        status=400,
        code=30046,
        message="Maximum number of edits to messages older than 1 hour reached. Try again later",
        times=None,
    )
    return table, mover, other, dm


async def test_a_dm_over_an_hour_old_is_never_updated_again(simcord_env) -> None:
    """A game longer than an hour: Discord refuses edits of the DM (30046, as it does the
    table's, which the presenter reposts). The DM is never reposted: the player's hand
    stays as it was for the rest of the game."""
    table, mover, other, dm = await _dm_an_hour_old(simcord_env)
    await _move_by(table, mover)
    await simcord_env.advance_time(600)
    await simcord_env.bot.presenter.idle()
    session = await table.session()
    newest = table.dm_message(other)
    assert newest is not None
    assert versions(newest) == {session.version}, (
        f"{other}'s DM shows version {versions(newest)}, game at {session.version} "
        f"({'same message' if newest.id == dm.id else 'a new one'})"
    )


async def test_blocked_dms_notice_lost_when_its_post_fails_once(simcord_env) -> None:
    """A player blocks the bot mid-game (50007 on their DM) while one channel post fails
    (a 500): the seat is marked DMs-closed first, the notice telling them to use "My hand"
    fails, and the retry skips the seat: the player is never told why their DM stopped.
    (Their move on the table's picker changes their hand: their DM is drawn again.)"""
    table = await Table.start(simcord_env, "uno", 2, seed=7, turn_timer=0)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    other = mover
    dm = table.dm_message(other)
    assert dm is not None
    for method in ("PATCH", "POST"):
        simcord_env.inject_error(
            method,
            f"/channels/{dm.channel.id}/messages*",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )
    simcord_env.inject_error("POST", f"/channels/{table.channel.id}/messages", status=500, times=1)
    await _move_by(table, mover)
    await simcord_env.advance_time(600)
    await simcord_env.bot.presenter.idle()
    seat = (await table.session()).seat(int(other))
    assert seat is not None and seat.dm_closed
    notices = [
        m for m in table.public_messages() if "can't send you direct messages" in (m.content or "")
    ]
    assert len(notices) == 1, f"{len(notices)} notices posted"


async def test_a_replaced_dm_is_deleted_even_when_discord_fails_once(simcord_env) -> None:
    """A DM over an hour old is replaced by a fresh one, and the old one deleted. That
    delete meets a 500 once. Before, it was never tried again: the player's DM showed two
    hands, the old one with buttons that only answer "out of date". Now the delete is
    tried again later, as the presenter's other work is."""
    table, mover, other, dm = await _dm_an_hour_old(simcord_env)
    simcord_env.inject_error(
        "DELETE", f"/channels/{dm.channel.id}/messages/{dm.id}", status=500, times=1
    )
    await _move_by(table, mover)
    await simcord_env.advance_time(120)
    await simcord_env.bot.presenter.idle()
    history = table.members[other].user.dm_channel.history()
    hands = [m for m in history if m.content and f"game #{table.game_id}" in m.content]
    assert [m.id for m in hands] != [] and dm.id not in [m.id for m in hands], (
        f"the old DM {dm.id} still stands beside {[m.id for m in hands]}"
    )
