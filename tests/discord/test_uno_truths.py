"""UNO on Discord, from the players' side: refusals, prompts and notes that must say the truth.

Each test reproduced a problem found in review: before its fix, it failed.
"""

from __future__ import annotations

import pytest

from cogs import ids
from cogs.play import refusal
from tests.discord.driver import Table, controls, message_text, set_uno, target_of

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def button(message, action_id: str):  # type: ignore[no-untyped-def]
    return next(c for c in controls(message) if target_of(c.custom_id) == action_id)


async def test_a_player_pressing_catch_on_themselves_is_not_told_it_is_too_late(
    simcord_env,
) -> None:
    """bea forgets to call UNO; the table shows "Catch bea!" to everyone, bea included. When
    bea presses it, the window is still open (she can still press UNO!), yet she is told
    "Too late to catch bea: the next player has already moved." — untrue on both counts."""
    table = await Table.start(simcord_env, "uno", 3, seed=1)
    _ann, bea, _cy = table.members
    await set_uno(table, [["R4", "B1", "B2"], ["G1", "Y5"], ["Y1", "Y2", "G4"]], "G3", cur=1)
    await table.act(bea, "play:G1", via="dm")
    message = table.table_message()
    catch = button(message, f"catch:{bea}")
    said = await table.members[bea].click(message, custom_id=catch.custom_id)
    assert said.ephemeral
    text = said.response.content
    assert (await table.game()).view()["uno_window"] == bea  # nothing changed: still open
    assert "next player has already moved" not in text, text
    assert "Too late" not in text, text


async def test_lowest_scoring_table_result_agrees_with_the_end_post(simcord_env) -> None:
    """With ``scoring=lowest`` the lowest total wins, and the end post ranks it first. The
    finished table's Result field sorts highest first, so under "🏆 ann wins!" it lists the
    loser on top and the winner last: the two messages disagree on the ranking."""
    table = await Table.start(simcord_env, "uno", 3, seed=2, scoring="lowest", target=50)
    ann, _bea, _cy = table.members
    # ann goes out; bea is left with 54 points (over the target), cy with 5.
    await set_uno(table, [["R4"], ["G1", "W", "Y3"], ["Y5"]], "R1")
    await table.act(ann, "play:R4", via="dm")
    await table.bot.presenter.idle()
    game = await table.game()
    assert game.finished and game.winners == [ann]
    end = next(m for m in table.public_messages() if "Final scores" in (m.content or ""))
    assert "1. ann-games 0 · 2. cy-games 5 · 3. bea-games 54" in end.content
    result = next(f for f in table.table_message().embeds[0].fields if f.name == "Result")
    lines = result.value.splitlines()
    assert lines[0].startswith("🏆 **ann-games** wins")
    # Ranked as the end post ranks them: the winner's (lowest) total first.
    assert lines[1:] == ["ann-games: 0", "cy-games: 5", "bea-games: 54"], lines


async def test_round_two_dm_does_not_show_the_cards_drawn_for_round_ones_last_card(
    simcord_env,
) -> None:
    """Issue #11: "private notes cleared between rounds". When the last card of a round is a
    Draw Two, the next player's "You drew …" for it lands in the new round's notes: bea's DM
    in round 2 says "Only you can see: You drew Yellow 9, Yellow 9." about cards of a
    hand that was scored and thrown in."""
    table = await Table.start(simcord_env, "uno", 2, seed=2, target=500)
    ann, bea = table.members
    await set_uno(table, [["RD2"], ["G1", "G2", "G3"]], "R1")
    await table.act(ann, "play:RD2", via="dm")
    await table.bot.presenter.idle()
    game = await table.game()
    assert game.view()["round"] == 2 and not game.finished
    assert game.view()["last_round"]["hands"][bea] == ["Y9", "Y9", "G1", "G2", "G3"]
    session = await table.session()
    stale = [n for n in session.notes(int(bea)) if "You drew Yellow 9, Yellow 9" in n]
    dm = table.dm_message(bea)
    assert dm is not None
    assert stale == [], session.notes(int(bea))
    assert "You drew Yellow 9, Yellow 9" not in message_text(dm)


