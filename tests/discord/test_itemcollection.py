"""Item Collection Game on (simulated) Discord: negotiation on a clock, claims, the reveal.

Deals are fixed by pinning the seed /newgame draws (the engine deals from it), so each test
knows the hands it plays; a test checks the hands it relies on before using them.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from cogs import ids
from cogs.hosting import renderer_for
from cogs.render.itemcollection import NEGOTIATION_SECONDS
from cogs.timing import deadline_shown
from engine.cards import RANK_NAMES, rank, value
from engine.games.itemcollection import classify
from tests.discord.card_table import (
    assert_cards_unshown,
    bot_messages,
    picker_labels,
    start_with_deal_seed,
    table_buttons,
    table_text,
)
from tests.discord.driver import Table, controls, message_text, target_of
from tests.discord.test_dm_between_turns import dm_edits

RENDER = renderer_for("itemcollection")
# Seed 2 deals: ann ♣ A 2 4 5 6 10 J · bea ♦ A 4 6 7 9 Q K · cy ♥ 2 4 5 8 10 J K ·
# dee ♠ 5 6 7 9 J Q K, and ann starts round 1.
ROUND_SEED = 2
FULL_GAME_SEED = 12
COUNTDOWN = re.compile(r"Time runs out <t:(\d+):R>")


async def start(env: Any, monkeypatch: pytest.MonkeyPatch, seed: int) -> Table:
    """A four-player table dealt from ``seed``: seats ann ♣, bea ♦, cy ♥, dee ♠."""
    return await start_with_deal_seed(env, monkeypatch, "itemcollection", 4, seed)


async def seats(table: Table) -> list[str]:
    return list((await table.game()).players)


class SecretsWatch:
    """Checks, after every step, that no public message shows a card nobody has seen.

    Cards become public at a reveal (and stay known, even once shuffled back into a deck);
    every other card in a hand, a deck or face down must never be named in public.
    """

    def __init__(self) -> None:
        self.seen: set[str] = set()

    async def __call__(self, table: Table) -> None:
        game = await table.game()
        revealed = game.view()["revealed"]
        if revealed:
            self.seen |= set(revealed["cards"].values())
        state = game.to_dict()["state"]
        hidden = {
            c for cards in (*state["hands"].values(), *state["decks"].values()) for c in cards
        }
        hidden |= {d["card"] for d in state["decls"] if d["card"]}
        hidden -= self.seen
        private = ("Your hand", "Only you can see", "Your face-down card", "You place")
        assert_cards_unshown(bot_messages(table), hidden, private, id_end=":")


# -- negotiation -------------------------------------------------------------------------------


async def test_negotiation_high_low_and_ready_on_the_table(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, ROUND_SEED)
    ann, bea, cy, dee = await seats(table)
    assert (await table.game()).view()["starting"] == ann
    # Everyone got their own hand in a DM.
    for player in (ann, bea, cy, dee):
        dm = table.dm_message(player)
        hand = (await table.game()).view(player)["hand"]
        assert dm is not None and RENDER.hand_text(hand) in dm.embeds[0].description

    text = table_text(table)
    assert "**Round 1** · ♣ **ann-games** starts" in text
    assert "Mode: not set yet — the face-up joker says ⬆️ High" in text
    assert "Ready: ⏳ ann-games · ⏳ bea-games · ⏳ cy-games · ⏳ dee-games" in text
    assert COUNTDOWN.search(text), "the negotiation runs on a visible clock"
    assert table_buttons(table)[:3] == ["⬆️ High card", "⬇️ Low card", "✅ Ready"]

    # Players talk in the channel; only the starting player may set High or Low.
    await table.members[bea].send(table.channel, "I can place a four, who else has one?")
    high = next(c for c in controls(table.table_message()) if target_of(c.custom_id) == "high")
    refused = await table.members[bea].click(table.table_message(), custom_id=high.custom_id)
    assert refused.ephemeral and (await table.game()).view()["mode"] is None
    await table.act(ann, "low", via="table")
    text = table_text(table)
    assert "Mode: ⬇️ Low (with no combination, that card scores)" in text
    assert "ann-games sets Low" in text
    assert table_buttons(table)[0] == "✅ Ready", "High/Low is set once per round"

    for player in (bea, ann, cy):
        await table.act(player, "ready", via="table")
    assert "Ready: ✅ ann-games · ✅ bea-games · ✅ cy-games · ⏳ dee-games" in table_text(table)
    await table.act(dee, "ready", via="dm")

    # Everyone is ready: the declaration starts, without a clock.
    text = table_text(table)
    assert "Everyone is ready (Low this round)" in text
    assert "1. ♣ **ann-games** — ⏳ to claim" in text
    assert not COUNTDOWN.search(text)
    assert deadline_shown((await table.session()).row.clocks) is None


async def test_restart_mid_negotiation_the_clock_still_ends_it(
    simcord_env, monkeypatch, make_bot
) -> None:
    table = await start(simcord_env, monkeypatch, ROUND_SEED)
    ann, bea, cy, dee = await seats(table)
    deadline = deadline_shown((await table.session()).row.clocks)
    assert deadline is not None
    found = COUNTDOWN.search(table_text(table))
    assert found and int(found.group(1)) == int(deadline)
    await table.act(bea, "ready", via="table")
    await table.act(cy, "ready", via="dm")
    await simcord_env.advance_time(NEGOTIATION_SECONDS / 2)

    await simcord_env.restart_bot(make_bot())
    session = await table.session()
    assert deadline_shown(session.row.clocks) == deadline, "the deadline is stored with the game"
    assert (await table.game()).view()["ready"] == [bea, cy]

    # Not yet: a second before the deadline the table still negotiates.
    await simcord_env.advance_time(NEGOTIATION_SECONDS / 2 - 1)
    assert (await table.game()).view()["phase"] == "negotiation"
    # Time is up: the clock presses Ready for ann and dee; nobody set High/Low, so the
    # face-up joker (High) stays.
    await simcord_env.advance_time(2)
    view = (await table.game()).view()
    assert view["phase"] == "declaration" and view["mode"] == "high"
    text = table_text(table)
    assert "No High/Low choice was made: the face-up joker stays, High." in text
    assert "Mode: ⬆️ High" in text and "1. ♣ **ann-games** — ⏳ to claim" in text
    assert not COUNTDOWN.search(text)
    stored = [(player, action) for _, player, action in await table.bot.store.moves(table.game_id)]
    assert stored[-2:] == [(int(ann), "ready"), (int(dee), "ready")]

    # And the round goes on from there.
    await table.act(ann, "claim:J")
    await table.act(ann, "place:JC", via="dm")
    assert "1. ♣ **ann-games** — claims a Jack · 🂠 card face down" in table_text(table)


# -- declaration, swap and reveal ------------------------------------------------------------------


async def test_claims_face_down_cards_swap_and_reveal(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, ROUND_SEED)
    ann, bea, cy, dee = await seats(table)
    watch = SecretsWatch()
    await table.act(ann, "low", via="table")
    for player in (ann, bea, cy, dee):
        await table.act(player, "ready", via="table")

    # A claim is public and may be any rank (a bluff too); the card goes down in private.
    offered = await picker_labels(table, ann)
    assert "📢 Claim 4" in offered and "📢 Claim King" in offered and "🙊 No claim" in offered
    assert len(offered) == 15 and offered[-1] == "Leave game"  # 13 ranks, no claim, leave
    await table.act(ann, "claim:4")
    assert "1. ♣ **ann-games** — claims a 4 · ⏳ choosing a card" in table_text(table)
    offered = await picker_labels(table, ann)
    assert "🂠 Place 2♣ face down" in offered and len(offered) == 8  # 7 cards, leave
    result = await table.act(ann, "place:2C")
    assert "You place 2♣ face down." in result.response.content
    text = table_text(table)
    assert "1. ♣ **ann-games** — claims a 4 · 🂠 card face down" in text
    assert "2♣" not in text
    await watch(table)

    for player, claim, card in ((bea, "4", "4D"), (cy, "none", "4H"), (dee, "K", "9S")):
        await table.act(player, f"claim:{claim}", via="dm")
        await table.act(player, f"place:{card}", via="dm")
        await watch(table)
    text = table_text(table)
    assert "2. ♦ **bea-games** — claims a 4 · 🂠 card face down" in text
    assert "3. ♥ **cy-games** — makes no claim · 🂠 card face down" in text
    assert "4. ♠ **dee-games** — claims a King · 🂠 card face down" in text
    # Only ann's own DM shows her face-down card.
    ann_dm = table.dm_message(ann)
    assert ann_dm is not None and "Your face-down card: **2♣**" in ann_dm.embeds[0].description
    bea_dm = table.dm_message(bea)
    assert bea_dm is not None and "2♣" not in message_text(bea_dm)

    # The starting player may exchange once; it stays first in the order.
    assert "🔁 ♣ **ann-games** may exchange their face-down card once" in text
    offered = await picker_labels(table, ann)
    assert "🔁 Swap for 4♣" in offered and "👍 Keep my card" in offered
    await table.act(ann, "swap:4C")

    text = table_text(table)
    assert (
        "**Round 1 reveal** (⬇️ Low): ann-games **4♣** (claimed 4) · bea-games **4♦** "
        "(claimed 4) · cy-games **4♥** (no claim) · dee-games **9♠** (claimed King)" in text
    )
    assert (
        "→ **Three of a kind**: ann-games, bea-games, cy-games score. "
        "The starting player exchanged their card." in text
    )
    assert "♣ **ann-games** — scored 1/5: 4♣" in text
    assert "♠ **dee-games** — scored 0/5: —" in text
    # Round 2: the next seat starts, and a new negotiation runs on the clock.
    assert "**Round 2** · ♦ **bea-games** starts" in text and COUNTDOWN.search(text)
    await watch(table)


# -- a whole game -----------------------------------------------------------------------------


def plan(game: Any, defector: str) -> tuple[str, dict[str, str]]:
    """The round as the players agree it: everyone holding the most common rank places it.

    ``defector`` agrees too, but places the highest card of her hand instead.
    """
    hands = {p: game.view(p)["hand"] for p in game.players}
    counts = Counter(rank(c) for hand in hands.values() for c in hand)
    target = max(counts, key=lambda r: (counts[r], value(r + "C")))
    cards = {}
    for player, hand in hands.items():
        same = [c for c in hand if rank(c) == target]
        cards[player] = same[0] if same and player != defector else hand[-1]
    return target, cards


async def test_full_game_to_the_winners(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, FULL_GAME_SEED)
    players = await seats(table)
    dee = players[3]
    watch = SecretsWatch()
    rows: set[str] = set()
    rounds = 0
    while not (await table.game()).finished:
        rounds += 1
        assert rounds <= 17, "a game lasts at most 17 rounds"
        game = await table.game()
        view = game.view()
        starter, order = view["starting"], view["order"]
        target, cards = plan(game, defector=dee)
        # Negotiation: the starting player talks, sets the mode, and everyone presses Ready.
        name = RANK_NAMES.get(target, target)
        await table.members[starter].send(table.channel, f"Everyone with a {name}, play it!")
        await table.act(starter, "high" if rounds % 2 else "low", via="table")
        for player in order:
            await table.act(player, "ready", via="dm" if player == starter else "table")
            await watch(table)
        # Declaration: everyone claims the agreed rank; those without it say so, or bluff.
        for i, player in enumerate(order):
            holds = rank(cards[player]) == target
            claim = target if holds or player == dee or i % 2 else "none"
            await table.act(player, f"claim:{claim}", via="picker" if i % 2 else "dm")
            await watch(table)
            await table.act(player, f"place:{cards[player]}", via="dm" if i % 2 else "picker")
            await watch(table)
        await table.act(starter, "keep")
        await watch(table)

        revealed = (await table.game()).view()["revealed"]
        placed = [cards[p] for p in order]
        row, scoring = classify(placed, revealed["mode"])
        assert revealed["row"] == row and revealed["scorers"] == [order[i] for i in scoring]
        assert f"→ **{row.capitalize()}**" in table_text(table)
        rows.add(row)

    assert len(rows) > 1, f"only {rows} scored"
    game = await table.game()
    assert game.winners and all(game.scores[w] >= 5 for w in game.winners)
    scores = {p: len(game.view()["scored"][p]) for p in players}
    assert scores == game.scores
    last = table.channel.last_message
    assert all(f"<@{w}>" in last.content for w in game.winners)
    names = dict(zip(players, ["ann-games", "bea-games", "cy-games", "dee-games"], strict=True))
    # Ranked: most scored cards first, equal scores sharing a place.
    ranked = sorted(players, key=lambda p: -scores[p])
    places = [1 + sum(scores[q] > scores[p] for q in players) for p in ranked]
    final = " · ".join(
        f"{place}. {names[p]} {scores[p]}" for place, p in zip(places, ranked, strict=True)
    )
    assert f"Final scores: {final}" in last.content
    text = table_text(table)
    assert "Result" in text and "🏆" in text
    assert table.table_message().components == []
    assert deadline_shown((await table.session()).row.clocks) is None


async def test_a_ready_press_leaves_the_others_dms_as_they_are_and_their_buttons_count(
    simcord_env, monkeypatch
) -> None:
    """Negotiation is for everyone at once: one player's Ready changes nothing another
    player's DM shows, so it is not redrawn (a REST call per player per press, issue 8), and
    a Ready its owner opened there, from an earlier version, still counts."""
    table = await start(simcord_env, monkeypatch, ROUND_SEED)
    ann, bea, cy, dee = await seats(table)
    await table.bot.presenter.idle()

    def dm_ids(player: str) -> list[str]:
        dm = table.dm_message(player)
        assert dm is not None
        return [c.custom_id for c in controls(dm)]

    # The talk's buttons are the table's: a DM drawn now offers My move, which opens them.
    dm = table.dm_message(dee)
    assert dm is not None and next(target_of(i) for i in dm_ids(dee)) == ids.ROOT
    opened = await table.members[dee].user.click(dm, custom_id=dm_ids(dee)[0])
    # Sharing the database, the DM's My move opens the moves privately, not in the DM.
    moves = opened.response if table.bot.sessions.shared else table.dm_message(dee)
    assert moves is not None
    assert any(target_of(c.custom_id) == "ready" for c in controls(moves))
    before = {p: dm_ids(p) for p in (bea, cy, dee)}
    version = (await table.session()).version
    since = len(table.env.http_requests)
    await table.act(ann, "ready", via="table")
    await table.act(bea, "ready", via="table")
    await table.bot.presenter.idle()
    assert (await table.session()).version == version + 2
    assert await dm_edits(table.env, table, [ann, bea, cy, dee], since) == []
    for player in (bea, cy, dee):
        assert dm_ids(player) == before[player], "not redrawn: nothing it shows changed"
        dm = table.dm_message(player)
        assert dm is not None
        assert "Waiting for" not in message_text(dm)

    # dee's Ready, drawn two versions ago, is applied, not refused as stale.
    ready = next(c for c in controls(moves) if target_of(c.custom_id) == "ready")
    result = await table.members[dee].user.click(moves, custom_id=ready.custom_id)
    assert "out of date" not in message_text(result.response or moves)
    assert (await table.game()).view()["ready"] == [ann, bea, dee]
