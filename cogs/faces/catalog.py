"""Every card face the bot can show as an application emoji, and its stable emoji name.

Pure (no Discord, no Pillow). A name is ``<stem>_v<ART_VERSION>``; the stem encodes the card:

- ``uno_R7``, ``uno_GS``, ``uno_YR``, ``uno_BD2``: an UNO card by its engine code
  (colour ``R Y G B`` + ``0``-``9``, ``S`` Skip, ``R`` Reverse, ``D2`` Draw Two);
- ``uno_W``, ``uno_W4``, ``uno_WS``, ``uno_WC1``..``uno_WC7``: a wild as dealt (one face per
  customizable rule number, so a hand shows which rule each card carries);
- ``uno_W4_G``: a wild shown with its chosen colour (on the table, once played);
- ``std_10H``, ``std_QS``: a standard card by its engine code (rank then suit);
- ``back``: the back of a card, shared by every game.

Bump ART_VERSION whenever the artwork changes: the names change with it, so the uploader sees
the new faces as missing, uploads them, and then deletes the old versions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Protocol

from engine.cards import standard_deck
from engine.games.uno_cards import COLORED, COLORS, WILDS

ART_VERSION = 1

# Discord's rule for emoji names.
NAME_PATTERN = re.compile(r"[A-Za-z0-9_]{2,32}")
_VERSIONED = re.compile(r"(?P<stem>[A-Za-z0-9_]+?)_v(?P<version>\d+)")


@dataclass(frozen=True)
class Face:
    """What one face shows: ``kind`` is "uno", "std" or "back"; ``colour`` a wild's choice."""

    kind: str
    code: str = ""
    colour: str | None = None

    @property
    def stem(self) -> str:
        if self.kind == "back":
            return "back"
        suffix = f"_{self.colour}" if self.colour else ""
        return f"{self.kind}_{self.code}{suffix}"

    @property
    def name(self) -> str:
        return f"{self.stem}_v{ART_VERSION}"


def uno_face(code: str, colour: str | None = None) -> str:
    """The face of an UNO card; a wild with ``colour`` shows that colour (ignored for others,
    so the table can pass the colour in play whatever the top card is)."""
    if code in WILDS:
        if colour is not None and colour not in COLORS:
            raise ValueError(f"not an UNO colour: {colour!r}")
        return Face("uno", code, colour).name
    if code in COLORED:
        return Face("uno", code).name
    raise ValueError(f"not an UNO card: {code!r}")


def standard_face(code: str) -> str:
    """The face of a standard card (``10H``, ``QS``...)."""
    if code not in _STANDARD:
        raise ValueError(f"not a standard card: {code!r}")
    return Face("std", code).name


def back_face() -> str:
    return Face("back").name


_STANDARD = frozenset(standard_deck())


@cache
def _faces() -> tuple[Face, ...]:
    uno = [Face("uno", code) for code in (*COLORED, *WILDS)]
    chosen = [Face("uno", code, colour) for code in WILDS for colour in COLORS]
    std = [Face("std", code) for code in standard_deck()]
    return (*uno, *chosen, *std, Face("back"))


@cache
def _by_name() -> dict[str, Face]:
    return {face.name: face for face in _faces()}


def all_faces() -> list[str]:
    """Every current face name, in deck order (UNO by colour, wilds, chosen wilds, standard
    cards by suit, back)."""
    return [face.name for face in _faces()]


def face(name: str) -> Face:
    """What a current face name shows; KeyError for anything else."""
    return _by_name()[name]


@lru_cache(maxsize=1024)  # asked for every card of every hand drawn
def split_name(name: str) -> tuple[str, int] | None:
    """``uno_R7_v1`` -> ``("uno_R7", 1)``; None for a name that is not one of our faces in any
    artwork version (the application's other emojis are left alone)."""
    match = _VERSIONED.fullmatch(name)
    if match is None or match["stem"] not in _stems():
        return None
    return match["stem"], int(match["version"])


@cache
def _stems() -> frozenset[str]:
    return frozenset(face.stem for face in _faces())


class FaceLookup(Protocol):
    """What a renderer needs to show a face, without importing discord: the emoji markup for
    message text, button and select labels (``<:uno_R7_v1:123>``; discord.py turns it into a
    PartialEmoji), and its public image address for an embed thumbnail. None: show text."""

    def text(self, name: str) -> str | None: ...

    def url(self, name: str) -> str | None: ...


class NoFaces:
    """The lookup when faces are off or not wired in: every card stays text."""

    def text(self, name: str) -> str | None:
        return None

    def url(self, name: str) -> str | None:
        return None
