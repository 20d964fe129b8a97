"""Item Collection Game on Discord: what the hands say about face-down cards and notes."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.discord.driver import Table, message_text

# Seed 2 deals: ann ♣ A 2 4 5 6 10 J · bea ♦ A 4 6 7 9 Q K · cy ♥ 2 4 5 8 10 J K ·
# dee ♠ 5 6 7 9 J Q K, and ann starts round 1 (as tests/discord/test_itemcollection.py).
ROUND_SEED = 2


async def start(env: Any, monkeypatch: pytest.MonkeyPatch, seed: int = ROUND_SEED) -> Table:
    draw = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed if bits == 63 else draw(bits))
    return await Table.start(env, "itemcollection", 4)


async def to_the_swap(table: Table, cards: dict[str, str]) -> None:
    """Everyone ready (High), each player claims nothing and places ``cards[player]``."""
    for player in (await table.game()).players:
        await table.act(player, "ready", via="table")
    for player in (await table.game()).view()["order"]:
        await table.act(player, "claim:none", via="dm")
        await table.act(player, f"place:{cards[player]}", via="dm")


async def test_after_the_winning_reveal_no_hand_speaks_of_a_face_down_card(
    simcord_env, monkeypatch
) -> None:
    """Before, once the last round was revealed and the game was over, every player's DM (and
    My hand) still read "Your face-down card: **2♣** (only you know it)." under the final
    hand, though the card had been turned up for everyone: the engine keeps the last round's
    declarations once the game ends, and ``ItemCollectionRenderer.private_lines`` showed
    ``placed`` whatever the phase. Now the line is shown only while the card is face down (the
    declaration and swap phases)."""
    table = await start(simcord_env, monkeypatch)
    ann, bea, cy, dee = (await table.game()).players
    cards = {ann: "2C", bea: "4D", cy: "4H", dee: "9S"}
    await to_the_swap(table, cards)
    # While the cards lie face down, each hand still names its own.
    assert "Your face-down card: **2♣**" in message_text(table.dm_message(ann))
    # bea and cy have scored four cards already: their pair of 4s is their fifth.
    state = (await table.game()).to_dict()["state"]
    decks = state["decks"]
    scored = {p: [] for p in decks}
    for p in (bea, cy):
        scored[p], decks[p] = decks[p][:4], decks[p][4:]
    await table.set_state(scored=scored, decks=decks)
    await table.act(ann, "keep")
    game = await table.game()
    assert game.finished and sorted(game.winners) == sorted([bea, cy])
    await table.env.settle()

    for player in (ann, bea, cy, dee):
        dm = message_text(table.dm_message(player))
        assert "The game is over" in dm
        assert "face-down card" not in dm, f"{player}'s DM after the end:\n{dm}"


async def test_a_new_round_starts_the_private_notes_afresh(simcord_env, monkeypatch) -> None:
    """Before, the Item Collection renderer defined no ``round_of``, so the DMs kept earlier
    rounds' private notes: in round 2, before anything was placed, each hand still said "You
    place 4♦ face down." (and the starting player "You take back 2♣ and place 5♣ face
    down."). Now a new round clears them, as in UNO; the card drawn at the reveal, which is in
    the new round's hand, is still noted."""
    table = await start(simcord_env, monkeypatch)
    ann, bea, cy, dee = (await table.game()).players
    await to_the_swap(table, {ann: "2C", bea: "4D", cy: "4H", dee: "9S"})
    assert "You place 4♦ face down." in message_text(table.dm_message(bea))
    await table.act(ann, "swap:5C")
    game = await table.game()
    assert not game.finished and game.view()["round"] == 2
    assert game.view()["phase"] == "negotiation"
    await table.env.settle()

    for player in (ann, bea, cy, dee):
        dm = message_text(table.dm_message(player))
        assert "face down" not in dm, f"{player}'s DM in round 2:\n{dm}"
        assert "You draw " in dm, f"{player}'s DM in round 2:\n{dm}"
