"""A War of Suits on (simulated) Discord: secret choices, reactions, head to head, restarts.

Deals are fixed by pinning the seed /newgame draws (the engine deals from it), so each test
knows the hands it plays; a test still checks the hand it relies on before using it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from cogs.hosting import renderer_for
from engine.games.warofsuits import COLOUR_CARDS
from tests.discord.card_table import (
    assert_cards_unshown,
    bot_messages,
    hand,
    picker_labels,
    start_with_deal_seed,
    table_buttons,
    table_text,
)
from tests.discord.driver import Table, controls, message_text, target_of

RENDER = renderer_for("warofsuits")

# Seeds whose first hands set up a scenario (found by dealing with the engine).
DOUBLE_AND_ACES = 11010  # Red 3♦ 3♥ A♥ · Black 10♣ Q♠ A♣
TIE = 2  # Red 7♥ 9♦ K♥ · Black 5♠ 6♣ 9♠
FULL_GAME = 7


async def start(env: Any, monkeypatch: pytest.MonkeyPatch, seed: int) -> Table:
    """A two-player table dealt from ``seed``: the first member is Red, the second Black."""
    return await start_with_deal_seed(env, monkeypatch, "warofsuits", 2, seed)


async def sides(table: Table) -> tuple[str, str]:
    red, black = (await table.game()).players
    return red, black


async def assert_secrets_hidden(table: Table) -> None:
    """No public message names a card nobody has seen yet (hands, decks, chosen cards)."""
    game = await table.game()
    state = game.to_dict()["state"]
    unseen = [c for side in (*state["hands"], *state["decks"]) for c in side]
    private = ("Your hand", "Only you can see", "Your secret choice", "ou chose")
    assert_cards_unshown(bot_messages(table), unseen, private, id_end=":")


async def test_secret_choices_then_double_ace_and_answering_ace(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, DOUBLE_AND_ACES)
    red, black = await sides(table)
    assert await hand(table, red) == ["AH", "3D", "3H"]
    assert await hand(table, black) == ["AC", "10C", "QS"]
    # Each side sees its own hand in its DM.
    for player in (red, black):
        dm = table.dm_message(player)
        assert dm is not None
        assert RENDER.hand_text(await hand(table, player)) in dm.embeds[0].description

    # Both choose at once, in secret: the table says who has chosen, never what.
    assert "Play 3♥ face down" in " ".join(await picker_labels(table, red))
    await table.act(red, "choose:3H", via="dm")
    text = table_text(table)
    assert "Red · **ann-games**: ✅ has chosen a card (hidden)" in text
    assert "3♥" not in text and "Black (bea-games) to choose a card in secret" in text
    await assert_secrets_hidden(table)
    await table.act(black, "choose:QS")

    # The reveal: both cards at once; Red is lower and has the window.
    text = table_text(table)
    assert "Red (ann-games) plays 3♥, Black (bea-games) plays Q♠: 3 against 12." in text
    assert "🟥 Red · **ann-games**: 3♥ = 3 ⏳ its move" in text
    assert "⬛ Black · **bea-games**: Q♠ = 12" in text
    # On the table only Accept (it reveals nothing); doubles and Aces are in the picker.
    assert "🏳️ Accept the loss" in table_buttons(table)
    offered = await picker_labels(table, red)
    assert offered[:3] == [
        "✌️ Double with 3♦ (+3)",
        "🅰️ Claim the battle with A♥",
        "🏳️ Accept the loss",
    ]
    await assert_secrets_hidden(table)
    # The window is Red's: Black pressing the table's Accept is refused, privately.
    accept = next(c for c in controls(table.table_message()) if target_of(c.custom_id) == "accept")
    refused = await table.members[black].click(table.table_message(), custom_id=accept.custom_id)
    assert refused.ephemeral
    assert (await table.game()).view()["window"] == [red]

    # A double of its own rank: 6 against 12, still lower, so Red keeps the window.
    await table.act(red, "double:3D")
    assert "🟥 Red · **ann-games**: 3♥ + 3♦ = 6 (doubled) ⏳ its move" in table_text(table)
    offered = await picker_labels(table, red)
    assert not any("Double" in o for o in offered), "one double per side per battle"
    # An Ace claims the battle; Black may answer with an Ace of its own.
    await table.act(red, "ace:AH")
    text = table_text(table)
    assert "Red (ann-games) plays A♥ to claim the battle." in text
    assert "🅰️ its Ace claims the battle" in text
    assert "Black (bea-games) to answer Red's Ace" in text
    await table.act(black, "ace:AC", via="dm")

    # Red has no card left to answer: the last Ace wins the battle and all five cards.
    view = (await table.game()).view()
    assert view["victory_sizes"] == {red: 0, black: 5}
    assert view["scores"] == {red: 0, black: 8}  # Q, A, A count 2 each; 3, 3 count 1 each
    text = table_text(table)
    assert "Black (bea-games) wins battle 1 and takes 5 cards." in text
    assert "Last battle: 🟥 3♥ + 3♦ + A♥ = 7 vs ⬛ Q♠ + A♣ = 13" in text
    assert "⬛ Black · **bea-games** — hand 3 · deck 21 · victory pile 5 cards (**8 pts**)" in text
    assert "**Battle 2**" in text
    await assert_secrets_hidden(table)


async def test_restart_between_the_two_secret_choices(simcord_env, monkeypatch, make_bot) -> None:
    table = await start(simcord_env, monkeypatch, TIE)
    red, black = await sides(table)
    assert await hand(table, red) == ["7H", "9D", "KH"]
    assert await hand(table, black) == ["5S", "6C", "9S"]
    await table.act(red, "choose:KH")
    old_table = table.table_message()

    await simcord_env.restart_bot(make_bot())
    # Red's secret choice survived the restart, still secret.
    game = await table.game()
    assert game.view()["chosen"] == [red] and game.view(red)["choice"] == "choose:KH"
    assert "✅ has chosen a card (hidden)" in table_text(table)
    await assert_secrets_hidden(table)
    # Black chooses from the table posted before the restart.
    assert table.table_message().id == old_table.id
    await table.act(black, "choose:5S")

    text = table_text(table)
    assert "Red (ann-games) plays K♥, Black (bea-games) plays 5♠: 13 against 5." in text
    assert (await table.game()).view()["window"] == [black]
    await table.act(black, "accept", via="table")
    view = (await table.game()).view()
    assert view["victory_sizes"] == {red: 2, black: 0}
    assert view["scores"] == {red: 3, black: 0}  # K counts 2, 5 counts 1
    assert "Red (ann-games) wins battle 1 and takes 2 cards." in table_text(table)
    await assert_secrets_hidden(table)


async def test_a_tie_is_decided_in_secret_then_head_to_head(simcord_env, monkeypatch) -> None:
    table = await start(simcord_env, monkeypatch, TIE)
    red, black = await sides(table)
    await table.act(red, "choose:9D")
    await table.act(black, "choose:9S", via="dm")

    text = table_text(table)
    assert "Tie at 9: each side chooses at once to play an Ace or reinforce." in text
    # Stopping the fight needs an Ace, so the choice is private, never a table button.
    assert "🏳️ Accept the loss" not in table_buttons(table)
    assert "🛡️ Reinforce (head to head)" not in table_buttons(table)
    assert "🛡️ Reinforce (head to head)" in await picker_labels(table, red)
    await table.act(red, "reinforce")
    text = table_text(table)
    assert "✅ has decided (hidden)" in text and "⏳ Ace or reinforce?" in text
    await assert_secrets_hidden(table)
    await table.act(black, "reinforce")

    # Head to head, step by step in the log, then the whole battlefield with its totals.
    text = table_text(table)
    assert (
        "Head to head: Red (ann-games) adds 7♥, K♥, Black (bea-games) adds 5♠, 6♣: "
        "29 against 20." in text
    )
    assert "Red (ann-games) wins battle 1 and takes 6 cards." in text
    assert "Last battle: 🟥 9♦ + 7♥ + K♥ = 29 vs ⬛ 9♠ + 5♠ + 6♣ = 20" in text
    view = (await table.game()).view()
    assert view["victory_sizes"] == {red: 6, black: 0}
    assert view["hand_sizes"] == {red: 3, black: 3}  # both refilled from their decks
    await assert_secrets_hidden(table)


async def test_full_game_to_the_result_with_nothing_secret_in_public(
    simcord_env, monkeypatch
) -> None:
    table = await start(simcord_env, monkeypatch, FULL_GAME)
    red, black = await sides(table)
    phases: set[str] = set()

    async def check(table: Table) -> None:
        await assert_secrets_hidden(table)
        phases.add((await table.game()).view()["phase"])

    moves = await table.play_random(
        random.Random(5), check=check, prefer=("choose", "double", "ace", "reinforce")
    )
    # The game went through every kind of step: reaction windows, Ace answers and ties.
    assert phases == {"choose", "react", "answer", "tie", "over"}

    game = await table.game()
    assert game.finished
    view = game.view()
    # Every card ends in a victory pile; the piles score 68 points between them.
    assert sum(view["victory_sizes"].values()) == 52
    assert view["scores"][red] + view["scores"][black] == 68
    winners = game.winners
    last = table.channel.last_message
    assert "Final scores:" in last.content
    scores = {"ann-games": view["scores"][red], "bea-games": view["scores"][black]}
    ranked = sorted(scores, key=lambda n: -scores[n])
    second = 1 if scores[ranked[0]] == scores[ranked[1]] else 2
    assert (
        f"1. {ranked[0]} {scores[ranked[0]]} · {second}. {ranked[1]} {scores[ranked[1]]}"
        in last.content
    )
    if winners:
        assert f"<@{winners[0]}>" in last.content
    else:
        assert "draw" in last.content
    text = table_text(table)
    assert "Result" in text and f"{view['scores'][red]} pts" in text
    assert table.table_message().components == []
    stored = await table.bot.store.moves(table.game_id)
    assert len(stored) == moves


async def test_a_side_with_no_ace_left_is_shown_reinforcing_and_the_other_told_its_turn(
    simcord_env,
) -> None:
    """Before: a side the rules make reinforce (it surely holds no Ace) was shown as having
    decided in secret, its DM said "Your secret choice: reinforce", and the DM of the side to
    move never said "Your turn" (War of Suits prompts read "Black (bea) to ...")."""
    table = await Table.start(simcord_env, "warofsuits", 2, seed=5)
    red, black = (await table.game()).players
    session = await table.session()
    data = session.game.to_dict()  # type: ignore[union-attr]
    red_hand, black_hand = ["7D", "2D", "3D"], ["7C", "AC", "2C"]
    data["state"].update(
        hands=[red_hand, black_hand],
        decks=[
            [c for c in COLOUR_CARDS[0] if c not in [*red_hand, "AD", "AH"]],
            [c for c in COLOUR_CARDS[1] if c not in black_hand],
        ],
        piles=[[], ["AD", "AH"]],  # both red Aces already won by Black: seen
        field=[[], []],
        pending=[None, None],
        phase="choose",
    )
    session.game = engine.load(json.loads(json.dumps(data)))
    session.shown.table, session.shown.dms = None, {}
    await table.act(red, "choose:7D")
    await table.act(black, "choose:7C")
    assert (await table.game()).actors() == [black]
    text = table_text(table)
    assert "🛡️ reinforces (no Ace left)" in text and "has no Ace left: it reinforces" in text
    assert "✅ has decided (hidden)" not in text
    red_dm = message_text(table.dm_message(red))
    assert "Your secret choice" not in red_dm and "decided for you" in red_dm
    black_dm = message_text(table.dm_message(black))
    assert "**Your turn:** play an Ace or reinforce; Red reinforces (no Ace left)." in black_dm
