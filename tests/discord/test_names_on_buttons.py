"""Texts: names inside button labels and select options (where markdown never renders)."""

from __future__ import annotations

import pytest

from tests.discord.driver import controls, start_named

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_ihaveit_decline_button_shows_backslashes_in_a_name(simcord_env) -> None:
    """A player called "cool_guy" leads; the table's public Decline button then reads
    "Decline (let cool\\_guy take 1 card)": button labels are plain text, so the escaping
    backslash shows. It should read "Decline (let cool_guy take 1 card)"."""
    table = await start_named(simcord_env, "ihaveit", ["cool_guy", "bea", "cy"])
    game = await table.game()
    leader = game.actors()[0]
    await table.some_move(via="picker")
    game = await table.game()
    assert game.view()["in_play"]["player"] == leader
    labels = [c.label for c in controls(table.table_message())]
    decline = [label for label in labels if label.startswith("Decline")]
    assert decline, labels
    assert "\\" not in decline[0], decline[0]


async def test_uno_catch_button_shows_backslashes_in_a_name(simcord_env) -> None:
    """ "cool_guy" plays their next-to-last card without calling UNO: the public button to
    catch them reads "Catch cool\\_guy!" (the escaping backslash shows on a button). It
    should read "Catch cool_guy!"."""
    table = await start_named(simcord_env, "uno", ["cool_guy", "bea"])
    game = await table.game()
    ann, _bea = game.players
    await table.set_state(
        h=["R3 R4", "G1 G2 G3 G4 G5"],
        x="R7",
        c="R",
        t=0,
        ph="play",
    )
    await table.act(ann, "play:R3", via="picker")
    labels = [c.label for c in controls(table.table_message())]
    catch = [label for label in labels if label.startswith("Catch")]
    assert catch, labels
    assert catch[0] == "Catch cool_guy!", catch[0]
