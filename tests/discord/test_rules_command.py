"""/rules: a quick start at once, the full rules one choice away, written for players."""

from __future__ import annotations

import re

import pytest

import engine
from cogs.hosting import GAMES
from cogs.rules import book_for, rules_screen
from tests.discord.driver import controls, message_text

KINDS = list(GAMES)
# What a player page must never show: tables, code names, action ids, developer words.
FORBIDDEN = [
    re.compile(r"^\s*\|.*\|\s*$", re.MULTILINE),  # a Markdown table row
    re.compile(r"`[a-z_+]+:[^`\s]*`"),  # an action id such as `play:R7`
    re.compile(r"\b(engine|action id|view key|Uno|IHaveIt|WarOfSuits|ItemCollection)\b"),
    re.compile(r"\[(seed|ruling|decision|house)\]"),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)  # the same on either
async def test_rules_open_with_a_quick_start_and_a_menu_of_sections(simcord_env, kind) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("rules")
    ann = guild.add_member(simcord_env.create_user("ann"))
    result = await ann.slash(channel, "rules", game=kind)
    assert result.ephemeral and not result.followups  # one message
    embed = result.response.embeds[0]
    assert embed.title == f"{GAMES[kind].title} — Quick start"
    (menu,) = controls(result.response)
    book = book_for(GAMES[kind])
    assert len(menu.values) == len(book.sections) >= 4
    # The full rules are one choice away: pick the options page.
    options = next(str(i) for i, s in enumerate(book.sections) if s.title == "Options")
    shown = await ann.select(result.response, [options], custom_id=menu.custom_id)
    page = message_text(shown.response)
    assert "Options" in page and "turn_timer" in page and "bot_level" in page


@pytest.mark.parametrize("kind", KINDS)
def test_every_page_is_for_players_and_fits_discord(kind: str) -> None:
    book = book_for(GAMES[kind])
    assert book.sections[0].title == "Quick start"
    assert len(book.sections[0].body) <= 2000
    for i, section in enumerate(book.sections):
        screen = rules_screen(kind, i)
        assert screen.embed is not None
        assert len(screen.embed.title) <= 256 and len(screen.embed.description) <= 4096
        assert len(section.body) <= 4000, f"{section.title} is {len(section.body)} characters"
        for pattern in FORBIDDEN:
            found = pattern.search(section.body)
            assert found is None, f"{kind} / {section.title}: {found.group(0)!r}"
    assert len(book.sections) <= 25


@pytest.mark.parametrize("kind", KINDS)
def test_the_options_page_states_the_ranges_the_command_accepts(kind: str) -> None:
    cls = engine.GAMES[kind]
    book = book_for(GAMES[kind])
    options = next(s.body for s in book.sections if s.title == "Options")
    for name, option in cls.options.items():
        assert f"**{name}**" in options
        if option.type is int:
            assert f"from {option.min} to {option.max}" in options
    assert f"0 to {cls.max_players - 1}" in options
    assert f"(default {GAMES[kind].turn_timer})" in options
    # Before, a yes/no option was said to accept "on or off", and the bots "0 to N (more in
    # the lobby)" when N was already the most a lobby takes. Discord's picker reads True and
    # False; more bots are not possible, only adding them later.
    if any(option.type is bool for option in cls.options.values()):
        assert "True or False" in options and "on or off" not in options
    assert "more in the lobby" not in options
