"""Text helpers: player ids -> names, card codes -> readable labels."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine import cards


def humanize(text: str, names: Mapping[str, str]) -> str:
    """Replace engine player ids (Discord user ids as text) with display names."""
    if not names:
        return text
    pattern = _pattern(tuple(sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: names[m.group(0)], text)


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    found = _PATTERNS.get(ids)
    if found is None:
        found = re.compile(r"(?<![\w@])(?:" + "|".join(re.escape(i) for i in ids) + r")(?!\w)")
        if len(_PATTERNS) > 512:  # bounded: one entry per distinct table of players
            _PATTERNS.clear()
        _PATTERNS[ids] = found
    return found


def standard_card(code: str) -> str:
    """``10H`` -> ``10♥``; anything else unchanged."""
    return cards.label(code) if cards.is_card(code) else code


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
