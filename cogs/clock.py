"""Wall-clock time for the Discord layer.

Through discord.utils so that tests driving a simulated Discord (simcord) control it too.
"""

from __future__ import annotations

import discord


def now() -> float:
    """Unix time, in seconds."""
    return discord.utils.utcnow().timestamp()
