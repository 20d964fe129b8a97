"""LOG_LEVEL=DEBUG: the bot's own debug lines, but never discord.py's, which log every
request body (each player's hand in their DM edits) and every gateway event (secret choices
in button ids)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import logging, bot
bot.configure_logging({level!r})
print(*(int(logging.getLogger(n).isEnabledFor(logging.DEBUG))
        for n in ("discord.http", "discord.gateway", "cogs.presenter", "cardtable")))
print(*(int(logging.getLogger(n).isEnabledFor(logging.INFO))
        for n in ("discord.client", "cogs.presenter")))
"""


def probe(level: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(level=level)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.split("\n")[:2]


def test_debug_is_the_bots_own_and_never_discord_pys() -> None:
    debug, info = probe("DEBUG")
    assert debug == "0 0 1 1"
    assert info == "1 1"


def test_warning_quiets_both() -> None:
    debug, info = probe("WARNING")
    assert debug == "0 0 0 0"
    assert info == "0 0"
