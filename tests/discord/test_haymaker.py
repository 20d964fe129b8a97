"""Haymaker on (simulated) Discord: roles, multi-card haymakers and blocks, hits, endings.

Deals are fixed by pinning the seed /newgame draws (the engine deals from it). The tests read
the cards they need from the game and check the deal has what the scenario relies on. The
endings start from a position set up directly in the live game (test setup, not play), then
the finishing moves are made through the UI.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

import engine
from cogs.hosting import renderer_for
from engine.cards import label, suit, value
from tests.discord.card_table import (
    assert_cards_unshown,
    dm_text,
    hand,
    start_with_lobby_seed,
    table_text,
)
from tests.discord.driver import Table, controls, message_text, open_picker, target_of

RENDER = renderer_for("haymaker")

# ann (seat 0) attacks first; she holds 4♣ 7♣ (a haymaker of 11) and 2♥; bea can block 11.
OPENING = 1
FULL_GAME = 25  # with sensible_move: 35 moves of every kind, ending by decision


async def start(env: Any, monkeypatch: pytest.MonkeyPatch, seed: int) -> Table:
    return await start_with_lobby_seed(env, monkeypatch, "haymaker", 2, seed)


async def seats(table: Table) -> tuple[str, str]:
    ann, bea = (await table.game()).players
    return ann, bea


@dataclass
class Menu:
    custom_id: str
    values: list[str]
    labels: list[str]
    min_values: int
    max_values: int
    placeholder: str


def pick_menus(message: Any) -> list[Menu]:
    """The multi-selects a Haymaker or Block button opens (on a message or a raw response)."""
    found = []
    for row in message.components:
        for child in row["components"] if isinstance(row, dict) else row.children:
            raw = child if isinstance(child, dict) else child.to_dict()
            if raw.get("type") == 3 and raw["custom_id"].startswith("k:"):
                found.append(raw)
    return [
        Menu(
            raw["custom_id"],
            [o["value"] for o in raw["options"]],
            [o["label"] for o in raw["options"]],
            raw.get("min_values", 1),
            raw.get("max_values", 1),
            raw.get("placeholder", ""),
        )
        for raw in found
    ]


def pick_menu(message: Any) -> Menu:
    menus = pick_menus(message)
    assert len(menus) == 1, f"one card menu expected: {controls(message)}"
    return menus[0]


async def snapshot(table: Table) -> tuple[int, dict[str, Any]]:
    return (await table.session()).version, (await table.game()).to_dict()


async def assert_secrets_hidden(table: Table) -> None:
    """No public message shows a card in a hand, the deck or the burn pile, or a private note.

    Played cards go to a discard pile for good, so a card still hidden was never played.
    """
    game = await table.game()
    state = game.to_dict()["state"]
    hidden = [c for cards in state["hands"].values() for c in cards]
    hidden += state["deck"] + state["burned"]
    private = ("Your hand", "Only you can see", "You gave", "gave you", "You drew")
    assert_cards_unshown(table.public_messages(), hidden, private)


async def test_haymaker_and_block_pick_several_cards_and_refuse_bad_picks(
    simcord_env, monkeypatch
) -> None:
    table = await start(simcord_env, monkeypatch, OPENING)
    ann, bea = await seats(table)
    names = (await table.session()).names
    assert (await table.game()).view()["attacker"] == ann
    text = table_text(table)
    assert f"Attacker: **{names[ann]}** · 🛡️ Defender: **{names[bea]}**" in text
    assert "On the table: nothing yet." in text and "Deck: 16 cards" in text
    # Nothing on the public table names a card or offers a move that depends on the hand.
    assert [c.label for c in controls(table.table_message())] == ["Attack / block", "My hand"]

    # ann's moves: an attack per card, one Haymaker button, no pass on the first turn.
    ann_hand = await hand(table, ann)
    picker = await open_picker(table, ann)
    offered = [c.label for c in controls(picker)]
    assert offered == [f"Attack with {label(c)}" for c in ann_hand] + [
        "Haymaker: choose 2+ cards of one suit",
        "Leave game",  # every private hand offers it (it asks first)
    ]
    haymaker = next(c for c in controls(picker) if target_of(c.custom_id) == "haymaker")
    result = await table.members[ann].click(picker, custom_id=haymaker.custom_id)
    # One menu per suit holding two cards or more, with the suit's sum: a mixed-suit haymaker
    # cannot even be picked (the engine would refuse one, see the engine's tests).
    menus = pick_menus(result.response)
    suits = [[c for c in ann_hand if suit(c) == s] for s in "CDHS"]
    suits = [cards for cards in suits if len(cards) >= 2]
    assert [m.values for m in menus] == suits and len(menus) >= 2
    for menu, cards in zip(menus, suits, strict=True):
        assert menu.labels == [label(c) for c in cards]
        assert (menu.min_values, menu.max_values) == (2, len(cards))
        sym = label(cards[0])[-1]
        assert menu.placeholder == f"Haymaker in {sym} (all of them: {sum(map(value, cards))})"
    clubs = [c for c in ann_hand if suit(c) == "C"][:2]
    assert len(clubs) == 2
    clubs_menu = next(m for m in menus if set(clubs) <= set(m.values))
    before = await snapshot(table)
    await table.members[ann].select(result.response, clubs, custom_id=clubs_menu.custom_id)
    strength = sum(value(c) for c in clubs)
    assert (await table.session()).version == before[0] + 1
    text = table_text(table)
    assert f"On the table: Haymaker **{label(clubs[0])} {label(clubs[1])}**" in text
    assert f"strength **{strength}**" in text
    assert f"**{names[bea]} to block the haymaker" in text
    assert "Take the hit (give 2 random cards)" in [
        c.label for c in controls(table.table_message())
    ]

    # bea blocks from her DM (its Play opens her moves, the attack beside them). One low card
    # is too small: refused, privately, nothing changes.
    bea_hand = await hand(table, bea)
    dm = table.dm_message(bea)
    assert dm is not None
    dm = await table.open_dm_moves(bea, dm, "block")
    private = dm.flags.ephemeral  # sharing a database, the DM's moves open privately
    assert "Attack on the table: **" in message_text(dm)
    block = next(c for c in controls(dm) if target_of(c.custom_id) == "block")
    assert block.label == f"Block: choose cards summing to {strength} or more"
    opened = await table.members[bea].user.click(dm, custom_id=block.custom_id)
    dm = opened.response if private else table.dm_message(bea)
    menu = pick_menu(dm)
    assert menu.values == bea_hand and menu.min_values == 1
    low = min(bea_hand, key=value)
    assert value(low) < strength
    before = await snapshot(table)
    refused = await table.members[bea].user.select(dm, [low], custom_id=menu.custom_id)
    assert refused.ephemeral
    assert refused.response.content == (
        f"Your block is {value(low)}; it must be at least {strength}."
    )
    assert await snapshot(table) == before
    # Her strongest cards block it: a haymaker blocked is a reversal, so the roles switch.
    strong: list[str] = []
    for card in sorted(bea_hand, key=value, reverse=True):
        if sum(value(c) for c in strong) < strength:
            strong.append(card)
    dm = dm if private else table.dm_message(bea)
    await table.members[bea].user.select(dm, strong, custom_id=menu.custom_id)
    view = (await table.game()).view()
    assert view["attacker"] == bea and view["discards"][bea] == 2 + len(strong)
    text = table_text(table)
    assert f"Attacker: **{names[bea]}** · 🛡️ Defender: **{names[ann]}**" in text
    assert "Reversal (the attack was a haymaker)!" in text and "Deck: 14 cards" in text
    # Both drew a card, each told privately which.
    for player, cards in ((ann, ann_hand), (bea, bea_hand)):
        drawn = [c for c in await hand(table, player) if c not in cards]
        assert len(drawn) == 1 and f"You drew {label(drawn[0])}." in dm_text(table, player)
    await assert_secrets_hidden(table)


async def test_the_hit_is_told_privately_to_both(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, OPENING)
    ann, bea = await seats(table)
    names = (await table.session()).names
    attack = min(await hand(table, ann), key=value)
    await table.act(ann, f"attack:{attack}")
    assert f"On the table: Attack **{label(attack)}** — strength **{value(attack)}**" in (
        table_text(table)
    )

    before = await hand(table, bea)
    await table.act(bea, "hit", via="table")
    given = [c for c in before if c not in await hand(table, bea)]
    assert len(given) == 1 and given[0] in await hand(table, ann)
    text = table_text(table)
    assert f"{names[bea]} takes the hit and gives {names[ann]} 1 random card." in text
    assert f"You gave {names[ann]} {label(given[0])}." in dm_text(table, bea)
    assert f"{names[bea]} gave you {label(given[0])}." in dm_text(table, ann)
    for player in (ann, bea):
        assert "Only you can see" in dm_text(table, player)
    await assert_secrets_hidden(table)
    # ann attacked last turn, so she may now pass: a public button, as everyone knows it.
    assert "may pass" in table_text(table)
    assert "Pass (roles switch, both draw)" in [c.label for c in controls(table.table_message())]


def _cards(*codes: str) -> list[str]:
    return list(codes)


# Endings: (ann's hand, bea's hand, discard pile sizes, ann's move, bea's move, result line).
ENDINGS = {
    "knockout": (
        _cards("5S", "7S", "3H"),
        _cards("2C"),
        (0, 0),
        "haymaker:5S.7S",
        "hit",
        "🥊 **Knockout!** {ann} wins: {bea} could not pay for the hit.",
    ),
    "technical knockout": (
        _cards("5S", "9D"),
        _cards("5H"),
        (0, 0),
        "attack:5S",
        "block:5H",
        "🥊 **Technical knockout!** {ann} wins: {bea} had no cards and no pass.",
    ),
    "decision": (
        _cards("6S"),
        _cards("2H", "4H"),
        (3, 5),
        "attack:6S",
        "block:2H.4H",
        "⚖️ **Decision:** {bea} wins, 8 discarded cards to 3.",
    ),
    "draw": (
        _cards("6S"),
        _cards("2H", "4H"),
        (8, 5),
        "attack:6S",
        "block:2H.4H",
        "🤝 **Draw by decision:** both discard piles are the same size.",
    ),
}


async def set_position(
    table: Table, ann_hand: list[str], bea_hand: list[str], piles: tuple[int, int]
) -> None:
    """Test setup: ann attacks, the deck is empty, the hands and discard piles as given."""
    ann, bea = await seats(table)
    session = await table.session()
    assert session.game is not None
    data = session.game.to_dict()
    state = data["state"]
    rest = [c for c in engine.games.haymaker.full_deck() if c not in ann_hand + bea_hand]
    state.update(
        attacker=ann,
        phase="attack",
        hands={ann: ann_hand, bea: bea_hand},
        deck=[],
        burned=rest[:4],
        discards={ann: rest[4 : 4 + piles[0]], bea: rest[4 + piles[0] : 4 + sum(piles)]},
        attack=[],
        haymaker=False,
        attacked_last=None,
    )
    session.game = engine.load(data)
    # Redraw everything from the position set up (nothing of it was shown yet).
    session.shown.table = None
    session.shown.dms.clear()
    presenter = table.bot.presenter
    await presenter.refresh_table(session)
    await presenter.update_dms(session)


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_endings_are_announced_with_the_scores(simcord_env, monkeypatch, ending) -> None:
    ann_hand, bea_hand, piles, ann_move, bea_move, line = ENDINGS[ending]
    table = await start(simcord_env, monkeypatch, OPENING)
    ann, bea = await seats(table)
    names = (await table.session()).names
    await set_position(table, ann_hand, bea_hand, piles)

    await table.act(ann, ann_move)
    await table.act(bea, bea_move, via="table" if bea_move == "hit" else "dm")

    game = await table.game()
    assert game.finished and game.view()["result"] == ending
    text = table_text(table)
    assert line.format(ann=names[ann], bea=names[bea]) in text
    final = game.view()["discards"]
    assert f"Discard piles (the score): {names[ann]} {final[ann]} · {names[bea]} {final[bea]}" in (
        text
    )
    assert controls(table.table_message()) == []
    last = table.channel.last_message.content
    if game.winners:
        winner = game.winners[0]
        loser = ann if winner == bea else bea
        assert last.count(f"<@{winner}>") == 1 and f"<@{winner}> wins game #" in last
        expected = f"1. {names[winner]} {final[winner]} · 2. {names[loser]} {final[loser]}"
    else:
        assert "ends in a draw" in last
        expected = f"1. {names[ann]} {final[ann]} · 1. {names[bea]} {final[bea]}"
    assert f"Final scores: {expected}" in last


async def test_restart_with_a_haymaker_on_the_table(simcord_env, monkeypatch, make_bot) -> None:
    table = await start(simcord_env, monkeypatch, OPENING)
    ann, bea = await seats(table)
    names = (await table.session()).names
    clubs = [c for c in await hand(table, ann) if suit(c) == "C"][:2]
    await table.act(ann, f"haymaker:{'.'.join(clubs)}", via="dm")
    before = await snapshot(table)
    old_table = table.table_message()

    await simcord_env.restart_bot(make_bot())
    assert await snapshot(table) == before, "the game loads exactly as it was"

    # bea blocks through the DM sent before the restart, picking several cards at once.
    strength = sum(value(c) for c in clubs)
    strong: list[str] = []
    for card in sorted(await hand(table, bea), key=value, reverse=True):
        if sum(value(c) for c in strong) < strength:
            strong.append(card)
    await table.act(bea, f"block:{'.'.join(strong)}", via="dm")
    assert (await table.session()).version == before[0] + 1
    assert table.table_message().id == old_table.id
    assert f"Attacker: **{names[bea]}**" in table_text(table)


def sensible_move(game: engine.Game, player: str, rng: random.Random) -> str:
    """A plain but sensible player: block when it can, now and then a haymaker or a pass."""
    legal = {a.id for a in game.legal_actions(player)}
    hand = game.view(player)["hand"]
    view = game.view()
    if view["phase"] == "defend":
        need = view["attack"]["strength"]
        if "block" not in legal:
            return "hit"
        # One card that reaches the attack (an exact match is a reversal), else the fewest
        # high cards that do.
        single = sorted((c for c in hand if value(c) >= need), key=value)
        if single:
            return f"block:{single[0]}"
        chosen: list[str] = []
        for card in sorted(hand, key=value, reverse=True):
            if sum(value(c) for c in chosen) < need:
                chosen.append(card)
        return "block:" + ".".join(chosen)
    if "pass" in legal and rng.random() < 0.25:
        return "pass"
    if "haymaker" in legal and rng.random() < 0.4:
        by_suit: dict[str, list[str]] = {}
        for card in hand:
            by_suit.setdefault(suit(card), []).append(card)
        longest = max((cs for cs in by_suit.values() if len(cs) >= 2), key=len)
        return "haymaker:" + ".".join(longest[:2])
    return rng.choice(sorted(a for a in legal if a.startswith("attack:")))


async def test_full_game_to_the_end_with_secrets_kept(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, FULL_GAME)
    rng = random.Random(FULL_GAME)
    ways = ["picker", "dm", "table"]  # "table" falls back to the picker for private moves
    verbs: set[str] = set()
    moves = 0
    while not (game := await table.game()).finished:
        assert moves < 200, "the game did not end"
        player = game.actors()[0]
        move = sensible_move(game, player, rng)
        await table.act(player, move, via=ways[moves % 3])
        verbs.add(move.split(":")[0])
        moves += 1
        await assert_secrets_hidden(table)

    assert verbs == {"attack", "haymaker", "pass", "block", "hit"}
    assert game.view()["result"] == "decision"
    names = (await table.session()).names
    winner = game.winners[0]
    loser = next(p for p in game.players if p != winner)
    assert game.scores[winner] > game.scores[loser]
    text = table_text(table)
    assert (
        f"⚖️ **Decision:** {names[winner]} wins, {game.scores[winner]} discarded cards "
        f"to {game.scores[loser]}."
    ) in text
    assert controls(table.table_message()) == []
    last = table.channel.last_message.content
    assert f"<@{winner}> wins game #{table.game_id} (Haymaker) on a decision" in last
    scores = f"1. {names[winner]} {game.scores[winner]} · 2. {names[loser]} {game.scores[loser]}"
    assert f"Final scores: {scores}" in last
    assert game.scores == game.view()["discards"]
    for player in game.players:
        assert RENDER.hand_text(game.view(player)["hand"]) in dm_text(table, player)
    stored = await table.bot.store.moves(table.game_id)
    assert [seq for seq, _, _ in stored] == list(range(1, moves + 1))
