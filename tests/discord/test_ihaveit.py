"""I Have It on (simulated) Discord: leads, pairs, answers, declines, secrets, restarts.

Deals are fixed by pinning the seed /newgame draws (the engine deals from it). The tests read
the cards they need from the game rather than hard-coding them, and check the deal has what
the scenario relies on before using it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cogs import ids
from cogs.hosting import renderer_for
from cogs.render.ihaveit import rank_name
from engine.cards import label, labels, value
from tests.discord.card_table import (
    assert_cards_unshown,
    dm_text,
    hand,
    start_with_lobby_seed,
    table_text,
)
from tests.discord.driver import Table, controls, message_text, target_of
from tests.discord.ihaveit_positions import bea_to_answer
from tests.discord.test_dm_between_turns import dm_edits

RENDER = renderer_for("ihaveit")

# Seat 0 (ann) draws the highest tenth card and holds a pair; if she leads it and bea
# declines, the two cards taken leave bea cards both under and over the limit.
PAIR_THEN_DECLINE = 1
FULL_GAME = 11


async def start(env: Any, monkeypatch: pytest.MonkeyPatch, seed: int) -> Table:
    return await start_with_lobby_seed(env, monkeypatch, "ihaveit", 3, seed)


async def seats(table: Table) -> tuple[str, str, str]:
    ann, bea, cy = (await table.game()).players
    return ann, bea, cy


async def picker(table: Table, player: str) -> Any:
    """What ``player`` gets from the table's "Lead / answer" button (an ephemeral reply)."""
    message = table.table_message()
    play = next(c for c in controls(message) if target_of(c.custom_id) == ids.ROOT)
    result = await table.members[player].click(message, custom_id=play.custom_id)
    assert result.ephemeral, "the picker is private"
    return result


async def expected_labels(table: Table, player: str) -> list[str]:
    game = await table.game()
    names = (await table.session()).names
    return [RENDER.action_label(a.id, a.label, names) for a in game.legal_actions(player)]


async def assert_secrets_hidden(table: Table) -> None:
    """No public message shows a card in a hand or in the pile, or a private note."""
    game = await table.game()
    state = game.to_dict()["state"]
    hidden = [c for cards in state["hands"].values() for c in cards] + state["pile"]
    private = ("Your hand", "Only you can see", "You took", "or lower", "You drew")
    assert_cards_unshown(table.public_messages(), hidden, private)


async def test_a_pair_is_one_choice_decline_is_private_and_the_lead_restricted(
    simcord_env, monkeypatch
) -> None:
    table = await start(simcord_env, monkeypatch, PAIR_THEN_DECLINE)
    ann, bea, cy = await seats(table)
    names = (await table.session()).names
    game = await table.game()
    assert game.view()["current"] == ann, "ann drew the highest tenth card and leads"
    text = table_text(table)
    assert "Nothing in play" in text and "Draw pile: 22 cards" in text
    assert f"**{names[ann]}** — 10 cards · started" in text

    # The lead picker: one button per single and one per pair, then Leave game.
    result = await picker(table, ann)
    offered = [c.label for c in controls(result.response)]
    assert offered == [*await expected_labels(table, ann), "Leave game"]
    pair = next(a.id for a in game.legal_actions(ann) if "." in a.id)
    pair_cards = pair.split(":")[1].split(".")
    pair_label = "Lead pair " + " ".join(label(c) for c in pair_cards)
    assert pair_label in offered
    assert "Your tenth card" in result.response.embeds[0].description

    await table.act(ann, pair)
    text = table_text(table)
    assert f"In front of everyone: **pair {' '.join(label(c) for c in pair_cards)}**" in text
    assert f"by {names[ann]}" in text and f"**{names[ann]}** — 8 cards" in text
    # bea may decline from the table: declining is always allowed, so the button tells nothing.
    buttons = [c.label for c in controls(table.table_message())]
    assert f"Decline (let {names[ann]} take 2 cards)" in buttons

    before = await hand(table, ann)
    await table.act(bea, "decline", via="table")
    taken = [c for c in await hand(table, ann) if c not in before]  # in hand order
    assert len(taken) == 2 and not set(taken) & set(await hand(table, bea))
    limit = (await table.game()).view(bea)["lead_limit"]
    assert limit == min(taken, key=value)[:-1]

    # The table tells how many cards moved and that the lead is restricted, not which.
    text = table_text(table)
    assert f"{names[ann]} takes 2 cards at random from {names[bea]}'s hand." in text
    assert f"Restricted lead: {names[bea]} must lead no higher than the lowest card taken" in text
    await assert_secrets_hidden(table)
    # The taker and the decliner learn the cards (and the limit) privately, cy does not.
    assert f"You took {labels(taken)} from {names[bea]}." in dm_text(table, ann)
    assert f"{names[ann]} took {labels(taken)} from you." in dm_text(table, bea)
    for player in (ann, bea):
        assert "Only you can see" in dm_text(table, player)
    assert f"rank **{rank_name(limit)}** or lower" in dm_text(table, bea)
    assert f"{names[bea]}'s lead: a single or a pair of rank {limit} or lower" in (
        dm_text(table, ann)
    )
    for card in taken:
        assert label(card) not in dm_text(table, cy)
    assert "or lower" not in dm_text(table, cy)

    # bea's lead is restricted: only singles and pairs at or under the limit are offered.
    result = await picker(table, bea)
    offered = [c.label for c in controls(result.response)]
    assert offered == [*await expected_labels(table, bea), "Leave game"]
    bea_hand = await hand(table, bea)
    low = [c for c in bea_hand if value(c) <= value(limit + "C")]
    high = [c for c in bea_hand if c not in low]
    assert low and high, "the deal gives bea cards on both sides of the limit"
    assert all(f"Lead {label(c)}" in offered for c in low)
    assert not any(f"Lead {label(c)}" in offered for c in high)

    # She leads from her DM; cy answers; bea, whose card was answered, draws one privately.
    await table.act(bea, f"lead:{low[0]}", via="dm")
    answer = next(
        a.id for a in (await table.game()).legal_actions(cy) if a.id.startswith("answer:")
    )
    result = await picker(table, cy)
    assert RENDER.action_label(answer, "", names) in [c.label for c in controls(result.response)]
    before = await hand(table, bea)
    await table.act(cy, answer)
    drawn = [c for c in await hand(table, bea) if c not in before]
    assert len(drawn) == 1
    assert f"You drew {label(drawn[0])}." in dm_text(table, bea)
    text = table_text(table)
    assert f"{names[bea]} draws 1 card from the pile." in text and "Draw pile: 21 cards" in text
    await assert_secrets_hidden(table)


