"""A War of Suits on Discord: a private note about a secret that is no longer secret."""

from __future__ import annotations

from engine.cards import label
from tests.discord.driver import Table, message_text


async def test_last_battles_secret_choice_is_not_still_called_hidden(simcord_env) -> None:
    """Battle 1: Red chooses a card in secret; its DM notes "You chose X; it stays hidden
    until both sides have chosen." Both cards are then revealed and the battle is won.
    In battle 2, before Red has chosen anything, its DM still lists under "Only you can
    see:" that X "stays hidden" (X is on the table's "Last battle" line for everyone)."""
    table = await Table.start(simcord_env, "warofsuits", 2, seed=2)
    red, black = (await table.game()).players
    red_card = (await table.game()).view(red)["hand"][0]
    black_card = (await table.game()).view(black)["hand"][0]
    await table.act(red, f"choose:{red_card}", via="dm")
    await table.act(black, f"choose:{black_card}", via="dm")
    game = await table.game()
    while game.view()["phase"] != "choose":
        player = game.actors()[0]
        legal = [a.id for a in game.legal_actions(player)]
        await table.act(player, "accept" if "accept" in legal else legal[-1])
        game = await table.game()
    assert game.view()["battle"] == 2 and red in game.actors()
    await table.env.settle()
    public = message_text(table.table_message())
    assert label(red_card) in public  # everybody has seen it
    dm = message_text(table.dm_message(red))
    assert "stays hidden" not in dm and f"Battle 1: you chose {label(red_card)} face down" in dm, dm
