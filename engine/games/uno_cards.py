"""UNO card codes, decks, points, labels and the lookup tables the engine's hot paths use.

Codes: colour ``R Y G B`` + ``0``-``9``, ``S`` (Skip), ``R`` (Reverse), ``D2`` (Draw Two);
wilds ``W``, ``W4`` (Wild Draw Four), ``WS`` (Wild Swap Hands) and ``WC1``..``WC7`` (a Wild
Customizable card carrying thought-starter rule 1..7 of the rulebook).

Everything here is computed once at import, so the engine only does dict/set lookups.
"""

from __future__ import annotations

from engine.cards import shared
from engine.core import Action

COLORS = "RYGB"
COLOR_NAMES = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"}
NUMBERS = tuple(str(i) for i in range(10))
VALUES = (*NUMBERS, "S", "R", "D2")
VALUE_NAMES = {"S": "Skip", "R": "Reverse", "D2": "Draw Two"}

# The rulebook's thought starters a bot can enforce (8-10 need jokes, elbows and roosters).
CUSTOM_RULES: dict[int, str] = {
    1: "The next player must draw until they draw a card of a certain color.",
    2: "Everyone but you must discard all their Wild cards.",
    3: "If the next player can't play a card, they take THREE cards from the DRAW pile.",
    4: "Take an extra turn.",
    5: "The next player must draw or discard until they have exactly 7 cards.",
    6: "Everyone must discard (or draws) until they have exactly 3 cards.",
    7: "Everyone must play with their hand face up until your next turn.",
}
CUSTOM_CODES = tuple(f"WC{k}" for k in CUSTOM_RULES)
WILDS = ("W", "W4", "WS", *CUSTOM_CODES)
COLORED = tuple(c + v for c in COLORS for v in VALUES)
ALL_CODES = (*COLORED, *WILDS)

# COLOR: printed colour ("W" for wilds). VALUE: what matches by number/symbol ("" for wilds,
# which never match by value: a wild on top is matched by its declared colour only).
COLOR: dict[str, str] = {c: c[0] for c in ALL_CODES}
VALUE: dict[str, str] = {c: ("" if c[0] == "W" else c[1:]) for c in ALL_CODES}


def points(card: str) -> int:
    """Scoring value: numbers at face value, Skip/Reverse/Draw Two 20, Wild and Wild Draw
    Four 50, Wild Swap Hands and Customizable 40."""
    return POINTS[card]


POINTS: dict[str, int] = {}
for _c in COLORED:
    POINTS[_c] = int(_c[1]) if _c[1:] in NUMBERS else 20
POINTS.update({"W": 50, "W4": 50, "WS": 40})
POINTS.update({c: 40 for c in CUSTOM_CODES})

LABEL: dict[str, str] = {}
for _c in COLORED:
    LABEL[_c] = f"{COLOR_NAMES[_c[0]]} {VALUE_NAMES.get(_c[1:], _c[1:])}"
LABEL.update({"W": "Wild", "W4": "Wild Draw Four", "WS": "Wild Swap Hands"})
LABEL.update({f"WC{k}": f"Wild Custom #{k}" for k in CUSTOM_RULES})

# Dealer draw: "the highest number deals (count any card with a symbol as zero)".
DEAL_VALUE: dict[str, int] = {c: (int(c[1]) if VALUE[c] in NUMBERS else 0) for c in ALL_CODES}

# Hand order for views: colour R Y G B then wilds; numbers, Skip, Reverse, Draw Two.
SORT_KEY: dict[str, int] = {c: i for i, c in enumerate(ALL_CODES)}

# PLAYABLE[top][color]: the codes that may be played on ``top`` when ``color`` is in play.
_WILD_SET = frozenset(WILDS)
PLAYABLE: dict[str, dict[str, frozenset[str]]] = {}
for _top in ALL_CODES:
    _by_color = {}
    for _col in COLORS:
        _by_color[_col] = _WILD_SET | frozenset(
            c for c in COLORED if c[0] == _col or (VALUE[_top] and VALUE[c] == VALUE[_top])
        )
    PLAYABLE[_top] = _by_color


def classic_deck() -> list[str]:
    """The 108-card classic deck, unshuffled: per colour one 0, two each of 1-9, Skip,
    Reverse, Draw Two; four Wild and four Wild Draw Four."""
    deck: list[str] = []
    for col in COLORS:
        deck.append(col + "0")
        for v in VALUES[1:]:
            deck += [col + v, col + v]
    deck += ["W"] * 4 + ["W4"] * 4
    return shared(deck)


def build_deck(swap_hands: bool, custom: list[int]) -> list[str]:
    """The game's deck: classic, plus Wild Swap Hands and the chosen customizable cards."""
    deck = classic_deck()
    if swap_hands:
        deck.append("WS")
    deck += shared(f"WC{k}" for k in custom)
    return deck


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)


def labels(cards: list[str]) -> str:
    return ", ".join(LABEL[c] for c in sort_hand(cards)) if cards else "nothing"


# -- shared Action objects (immutable, so one instance serves every game) --------------------
def _play_actions(card: str) -> list[Action]:
    if card[0] == "W":
        return [
            Action(f"play:{card}:{col}", f"Play {LABEL[card]}, choose {COLOR_NAMES[col]}")
            for col in COLORS
        ]
    return [Action(f"play:{card}", f"Play {LABEL[card]}")]


# PLAY_ACTS[card]: the play actions of a card that needs no target player.
PLAY_ACTS: dict[str, list[Action]] = {c: _play_actions(c) for c in ALL_CODES}
# PLAY_PARSE[action id] = (card, declared colour or "", target seat: -1 = none).
PLAY_PARSE: dict[str, tuple[str, str, int]] = {}
for _c, _acts in PLAY_ACTS.items():
    for _a in _acts:
        _parts = _a.id.split(":")
        PLAY_PARSE[_a.id] = (_c, _parts[2] if len(_parts) > 2 else "", -1)

COLOR_ACTS = [Action(f"color:{c}", f"Choose {COLOR_NAMES[c]}") for c in COLORS]
DRAW = Action("draw", "Draw a card")
DRAW_THREE = Action("draw", "Draw 3 cards (you cannot play)")
DRAW_NONE = Action("draw", "Pass (both piles are empty)")
PASS = Action("pass", "Keep the drawn card")
CHALLENGE = Action("challenge", "Challenge the Wild Draw Four")
UNO = Action("uno", "Call UNO!")
