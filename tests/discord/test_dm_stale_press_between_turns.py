"""Notices drawn into a DM hand by a click's answer, now that a DM is not redrawn when its
owner's turn begins."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.discord.driver import Table, controls, message_text
from tests.discord.test_dm_between_turns import a_plain_card
from tests.discord.test_uno_discord import current_player, past_first_colour

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

STALE = "That button is out of date"


class FakeResponse:
    status = 503
    reason = "Service Unavailable"


async def test_an_out_of_date_notice_does_not_stay_in_the_dm_into_the_next_turn(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann opens her moves in her DM, then plays on the table's picker instead; Discord
    fails the edit of her DM for a moment, so she presses a card in it. Before, that was
    answered in the DM itself, "That button is out of date: the game has changed since.
    Here it is as it stands now.", and since a DM is no longer redrawn when its owner's turn
    begins, the notice was still there at her next turn, two moves later. Now she is told
    privately, and her DM is drawn again as the game is (no moves: not her turn)."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=4, turn_timer=0)
    await past_first_colour(table)
    await env.bot.presenter.idle()
    ann = await current_player(table)
    dm = table.dm_message(ann)
    assert dm is not None
    card = await a_plain_card(table, ann)
    opened = await table.open_dm_moves(ann, dm, card)
    old = [c for c in controls(opened) if c.custom_id.startswith("g:") and ":play:" in c.custom_id]
    assert old, [c.custom_id for c in controls(opened)]

    presenter = env.bot.presenter
    real_edit = presenter.edit

    async def failing(channel_id: int, message_id: int, screen: Any) -> None:
        if channel_id == dm.channel.id and failing.on:  # type: ignore[attr-defined]
            raise discord.DiscordServerError(FakeResponse(), "Discord failed for a moment")
        await real_edit(channel_id, message_id, screen)

    failing.on = True  # type: ignore[attr-defined]
    monkeypatch.setattr(presenter, "edit", failing)
    monkeypatch.setattr("cogs.presenter.RETRY_AFTER", 30.0)  # not within the click's settle
    await table.act(ann, card, via="picker")
    await presenter.idle()
    stale_dm = table.dm_message(ann)
    assert stale_dm is not None and stale_dm.id == dm.id
    press = next(
        c for c in controls(stale_dm) if c.custom_id.startswith("g:") and ":play:" in c.custom_id
    )
    failing.on = False  # type: ignore[attr-defined]
    answer = await table.members[ann].user.click(stale_dm, custom_id=press.custom_id)
    assert answer.ephemeral and STALE in (answer.response.content or ""), "told privately"
    await env.bot.presenter.idle()
    text = message_text(table.dm_message(ann))
    assert STALE not in text and ":play:" not in str(controls(table.dm_message(ann))), text
    await env.advance_time(60)
    await env.bot.presenter.idle()

    for _ in range(6):  # the others play until it is ann's turn again
        who = await current_player(table)
        if who == ann:
            break
        game = await table.game()
        legal = game.legal_actions(who)
        plays = [a.id for a in legal if a.id.startswith("play:") and not a.id.startswith("play+")]
        await table.act(who, plays[0] if plays else legal[0].id, via="picker")
        await env.bot.presenter.idle()
    assert await current_player(table) == ann, "not ann's turn again: pick another seed"
    text = message_text(table.dm_message(ann))
    assert STALE not in text, f"ann's turn, and her DM still says: {text!r}"
