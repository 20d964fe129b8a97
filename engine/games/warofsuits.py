"""A War of Suits: Red (♦♥) against Black (♣♠), War with hands, doubles and Aces.

Seat 0 is Red, seat 1 is Black. Each side has its own 26-card deck and a hand of 3.

Deck and deal. In play each colour is shuffled with the game's RNG. With a stacked ``deck``
(engine.testing.stacked) the red cards of ``deck``, in list order, are the top of Red's deck
and the black cards, in list order, the top of Black's deck (so the two colours may be listed
in any interleaving); the cards of a colour that ``deck`` leaves out follow, in standard order
(A♦ A♥ 2♦ 2♥ ... K♥; A♣ A♠ 2♣ ...). Each side then takes its top 3 cards as its hand: the
first three red cards listed are Red's hand, the next ones its refills and head-to-head draws.

A battle, phase by phase (view "phase"):
- ``choose``: both sides choose a first card in secret, at once; both are actors until each
  has chosen. A choice is final. When both have chosen the cards are revealed together.
- ``react``: the side with the lower total (the only actor) may double, claim the battle with
  an Ace, or accept the loss. After a double, whichever side is now lower has the window.
- ``answer``: after an Ace claim, the other side may answer with an Ace or accept; the side
  that plays the last Ace wins the battle.
- ``tie``: totals equal before any Ace: both sides choose at once (secretly) to stop the
  fight with an Ace or to reinforce. Two Aces cancel and both choose again; one Ace can be
  answered (phase ``answer``). Both reinforcing: head to head, resolved automatically.
- ``over``: the game has ended.
A window (``react``, ``answer``, or a side's ``tie`` decision) is offered only when the side
might, judging by public information alone (its hand size, and its colour's cards already
seen on the battlefield or in victory piles), hold a card that gives it a real choice;
otherwise the engine resolves the step at once. So the actor list never leaks a hand.

Action ids:
- ``choose:<card>``  (phase choose) the secret first card, e.g. ``choose:7H``.
- ``double:<card>``  (react) add a non-Ace card matching either first card's rank.
- ``ace:<card>``     (react: claim; answer: answer an Ace; tie: secret choice to stop the
  head to head with that Ace).
- ``accept``         (react, answer) accept the loss.
- ``reinforce``      (tie) secret choice to go head to head.

View keys (besides the base's kind/players/actors/finished/winners/scores):
``phase``; ``prompt``; ``sides`` {player: "red"|"black"}; ``battle`` (battle number, from 1);
``battlefield`` {player: [revealed cards in play order]}; ``totals`` {player: sum of revealed
values}; ``chosen`` [players who have chosen in the current ``choose``/``tie`` phase, never
what]; ``deck_sizes``, ``hand_sizes``, ``victory_sizes`` {player: n}; ``window`` [the player
who may react in ``react``/``answer``, else empty]; ``doubled`` {player: bool}; ``ace`` (the
player whose Ace currently claims the battle, or None); ``last_battle`` (None, or
{"winner": player or None, "battlefield": {player: [cards]}}: the battle just fought);
``victory_piles`` {player: [the cards in that side's victory pile, in the order taken]}: every
card seen so far is on the battlefield or in a victory pile, so a player (or a bot) can tell
which of each colour's cards are still unseen.
A player's own view adds ``hand`` (sorted card codes) and ``choice`` (their secret choice
in the current simultaneous phase as an action id, e.g. ``choose:7H``, or None). ``forced``
(public): in a tie, the sides that surely hold no Ace, made to reinforce; ``choice_forced``
(own view): that is this player's side.

Events: "X has chosen a card." / "X has decided." (the choice only in X's private text);
the reveal; doubles, Ace claims and answers, acceptances; tie and head-to-head steps;
the battle's winner; refills (public counts, private cards drawn); the end and final score.
``scores`` always holds each side's victory-pile points (2-10 count 1, J/Q/K/A count 2).
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.cards import RED_SUITS, is_card, label, labels, rank, sort_key, standard_deck, value
from engine.core import Action, Event, Game, IllegalAction
from engine.options import Option

SIDE_NAMES = ("Red", "Black")
SIDE_KEYS = ("red", "black")
COLOUR_SUITS: tuple[tuple[str, ...], tuple[str, ...]] = (("D", "H"), ("C", "S"))
# Each colour's 26 cards in standard order (rank, then suit): also the stacked-deck filler.
COLOUR_CARDS: tuple[list[str], list[str]] = (
    sorted(standard_deck(suits=COLOUR_SUITS[0]), key=sort_key),
    sorted(standard_deck(suits=COLOUR_SUITS[1]), key=sort_key),
)
HAND_SIZE = 3
HIGH_RANKS = frozenset({"J", "Q", "K", "A"})


def colour_of(card: str) -> int:
    """0 for a red card, 1 for a black one."""
    return 0 if card[-1] in RED_SUITS else 1


def total(cards: list[str]) -> int:
    """Battle value of some cards (A=1 ... K=13)."""
    return sum(value(c) for c in cards)


def points(cards: list[str]) -> int:
    """Victory-pile score: 2-10 count 1, J/Q/K/A count 2."""
    return sum(2 if rank(c) in HIGH_RANKS else 1 for c in cards)


def _split_stacked(deck: list[str]) -> list[list[str]]:
    if any(not is_card(c) for c in deck):
        bad = [c for c in deck if not is_card(c)]
        raise ValueError(f"Not card codes: {bad}")
    if len(set(deck)) != len(deck):
        raise ValueError("A stacked deck may not list a card twice.")
    decks: list[list[str]] = [[c for c in deck if colour_of(c) == s] for s in (0, 1)]
    for s in (0, 1):
        listed = set(decks[s])
        decks[s] += [c for c in COLOUR_CARDS[s] if c not in listed]
    return decks


class WarOfSuits(Game):
    kind = "warofsuits"
    title = "A War of Suits"
    min_players = 2
    max_players = 2
    options: ClassVar[dict[str, Option]] = {}
    summary = (
        "Red (♦♥) against Black (♣♠), each with its own 26-card deck and a hand of 3. Both "
        "sides send a card into battle in secret; the higher value wins all cards on the "
        "field. The losing side may double with a card matching either rank, or play an Ace "
        "to claim the battle (only an Ace stops an Ace). Equal cards mean head to head: every "
        "card in hand joins the fight. When a side runs out, the other keeps its remaining "
        "cards; number cards score 1, J/Q/K/A score 2, and the higher score wins."
    )

    decks: list[list[str]]
    hands: list[list[str]]
    field: list[list[str]]
    piles: list[list[str]]
    pending: list[str | None]
    doubled: list[bool]
    turn: int | None
    last_ace: int | None
    phase: str
    battle: int
    last: dict[str, Any] | None

    # -- setup ----------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        if deck is None:
            decks = [list(COLOUR_CARDS[0]), list(COLOUR_CARDS[1])]
            for d in decks:
                self.rng.shuffle(d)
        else:
            decks = _split_stacked(deck)
        self.hands = [d[:HAND_SIZE] for d in decks]
        self.decks = [d[HAND_SIZE:] for d in decks]
        self.field = [[], []]
        self.piles = [[], []]
        self._new_battle_state()
        self.phase = "choose"
        self.battle = 1
        self.last = None

    def _new_battle_state(self) -> None:
        self.pending = [None, None]
        self.doubled = [False, False]
        self.turn = None
        self.last_ace = None

    # -- helpers ----------------------------------------------------------------------------
    def _who(self, s: int) -> str:
        return f"{SIDE_NAMES[s]} ({self.players[s]})"

    def _totals(self) -> tuple[int, int]:
        return total(self.field[0]), total(self.field[1])

    def _score_line(self) -> str:
        return f"{total(self.field[0])} against {total(self.field[1])}"

    def _unseen(self, s: int) -> list[str]:
        """Side ``s``'s cards that nobody has seen yet (in its hand or deck).

        Built from public information only, so decisions based on it leak nothing.
        """
        seen = set(self.field[0]) | set(self.field[1]) | set(self.piles[0]) | set(self.piles[1])
        return [c for c in COLOUR_CARDS[s] if c not in seen]

    def _forced(self) -> list[int]:
        """In a tie, the sides made to reinforce because they surely hold no Ace (public)."""
        if self.phase != "tie":
            return []
        return [s for s in (0, 1) if self.pending[s] == "reinforce" and not self._could_ace(s)]

    def _could_ace(self, s: int) -> bool:
        return bool(self.hands[s]) and any(rank(c) == "A" for c in self._unseen(s))

    def _double_ranks(self, s: int) -> set[str]:
        return {rank(self.field[s][0]), rank(self.field[1 - s][0])} - {"A"}

    def _could_double(self, s: int) -> bool:
        """Side ``s`` might hold a double (judged on public information alone)."""
        if not self.hands[s] or self.doubled[s]:
            return False
        ranks = self._double_ranks(s)
        return any(rank(c) in ranks for c in self._unseen(s))

    def _could_react(self, s: int) -> bool:
        return self._could_ace(s) or self._could_double(s)

    def _take_from_hand(self, s: int, card: str) -> None:
        self.hands[s].remove(card)
        self.field[s].append(card)

    def _update_scores(self) -> None:
        for s in (0, 1):
            self.scores[self.players[s]] = points(self.piles[s])

    # -- the contract -----------------------------------------------------------------------
    def actors(self) -> list[str]:
        if self.phase in ("choose", "tie"):
            return [self.players[s] for s in (0, 1) if self.pending[s] is None]
        if self.phase in ("react", "answer") and self.turn is not None:
            return [self.players[self.turn]]
        return []

    def _legal(self, player: str) -> list[Action]:
        s = self.players.index(player)
        hand = sorted(self.hands[s], key=sort_key)
        aces = [c for c in hand if rank(c) == "A"]
        if self.phase == "choose":
            return [Action(f"choose:{c}", f"Play {label(c)} face down") for c in hand]
        if self.phase == "tie":
            acts = [Action(f"ace:{c}", f"Stop the fight with {label(c)}") for c in aces]
            return [*acts, Action("reinforce", "Reinforce (head to head)")]
        acts = []
        if self.phase == "react":
            if not self.doubled[s]:
                ranks = self._double_ranks(s)
                acts += [
                    Action(f"double:{c}", f"Double with {label(c)} (+{value(c)})")
                    for c in hand
                    if rank(c) in ranks
                ]
            acts += [Action(f"ace:{c}", f"Claim the battle with {label(c)}") for c in aces]
        else:  # answer
            acts += [Action(f"ace:{c}", f"Answer with {label(c)}") for c in aces]
        return [*acts, Action("accept", "Accept the loss")]

    def _apply(self, player: str, action: Action, chosen: list[str] | None) -> list[Event]:
        s = self.players.index(player)
        verb, _, card = action.id.partition(":")
        if self.phase in ("choose", "tie"):
            return self._choose(s, action.id)
        if verb == "double":
            return self._double(s, card)
        if verb == "ace":
            return self._claim(s, card)
        if verb == "accept":
            return [Event(f"{self._who(s)} accepts the loss."), *self._win(1 - s)]
        raise IllegalAction("That move is not available right now.")

    # -- secret simultaneous choices --------------------------------------------------------
    def _choose(self, s: int, choice: str) -> list[Event]:
        self.pending[s] = choice
        if self.pending[1 - s] is None:
            player = self.players[s]
            if self.phase == "choose":
                # Notes last the whole game: worded to stay true once the choice is shown.
                card = label(choice.split(":")[1])
                secret = f"Battle {self.battle}: you chose {card} face down."
                return [Event(f"{self._who(s)} has chosen a card.", {player: secret})]
            if choice == "reinforce":
                secret = f"Battle {self.battle}: you chose, in secret, to reinforce."
            else:
                secret = (
                    f"Battle {self.battle}: you chose, in secret, to stop the fight with "
                    f"{label(choice.split(':')[1])}."
                )
            return [Event(f"{self._who(s)} has decided.", {player: secret})]
        return self._reveal() if self.phase == "choose" else self._reveal_tie()

    def _reveal(self) -> list[Event]:
        cards = [str(p).split(":")[1] for p in self.pending]
        self.pending = [None, None]
        for s in (0, 1):
            self._take_from_hand(s, cards[s])
        text = (
            f"Battle {self.battle}: {self._who(0)} plays {label(cards[0])}, "
            f"{self._who(1)} plays {label(cards[1])}: {self._score_line()}."
        )
        return [Event(text), *self._after_change()]

    def _after_change(self) -> list[Event]:
        """Totals changed with no Ace in play: open the window, start a tie, or decide."""
        red, black = self._totals()
        if red == black:
            return self._start_tie()
        lower = 0 if red < black else 1
        if self._could_react(lower):
            self.phase, self.turn = "react", lower
            return []
        return self._win(1 - lower)

    # -- doubles and Aces -------------------------------------------------------------------
    def _double(self, s: int, card: str) -> list[Event]:
        self._take_from_hand(s, card)
        self.doubled[s] = True
        text = f"{self._who(s)} doubles with {label(card)}: {self._score_line()}."
        return [Event(text), *self._after_change()]

    def _claim(self, s: int, card: str) -> list[Event]:
        answering = self.phase == "answer"
        self._take_from_hand(s, card)
        self.last_ace = s
        if answering:
            text = f"{self._who(s)} answers with {label(card)}."
        else:
            text = f"{self._who(s)} plays {label(card)} to claim the battle."
        return [Event(text), *self._offer_answer(1 - s)]

    def _offer_answer(self, other: int) -> list[Event]:
        """The side facing an Ace may answer with an Ace, if it might hold one."""
        if self._could_ace(other):
            self.phase, self.turn = "answer", other
            return []
        assert self.last_ace is not None
        return self._win(self.last_ace)

    # -- ties and head to head --------------------------------------------------------------
    def _start_tie(self) -> list[Event]:
        self.phase, self.turn = "tie", None
        # A side that surely holds no Ace can only reinforce: decided for it, publicly.
        self.pending = [None if self._could_ace(s) else "reinforce" for s in (0, 1)]
        red, _ = self._totals()
        events = [Event(f"Tie at {red}: each side chooses at once to play an Ace or reinforce.")]
        events += [Event(f"{self._who(s)} has no Ace left: it reinforces.") for s in self._forced()]
        if all(p is not None for p in self.pending):
            events += self._reveal_tie()
        return events

    def _reveal_tie(self) -> list[Event]:
        choices = [str(p) for p in self.pending]
        self.pending = [None, None]
        aces = [s for s in (0, 1) if choices[s].startswith("ace:")]
        for s in aces:
            self._take_from_hand(s, choices[s].split(":")[1])
        if len(aces) == 2:
            text = (
                f"{self._who(0)} plays {label(self.field[0][-1])} and {self._who(1)} plays "
                f"{label(self.field[1][-1])}: the Aces cancel ({self._score_line()})."
            )
            return [Event(text), *self._start_tie()]
        if aces:
            x = aces[0]
            self.last_ace = x
            text = (
                f"{self._who(x)} plays {label(self.field[x][-1])} to stop the fight; "
                f"{self._who(1 - x)} had chosen to reinforce."
            )
            return [Event(text), *self._offer_answer(1 - x)]
        return self._head_to_head()

    def _head_to_head(self) -> list[Event]:
        added = []
        for s in (0, 1):
            cards = sorted(self.hands[s], key=sort_key)
            self.hands[s] = []
            self.field[s] += cards
            added.append(labels(cards))
        text = (
            f"Head to head: {self._who(0)} adds {added[0]}, {self._who(1)} adds {added[1]}: "
            f"{self._score_line()}."
        )
        events = [Event(text)]
        while True:
            red, black = self._totals()
            if red != black:
                return events + self._win(0 if red > black else 1)
            drawing = [s for s in (0, 1) if self.decks[s]]
            if not drawing:
                break
            parts = []
            for s in drawing:
                card = self.decks[s].pop(0)
                self.field[s].append(card)
                parts.append(f"{self._who(s)} adds {label(card)}")
            events.append(
                Event(f"Still tied: {', '.join(parts)} from the deck: {self._score_line()}.")
            )
        for s in (0, 1):
            self.piles[s] += self.field[s]
        events.append(
            Event("Still tied with no cards left to add: each side takes back its own cards.")
        )
        return events + self._end_battle(None)

    # -- end of a battle, end of the game -------------------------------------------------
    def _win(self, w: int) -> list[Event]:
        cards = self.field[0] + self.field[1]
        self.piles[w] += cards
        text = f"{self._who(w)} wins battle {self.battle} and takes {len(cards)} cards."
        return [Event(text), *self._end_battle(w)]

    def _end_battle(self, winner: int | None) -> list[Event]:
        self.last = {"winner": winner, "field": [list(self.field[0]), list(self.field[1])]}
        self.field = [[], []]
        self._new_battle_state()
        self._update_scores()
        events: list[Event] = []
        drawn: list[list[str]] = []
        for s in (0, 1):
            need = HAND_SIZE - len(self.hands[s])
            cards = self.decks[s][:need]
            del self.decks[s][:need]
            self.hands[s] += cards
            drawn.append(cards)
        if drawn[0] or drawn[1]:
            private = {self.players[s]: f"You draw {labels(drawn[s])}." for s in (0, 1) if drawn[s]}
            counts = ", ".join(f"{SIDE_NAMES[s]} draws {len(drawn[s])}" for s in (0, 1))
            text = f"Hands refilled: {counts}."
            events.append(Event(text, private))
        if any(not self.hands[s] and not self.decks[s] for s in (0, 1)):
            return events + self._game_over()
        self.phase = "choose"
        self.battle += 1
        return events

    def _game_over(self) -> list[Event]:
        events: list[Event] = []
        for s in (0, 1):
            rest = self.hands[s] + self.decks[s]
            if rest:
                # The other side has run out: this side keeps everything it still holds.
                self.piles[s] += rest
                self.hands[s], self.decks[s] = [], []
                text = (
                    f"{SIDE_NAMES[1 - s]} has run out of cards: {self._who(s)} adds its "
                    f"remaining {len(rest)} {'card' if len(rest) == 1 else 'cards'} to its "
                    "victory pile."
                )
                events.append(Event(text))
        self._update_scores()
        red, black = points(self.piles[0]), points(self.piles[1])
        self.phase = "over"
        if red == black:
            self._finish([], "draw")
            result = "a draw"
        else:
            w = 0 if red > black else 1
            self._finish([self.players[w]], "points")
            result = f"{self._who(w)} wins"
        events.append(
            Event(f"Game over: {SIDE_NAMES[0]} {red}, {SIDE_NAMES[1]} {black}; {result}.")
        )
        return events

    # -- views --------------------------------------------------------------------------
    def _prompt(self) -> str:
        if self.phase == "over":
            red, black = self.scores[self.players[0]], self.scores[self.players[1]]
            result = "a draw" if not self.winners else f"{self.winners[0]} wins"
            return f"Game over: Red {red}, Black {black}; {result}."
        if self.phase in ("choose", "tie"):
            waiting = [s for s in (0, 1) if self.pending[s] is None]
            what = (
                "choose a card in secret" if self.phase == "choose" else "play an Ace or reinforce"
            )
            if len(waiting) == 2:
                return f"{self._who(0)} and {self._who(1)} to {what}."
            s = waiting[0]
            done = "has chosen" if self.phase == "choose" else "has decided"
            if 1 - s in self._forced():
                done = "reinforces (no Ace left)"
            return f"{self._who(s)} to {what}; {SIDE_NAMES[1 - s]} {done}."
        assert self.turn is not None
        s = self.turn
        if self.phase == "react":
            mine, theirs = total(self.field[s]), total(self.field[1 - s])
            # Worded from public information only, as the window itself: a move is named when
            # the side might hold it, never because it does.
            could = [("double", self._could_double(s)), ("claim with an Ace", self._could_ace(s))]
            options = ", ".join(move for move, possible in could if possible)
            return f"{self._who(s)} to {options} or accept the loss ({mine} against {theirs})."
        return f"{self._who(s)} to answer {SIDE_NAMES[1 - s]}'s Ace with an Ace or accept the loss."

    def _view(self, player: str | None) -> dict[str, Any]:
        p = self.players
        simultaneous = self.phase in ("choose", "tie")
        view: dict[str, Any] = {
            "phase": self.phase,
            "prompt": self._prompt(),
            "sides": {p[s]: SIDE_KEYS[s] for s in (0, 1)},
            "battle": self.battle,
            "battlefield": {p[s]: list(self.field[s]) for s in (0, 1)},
            "totals": {p[s]: total(self.field[s]) for s in (0, 1)},
            "chosen": [p[s] for s in (0, 1) if simultaneous and self.pending[s] is not None],
            "forced": [p[s] for s in self._forced()],
            "deck_sizes": {p[s]: len(self.decks[s]) for s in (0, 1)},
            "hand_sizes": {p[s]: len(self.hands[s]) for s in (0, 1)},
            "victory_sizes": {p[s]: len(self.piles[s]) for s in (0, 1)},
            "window": [p[self.turn]]
            if self.phase in ("react", "answer") and self.turn is not None
            else [],
            "doubled": {p[s]: self.doubled[s] for s in (0, 1)},
            "ace": None if self.last_ace is None else p[self.last_ace],
            "last_battle": None,
            "victory_piles": {p[s]: list(self.piles[s]) for s in (0, 1)},
        }
        if self.last is not None:
            w = self.last["winner"]
            view["last_battle"] = {
                "winner": None if w is None else p[w],
                "battlefield": {p[s]: list(self.last["field"][s]) for s in (0, 1)},
            }
        if player is not None:
            s = p.index(player)
            view["hand"] = sorted(self.hands[s], key=sort_key)
            view["choice"] = self.pending[s] if simultaneous else None
            view["choice_forced"] = s in self._forced()
        return view

    # -- persistence ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        last = None
        if self.last is not None:
            last = {"winner": self.last["winner"], "field": [list(f) for f in self.last["field"]]}
        return {
            "decks": [list(d) for d in self.decks],
            "hands": [list(h) for h in self.hands],
            "field": [list(f) for f in self.field],
            "piles": [list(v) for v in self.piles],
            "pending": list(self.pending),
            "doubled": list(self.doubled),
            "turn": self.turn,
            "ace": self.last_ace,
            "phase": self.phase,
            "battle": self.battle,
            "last": last,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        self.decks = [list(d) for d in state["decks"]]
        self.hands = [list(h) for h in state["hands"]]
        self.field = [list(f) for f in state["field"]]
        self.piles = [list(v) for v in state["piles"]]
        self.pending = list(state["pending"])
        self.doubled = list(state["doubled"])
        self.turn = state["turn"]
        self.last_ace = state["ace"]
        self.phase = state["phase"]
        self.battle = state["battle"]
        last = state["last"]
        self.last = (
            None
            if last is None
            else {"winner": last["winner"], "field": [list(f) for f in last["field"]]}
        )
