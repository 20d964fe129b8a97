"""Item Collection Game: four players, one suit each, trust and bluffing around a shared reveal.

Seats 0-3 own clubs, diamonds, hearts and spades as personal 13-card decks; each draws 7.
A round has three phases:

1. ``negotiation`` - the starting player sets High or Low (``high`` / ``low``) while everyone
   talks in the channel; every player presses ``ready``. All players who are not ready yet are
   actors at once, and ``ready`` is legal for each of them even before High/Low is set, so the
   Discord layer's phase timer can apply ``ready`` for everyone left. If the phase ends without
   a choice, the joker already face up stays: the previous round's mode (High in round 1, as the
   seed starts with the black joker face up).
2. ``declaration`` - in turn order from the starting player, each player first makes a public
   claim (``claim:<rank>`` or ``claim:none``; any rank, bluffing allowed), then places a card face
   down (``place:<card>``; only the placer learns which, by private text). Then phase ``swap``: the
   starting player may exchange the face-down card for one from hand (``swap:<card>``) or ``keep``
   it; either way it keeps the first place in the declaration order.
3. The reveal happens at once after ``swap``/``keep``: the highest row that applies decides who
   scores (see ``classify``). Scoring cards go to their owner's scored row, the others are shuffled
   back into their owner's deck, everyone draws one. Players with 5 scored cards win together;
   otherwise the next seat becomes the starting player and a new negotiation begins.

Action ids: ``high``, ``low``, ``ready``, ``claim:<A|2..10|J|Q|K|none>``, ``place:<card>``,
``swap:<card>``, ``keep``.

View keys (public): ``phase`` (``negotiation`` / ``declaration`` / ``swap`` / ``over``),
``prompt``, ``round``, ``suits`` ({player: suit letter}), ``starting`` (player), ``order``
(declaration order this round, starting player first), ``current`` (the player to claim, place or
swap, else None), ``mode`` ("high" / "low" / None until set this round), ``joker`` (the mode face
up now: the default if nobody chooses), ``ready`` (players who pressed Ready, in order),
``declarations`` (list in declaration order of {player, claim (rank or None for no claim),
placed (bool)}; never the face-down card), ``swap_used`` (the starting player exchanged their card
this round), ``revealed`` (the last reveal or None: {round, mode, order, cards {player: card},
claims {player: rank or None}, row, scorers, swapped}), ``scored`` ({player: [cards]}),
``hand_sizes``, ``deck_sizes``, ``claim_record`` ({player: {"made": n, "kept": k}}: over every
reveal so far, how many rank claims each player made and how many of them the revealed card
matched; what a player remembers to judge whose claims to trust). Private view adds ``hand``
(sorted) and ``placed`` (their own face-down card or None).

Dealing (for stacked test decks): each player's personal deck is the cards of their suit in the
order they appear in ``deck`` (first = top); cards of that suit not listed follow in rank order
A..K. Each player draws their top 7. With a stacked deck seat 0 starts round 1 (in play the
starting player is drawn with the RNG after the four decks are shuffled in seat order).

Why the game always ends: every round at least one card is scored (four different suits, so
without a pair all ranks differ and the high/low card is unique), and the 17th scored card would
give someone 5, so a game lasts at most 17 rounds. Hands never run out: a player who has scored
k < 5 cards holds 7 in hand and 6 - k in the deck at the start of each round.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from engine.cards import RANK_NAMES, RANKS, SUITS, is_card, label, shared, sort_key, suit, value
from engine.core import Action, Event, Game, IllegalAction
from engine.options import Option

HAND_SIZE = 7
WIN_SCORE = 5
MODES = ("high", "low")

# Any rank may be claimed whatever the hand holds: bluffing is part of the game.
CLAIMS = (
    *(Action(f"claim:{r}", f"Claim {RANK_NAMES.get(r, r)}") for r in RANKS),
    Action("claim:none", "No claim"),
)

ROW_NAMES = {
    "four": "four of a kind",
    "large": "large straight",
    "twopair": "two pairs",
    "three": "three of a kind",
    "small": "small straight",
    "pair": "pair",
    "high": "high card",
    "low": "low card",
}


def _run_values(start: int, length: int) -> list[int]:
    """Rank values of a straight; 14 stands for the Ace on top (Q-K-A), never wrapping."""
    return [1 if v == 14 else v for v in range(start, start + length)]


def classify(cards: list[str], mode: str) -> tuple[str, list[int]]:
    """The row that applies to the revealed cards (in declaration order) and who scores.

    Returns a row name (a ``ROW_NAMES`` value) and the scoring indexes into ``cards``,
    ascending. Straights run A-2-3(-4) up to (J-)Q-K-A; K-A-2 never counts. Where a rank is
    doubled inside a small straight, the earlier card in the declaration order is in it.
    For High/Low the Ace counts 1; ties cannot occur (equal ranks would be a pair).
    """
    vals = [value(c) for c in cards]
    counts = Counter(vals)
    everyone = list(range(len(cards)))
    if max(counts.values()) == 4:
        return ROW_NAMES["four"], everyone
    if len(counts) == 4 and any(sorted(_run_values(s, 4)) == sorted(vals) for s in range(1, 12)):
        return ROW_NAMES["large"], everyone
    if sorted(counts.values()) == [2, 2]:
        return ROW_NAMES["twopair"], everyone
    for v, n in counts.items():
        if n == 3:
            return ROW_NAMES["three"], [i for i in everyone if vals[i] == v]
    for start in range(1, 13):
        run = _run_values(start, 3)
        if all(v in counts for v in run):
            # vals.index: the first card of each rank in declaration order is the one in it.
            return ROW_NAMES["small"], sorted(vals.index(v) for v in run)
    for v, n in counts.items():
        if n == 2:
            return ROW_NAMES["pair"], [i for i in everyone if vals[i] == v]
    pick = max(vals) if mode == "high" else min(vals)
    return ROW_NAMES[mode], [vals.index(pick)]


def _copy_revealed(revealed: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of a reveal record (its values are flat lists and dicts)."""
    if revealed is None:
        return None
    return {k: v.copy() if isinstance(v, list | dict) else v for k, v in revealed.items()}


