"""Names at the table (``member_name``): namesakes told apart, robots left out, at the edges.

Each docstring tells what players saw before the fix; the assertions are what they see now."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from tests.discord.test_names_on_buttons import start_named
from tests.discord.test_names_shown import INVISIBLE as BLANK
from tests.discord.test_names_shown import players_field, shown_names

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def looks(name: str) -> str:
    """What a reader sees: the name without the characters that draw nothing."""
    return "".join(
        c
        for c in name
        if c not in BLANK and unicodedata.category(c) not in ("Cf", "Mn", "Me", "Zs", "Cc")
    ).strip()


async def test_namesakes_with_long_display_names_are_still_told_apart(simcord_env: Any) -> None:
    """Two members both called "Christopher Alexander Montgomery" (32 characters, the most
    Discord allows) sit at one UNO table. ``member_name`` stores the second as
    "Christopher Alexander Montgomery (@user1-uno)", but every name is then cut to 32
    characters when shown (``safe_name``'s MAX_NAME), so the " (@user1-uno)" that tells them
    apart is cut off: the Players field, the log and the Catch button show exactly the same
    name twice (any display name of 28+ characters loses the suffix, wholly or in part).
    The told-apart part should survive: shorten the display name, not the username suffix
    (or let safe_name keep the suffix)."""
    long = "Christopher Alexander Montgomery"
    assert len(long) == 32
    table = await start_named(simcord_env, "uno", [long, long])
    names = shown_names(table)
    assert len(names) == 2, players_field(table)
    seen = [looks(n).rstrip(" (").replace("\\", "") for n in names]
    assert seen[0] != seen[1], f"the table shows both players as {names!r}"


async def test_a_robot_before_a_blank_letter_is_left_out_too(
    simcord_env: Any,
) -> None:
    """Bea's display name is "bea 🤖⠀" (a braille blank after the robot: it draws nothing).
    ``member_name`` only strips a robot followed by spaces or joiners at the very end, so
    the blank letter shields it: the table lists her as "bea 🤖", exactly how it marks a
    member whose seat a bot plays while they are away, though she plays it herself (and
    "🤖⠀Ann"-style names pass for bot seats the same way). docs/rules/common.md promises
    a 🤖 at either end of a member's name is left out; the blank-looking letters
    (``_BLANK_LETTERS``) should count as "space" around the robot too."""
    table = await start_named(simcord_env, "uno", ["Ann", "bea \U0001f916\u2800"])
    names = shown_names(table)
    assert len(names) == 2, players_field(table)
    seen = looks(names[1])
    assert not seen.endswith("\U0001f916"), f"bea, playing her own seat, is shown as {seen!r}"


async def test_a_namesake_behind_a_blank_letter_is_told_apart(simcord_env: Any) -> None:
    """Two members at one table: "Sam", and another whose display name is "Sam⠀" (a braille
    blank at the end, which draws nothing; Discord accepts it in names). ``member_name``
    compares names as typed, so the two count as different and neither gets the
    "(@username)" that docs/rules/common.md promises to namesakes: the table lists two
    "Sam"s, the log says "Sam plays…" for both and "Catch Sam!" could be either. Names
    should be compared as they look (blank-looking letters and spaces left out) when
    deciding who needs telling apart."""
    table = await start_named(simcord_env, "uno", ["Sam", "Sam\u2800"])
    names = shown_names(table)
    assert len(names) == 2, players_field(table)
    seen = [looks(n) for n in names]
    assert seen[0] != seen[1], f"both players read as {seen[0]!r}: {names!r}"


async def test_a_nickname_changed_mid_game_is_taken_from_a_my_hand_click(simcord_env: Any) -> None:
    """A member waiting for their turn (say "Ann") sets her server nickname to "Beatrix"
    and presses **My hand** on the table (a click in the channel). Then the other player
    plays a card and the table is redrawn: it still lists "Ann", and keeps doing so until
    Ann herself makes a move. Only the move buttons renamed a seat (``Play._rename`` in
    ``on_act``); "My hand" (``on_hand``), the commonest click of a waiting player, did not, though
    docs/rules/common.md says the table uses the new name "from your next click in the
    channel". ``on_hand`` (and the other in-server game clicks) should rename too."""
    table = await start_named(simcord_env, "uno", ["Ann", "Bea"])
    game = await table.game()
    mover = game.actors()[0]
    waiting = next(p for p in game.players if p != mover)
    member = table.members[waiting]
    simcord_env.backend.edit_member(table.channel.guild.id, member.id, {"nick": "Beatrix"})
    hand = await member.click(table.table_message(), label="My hand")
    assert hand.ephemeral
    await table.some_move(via="picker")
    await simcord_env.bot.presenter.idle()
    game = await table.game()
    shown = dict(zip(game.players, shown_names(table), strict=True))[waiting]
    assert shown == "Beatrix", f"the redrawn table still calls her {shown!r}"


async def test_a_nickname_taken_from_my_hand_is_shown_without_waiting_for_a_move(
    simcord_env: Any,
) -> None:
    """Before, a member who renamed herself and pressed **My hand** was renamed in the
    database, but the table went on listing her old name until somebody moved (at a slow
    table, or while she was the one to move, that could be minutes). Now the table is
    redrawn at once."""
    table = await start_named(simcord_env, "uno", ["Ann", "Bea"])
    game = await table.game()
    member = table.members[game.players[1]]
    simcord_env.backend.edit_member(table.channel.guild.id, member.id, {"nick": "Beatrix"})
    version = (await table.session()).version
    hand = await member.click(table.table_message(), label="My hand")
    assert hand.ephemeral
    await simcord_env.bot.presenter.idle()
    assert (await table.session()).version == version, "no move was made"
    shown = dict(zip(game.players, shown_names(table), strict=True))[game.players[1]]
    assert shown == "Beatrix", f"the table still calls her {shown!r}"
