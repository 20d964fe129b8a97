"""UNO's new turns for the clocks: counted by cards played (``cards_played``), not by the
discard pile, which a reshuffle shrinks; kept through a phase where several discard."""

from __future__ import annotations

import discord

from tests.discord.driver import Table, set_uno

TIMER = 30


def _now() -> float:
    return discord.utils.utcnow().timestamp()


async def _moves_after(table: Table, version: int) -> list[tuple[int, str, str]]:
    moves = await table.bot.store.moves(table.game_id)
    return [(seq, str(u), a) for seq, u, a in moves if seq > version]


async def test_timed_out_draw_two_with_reshuffle_gives_no_time_for_the_new_turn(
    simcord_env,
) -> None:
    """Two-player UNO, 30 s timer, an empty draw pile. Ann's time runs out; the bot plays
    her Red Draw Two; Bea's draw reshuffles the pile, she is skipped, Ann's next turn begins.
    Before, the turn number (the discard pile's size) fell with the reshuffle, the new turn
    went unseen, and the bot played it at once. Now cards played are counted."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=TIMER)
    game = await table.game()
    ann, bea = game.players
    hands = [["RD2", "G1", "G2", "Y3", "B4", "B6", "G7"], ["R9", "B1", "B2", "B3", "B5", "Y6"]]
    await set_uno(table, hands, "R5", cur=1)
    await table.set_state(d="")  # nothing left to draw: Bea's two cards come from a reshuffle
    await table.act(bea, "play:R9", via="dm")
    assert (await table.game()).view()["current"] == ann
    before = (await table.session()).version
    await env.advance_time(TIMER + 1)  # ann is away: timed out once
    made = await _moves_after(table, before)
    assert made and made[0][1] == ann and made[0][2] == "play:RD2", made
    session = await table.session()
    assert len(made) == 1, (
        f"the bot also played ann's next turn at once, with no time for her: {made}; "
        f"log {session.public_log[-6:]}"
    )
    assert session.game.view()["current"] == ann  # Bea drew two, skipped: ann's new turn
    deadline = (await table.session()).row.clocks.get("turn", {}).get(ann)
    assert deadline is not None and deadline > _now() + TIMER - 5


async def test_timed_out_custom_rule_5_discard_leaves_no_time_for_the_turn(simcord_env) -> None:
    """Two-player UNO, 30 s timer, Wild Custom #5: Bea discards down to seven, "then takes
    her turn as usual". She times out in the discard; the bot discards for her. Before, the
    turn number was unknown during the discard and lost, so the bot also played her turn
    at once. Now the number from before is kept, and her turn has its full time."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=TIMER)
    game = await table.game()
    ann, bea = game.players
    hands = [
        ["WC5", "G1", "G2", "Y3", "B4", "B6", "G7"],
        ["R9", "B1", "B2", "B3", "B5", "Y6", "Y7", "G8", "G9"],
    ]
    await set_uno(table, hands, "R5", cur=0)
    await table.set_state(cr=[5])
    play = next(a.id for a in (await table.game()).legal_actions(ann) if "WC5" in a.id)
    await table.act(ann, play, via="dm")
    game = await table.game()
    assert game.view()["discarding"] == {bea: 2}, game.view()["discarding"]
    before = (await table.session()).version
    await env.advance_time(TIMER + 1)  # bea is away: timed out once, in the discard
    session = await table.session()
    made = await _moves_after(table, before)
    assert made and made[0][1] == bea and made[0][2].startswith("discard"), made
    assert len(made) == 1, (
        f"the bot also played bea's turn at once, with no time for her: {made}; "
        f"log {session.public_log[-4:]}"
    )
    assert session.game.view()["current"] == bea and session.game.view()["phase"] == "play"
    deadline = session.row.clocks.get("turn", {}).get(bea)
    assert deadline is not None and deadline > _now() + TIMER - 5, session.row.clocks