async def test_out_of_turn_outsider_and_stale_clicks_change_nothing(
    simcord_env, monkeypatch
) -> None:
    table = await start(simcord_env, monkeypatch, PAIR_THEN_DECLINE)
    ann, bea, cy = await seats(table)
    old_picker = await picker(table, ann)
    await table.act(ann, next(a.id for a in (await table.game()).legal_actions(ann)))
    session = await table.session()
    version, state = session.version, (await table.game()).to_dict()
    message = table.table_message()
    decline = next(c for c in controls(message) if target_of(c.custom_id) == "decline")

    # cy presses bea's Decline on the table: refused privately, saying whose turn it is.
    result = await table.members[cy].click(message, custom_id=decline.custom_id)
    names = session.names
    assert result.ephemeral
    assert result.response.content == f"It's not your turn: the game is waiting for {names[bea]}."
    # Someone not playing is told so.
    outsider = table.channel.guild.add_member(simcord_env.create_user("zed"))
    result = await outsider.click(message, custom_id=decline.custom_id)
    assert result.ephemeral and "not playing" in result.response.content
    # ann's picker from before her lead is out of date: it refuses and shows the hand now.
    lead = next(c for c in controls(old_picker.response) if target_of(c.custom_id))
    result = await table.members[ann].click(old_picker.response, custom_id=lead.custom_id)
    assert "out of date" in (result.response.content or "")
    # cy's own picker has nothing for them to do.
    result = await picker(table, cy)
    assert "Nothing for you to do" in result.response.embeds[0].description
    assert [c.label for c in controls(result.response)] == ["Leave game"]

    assert (await table.session()).version == version
    assert (await table.game()).to_dict() == state


async def test_restart_after_a_decline_keeps_the_restricted_lead(
    simcord_env, monkeypatch, make_bot
) -> None:
    table = await start(simcord_env, monkeypatch, PAIR_THEN_DECLINE)
    ann, bea, cy = await seats(table)
    names = (await table.session()).names
    pair = next(a.id for a in (await table.game()).legal_actions(ann) if "." in a.id)
    await table.act(ann, pair)
    await table.act(bea, "decline", via="dm")
    before = (await table.game()).to_dict()
    limit = (await table.game()).view(bea)["lead_limit"]
    version = (await table.session()).version
    old_table = table.table_message()

    await simcord_env.restart_bot(make_bot())
    game = await table.game()
    assert game.to_dict() == before, "the game loads exactly as it was"
    assert game.view(bea)["lead_limit"] == limit and game.view()["restricted"]

    # bea leads from the DM sent before the restart, within her limit.
    lead = next(a.id for a in game.legal_actions(bea))
    assert value(lead.split(":")[1].split(".")[0]) <= value(limit + "C")
    await table.act(bea, lead, via="dm")
    assert (await table.session()).version == version + 1
    assert table.table_message().id == old_table.id
    text = table_text(table)
    assert "Restricted lead" not in text and f"{names[cy]} to answer {names[bea]}'s" in text
    # The private notes were stored with the game: ann still reads which cards she took.
    assert f"from {names[bea]}." in dm_text(table, ann)
    assert "Only you can see" in dm_text(table, ann)