async def test_lowest_scoring_never_says_first_to_the_target(simcord_env) -> None:
    """With ``scoring=lowest`` reaching the target ends the game and the *lowest* total wins
    (docs/rules/uno.md, Lowest scoring). The table ("Round 2 · first to 500 points") and the
    round summary ("Scores: … (first to 500)") tell players the opposite: that the first to
    reach the target wins."""
    table = await Table.start(simcord_env, "uno", 2, seed=2, scoring="lowest")
    ann, _bea = table.members
    await set_uno(table, [["R4"], ["G1", "W", "Y5"]], "R1")
    await table.act(ann, "play:R4", via="dm")
    await table.bot.presenter.idle()
    assert not (await table.game()).finished
    summary = next(m for m in table.public_messages() if "Round 1" in (m.content or ""))
    assert "first to 500" not in summary.content, summary.content
    table_text = message_text(table.table_message())
    assert "first to 500" not in table_text, table_text


async def test_play_a_card_on_a_table_one_edit_behind_opens_the_picker(
    simcord_env, monkeypatch
) -> None:
    """ann moves from her DM; bob's DM already says it is his turn, but the table's edit is
    still on its way (a 429, the REST budget: README says a table may show a move a second or
    several later). bob presses **Play a card** on the table: it only opens his picker, which
    always shows the game as it is now, yet he is told "That button is from an earlier turn,
    so nothing happened." and gets no picker (the same on every press until the edit lands)."""
    table = await Table.start(simcord_env, "uno", 2, seed=2)
    ann, bea = table.members
    await set_uno(table, [["R4", "R5", "B1"], ["G1", "R2", "Y5"]], "R1")
    await table.bot.presenter.idle()
    old_table = table.table_message()
    root = button(old_table, ids.ROOT)

    async def late(session):  # type: ignore[no-untyped-def]
        return True  # the table's edit has not landed yet (nothing edited)

    monkeypatch.setattr(table.bot.presenter, "refresh_table", late)
    await table.act(ann, "play:R4", via="dm")
    game = await table.game()
    assert game.view()["current"] == bea
    result = await table.members[bea].click(old_table, custom_id=root.custom_id)
    assert result.ephemeral
    content = result.response.content or ""
    assert "out of date" not in content, content
    assert controls(result.response), "bob gets his picker with his moves"


async def test_a_second_catch_is_told_someone_caught_them_not_that_the_next_player_moved(
    simcord_env,
) -> None:
    """bea forgets UNO; cy and ann both press "Catch bea!" on the same table. cy's lands
    first (bea draws 2); ann is told "Too late to catch bea: the next player has already
    moved." Nobody has moved: cy caught her ("One catch is enough; after it nobody else can
    catch", docs/rules/uno.md). The refusal states something untrue."""
    table = await Table.start(simcord_env, "uno", 3, seed=1)
    ann, bea, cy = table.members
    await set_uno(table, [["R4", "B1", "B2"], ["G1", "Y5"], ["Y1", "Y2", "G4"]], "G3", cur=1)
    await table.act(bea, "play:G1", via="dm")
    message = table.table_message()
    catch = button(message, f"catch:{bea}")
    await table.members[cy].click(message, custom_id=catch.custom_id)
    view = (await table.game()).view()
    assert view["hand_sizes"][bea] == 3 and view["current"] == cy  # cy has not moved yet
    # ann's click was on the same table (a version behind now): the table path asks the
    # renderer to explain, exactly as ``refusal`` does.
    session = await table.session()
    text = refusal(session, ann, f"catch:{bea}", "That move is not available right now.")
    assert "next player has already moved" not in text, text


