"""Button and select custom ids. Everything a click needs is in the id (<= 100 chars), so
buttons keep working after a restart with nothing registered per message.

- ``g:<game>:<version>:<target>``  act: ``target`` is a legal action id (apply it), a prefix of
  several (open the next step of the picker), or ``*`` (the whole picker).
- ``s:<game>:<version>[:<n>]``      a select whose chosen value is such a target.
- ``k:<game>:<version>:<action>[~n]``  a multi-select for a Pick action: applies
  ``action:a.b.c`` (``~n`` numbers several selects for one action, e.g. one per suit).
- ``h:<game>``                     "My hand": the clicker's hand and moves, ephemeral.
- ``l:<game>:<verb>``              lobby: join, leave, start, cancel, addbot, rmbot, level.
- ``b:<game>``                     "I'm back": take your seat back from the bot.
- ``q:<game>:<verb>``              leaving a running game: ask (confirm first), yes.
- ``n:<game>:off``                 nudges: stop pinging me.
- ``r:<game>``                     play again: a fresh lobby with the same players and options.
- ``u:<n>``                         /rules of the n-th game: a select of its sections.
- ``p:<game>:<step>:<n>``          /replay: show the finished game after ``step`` moves.

``parse`` reads any of them once, with bounds, so a forged id is refused kindly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROOT = "*"
MAX_ID = 100
MAX_GAME_ID = 2**63 - 1  # SQLite's integer range

LOBBY_VERBS = ("join", "leave", "start", "cancel", "addbot", "rmbot", "level")
LEAVE_VERBS = ("ask", "yes")
SELECTS = frozenset("sku")  # prefixes carried by select menus; the others by buttons

_PATTERNS = {
    "g": re.compile(r"(?P<game>\d{1,19}):(?P<version>\d{1,9}):(?P<rest>[\x21-\x7e]{1,80})"),
    "s": re.compile(r"(?P<game>\d{1,19}):(?P<version>\d{1,9})(?::\d{1,2})?"),
    "k": re.compile(
        r"(?P<game>\d{1,19}):(?P<version>\d{1,9}):(?P<rest>[\x21-\x7d\x7f]{1,80}?)(?:~\d)?"
    ),
    "h": re.compile(r"(?P<game>\d{1,19})"),
    "l": re.compile(rf"(?P<game>\d{{1,19}}):(?P<rest>{'|'.join(LOBBY_VERBS)})"),
    "b": re.compile(r"(?P<game>\d{1,19})"),
    "q": re.compile(rf"(?P<game>\d{{1,19}}):(?P<rest>{'|'.join(LEAVE_VERBS)})"),
    "n": re.compile(r"(?P<game>\d{1,19}):(?P<rest>off)"),
    "r": re.compile(r"(?P<game>\d{1,19})"),
    "u": re.compile(r"(?P<game>\d{1,2})"),  # a game's rules (its index among the games)
    "p": re.compile(r"(?P<game>\d{1,19}):(?P<rest>\d{1,6})(?::\d)?"),
}
ANY = r"(?P<id>[a-z]:[\x20-\x7e]{0,98})"  # what the one DynamicItem matches


@dataclass(frozen=True, slots=True)
class Parsed:
    prefix: str
    game: int
    version: int | None
    rest: str  # the target, action or verb ("" when the id has none)


def parse(custom_id: str) -> Parsed | None:
    """The parts of one of our ids, or None for anything malformed or out of range."""
    prefix, sep, body = custom_id.partition(":")
    pattern = _PATTERNS.get(prefix)
    if not sep or pattern is None or len(custom_id) > MAX_ID:
        return None
    match = pattern.fullmatch(body)
    if match is None:
        return None
    game = int(match["game"])
    if not (0 <= game if prefix == "u" else 0 < game) or game > MAX_GAME_ID:
        return None
    parts = match.groupdict()
    version = int(parts["version"]) if parts.get("version") is not None else None
    return Parsed(prefix, game, version, parts.get("rest") or "")


def act(game: int, version: int, target: str) -> str:
    return _checked(f"g:{game}:{version}:{target}")


def select(game: int, version: int, n: int | None = None) -> str:
    return f"s:{game}:{version}" + (f":{n}" if n is not None else "")


def pick(game: int, version: int, action: str, n: int | None = None) -> str:
    """A multi-select applying ``action``; ``n`` tells apart several for one action."""
    return _checked(f"k:{game}:{version}:{action}" + (f"~{n}" if n is not None else ""))


def hand(game: int) -> str:
    return f"h:{game}"


def lobby(game: int, verb: str) -> str:
    return f"l:{game}:{verb}"


def back(game: int) -> str:
    return f"b:{game}"


def leave(game: int, verb: str) -> str:
    return f"q:{game}:{verb}"


def nudges_off(game: int) -> str:
    return f"n:{game}:off"


def again(game: int) -> str:
    return f"r:{game}"


def rules(kind_index: int) -> str:
    return f"u:{kind_index}"


def replay(game: int, step: int, button: int) -> str:
    """``button`` keeps the ids of one message unique (⏮ and ◀ may lead to the same step)."""
    return f"p:{game}:{step}:{button}"


def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_ID:
        raise ValueError(f"custom_id too long ({len(custom_id)} > {MAX_ID})")
    return custom_id
