"""Bots and UNO jump-ins: optional, and taken only when worth it."""

from __future__ import annotations

from tests.discord.driver import Table, set_uno


async def test_bot_does_not_jump_in_to_swap_its_last_two_cards_for_a_big_hand(
    simcord_env,
) -> None:
    """Seven-zero and jump-in are on. bea plays a red 7; the bot holds the other red 7 and
    one more card. Before, it jumped in at once and swapped its two cards for a nine-card
    hand (bots moved whenever they had any legal move). Now a bot makes an out-of-turn move
    only if worth it (``engine.bots.optional_moves``): it lets this one pass."""
    table = await Table.start(simcord_env, "uno", 2, bots=1, seed=3, seven_zero=True, jump_in=True)
    ann, bea = table.members
    game = await table.game()
    bot = next(p for p in game.players if p not in (ann, bea))
    seat = {p: i for i, p in enumerate(game.players)}
    hands: list[list[str]] = [[] for _ in game.players]
    hands[seat[bea]] = ["R7", "Y1", "Y2", "Y3", "Y4", "Y6", "B1", "B2", "B3", "B4"]
    hands[seat[ann]] = ["G5", "G6", "G8", "G9", "B5", "B6", "B8", "B9", "Y8"]
    hands[seat[bot]] = ["R7", "G2"]
    await set_uno(table, hands, "R5", cur=seat[bea])
    await table.act(bea, f"play:R7:{ann}", via="dm")
    await simcord_env.advance_time(10)  # ann thinks it over; the bot may act meanwhile
    game = await table.game()
    moves = await table.bot.store.moves(table.game_id)
    sizes = game.view()["hand_sizes"]
    assert sizes[bot] == 2, (
        f"the bot jumped in ({moves[-1][2]}) and now holds {sizes[bot]} cards; hands {sizes}"
    )
