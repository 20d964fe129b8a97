"""A DM hand between its owner's turns: not edited when the turn comes (Discord notifies
nobody of an edit, and it was one more call at every move: issue #8's REST budget), with a
Play button that opens the moves then, as the table's does."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cogs import ids
from tests.discord.driver import Table, controls, message_text, target_of
from tests.discord.test_uno_discord import current_player, past_first_colour

# What the DMs show: the same on either database, so drawn on one.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def a_plain_card(table: Table, player: str) -> str:
    """A number card ``player`` may play: it changes no other hand."""
    legal = (await table.game()).legal_actions(player)
    plays = [a.id for a in legal if re.fullmatch(r"play:[RGBY]\d", a.id)]
    assert plays, f"the deal gave {player} no number card to play: pick another seed"
    return plays[0]


async def dm_edits(env: Any, table: Table, players: list[str], since: int) -> list[str]:
    """The calls since ``since`` that wrote into these players' DM channels."""
    channels = {table.dm_message(p).channel.id for p in players}  # type: ignore[union-attr]
    calls = env.http_requests[since:]
    return [
        f"{r.method} {r.path}"
        for r in calls
        if r.method in ("PATCH", "POST") and any(f"/channels/{c}/" in r.path for c in channels)
    ]


async def test_a_move_does_not_edit_the_dm_of_the_player_whose_turn_begins(simcord_env) -> None:
    """ann plays a number card from her DM (the click's answer redraws her DM). Before,
    bea's DM was edited too, only to say it was her turn now: one more call to Discord at
    every move, and an edit notifies nobody. Now no other DM is written to."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=4, turn_timer=0)
    await past_first_colour(table)
    await env.bot.presenter.idle()
    ann = await current_player(table)
    others = [p for p in table.members if p != ann]
    since = len(env.http_requests)
    await table.act(ann, await a_plain_card(table, ann), via="dm")
    await env.bot.presenter.idle()
    bea = await current_player(table)
    assert bea != ann
    assert await dm_edits(env, table, others, since) == []
    text = message_text(table.dm_message(bea))
    assert "When it's your turn, press **Play a card**" in text, text


async def test_play_in_the_dm_opens_the_moves_once_it_is_your_turn(simcord_env) -> None:
    """bea's turn begins while her DM was drawn before it: its Play button opens her moves
    in the DM itself (the click's answer), and a card pressed there is played."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=4, turn_timer=0)
    await past_first_colour(table)
    ann = await current_player(table)
    await table.act(ann, await a_plain_card(table, ann), via="dm")
    bea = await current_player(table)
    dm = table.dm_message(bea)
    assert dm is not None
    play = [c for c in controls(dm) if target_of(c.custom_id) == ids.ROOT]
    assert play, [c.custom_id for c in controls(dm)]
    await table.members[bea].user.click(dm, custom_id=play[0].custom_id)
    opened = table.dm_message(bea)
    assert opened is not None and opened.id == dm.id, "the same DM, redrawn in place"
    text = message_text(opened)
    assert "Your turn" in text and "**Your move:**" in text, text
    version = (await table.session()).version
    card = await a_plain_card(table, bea)
    await table.act(bea, card, via="dm")
    assert (await table.session()).version == version + 1


async def test_play_pressed_between_turns_says_whose_turn_it_is(simcord_env) -> None:
    """cy presses Play in his DM while it is ann's turn: he is told privately whom the game
    waits for, and his DM stays as it is (a notice drawn into it would still be there,
    untrue, once his turn came: a DM is not redrawn then)."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=4, turn_timer=0)
    await past_first_colour(table)
    await env.bot.presenter.idle()
    ann = await current_player(table)
    cy = next(p for p in table.members if p != ann)
    dm = table.dm_message(cy)
    assert dm is not None
    before = message_text(dm)
    play = next(c for c in controls(dm) if target_of(c.custom_id) == ids.ROOT)
    result = await table.members[cy].user.click(dm, custom_id=play.custom_id)
    assert result.ephemeral, "answered privately"
    assert f"It's not your turn yet: the game is waiting for <@{ann}>" in (
        result.response.content or ""
    ), result.response.content
    assert message_text(table.dm_message(cy)) == before
    assert await current_player(table) == ann


async def test_a_haymaker_attack_leaves_the_defenders_dm_as_it_is(simcord_env) -> None:
    """ann attacks. Before, bea's DM was edited at once, for its line naming the attack on
    the table (public, on the table too, and new at every move) though her hand had not
    changed. Now that line is drawn beside her moves, when she opens them."""
    env = simcord_env
    table = await Table.start(env, "haymaker", 2, seed=3, turn_timer=0)
    await env.bot.presenter.idle()
    ann = await current_player(table)
    bea = next(p for p in table.members if p != ann)
    attack = next(
        a.id for a in (await table.game()).legal_actions(ann) if a.id.startswith("attack:")
    )
    since = len(env.http_requests)
    await table.act(ann, attack, via="dm")
    await env.bot.presenter.idle()
    assert await current_player(table) == bea
    assert await dm_edits(env, table, [bea], since) == []
    dm = await table.open_dm_moves(bea, table.dm_message(bea), "take")
    assert "Attack on the table: **" in message_text(dm), message_text(dm)
