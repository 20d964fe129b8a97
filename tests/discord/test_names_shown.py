"""Names of members as the table shows them: renamed, alike, invisible, or dressed as a bot.

Each docstring tells what players saw before the fix (``cogs.render.text.member_name``, the
rename on a click in ``cogs.play``); the assertions are what they see now."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.test_names_on_buttons import start_named

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def players_field(table: Table) -> str:
    embed = table.table_message().embeds[0]
    return next(f.value for f in embed.fields if f.name == "Players")


def shown_names(table: Table) -> list[str]:
    """The names in the table's Players field, in seat order (bold, after the turn marker)."""
    return re.findall(r"^[▶•] \*\*(.+?)\*\*", players_field(table), flags=re.M)


async def seat_names(table: Table) -> dict[str, str]:
    """Engine player id -> the name the table shows for that seat."""
    game = await table.game()
    return dict(zip(game.players, shown_names(table), strict=True))


INVISIBLE = {"\u3164", "\u2800", "\u115f", "\u1160", "\uffa0"}  # blank-looking letters


def visible(text: str) -> bool:
    return any(
        not c.isspace()
        and c not in INVISIBLE
        and unicodedata.category(c) not in ("Cf", "Cc", "Mn", "Me", "Zs")
        for c in text
    )


async def test_a_nickname_changed_mid_game_is_shown_from_the_next_click(
    simcord_env: Any,
) -> None:
    """The player to move ("Bea") sets her server nickname to "Annie" mid-game and plays a
    card. The click carries her new name (``/stats`` already calls her "Annie") and the bot
    redraws the table for the move, yet the Players field, the log, the prompt and the other
    players' DMs keep calling her "Bea" for the rest of the game: the name is stored once,
    when she joined the lobby, and never looked at again (while the mention in "Waiting for
    @Annie" shows the new one). The redrawn table should say "Annie": the bot could take the
    name each click brings along (``interaction.user.display_name``)."""
    table = await start_named(simcord_env, "uno", ["Ann", "Bea"])
    game = await table.game()
    mover = game.actors()[0]
    member = table.members[mover]
    old = (await seat_names(table))[mover]
    simcord_env.backend.edit_member(table.channel.guild.id, member.id, {"nick": "Annie"})
    stats = await member.slash(table.channel, "stats")
    assert stats.response is not None and "Annie" in stats.response.content  # the bot knows
    await table.some_move(via="picker")
    shown = (await seat_names(table))[mover]
    assert shown == "Annie", f"still shown as {shown!r} (was {old!r})"


async def test_two_members_with_the_same_display_name_are_told_apart(
    simcord_env: Any,
) -> None:
    """Two members whose display name is "Sam" (different accounts, usernames sam1 and sam2)
    sit at one UNO table. The table lists "▶ **Sam** — 7 cards" and "• **Sam** — 7 cards",
    the log says "Sam plays…", the Catch button says "Catch Sam!": nobody can tell whose turn
    it is or whom they catch. Same-looking names should be told apart (say, "Sam (@sam2)")."""
    table = await start_named(simcord_env, "uno", ["Sam", "Sam", "Cy"])
    names = shown_names(table)
    assert len(names) == 3, players_field(table)
    assert len(set(names)) == 3, f"the table shows {names}"


@pytest.mark.parametrize(
    ("human", "bot_seat"),
    [("🤖 Ada", True), ("bea 🤖", False)],
    ids=["named-like-a-bot-seat", "named-like-an-away-member"],
)
async def test_a_member_cannot_pass_for_a_bot(simcord_env: Any, human: str, bot_seat: bool) -> None:
    """The bot names its bot seats "🤖 Ada", "🤖 Babbage"… and marks a member whose seat a bot
    plays while they are away with a trailing " 🤖". A member whose display name is "🤖 Ada"
    (or "bea 🤖") is shown exactly so: at a table with the bot "🤖 Ada" the Players field
    shows "🤖 Ada" twice, and "bea 🤖" reads as "bea is away, a bot plays her seat" while she
    plays it herself. The players are misled about who is a bot (and so about who can be
    caught, who is rated, who will answer). A member's name should never carry the marks the
    bot uses for bots."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("robots")
    host = guild.add_member(env.create_user("host", global_name="ann" if not bot_seat else human))
    members = [host]
    if bot_seat:
        opened = await host.slash(channel, "newgame uno", bots=1, turn_timer=0)
    else:
        opened = await host.slash(channel, "newgame uno", turn_timer=0)
    assert not opened.ephemeral
    lobby = channel.last_message
    if not bot_seat:
        other = guild.add_member(env.create_user("bea", global_name=human))
        members.append(other)
        assert not (await other.click(lobby, label="Join")).ephemeral
    started = await host.click(lobby, label="Start")
    assert not started.ephemeral, started.response and started.response.content
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    table = Table(env, channel, members, game_id)
    session = await table.session()
    names = await seat_names(table)
    target = members[0] if bot_seat else members[1]
    assert session.seat(target.id) is not None and not session.seat(target.id).is_bot
    mine = names[str(target.id)]
    others = [n for p, n in names.items() if p != str(target.id)]
    assert mine not in others, f"the member and a bot seat are both shown as {mine!r}"
    assert not mine.startswith("🤖") and not mine.endswith("🤖"), (
        f"a member playing their own seat is shown as {mine!r}, the way bots are marked"
    )


@pytest.mark.parametrize("blank", ["\u3164", "\u2800\u2800"], ids=["hangul-filler", "braille"])
async def test_a_blank_looking_name_is_shown_as_the_username(simcord_env: Any, blank: str) -> None:
    """A member whose display name is made only of blank-looking letters ("ㅤ", U+3164, the
    classic "invisible name", or the braille blank "⠀") is shown as nothing: the Players field
    reads "• ****  — 7 cards", the log "  plays 🟥 Red 5", the prompt "  to play". Nobody
    can tell who that is. ``safe_name`` turns a name that is empty after stripping into "?",
    but not one that only looks empty; it should fall back to something visible (the
    username, or "?") too."""
    table = await start_named(simcord_env, "uno", ["Ann", blank])
    names = shown_names(table)
    assert len(names) == 2, players_field(table)
    assert all(visible(n) for n in names), f"names shown: {names!r}"
