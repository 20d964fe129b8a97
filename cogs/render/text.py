"""Text helpers: player ids -> names, card codes -> readable labels."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

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


# One character as ``plain`` shows it: an escape with the character it escapes, or any other.
_SHOWN_CHAR = re.compile(r"\\[\\*_~|`>\[\]()#]|.", re.S)


def shown_prefix(text: str, n: int) -> str:
    """The start of ``text`` that ``plain`` shows as its first ``n`` characters: escapes are
    kept whole, never split from the character they escape."""
    return "".join(_SHOWN_CHAR.findall(text)[:n])


def shown_shortened(text: str, n: int) -> str:
    """``text`` in at most ``n`` characters as ``plain`` shows them: its start and its end,
    "…" between (namesakes differ at their ends: "Ann (@ann2)", "Player 07"). Escapes are
    kept whole."""
    chars = _SHOWN_CHAR.findall(text)
    if len(chars) <= n:
        return text
    tail = (n - 1) // 2
    return "".join(chars[: n - 1 - tail]).rstrip() + "…" + "".join(chars[-tail:]).lstrip()


@lru_cache(maxsize=4096)  # the same few names, redrawn at every move of their games
def safe_name(raw: str) -> str:
    """A display name made inert: shown as typed, never a mention, link or formatting.

    Markdown characters are escaped, every ``@`` gets a zero-width space after it (so
    ``@everyone`` or ``<@id>`` in a name pings nobody) and control characters go.
    """
    name = _CONTROL.sub("", raw).strip()[:MAX_NAME] or "?"
    name = _MARKDOWN.sub(r"\\\1", name)
    # A zero-width space after "@", "<" and "://": no mention, no ping, no bare link.
    return name.replace("@", "@\u200b").replace("<", "<\u200b").replace("://", ":\u200b//")


AWAY_MARK = " 🤖"  # after a member's name while a bot plays their seat (bots' own: "🤖 Ada")


def log_names(names: Mapping[str, str]) -> dict[str, str]:
    """Names for the lines of a game's log, without the away mark: a line may be older than
    the seat's handing over (or taking back), and the mark would give the move to the
    wrong one."""
    return {p: name.removesuffix(AWAY_MARK) for p, name in names.items()}


# Letters Discord accepts in names that draw nothing (Hangul fillers, the blank braille cell).
_BLANK_LETTERS = "\u115f\u1160\u3164\uffa0\u2800"
# What may stand around a name's robot and still look like nothing: spaces, joiners,
# variation selectors and the blank letters.
_NOTHING = rf"[\s\u200c\u200d\u2060\ufe0e\ufe0f{_BLANK_LETTERS}]*"
# A robot at either end of a member's name: it would pass the member off as a bot, or as a
# member whose seat a bot is playing.
_ROBOT_ENDS = re.compile(rf"^{_NOTHING}🤖{_NOTHING}|{_NOTHING}🤖{_NOTHING}$")
_INVISIBLE = re.compile(rf"[\s\u200c\u200d\u2060\ufe0e\ufe0f{_BLANK_LETTERS}]+")


def _visible(name: str) -> bool:
    return any(
        c not in _BLANK_LETTERS and unicodedata.category(c) not in ("Cf", "Mn", "Me", "Zs", "Cc")
        for c in name
    )


def _looks(name: str) -> str:
    """A name as it looks, to compare with others: no invisible letters, case folded."""
    return _INVISIBLE.sub("", name).casefold()


def named(display: str, username: str) -> str:
    """A member named in a message outside the table ("ended by …"), as the table names them."""
    return safe_name(member_name(display, username))


def member_name(display: str, username: str, taken: Iterable[str] = ()) -> str:
    """The name a member's seat is kept under: their display name as typed, unless players
    could mistake it. Blank-looking, it is their username; dressed as a bot (a 🤖 at either
    end), the robot goes; the name of another seat at the table (``taken``), their username
    follows it ("Sam (@sam2)")."""
    name = _CONTROL.sub("", display)
    while (bare := _ROBOT_ENDS.sub("", name)) != name:
        name = bare
    name = name.strip().strip(_BLANK_LETTERS).strip()
    if not _visible(name):
        name = username
    if _looks(name) in {_looks(t) for t in taken}:
        # Told apart by username, within the length a name is shown with (``safe_name``).
        suffix = f" (@{username})"
        room = MAX_NAME - len(suffix)
        if len(name) > room:
            name = name[: max(room - 1, 3)].rstrip() + "…"
        name += suffix
    return name