async def test_full_game_to_the_end_with_secrets_kept(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, FULL_GAME)
    moves = await table.play_random(
        random.Random(5), check=assert_secrets_hidden, prefer=("lead", "answer")
    )

    game = await table.game()
    assert game.finished and len(game.winners) == 1
    winner = game.winners[0]
    assert game.scores == {p: int(p == winner) for p in game.players}
    names = (await table.session()).names
    # The table shows the result and keeps no buttons; the channel hears it with the scores.
    text = table_text(table)
    assert f"🏆 **{names[winner]}** wins" in text
    assert controls(table.table_message()) == []
    last = table.channel.last_message
    assert f"<@{winner}>" in last.content and "Final scores" in last.content
    assert f"{names[winner]} 1" in last.content
    # Each DM shows the player's final hand.
    for player in game.players:
        assert RENDER.hand_text(game.view(player)["hand"]) in dm_text(table, player)
    stored = await table.bot.store.moves(table.game_id)
    assert [seq for seq, _, _ in stored] == list(range(1, moves + 1))


async def test_the_takers_dm_is_not_edited_when_the_restricted_lead_is_made(simcord_env) -> None:
    """The taker learns the limit in their note ("You took …: bea's lead: … or lower"), which
    stays true. Before, their DM showed it as a line that was true only until the lead, and
    was edited then only to take it away: one call to Discord at every decline (issue #8's
    budget). The decliner, who leads under it, still has the line (their hand changes as they
    lead, so it goes at no extra edit)."""
    env = simcord_env
    table = await Table.start(env, "ihaveit", 3, seed=3)
    ann, bea, cy = await bea_to_answer(table, ["2C", "3D", "4H", "5S", "6C"], "KC")
    names = (await table.session()).names
    # bea declines ann's K♣: ann takes one card from bea, and bea leads under a limit.
    await table.act(bea, "decline", via="table")
    game = await table.game()
    limit = game.view(bea)["lead_limit"]
    assert game.view(None)["restricted"] and game.actors() == [bea] and limit
    await env.bot.presenter.idle()
    ann_dm = message_text(table.dm_message(ann))
    assert "🔒" not in ann_dm, ann_dm
    assert f"{names[bea]}'s lead: a single or a pair of rank {limit} or lower" in ann_dm
    assert f"🔒 Your lead: a single or a pair of rank **{rank_name(limit)}**" in (
        message_text(table.dm_message(bea))
    )
    # bea leads: the limit is over (nobody's lead is restricted now, cy is to answer).
    since = len(env.http_requests)
    lead = next(a.id for a in game.legal_actions(bea))
    await table.act(bea, lead, via="dm")
    await env.bot.presenter.idle()
    game = await table.game()
    assert game.actors() == [cy] and not game.view(None)["restricted"]
    assert await dm_edits(env, table, [ann], since) == []
    assert "🔒" not in message_text(table.dm_message(bea))


async def test_the_first_move_edits_no_dm_only_to_drop_the_tenth_card(simcord_env) -> None:
    """Each DM says which tenth card its owner drew at the deal, a fact that stays true.
    Before, the engine's dropping it at the first move made the bot edit both other players'
    DMs only to take that line away: two calls to Discord at every game's first move (issue
    #8's budget). Now the line goes when the DM is next drawn (its owner's hand changes)."""
    env = simcord_env
    table = await Table.start(env, "ihaveit", 3, seed=3)
    game = await table.game()
    first = game.actors()[0]
    others = [p for p in game.players if p != first]
    await env.bot.presenter.idle()
    for player in others:
        assert "Your tenth card" in message_text(table.dm_message(player))
    since = len(env.http_requests)
    lead = next(a.id for a in game.legal_actions(first))
    await table.act(first, lead, via="dm")
    await env.bot.presenter.idle()
    assert "drawn" not in (await table.game()).view(others[0])
    assert await dm_edits(env, table, others, since) == []
    # The next one to play: their hand changes, and their DM is drawn without the line.
    answerer = (await table.game()).actors()[0]
    move = next(a.id for a in (await table.game()).legal_actions(answerer) if a.id != "decline")
    await table.act(answerer, move, via="table")
    await env.bot.presenter.idle()
    assert "Your tenth card" not in message_text(table.dm_message(answerer))