async def test_the_public_draw_button_does_not_tell_whether_the_player_can_play(
    simcord_env,
) -> None:
    """Custom rule 3 ("If the next player can't play a card, they take three cards"): the
    table's public Draw button reads "Draw 3 cards (you cannot play)" when the next player
    holds nothing playable and "Draw a card" when they do, so everyone reads from the table
    what is in bea's hand before she moves (and "you cannot play", on a public message, seems
    to speak to whoever reads it)."""
    seen = []
    # bea holds no red card and no wild, then one red card: after ann's custom card (red),
    # she cannot play, then she can. The table reads the same either way.
    for bea_hand in (["G1", "G7", "Y5"], ["G1", "R7", "Y5"]):
        table = await Table.start(
            simcord_env, "uno", 3, f"t{len(seen)}", seed=1, custom_wilds=1, custom_rules="3"
        )
        ann, _bea, _cy = table.members
        await set_uno(table, [["WC3", "B1", "B2"], bea_hand, ["Y1", "Y2", "G4"]], "R3")
        await table.act(ann, "play:WC3:R", via="dm")
        await table.bot.presenter.idle()
        labels = [c.label for c in controls(table.table_message())]
        assert not any("cannot play" in label for label in labels), labels
        seen.append(labels)
    assert seen[0] == seen[1]


async def test_the_round_that_ends_the_game_shows_the_hands_that_scored(simcord_env) -> None:
    """Issue #11: "A UNO round ends with a summary (who went out, each player's remaining
    cards and the points they gave) posted once". Every round gets it except the last, the
    one that decides the game: the end post gives only the final totals, so nobody sees
    which cards gave the winning points."""
    table = await Table.start(simcord_env, "uno", 2, seed=2, target=50)
    ann, _bea = table.members
    await set_uno(table, [["R4"], ["G1", "W", "Y5"]], "R1")
    await table.act(ann, "play:R4", via="dm")
    await table.bot.presenter.idle()
    assert (await table.game()).finished
    public = "\n".join(message_text(m) for m in table.public_messages())
    assert "🟨 Yellow 5" in public and "56 points" in public, public


async def test_uno_pressed_twice_is_told_it_was_called(simcord_env) -> None:
    """Before: the second click on UNO! was told "You call UNO when you play your
    next-to-last card", which is not what had happened."""
    table = await Table.start(simcord_env, "uno", 3, seed=1)
    _ann, bea, _cy = table.members
    await set_uno(table, [["R4", "B1", "B2"], ["G1", "Y5"], ["Y1", "Y2", "G4"]], "G3", cur=1)
    await table.act(bea, "play:G1", via="dm")
    message = table.table_message()
    uno = button(message, "uno")
    first = await table.members[bea].click(message, custom_id=uno.custom_id)
    assert not first.ephemeral
    session = await table.session()
    text = refusal(session, bea, "uno", "That move is not available right now.")
    assert text == "You've already called UNO.", text


async def test_custom_rule_six_names_those_discarding(simcord_env) -> None:
    """Custom rule 6 ("everyone must discard until they have exactly 3 cards"): before, the
    table's ▶ and the refusal named the current player, who may have nothing to discard."""
    table = await Table.start(simcord_env, "uno", 3, seed=1, custom_wilds=1, custom_rules="6")
    ann, bea, cy = table.members
    hands = [["WC6", "B1", "B2"], ["G1", "G7", "Y5", "Y6", "R2"], ["Y1", "Y2", "G4"]]
    await set_uno(table, hands, "R3")
    await table.act(ann, "play:WC6:R", via="dm")
    game = await table.game()
    assert game.view()["discarding"] == {bea: 2}, game.view()
    session = await table.session()
    players = session.hosted.renderer.players_text(session.view(None), session.names)
    marked = [line for line in players.splitlines() if line.startswith("▶")]
    assert len(marked) == 1 and session.names[bea] in marked[0], players
    text = refusal(session, cy, "draw", "That move is not available right now.")
    assert session.names[bea] in text and "discard" in text, text
