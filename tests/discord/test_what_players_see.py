"""What players see: per-game /newgame, fair UNO calls, explained refusals, UNO round
summaries, endings and Play again, wording in the second person."""

from __future__ import annotations

import random

import pytest

import engine
from cogs.hosting import GAMES
from cogs.lobby import option_annotation
from cogs.play import refusal
from tests.discord.driver import Table, controls, message_text, set_uno, target_of

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

FILL = ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]


@pytest.mark.parametrize("kind", list(GAMES))
def test_each_newgame_subcommand_has_exactly_its_games_options(simcord_env, kind: str) -> None:
    command = simcord_env.bot.tree.get_command("newgame").get_command(kind)
    cls = engine.GAMES[kind]
    params = {p.name: p for p in command.parameters}
    assert set(params) == {*cls.options, "bots", "turn_timer", "bot_level"}
    for name, option in cls.options.items():
        param = params[name]
        assert not param.required and param.description == option.short
        if option.type is int:
            assert (param.min_value, param.max_value) == (option.min, option.max)
        if option.choices:
            assert [c.value for c in param.choices] == list(option.choices)
        assert option_annotation(option) is not None
    assert params["bots"].max_value == cls.max_players - 1


async def test_the_lobby_shows_only_options_that_differ(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(channel, "newgame uno", target=200, stack_draws=False)
    text = message_text(channel.last_message)
    assert "target: **200**" in text
    assert "stack_draws" not in text and "scoring" not in text  # defaults are not listed


async def test_play_and_call_uno_in_one_click_and_a_forgetful_player_is_caught(
    simcord_env,
) -> None:
    table = await Table.start(simcord_env, "uno", 3, seed=1)
    ann, bea, cy = table.members
    await set_uno(table, [["R4", "B1"], ["G1", "G2", "Y5"], ["Y1", "Y2", "G4"]], "R1")
    # ann's DM offers the play with the call, in one click.
    dm = table.dm_message(ann)
    assert dm is not None
    labels = [c.label for c in controls(dm)]
    assert "🟥 Red 4 + UNO!" in labels and "🟥 Red 4" in labels
    await table.act(ann, "play+uno:R4", via="dm")
    assert (await table.game()).view()["uno_called"] == [ann]
    # No catch button appears; a catch that races the call is refused with the reason.
    assert not any("Catch" in c.label for c in controls(table.table_message()))
    session = await table.session()
    said = refusal(session, cy, f"catch:{ann}", "That move is not available right now.")
    assert said == "ann-games called UNO in time: there's nothing to catch."
    # bea forgets: she plays her next-to-last card without calling...
    await set_uno(table, [["R4", "B1", "B2"], ["G1", "Y5"], ["Y1", "Y2", "G4"]], "G3", cur=1)
    await table.act(bea, "play:G1", via="dm")
    catch = next(c for c in controls(table.table_message()) if c.label.startswith("Catch"))
    # ... and ann's UNO! button press for bea is refused with who may and why.
    uno = next(c for c in controls(table.table_message()) if target_of(c.custom_id) == "uno")
    wrong = await table.members[ann].click(table.table_message(), custom_id=uno.custom_id)
    assert wrong.ephemeral and "Only bea-games can call UNO now" in wrong.response.content
    # cy catches her: bea draws two.
    await table.members[cy].click(table.table_message(), custom_id=catch.custom_id)
    view = (await table.game()).view()
    assert view["hand_sizes"][bea] == 3 and view["uno_window"] is None
    # Too late now: another catch is refused and says why.
    session = await table.session()
    said = refusal(session, ann, f"catch:{bea}", "That move is not available right now.")
    assert said == "Too late to catch bea-games: someone caught them first, or play moved on."


async def test_uno_round_summary_then_play_again(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=2, target=500)
    ann, bea = table.members
    await set_uno(table, [["R4"], ["G1", "W", "Y5"]], "R1")
    await table.act(ann, "play:R4", via="dm")
    summary = next(m for m in table.public_messages() if "Round 1" in (m.content or ""))
    text = summary.content
    assert "ann-games went out" in text
    assert "bea-games: 🟨 Yellow 5, 🟩 Green 1, 🌈 Wild — 56 points" in text
    assert "Scores: ann-games 56 · bea-games 0 (first to 500 points)" in text
    # Private notes of round 1 are gone from round 2's hands.
    session = await table.session()
    assert session.notes(int(ann)) == [] and session.notes(int(bea)) == []
    # The game to its end (target lowered for the test), then Play again.
    session.game.config["target"] = 60  # type: ignore[union-attr]
    await table.play_random(random.Random(4))
    end = next(m for m in table.public_messages() if "Final scores" in (m.content or ""))
    assert "Play again" in [c.label for c in controls(end)]
    # The DM says the game is over (not "ended early").
    dm = table.dm_message(ann)
    assert dm is not None and "The game is over" in message_text(dm)
    assert "ended early" not in message_text(dm)
    again = await table.members[bea].click(end, label="Play again")
    assert not again.ephemeral
    lobby = table.channel.last_message
    assert f"<@{ann}>" in lobby.content and "Press **Join**" in lobby.content
    stored = simcord_env.backend.get_message(table.channel.id, lobby.id)
    assert set(stored.ping_user_ids) == {int(ann)}
    row = await table.bot.store.open_game_in_channel(table.channel.id)
    assert row is not None and row.status == "lobby" and row.host_id == int(bea)
    assert row.options == {"target": 500}
    joined = await table.members[ann].click(lobby, label="Join")
    assert not joined.ephemeral


async def test_seven_zero_targets_are_names_and_dm_speaks_to_you(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=3, seven_zero=True)
    ann, bea = table.members
    await set_uno(table, [["R7", "B1", "B2"], ["G1", "G2", "G3"]], "R1")
    dm = table.dm_message(ann)
    assert dm is not None
    labels = [c.label for c in controls(dm)]
    assert "🟥 Red 7 ⇄ bea-games" in labels
    assert not any(bea in label for label in labels)  # no raw user id
    text = message_text(dm)
    assert "**Your turn:** play a Red card or any 1, a wild, or draw." in text
    assert "ann-games to play" not in text
