"""Standard 52-card deck: codes like ``10H``, ``QS``, ``AC`` (rank then suit).

Ace is low (1) unless a game says otherwise. Suit order for tie-breaks: C < D < H < S.
"""

from __future__ import annotations

from collections.abc import Iterable
from sys import intern
from typing import Any

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")  # tie-break order: clubs lowest, spades highest
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_VALUE = {r: i + 1 for i, r in enumerate(RANKS)}  # A=1 ... K=13
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
RED_SUITS = frozenset("DH")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def value(card: str) -> int:
    """Face value with Ace low: A=1, 2-10, J=11, Q=12, K=13."""
    return RANK_VALUE[card[:-1]]


def sort_key(card: str) -> tuple[int, int]:
    """Rank first, then suit order, for tidy hands and tie-breaks."""
    return RANK_VALUE[card[:-1]], SUITS.index(card[-1])


def label(card: str) -> str:
    """Human text for a card code: ``10H`` -> ``10♥``."""
    return f"{card[:-1]}{SUIT_SYMBOLS[card[-1]]}"


def labels(cards: list[str]) -> str:
    return ", ".join(label(c) for c in cards) if cards else "nothing"


def standard_deck(ranks: tuple[str, ...] = RANKS, suits: tuple[str, ...] = SUITS) -> list[str]:
    """A fresh, unshuffled deck in suit-then-rank order."""
    return shared(r + s for s in suits for r in ranks)


def shared(codes: Iterable[str]) -> list[str]:
    """The codes as one string object per distinct code, shared by every game in the process.

    Hundreds of live games hold thousands of card codes; each built by concatenation or parsed
    from a save would otherwise be its own object (about 50 bytes per card, per game)."""
    return [intern(c) for c in codes]


def shared_data(data: Any) -> Any:
    """``data`` (as decoded from a save) with every string shared as in ``shared``."""
    if isinstance(data, str):
        return intern(data)
    if isinstance(data, list):
        return [shared_data(x) for x in data]
    if isinstance(data, dict):
        return {intern(k) if isinstance(k, str) else k: shared_data(v) for k, v in data.items()}
    return data


def is_card(code: str) -> bool:
    return len(code) >= 2 and code[-1] in SUITS and code[:-1] in RANK_VALUE
