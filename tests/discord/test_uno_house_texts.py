"""UNO house rules on Discord (jump-in, seven-zero, stacking): what players are told."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table, controls, message_text, set_uno, target_of

# What players read: the same on either database, so drawn on one.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def button(message, action_id: str):  # type: ignore[no-untyped-def]
    return next(c for c in controls(message) if target_of(c.custom_id) == action_id)


async def ann_plays_her_next_to_last_card(env: Any) -> tuple[Table, str, str, Any]:
    """Jump-in on: ann plays a Red 5, her next-to-last card; cy holds the other Red 5. The
    table, ann, cy and the table message as it is then (its UNO! button live)."""
    table = await Table.start(env, "uno", 3, seed=1, jump_in=True)
    ann, _bea, cy = table.members
    await set_uno(table, [["R5", "B1"], ["G1", "Y5", "Y6"], ["R5", "G2", "G4"]], "R3", cur=0)
    await table.act(ann, "play:R5", via="dm")
    await table.bot.presenter.idle()
    return table, ann, cy, table.table_message()


async def test_uno_pressed_just_after_a_jump_in_is_told_it_is_too_late(
    simcord_env, monkeypatch
) -> None:
    """Jump-in is on. ann plays her next-to-last card, a Red 5, and reaches for the table's
    **UNO!** button; in the same moment cy jumps in with the other Red 5, which closes the
    call window (docs/rules/uno.md: "the chance to call or catch ends at the next move ...
    a jump-in too"). ann's press lands a moment later. Before, she was told privately "You
    call UNO when you play your next-to-last card (there's a button for it)": exactly what
    she did. Now she is told it is too late, as a late catch is."""
    table, ann, cy, message = await ann_plays_her_next_to_last_card(simcord_env)
    uno = button(message, "uno")  # the button ann is about to press

    async def late(session):  # type: ignore[no-untyped-def]
        return True  # the table's edit is still on its way when ann presses

    monkeypatch.setattr(table.bot.presenter, "refresh_table", late)
    await table.act(cy, "play:R5", via="dm")  # cy's jump-in lands first
    view = (await table.game()).view()
    assert view["uno_window"] is None and view["hand_sizes"][ann] == 1
    said = await table.members[ann].click(message, custom_id=uno.custom_id)
    assert said.ephemeral
    text = said.response.content
    assert "when you play your next-to-last card" not in text, text


async def test_face_up_hands_end_when_the_custom_card_player_jumps_in(simcord_env) -> None:
    """Jump-in and Wild Custom #7 ("Everyone must play with their hand face up until your
    next turn"). ann plays the custom card, bea plays a Red 5, and ann jumps in with the
    other Red 5: she takes her next turn out of order ("play continues from you",
    docs/rules/uno.md). Before, the table kept showing every hand face up ("Face up (bea):
    ..."), through bea's and cy's turns, until play came round to ann in order again. Now
    the hands go face down when ann takes her next turn, jump-in or not."""
    table = await Table.start(
        simcord_env, "uno", 3, seed=1, jump_in=True, custom_wilds=1, custom_rules="7"
    )
    ann, bea, _cy = table.members
    await set_uno(
        table,
        [["WC7", "R5", "B1", "B2"], ["R5", "Y5", "Y6", "G7"], ["G1", "G2", "G4", "Y8"]],
        "R3",
        cur=0,
    )
    await table.act(ann, "play:WC7:R", via="dm")
    assert (await table.game()).view()["face_up_until"] == ann
    await table.act(bea, "play:R5", via="dm")
    await table.act(ann, "play:R5", via="dm")  # ann jumps in: her next turn
    await table.bot.presenter.idle()
    game = await table.game()
    assert game.view()["current"] == bea  # play continues from ann
    text = message_text(table.table_message())
    assert "Face up" not in text, f"hands still face up after ann's own turn:\n{text}"


async def test_a_second_uno_press_after_a_call_in_time_is_not_told_too_late(
    simcord_env, monkeypatch
) -> None:
    """Jump-in is on. ann plays her next-to-last card and calls UNO from her hand: the log
    says "ann calls UNO!". The table (its edit still on its way) shows UNO! too, and she
    presses it as well; cy's jump-in lands between her call and that press. That press is
    answered. Before (this session's first wording), "Too late to call UNO: play moved on
    before your call": untrue, she called in time (the view forgets ``uno_called`` at the
    next move). Now the answer makes no claim about her call: play has moved on."""
    table, ann, cy, message = await ann_plays_her_next_to_last_card(simcord_env)
    uno = button(message, "uno")  # the table's UNO! button

    async def late(session):  # type: ignore[no-untyped-def]
        return True  # the table's edit is still on its way

    monkeypatch.setattr(table.bot.presenter, "refresh_table", late)
    await table.act(ann, "uno", via="dm")  # ann calls UNO from her hand, in time
    game = await table.game()
    assert game.view()["uno_called"] == [ann], "ann's call was not taken: the test is wrong"
    await table.act(cy, "play:R5", via="dm")  # cy's jump-in lands before her press
    said = await table.members[ann].click(message, custom_id=uno.custom_id)
    assert said.ephemeral and said.response is not None
    text = said.response.content
    assert "Too late" not in text, f"ann called UNO in time, yet is told: {text}"


def test_hands_go_face_down_after_the_jump_in_that_ends_them_in_the_log(database) -> None:
    """Jump-in and Wild Custom #7: ann plays the custom card (hands face up until her next
    turn), bea plays a Red 5, ann jumps in with the other Red 5. The log (the table's Recent
    lines) reads "Hands go face down again." and only then "ann jumps in with Red 5.": the
    hands seemed to go face down before, and apart from, the move that ended them (this
    session's first version). Now, as everywhere else, the line follows the move: "ann
    jumps in with Red 5." first, then "Hands go face down again."."""
    import json

    import engine

    game = engine.new_game(
        "uno",
        ["ann", "bea", "cy"],
        seed=1,
        options={"jump_in": True, "custom_wilds": 1, "custom_rules": "7"},
    )
    data = game.to_dict()
    data["state"].update(
        h=["WC7 R5 B1 B2", "R5 Y5 Y6 G7", "G1 G2 G4 Y8"],
        x="R3",
        c="R",
        t=0,
        ph="play",
        d=" ".join(["Y9"] * 20),
    )
    game = engine.load(json.loads(json.dumps(data)))
    game.apply("ann", "play:WC7:R")
    game.apply("bea", "play:R5")
    lines = [e.public for e in game.apply("ann", "play:R5")]
    assert "Hands go face down again." in lines, f"the test tests nothing: {lines}"
    assert lines.index("Hands go face down again.") > lines.index("ann jumps in with Red 5."), (
        f"the face-down line comes before the jump-in that caused it: {lines}"
    )
