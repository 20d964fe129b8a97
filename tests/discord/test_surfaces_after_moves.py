"""One player's journey across their surfaces (DM hand, "My hand", the table's picker, the
table), when the game moves on between opening one and clicking in it.

Each docstring tells what the player saw before the fix; the assertions are what holds now."""

from __future__ import annotations

from typing import Any

from cogs import ids
from cogs.presenter import Presenter
from tests.discord.driver import Table, controls, open_picker, set_uno, target_of


async def call_uno_then_play_red6(table: Table, ann: str, bea: str, picker: Any) -> None:
    """ann calls UNO (closing the catch window), then bea clicks her Red 6 in the picker she
    opened before: it must be played."""
    await table.act(ann, "uno", via="table")
    before = (await table.session()).version
    red6 = next(c for c in controls(picker) if target_of(c.custom_id) == "play:R6")
    result = await table.members[bea].click(picker, custom_id=red6.custom_id)
    said = result.response.content if result.response else ""
    moves = await table.bot.store.moves(table.game_id)
    applied = [action for seq, _, action in moves if seq == before + 1]
    assert applied == ["play:R6"], f"bea's still-legal card was refused: {said!r}"


async def test_uno_next_players_card_counts_after_the_last_player_called_uno(
    simcord_env,
) -> None:
    """ann plays her next-to-last card and presses UNO! a moment later (the usual order for a
    person). bea, whose turn it is, has already opened her picker and clicks her Red 6.

    What bea saw: "That button is from an earlier turn. Here is the game as it stands now."
    and her card was not played: untrue (the same turn, hers), and her move lost. The only
    change was the table's "Catch ann" button going away, which her picker never offered.
    Now moves that live on the table alone do not make private buttons stale."""
    table = await Table.start(simcord_env, "uno", 3, seed=1)
    ann, bea, _cy = table.members
    await set_uno(table, [["R4", "B1"], ["R6", "G2", "Y5"], ["R1", "Y2", "G4"]], "R1")
    await table.act(ann, "play:R4", via="dm")  # forgot UNO for a second
    picker = await open_picker(table, bea)
    offered = [c.custom_id for c in controls(picker)]
    assert not any("catch" in c for c in offered)  # the catch is only ever on the table
    await call_uno_then_play_red6(table, ann, bea, picker)


async def test_itemcollection_starter_told_why_she_can_no_longer_choose(
    simcord_env, monkeypatch
) -> None:
    """The starting player presses Ready in their DM, then (the table's edit still on its way,
    as with any busy channel) presses "Low card" on the table.

    What they saw, privately: "Only ann-games chooses High or Low this round.", said to
    ann-games herself. Now they are told the real reason: pressing Ready first gave up the
    choice (docs/rules/itemcollection.md)."""
    table = await Table.start(simcord_env, "itemcollection", 4, seed=2)
    game = await table.game()
    starter = game.view()["starting"]
    assert {a.id for a in game.legal_actions(starter)} >= {"high", "low", "ready"}
    table_id = table.table_message().id
    edit = Presenter.edit

    async def lagging(self: Presenter, channel_id: int, message_id: int, screen) -> None:
        if message_id != table_id:  # the table's redraw has not landed yet
            await edit(self, channel_id, message_id, screen)

    monkeypatch.setattr(Presenter, "edit", lagging)
    await table.act(starter, "ready", via="dm")
    message = table.table_message()
    low = next(c for c in controls(message) if target_of(c.custom_id) == "low")
    result = await table.members[starter].click(message, custom_id=low.custom_id)
    assert result.ephemeral
    said = result.response.content
    name = (await table.session()).names[starter]
    assert f"Only {name} chooses" not in said, said
    assert "gave up the choice" in said, said
    assert (await table.game()).view()["mode"] is None  # nothing changed, rightly


async def test_my_hand_keeps_its_leave_button_after_a_click_in_it(simcord_env) -> None:
    """What the player saw: **My hand** offered "Leave game", but once they clicked a card in
    it (the ephemeral redrawn), the button was gone, though the rules page says My hand offers
    it. Now every private hand screen keeps it (it asks before anyone leaves)."""
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    game = await table.game()
    player = next(p for p in game.actors() if game.legal_actions(p))
    member = table.members[player]
    hand = await member.click(table.table_message(), custom_id=ids.hand(table.game_id))
    assert "Leave game" in [c.label for c in controls(hand.response)]
    legal = game.legal_actions(player)
    action = next((a for a in legal if a.id.startswith("play:")), legal[0])
    button = next(c for c in controls(hand.response) if target_of(c.custom_id) == action.id)
    after = await member.click(hand.response, custom_id=button.custom_id)
    assert after.response is not None
    assert "Leave game" in [c.label for c in controls(after.response)], controls(after.response)