def _rank_phrase(rank: str) -> str:
    name = RANK_NAMES.get(rank, rank)
    return f"{'an' if rank in ('A', '8') else 'a'} {name}"


def _names(players: list[str]) -> str:
    if len(players) <= 1:
        return "".join(players)
    return f"{', '.join(players[:-1])} and {players[-1]}"


class ItemCollection(Game):
    kind = "itemcollection"
    title = "Item Collection Game"
    min_players = 4
    max_players = 4
    options: ClassVar[dict[str, Option]] = {}
    summary = (
        "A semi-cooperative bluffing game for exactly 4 players, each owning one suit as a "
        "personal deck and holding 7 cards. Each round the starting player sets High or Low, "
        "everyone negotiates, then in turn each player claims a rank (truthfully or not) and "
        "places a card face down; the starting player may swap theirs once. The reveal scores "
        "the best combination on the table: four of a kind, a 4-card straight or two pairs "
        "(everyone), three of a kind or a 3-card straight (those three), a pair (those two), "
        "else the single highest or lowest card. Everyone who reaches 5 scored cards wins "
        "together."
    )

    hands: dict[str, list[str]]
    decks: dict[str, list[str]]
    scored: dict[str, list[str]]
    round: int
    starter: int
    phase: str
    mode: str | None
    joker: str
    ready: list[str]
    decls: list[dict[str, Any]]  # {player, claim, card}; card None until placed
    swapped: bool
    revealed: dict[str, Any] | None
    claim_record: dict[str, dict[str, int]]  # player -> {"made": n, "kept": k}

    # -- setup -------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        if deck is None:
            decks = []
            for s in SUITS:
                own = shared(r + s for r in RANKS)
                self.rng.shuffle(own)
                decks.append(own)
            starter = self.rng.below(len(self.players))
        else:
            decks = self._stack(deck)
            starter = 0
        self.hands = {p: decks[i][:HAND_SIZE] for i, p in enumerate(self.players)}
        self.decks = {p: decks[i][HAND_SIZE:] for i, p in enumerate(self.players)}
        self.scored = {p: [] for p in self.players}
        self.round = 1
        self.joker = "high"  # the seed starts with the black joker (High) face up
        self._start_round(starter)
        self.revealed = None
        self.claim_record = {p: {"made": 0, "kept": 0} for p in self.players}

    @staticmethod
    def _stack(deck: list[str]) -> list[list[str]]:
        bad = [c for c in deck if not is_card(c)]
        if bad:
            raise ValueError(f"Not standard cards: {', '.join(bad)}.")
        if len(set(deck)) != len(deck):
            raise ValueError("A stacked deck lists a card twice.")
        decks = []
        for s in SUITS:
            listed = [c for c in deck if suit(c) == s]
            rest = [r + s for r in RANKS if r + s not in listed]
            decks.append(listed + rest)
        return decks

    def _start_round(self, starter: int) -> None:
        self.starter = starter
        self.phase = "negotiation"
        self.mode = None
        self.ready = []
        self.decls = []
        self.swapped = False

    # -- helpers ------------------------------------------------------------------------
    @property
    def starting(self) -> str:
        return self.players[self.starter]

    def order(self) -> list[str]:
        n = len(self.players)
        return [self.players[(self.starter + i) % n] for i in range(n)]

    def current(self) -> str | None:
        if self.phase == "declaration":
            if self.decls and self.decls[-1]["card"] is None:
                player: str = self.decls[-1]["player"]
                return player
            return self.order()[len(self.decls)]
        if self.phase == "swap":
            return self.starting
        return None

    def _placed(self, player: str) -> str | None:
        for d in self.decls:
            if d["player"] == player:
                card: str | None = d["card"]
                return card
        return None

    # -- contract -----------------------------------------------------------------------
    def actors(self) -> list[str]:
        if self.finished:
            return []
        if self.phase == "negotiation":
            return [p for p in self.order() if p not in self.ready]
        cur = self.current()
        return [cur] if cur is not None else []

    def _legal(self, player: str) -> list[Action]:
        if self.phase == "negotiation":
            acts = []
            if player == self.starting and self.mode is None:
                acts += [Action("high", "High card"), Action("low", "Low card")]
            acts.append(Action("ready", "Ready"))
            return acts
        hand = sorted(self.hands[player], key=sort_key)
        if self.phase == "declaration":
            if not self.decls or self.decls[-1]["player"] != player:
                return list(CLAIMS)
            return [Action(f"place:{c}", f"Place {label(c)}") for c in hand]
        # swap
        return [
            *(Action(f"swap:{c}", f"Swap for {label(c)}") for c in hand),
            Action("keep", "Keep my card"),
        ]

    def _apply(self, player: str, action: Action, chosen: list[str] | None) -> list[Event]:
        verb, _, arg = action.id.partition(":")
        if verb in MODES:
            self.mode = self.joker = verb
            text = "highest" if verb == "high" else "lowest"
            return [
                Event(f"{player} sets {verb.title()}: with no combination, the {text} card scores.")
            ]
        if verb == "ready":
            return self._ready(player)
        if verb == "claim":
            claim = None if arg == "none" else arg
            self.decls.append({"player": player, "claim": claim, "card": None})
            said = "makes no claim" if claim is None else f"claims {_rank_phrase(claim)}"
            return [Event(f"{player} {said}.")]
        if verb == "place":
            self.hands[player].remove(arg)
            self.decls[-1]["card"] = arg
            events = [
                Event(
                    f"{player} places a card face down.",
                    {player: f"You place {label(arg)} face down."},
                )
            ]
            if len(self.decls) == len(self.players):
                self.phase = "swap"
                events.append(
                    Event(f"{self.starting} may exchange their face-down card once, or keep it.")
                )
            return events
        if verb == "swap":
            first = self.decls[0]
            old = first["card"]
            self.hands[player].remove(arg)
            self.hands[player].append(old)
            first["card"] = arg
            self.swapped = True
            event = Event(
                f"{player} exchanges their face-down card for one from their hand.",
                {player: f"You take back {label(old)} and place {label(arg)} face down."},
            )
            return [event, *self._reveal()]
        if verb == "keep":
            return [Event(f"{player} keeps their face-down card."), *self._reveal()]
        raise IllegalAction("That move is not available right now.")  # unreachable: ids are ours

    def _ready(self, player: str) -> list[Event]:
        self.ready.append(player)
        events = [Event(f"{player} is ready.")]
        if len(self.ready) < len(self.players):
            return events
        if self.mode is None:
            self.mode = self.joker
            events.append(
                Event(f"No High/Low choice was made: the face-up joker stays, {self.mode.title()}.")
            )
        self.phase = "declaration"
        order = self.order()
        events.append(
            Event(
                f"Everyone is ready ({self.mode.title()} this round). Declaration order: "
                f"{', '.join(order)}. {order[0]} to claim and place first."
            )
        )
        return events

    def _reveal(self) -> list[Event]:
        order = [d["player"] for d in self.decls]
        cards = [d["card"] for d in self.decls]
        assert self.mode is not None
        row, idx = classify(cards, self.mode)
        scorers = [order[i] for i in idx]
        shown = ", ".join(f"{p} {label(c)}" for p, c in zip(order, cards, strict=True))
        events = [
            Event(
                f"Reveal ({self.mode.title()}): {shown}. {row.capitalize()}: "
                f"{_names(scorers)} score{'s' if len(scorers) == 1 else ''}."
            )
        ]
        self.revealed = {
            "round": self.round,
            "mode": self.mode,
            "order": order,
            "cards": dict(zip(order, cards, strict=True)),
            "claims": {d["player"]: d["claim"] for d in self.decls},
            "row": row,
            "scorers": scorers,
            "swapped": self.swapped,
        }
        for d in self.decls:
            if d["claim"] is not None:
                record = self.claim_record[d["player"]]
                record["made"] += 1
                record["kept"] += int(d["card"][:-1] == d["claim"])
        losers = [p for p in order if p not in scorers]
        for p, c in zip(order, cards, strict=True):
            if p in scorers:
                self.scored[p].append(c)
            else:
                self.decks[p].append(c)
                self.rng.shuffle(self.decks[p])
        if losers:
            events.append(
                Event(
                    f"{_names(losers)} shuffle{'s' if len(losers) == 1 else ''} "
                    "their card back into their deck."
                )
            )
        drawn: dict[str, str] = {}
        for p in self.players:
            if self.decks[p]:  # always true while the game runs (see module docstring)
                card = self.decks[p].pop(0)
                self.hands[p].append(card)
                drawn[p] = f"You draw {label(card)}."
        if drawn:
            events.append(
                Event(f"{_names(list(drawn))} draw{'s' if len(drawn) == 1 else ''} a card.", drawn)
            )
        self.scores = {p: len(self.scored[p]) for p in self.players}
        winners = [p for p in self.players if self.scores[p] >= WIN_SCORE]
        if winners:
            self._finish(winners, "collection")
            self.phase = "over"
            together = " together" if len(winners) > 1 else ""
            events.append(
                Event(
                    f"{_names(winners)} reach{'es' if len(winners) == 1 else ''} "
                    f"{WIN_SCORE} scored cards and win{'s' if len(winners) == 1 else ''}{together}!"
                )
            )
            return events
        self.round += 1
        self._start_round((self.starter + 1) % len(self.players))
        events.append(
            Event(
                f"Round {self.round}: {self.starting} starts and sets High or Low. "
                "Negotiate, then press Ready."
            )
        )
        return events

    # -- views --------------------------------------------------------------------------
    def _prompt(self) -> str:
        if self.finished:
            win = "win" if len(self.winners) > 1 else "wins"
            return f"Game over: {_names(self.winners)} {win}."
        if self.phase == "negotiation":
            waiting = _names(self.actors())
            if self.mode is None and self.starting not in self.ready:
                return f"{self.starting} to set High or Low; waiting for {waiting} to press Ready."
            return f"Waiting for {waiting} to press Ready."
        cur = self.current()
        if self.phase == "declaration":
            if self.decls and self.decls[-1]["card"] is None:
                return f"{cur} to place a card face down."
            return f"{cur} to claim a rank (or none)."
        return f"{cur} to exchange the face-down card for one from hand, or keep it."

    def _view(self, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "phase": self.phase,
            "prompt": self._prompt(),
            "round": self.round,
            "suits": {p: SUITS[i] for i, p in enumerate(self.players)},
            "starting": self.starting,
            "order": self.order(),
            "current": None if self.finished else self.current(),
            "mode": self.mode,
            "joker": self.joker,
            "ready": list(self.ready),
            "declarations": [
                {"player": d["player"], "claim": d["claim"], "placed": d["card"] is not None}
                for d in self.decls
            ],
            "swap_used": self.swapped,
            "revealed": _copy_revealed(self.revealed),
            "scored": {p: list(self.scored[p]) for p in self.players},
            "hand_sizes": {p: len(self.hands[p]) for p in self.players},
            "deck_sizes": {p: len(self.decks[p]) for p in self.players},
            "claim_record": {p: dict(r) for p, r in self.claim_record.items()},
        }
        if player is not None:
            view["hand"] = sorted(self.hands[player], key=sort_key)
            view["placed"] = self._placed(player)
        return view

    def _state(self) -> dict[str, Any]:
        # Copies: callers (tests comparing before/after) must not alias the live state.
        return {
            "hands": {p: list(c) for p, c in self.hands.items()},
            "decks": {p: list(c) for p, c in self.decks.items()},
            "scored": {p: list(c) for p, c in self.scored.items()},
            "round": self.round,
            "starter": self.starter,
            "phase": self.phase,
            "mode": self.mode,
            "joker": self.joker,
            "ready": list(self.ready),
            "decls": [dict(d) for d in self.decls],
            "swapped": self.swapped,
            "revealed": _copy_revealed(self.revealed),
            "claim_record": {p: dict(r) for p, r in self.claim_record.items()},
        }

    def _restore(self, state: dict[str, Any]) -> None:
        self.hands = {p: list(c) for p, c in state["hands"].items()}
        self.decks = {p: list(c) for p, c in state["decks"].items()}
        self.scored = {p: list(c) for p, c in state["scored"].items()}
        self.round = state["round"]
        self.starter = state["starter"]
        self.phase = state["phase"]
        self.mode = state["mode"]
        self.joker = state["joker"]
        self.ready = list(state["ready"])
        self.decls = [dict(d) for d in state["decls"]]
        self.swapped = state["swapped"]
        self.revealed = _copy_revealed(state["revealed"])
        # Games saved before the record existed start counting from here.
        record = state.get("claim_record") or {}
        self.claim_record = {p: {"made": 0, "kept": 0, **record.get(p, {})} for p in self.players}
