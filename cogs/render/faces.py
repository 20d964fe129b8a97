"""Card faces for the renderers: the lookup the bot installed at start (emojis it uploaded
once), or text when faces are off or not uploaded yet. No I/O: a dictionary read per card."""

from __future__ import annotations

import re
from functools import lru_cache

from cogs.faces.catalog import FaceLookup, NoFaces, standard_face, uno_face
from engine import cards
from engine.games.uno_cards import ALL_CODES

_lookup: FaceLookup = NoFaces()
_UNO = frozenset(ALL_CODES)


def use(lookup: FaceLookup) -> None:
    """Install the lookup (the bot's FaceBook at start; NoFaces to turn faces off)."""
    global _lookup
    _lookup = lookup


@lru_cache(maxsize=512)  # a few hundred codes; every hand drawn asks for each of its cards
def name_of(code: str, colour: str | None = None) -> str | None:
    """The face name of a card code (an UNO card, a wild with its colour, a standard card)."""
    if code in _UNO:
        return uno_face(code, colour)
    if cards.is_card(code):
        return standard_face(code)
    return None


def face(code: str, colour: str | None = None) -> str | None:
    """``<:uno_R7_v1:123>`` to put in text or on a button, or None (show the text)."""
    name = name_of(code, colour)
    return _lookup.text(name) if name is not None else None


def url(code: str, colour: str | None = None) -> str | None:
    """The face's public image address (an embed thumbnail), or None."""
    name = name_of(code, colour)
    return _lookup.url(name) if name is not None else None


def row(codes: list[str]) -> str:
    """A row of faces for a hand ("" when no face is available)."""
    shown = [f for c in codes if (f := face(c)) is not None]
    return "".join(shown) if len(shown) == len(codes) else ""


_FACE = re.compile(r"<a?:\w+:\d+> ?")


def strip(text: str) -> str:
    """``text`` without its faces (the words stay): for a hand too big to show as faces."""
    return "\n".join(line.lstrip() for line in _FACE.sub("", text).split("\n"))
