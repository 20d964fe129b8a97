"""What the bot keeps per game, counted: the growth tests' measure of what a game leaves."""

from __future__ import annotations

from typing import Any


def per_game(bot: Any) -> dict[str, int]:
    """The sizes of the bot's own per-game stores (sessions, presenter, timers, endings)."""
    presenter = bot.presenter
    sessions = bot.sessions
    return {
        "sessions._cache": len(sessions._cache),
        "sessions._locks": len(sessions._locks),
        "sessions._clocks_stored": len(sessions._clocks_stored),
        "presenter._pending": len(presenter._pending),
        "presenter._workers": len(presenter._workers),
        "presenter._in_flight": len(presenter._in_flight),
        # presenter._drawn is not here: it holds what was drawn since its last batch was
        # stored (at most a second of draws, stored with the next), by design.
        "timers._firing": len(bot.get_cog("Timers")._firing),
        "endings._posted": len(bot.get_cog("Endings")._posted),
    }
