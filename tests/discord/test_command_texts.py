"""The command lists players read (README's table, the /rules "Commands" section) against
the commands and options the bot actually registers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from discord import app_commands

from cogs.hosting import GAMES
from cogs.rules import book_for

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

README = Path(__file__).resolve().parents[2] / "README.md"


def registered(bot) -> dict[str, set[str]]:
    """{top-level command: every option name it (or any of its subcommands) takes}."""
    found: dict[str, set[str]] = {}
    for command in bot.tree.get_commands():
        names: set[str] = set()
        if isinstance(command, app_commands.Group):
            for sub in command.walk_commands():
                if isinstance(sub, app_commands.Command):
                    names |= {p.name for p in sub.parameters}
        else:
            names |= {p.name for p in command.parameters}
        found[command.name] = names
    return found


async def test_readme_command_table_names_only_options_the_commands_take(simcord_env) -> None:
    """README once documented `/newgame game:<game> [options]`, but /newgame has no `game` option:
    the game is a subcommand (`/newgame uno`), as docs/rules and /rules say."""
    commands = registered(simcord_env.bot)
    wrong = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| `/"):
            continue
        cell = line.split("|")[1]
        for usage in re.findall(r"`(/[^`]+)`", cell):
            name, *rest = usage[1:].split()
            assert name in commands, f"README names /{name}, which does not exist"
            for option in re.findall(r"([a-z_]+):<", " ".join(rest)):
                if option not in commands[name]:
                    wrong.append(f"{usage} (/{name} takes: {sorted(commands[name])})")
    assert not wrong, wrong


async def test_the_rules_command_list_names_every_command(simcord_env) -> None:
    """/rules' "Commands" section (docs/rules/common.md) is the players' list of commands,
    and it once stopped at /endgame: /stats, /leaderboard, /history, /replay and /privacy
    were nowhere in /rules."""
    commands = registered(simcord_env.bot)
    book = book_for(GAMES["uno"])
    listed = next(s.body for s in book.sections if s.title == "Commands")
    missing = sorted(c for c in commands if f"`/{c}" not in listed)
    assert not missing, f"/rules' Commands section misses: {', '.join('/' + c for c in missing)}"
