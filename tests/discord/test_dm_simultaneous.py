"""DM hands in a phase where everyone acts at once (A War of Suits' secret choices, the Item
Collection Game's Ready): each DM says its owner's own part ("Your turn: choose a card in
secret") from the start, and is not edited as the others act; the table shows who is done.

Before, such a DM showed no prompt while others were still to act, and was edited to add one
the moment the others were done: one more call to Discord (issue #8's REST budget) that told
its owner only what the table already showed, and notified nobody."""

from __future__ import annotations

import pytest

from cogs import ids
from tests.discord.card_table import table_text
from tests.discord.driver import Table, controls, message_text, target_of
from tests.discord.restarts import graceful_restart
from tests.discord.test_dm_between_turns import dm_edits

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def _buttons_for(message: object, prefix: str) -> list[str]:
    found = [(c.custom_id, target_of(c.custom_id) or "") for c in controls(message)]
    return [custom_id for custom_id, target in found if target.startswith(prefix)]


async def test_war_of_suits_dm_says_your_turn_and_is_not_edited_when_the_other_side_chooses(
    simcord_env,
) -> None:
    env = simcord_env
    table = await Table.start(env, "warofsuits", 2, seed=5)
    red, black = (await table.game()).players
    await env.bot.presenter.idle()
    dm = table.dm_message(black)
    assert dm is not None
    text = message_text(dm)
    assert "**Your turn:** choose a card in secret." in text, text
    assert _buttons_for(dm, "choose:"), "the DM offers the choice from the start"

    since = len(env.http_requests)
    red_card = (await table.game()).legal_actions(red)[0].id
    await table.act(red, red_card)  # from the table's picker
    await env.bot.presenter.idle()
    assert "✅ has chosen a card (hidden)" in table_text(table)
    assert await dm_edits(env, table, [black], since) == []
    still = table.dm_message(black)
    assert still is not None and still.id == dm.id
    assert "**Your turn:** choose a card in secret." in message_text(still)

    # Its buttons, drawn before Red chose, still count.
    version = (await table.session()).version
    choice = _buttons_for(still, "choose:")[0]
    await table.members[black].user.click(still, custom_id=choice)
    game = await table.game()
    assert (await table.session()).version == version + 1
    assert game.view()["battle"] == 1 and not game.view()["chosen"], "both chose: revealed"


async def test_item_collection_dms_are_not_edited_as_the_talk_goes_on(simcord_env) -> None:
    """The talk's High/Low and Ready are the table's (``Renderer.moves_in_dm``): a DM drawn
    then offers My move, which opens them in the DM. Before, it showed them, and each Ready
    pressed on the table (or in the picker) cost an edit of the presser's DM only to take its
    buttons away, and the end of the talk one more of each DM still showing them."""
    env = simcord_env
    table = await Table.start(env, "itemcollection", 4, seed=3)
    game = await table.game()
    order = game.view()["order"]
    starter = game.view()["starting"]
    last = next(p for p in reversed(order) if p != starter)
    await env.bot.presenter.idle()
    for player in order:
        dm = table.dm_message(player)
        assert dm is not None
        assert next(target_of(c.custom_id) for c in controls(dm)) == ids.ROOT
        assert not _buttons_for(dm, "ready") and "Your turn" not in message_text(dm)

    since = len(env.http_requests)
    for n, player in enumerate(p for p in order if p != last):
        await table.act(player, "ready", via="table" if n % 2 else "picker")
    await env.bot.presenter.idle()
    assert (await table.game()).actors() == [last]
    assert await dm_edits(env, table, order, since) == []

    # The last opens the moves in their DM, and presses Ready there: the talk is over.
    dm = table.dm_message(last)
    assert dm is not None
    play = next(c for c in controls(dm) if target_of(c.custom_id) == ids.ROOT)
    await table.members[last].user.click(dm, custom_id=play.custom_id)
    dm = table.dm_message(last)
    assert dm is not None
    assert "**Your turn:** press Ready when the talk is done." in message_text(dm)
    await table.members[last].user.click(dm, custom_id=_buttons_for(dm, "ready")[0])
    assert (await table.game()).view()["phase"] == "declaration"


async def test_a_dm_drawn_between_turns_still_offers_play(simcord_env) -> None:
    """Outside simultaneous phases nothing changes: War of Suits' reaction window is one
    side's, and the other side's DM says no "Your turn" (``ids.ROOT``: Play)."""
    env = simcord_env
    table = await Table.start(env, "warofsuits", 2, seed=5)
    red, black = (await table.game()).players
    for player in (red, black):
        await table.act(player, (await table.game()).legal_actions(player)[0].id)
    await env.bot.presenter.idle()
    game = await table.game()
    window = game.view()["window"]
    if not window:  # a tie: both choose again, and both DMs say so
        for player in (red, black):
            assert "**Your turn:**" in message_text(table.dm_message(player))
        return
    waiting = black if window == [red] else red
    text = message_text(table.dm_message(waiting))
    assert "Your turn" not in text, text
    assert any(target_of(c.custom_id) == ids.ROOT for c in controls(table.dm_message(waiting)))


async def test_item_collection_dms_drawn_during_the_talk_still_count_after_a_restart(
    simcord_env, make_bot
) -> None:
    """After a deploy, a DM drawn with My move during the talk is known to show that (the
    stored revision was shown in full): a Ready pressed on the table then edits no DM.
    Taken for a DM showing the moves, it would be edited at the first Ready."""
    env = simcord_env
    table = await Table.start(env, "itemcollection", 4, seed=3)
    order = (await table.game()).view()["order"]
    await env.bot.presenter.idle()
    await env.advance_time(2)  # the drawn revision is stored with the next batch
    await graceful_restart(env, make_bot)
    since = len(env.http_requests)
    await table.act(order[1], "ready", via="table")
    await env.bot.presenter.idle()
    assert (await table.game()).view()["ready"] == [order[1]]
    assert await dm_edits(env, table, order, since) == []
