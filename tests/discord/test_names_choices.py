"""Names where a player must choose someone, and names in text Discord does not format.

Each docstring tells what players saw before the fix; the assertions are what they see now."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import controls, target_of
from tests.discord.test_names_on_buttons import start_named
from tests.discord.test_uno_truths import set_uno

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_seven_zero_swap_tells_namesakes_apart(
    simcord_env: Any,
) -> None:
    """UNO with seven-zero: Cy plays a 7 and must pick whom to swap hands with. Two of the
    other players are both displayed as "Sam" (different accounts), so the picker offers two
    buttons that both read "Sam": Cy cannot know which of them takes his hand (and gives him
    theirs), a move he would not have made had he known. The choices should be told apart
    (say, by username: "Sam (@sam_one)" / "Sam (@sam_two)")."""
    table = await start_named(simcord_env, "uno", ["Cy", "Sam", "Sam"], seven_zero=True)
    game = await table.game()
    cy, sam1, sam2 = game.players
    await set_uno(table, [["R7", "B1", "B2"], ["G1", "Y5", "G2"], ["Y1", "Y2", "G4"]], "R3")
    member = table.members[cy]
    table_message = table.table_message()
    play = next(c for c in controls(table_message) if target_of(c.custom_id) == "*")
    picker = (await member.click(table_message, custom_id=play.custom_id)).response
    seven = next(c for c in controls(picker) if target_of(c.custom_id) == "play:R7")
    step = (await member.click(picker, custom_id=seven.custom_id)).response
    labels = {target_of(c.custom_id): c.label for c in controls(step)}
    first, second = labels.get(f"play:R7:{sam1}"), labels.get(f"play:R7:{sam2}")
    assert first is not None and second is not None, labels
    assert first != second, f"both opponents are offered as {first!r}"


async def test_a_cancelled_lobby_footer_shows_no_escaping_backslash(simcord_env: Any) -> None:
    """The host "cool_guy" presses Cancel on his lobby. The lobby's footer then reads
    "Cancelled by cool\\_guy.": an embed footer is plain text (Discord renders no markdown
    there), so the backslash ``safe_name`` put before "_" shows. It should read
    "Cancelled by cool_guy." (the same with /endgame on a lobby)."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("lobby")
    host = guild.add_member(env.create_user("cg", global_name="cool_guy"))
    opened = await host.slash(channel, "newgame uno")
    assert not opened.ephemeral
    lobby = channel.last_message
    cancelled = await host.click(lobby, label="Cancel")
    assert not cancelled.ephemeral, cancelled.response and cancelled.response.content
    footer = channel.last_message.embeds[0].footer.text
    assert footer is not None and footer.startswith("Cancelled by"), footer
    assert footer == "Cancelled by cool_guy.", footer


async def test_moves_made_before_leaving_are_not_shown_as_the_bots(simcord_env: Any) -> None:
    """Ann plays a card herself, then uses /leave: a bot takes her seat and she is marked
    "Ann 🤖". The table's Recent log is drawn with today's names, so the move she made with
    her own hands now reads "Ann 🤖 plays 🟥 Red 5", as if the bot had played it (and when she
    comes back with /back, the bot's moves read as hers). The log should say who made each
    move: the mark belongs to the seat's state now (Players field), not to past lines."""
    table = await start_named(simcord_env, "uno", ["Ann", "Bea", "Cy"])
    game = await table.game()
    ann = game.players[0]
    await set_uno(table, [["R5", "B1", "B2"], ["G1", "Y5", "G2"], ["Y1", "Y2", "G4"]], "R3")
    await table.act(ann, "play:R5", via="picker")
    recent = next(f.value for f in table.table_message().embeds[0].fields if f.name == "Recent")
    mine = [line for line in recent.splitlines() if "Red 5" in line]
    assert mine and "Ann" in mine[-1] and "🤖" not in mine[-1], recent
    left = await table.members[ann].slash(table.channel, "leave")
    if left.response is not None and left.response.components:  # asked to confirm
        left = await table.members[ann].click(left.response, label="Leave the game")
    session = await table.session()
    assert session.seat(int(ann)).is_bot, left.response and left.response.content
    await simcord_env.bot.presenter.idle()
    recent = next(f.value for f in table.table_message().embeds[0].fields if f.name == "Recent")
    mine = [line for line in recent.splitlines() if "Red 5" in line]
    assert mine, recent
    assert "🤖" not in mine[-1], f"Ann's own move now reads {mine[-1]!r}"
