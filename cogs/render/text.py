"""Text helpers: player ids -> names, card codes -> readable labels."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine import cards


def humanize(text: str, names: Mapping[str, str]) -> str:
    """Replace engine player ids (Discord user ids as text; bots' seats negative) with display
    names. One pattern finds every id-shaped number, so nothing is compiled per table of
    players (a cache of such patterns thrashed once a process had more tables than it held)."""
    if not names:
        return text
    return _PLAYER_ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)


# A whole number not inside a word and not a mention's (``<@123>`` stays a mention).
_PLAYER_ID = re.compile(r"(?<![\w@])-?\d+(?!\w)")


def standard_card(code: str) -> str:
    """``10H`` -> ``10♥``; anything else unchanged."""
    return cards.label(code) if cards.is_card(code) else code


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_MARKDOWN = re.compile(r"([\\*_~|`>\[\]()#])")
# Control and direction characters go; the zero-width joiners (U+200C, U+200D) stay: emoji
# sequences (🏳️‍🌈) and Persian or Indic names are written with them.
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b\u200e\u200f\u2028-\u202e\u2066-\u2069]")
MAX_NAME = 32  # Discord display names are at most 32 characters


_ESCAPED = re.compile(r"\\([\\*_~|`>\[\]()#])")


def plain(text: str) -> str:
    """Text for a button or a select, where markdown never renders: the backslashes that
    ``safe_name`` put before markdown characters would show ("cool\\_guy"), so they go."""
    return _ESCAPED.sub(r"\1", text) if "\\" in text else text


def safe_name(raw: str) -> str:
    """A display name made inert: shown as typed, never a mention, link or formatting.

    Markdown characters are escaped, every ``@`` gets a zero-width space after it (so
    ``@everyone`` or ``<@id>`` in a name pings nobody) and control characters go.
    """
    name = _CONTROL.sub("", raw).strip()[:MAX_NAME] or "?"
    name = _MARKDOWN.sub(r"\\\1", name)
    # A zero-width space after "@", "<" and "://": no mention, no ping, no bare link.
    return name.replace("@", "@\u200b").replace("<", "<\u200b").replace("://", ":\u200b//")
