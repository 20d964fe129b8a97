"""Haymaker: a two-player duel with a 40-card deck (no J, Q, K; Ace = 1).

One player attacks, the other defends. The attacker plays one card, a haymaker (two or more
cards of one suit, strength = their sum) or passes (only right after attacking). The defender
blocks with any cards summing to at least the attack, or takes the hit (gives the attacker one
random card, two against a haymaker). A block that equals the attack, stops a haymaker, or
leaves the attacker empty-handed is a reversal: the defender banks the played cards and the
roles switch. A defender who cannot give enough cards is knocked out; an attacker with no
legal move loses by technical knockout; with no cards on either side the larger discard pile
wins by decision.

Deal (what ``engine.testing.stacked`` must provide): all 40 cards, first item = top card.
The dealer is chosen with the RNG *before* the deal (``players[rng.below(2)]``); the other
player attacks first. Cards 0-19 are dealt one at a time alternately, first attacker first:
even positions (0, 2, ..., 18) go to the first attacker, odd positions (1, 3, ..., 19) to
the dealer. Cards 20-23 are burned face down (secret, never shown). Cards 24-39 form the
deck, card 24 drawn first.

Action ids:
- attacker: ``attack:<card>`` ("Attack with 7♠"); ``haymaker`` with
  ``Pick(options=hand, min=2, max=len(hand))``, applied as ``haymaker:<c1>.<c2>...``,
  offered only when some suit has 2+ cards, mixed suits refused; ``pass`` (only if this
  player attacked in the previous turn).
- defender: ``block`` with ``Pick(options=hand, min=1, max=len(hand))``, applied as
  ``block:<c1>...``, offered only when the whole hand could reach the attack, a sum below
  the attack refused; ``hit`` (always offered; the only choice with an empty hand).

View keys (public): ``phase`` ("attack" | "defend" | "over"), ``prompt`` (one sentence),
``dealer``, ``attacker``, ``defender``, ``attack`` (None, or ``{"cards": [...], "strength":
n, "haymaker": bool}`` for the attack in play), ``attacked_last`` (the player who attacked in
the previous turn, or None; the attacker may pass only if it is them), ``can_pass`` (bool),
``hand_sizes`` ({player: n}), ``deck`` (count), ``discards`` ({player: count}), ``burned``
(count), ``result`` (None, "knockout", "technical knockout", "decision" or "draw"),
``discard_piles`` ({player: [the cards in that discard pile, in the order added]}: every card
ever played to a discard pile, as the table saw it), ``history`` (every move so far, as the
table saw it, oldest first: ``{"player": p, "move": m}`` with m one of "attack", "haymaker",
"block" (each with ``"cards"``: the cards shown), "hit" (with ``"given"``: how many cards the
defender gave, 0 for a knockout), "pass" and "draw" (one entry per card drawn)).
Private view adds ``hand`` (card codes sorted by suit, then rank) and ``known`` ({the other
player: the cards this player gave them on a hit that they still hold}).

Events: public text for every attack, haymaker, pass, block (with the reversal reasons),
hit, draw and ending. Which cards a hit moves is private text to both players (the public
text gives only the count); a drawn card is private text to its drawer.

``scores`` = discard pile sizes.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.cards import RANKS, SUITS, label, labels, standard_deck, suit, value
from engine.core import Action, Event, Game, IllegalAction, Pick
from engine.options import Option

RANKS_40 = RANKS[:10]  # the seed removes the face cards
HAND_SIZE = 10
BURN = 4

ATTACK, DEFEND, OVER = "attack", "defend", "over"
KNOCKOUT, TKO, DECISION, DRAW = "knockout", "technical knockout", "decision", "draw"

# A pass by what it does, as everyone can see it (the deck's size is public).
PASS_BY_DECK = [
    Action("pass", "Pass (roles switch; the deck is empty)"),
    Action("pass", "Pass (roles switch; the new attacker draws the last card)"),
    Action("pass", "Pass (roles switch, both draw)"),
]


def full_deck() -> list[str]:
    """The 40 cards Haymaker uses, unshuffled."""
    return standard_deck(RANKS_40)


def _hand_key(card: str) -> tuple[int, int]:
    # Suit first: haymakers are built from one suit, so grouping helps the player.
    return SUITS.index(suit(card)), value(card)


def _strength(cards: list[str]) -> int:
    return sum(value(c) for c in cards)


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A copy of a history entry that shares no list with it."""
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


class Haymaker(Game):
    """Haymaker engine. See the module docstring for the deal, actions and view keys."""

    kind = "haymaker"
    title = "Haymaker"
    min_players = 2
    max_players = 2
    options: ClassVar[dict[str, Option]] = {}
    summary = (
        "A two-player duel with the 40 cards A-10 (Ace = 1). The attacker plays one card, a "
        "haymaker (two or more cards of one suit, adding up), or passes right after attacking. "
        "The defender blocks with cards adding up to at least the attack, or takes the hit and "
        "gives the attacker a random card (two against a haymaker). A block that exactly "
        "matches, stops a haymaker, or leaves the attacker empty-handed is a reversal: the "
        "defender banks the cards and becomes the attacker. Run your opponent out of cards: a "
        "defender who cannot pay for a hit is knocked out, an attacker with no move loses by "
        "technical knockout, and if both hands are empty the bigger discard pile wins."
    )

    hands: dict[str, list[str]]
    deck: list[str]
    burned: list[str]
    discards: dict[str, list[str]]
    dealer: str
    attacker: str
    phase: str
    attack: list[str]
    haymaker: bool
    attacked_last: str | None
    result: str | None
    log: list[dict[str, Any]]  # the public history of moves (view key "history")

    # -- setup -----------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        self.dealer = self.players[self.rng.below(2)]
        self.attacker = self._other(self.dealer)
        if deck is None:
            cards = full_deck()
            self.rng.shuffle(cards)
        else:
            cards = list(deck)
            if sorted(cards) != sorted(full_deck()):
                raise ValueError("A Haymaker deck must hold each of the 40 cards A-10 once.")
        order = [self.attacker, self.dealer]
        self.hands = {p: [] for p in self.players}
        for i in range(2 * HAND_SIZE):
            self.hands[order[i % 2]].append(cards[i])
        for p in self.players:
            self.hands[p].sort(key=_hand_key)
        self.burned = cards[2 * HAND_SIZE : 2 * HAND_SIZE + BURN]
        self.deck = cards[2 * HAND_SIZE + BURN :]
        self.discards = {p: [] for p in self.players}
        self.attack = []
        self.haymaker = False
        self.attacked_last = None
        self.result = None
        self.log = []
        # Cards each player gave the other on a hit: they know the other holds them.
        self.given: dict[str, list[str]] = {p: [] for p in self.players}
        self.phase = ATTACK
        self._begin_turn()  # nothing can end a fresh game, but keep one path for every turn

    # -- helpers ---------------------------------------------------------------------------
    def _other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    @property
    def defender(self) -> str:
        return self._other(self.attacker)

    def _update_scores(self) -> None:
        self.scores = {p: len(self.discards[p]) for p in self.players}

    def _give(self, player: str, cards: list[str]) -> None:
        hand = self.hands[player]
        hand.extend(cards)
        hand.sort(key=_hand_key)

    def _take(self, player: str, cards: list[str]) -> None:
        hand = self.hands[player]
        for c in cards:
            hand.remove(c)

    def _end(self, result: str, winners: list[str]) -> None:
        self.result = result
        self.phase = OVER
        self._update_scores()
        self._finish(winners, result)

    def _draw_both(self) -> Event:
        """After a pass or a reversal: the (new) attacker draws first, then the defender."""
        drawn: dict[str, str] = {}
        for p in (self.attacker, self.defender):
            if self.deck:
                card = self.deck.pop(0)
                self._give(p, [card])
                drawn[p] = card
                self.log.append({"player": p, "move": "draw"})
        if not drawn:
            return Event("The deck is empty: nobody draws.")
        private = {p: f"You drew {label(c)}." for p, c in drawn.items()}
        who = list(drawn)
        if len(who) == 2:
            text = f"{who[0]} and {who[1]} each draw a card."
        else:
            text = f"{who[0]} draws the last card of the deck."
        return Event(text, private)

    def _begin_turn(self) -> list[Event]:
        """Step 1 of a turn (is the match over?) and the attacker's technical knockout."""
        a, d = self.attacker, self.defender
        if not self.hands[a] and not self.hands[d]:
            na, nd = len(self.discards[a]), len(self.discards[d])
            if na == nd:
                self._end(DRAW, [])
                return [
                    Event(
                        f"Neither player has cards: decision. Both discard piles hold "
                        f"{_cards(na)}, so the game is a draw."
                    )
                ]
            winner, loser = (a, d) if na > nd else (d, a)
            self._end(DECISION, [winner])
            hi, lo = max(na, nd), min(na, nd)
            return [
                Event(
                    f"Neither player has cards: decision. {winner} wins by decision, "
                    f"{hi} discarded cards to {loser}'s {lo}."
                )
            ]
        if not self.hands[a] and self.attacked_last != a:
            self._end(TKO, [d])
            return [Event(f"{a} has no cards and cannot pass: {d} wins by technical knockout.")]
        self.phase = ATTACK
        return []

    # -- the contract ----------------------------------------------------------------------
    def actors(self) -> list[str]:
        if self.finished:
            return []
        return [self.attacker] if self.phase == ATTACK else [self.defender]

    def _legal(self, player: str) -> list[Action]:
        hand = self.hands[player]
        if self.phase == ATTACK:
            actions = [Action(f"attack:{c}", f"Attack with {label(c)}") for c in hand]
            suits = [suit(c) for c in hand]
            if any(suits.count(s) >= 2 for s in SUITS):
                actions.append(
                    Action(
                        "haymaker",
                        "Haymaker (2+ cards of one suit)",
                        Pick(options=list(hand), min=2, max=len(hand)),
                    )
                )
            if self.attacked_last == player:
                actions.append(PASS_BY_DECK[min(len(self.deck), 2)])
            return actions
        strength = _strength(self.attack)
        actions = []
        # Offer a block only if one can succeed; the whole hand is the strongest block.
        if hand and _strength(hand) >= strength:
            actions.append(
                Action(
                    "block",
                    f"Block (cards summing to {strength} or more)",
                    Pick(options=list(hand), min=1, max=len(hand)),
                )
            )
        need = 2 if self.haymaker else 1
        if len(hand) >= need:
            hit = f"Take the hit (give {need} random {'cards' if need > 1 else 'card'})"
        else:
            hit = "Take the hit (you cannot give enough cards: knockout)"
        actions.append(Action("hit", hit))
        return actions

    def _apply(self, player: str, action: Action, chosen: list[str] | None) -> list[Event]:
        if action.id.startswith("attack:"):
            return self._do_attack([action.id.split(":", 1)[1]], haymaker=False)
        if action.id == "haymaker":
            assert chosen is not None
            if len({suit(c) for c in chosen}) > 1:
                raise IllegalAction(
                    f"A haymaker must be cards of one suit; you chose {labels(chosen)}."
                )
            return self._do_attack(chosen, haymaker=True)
        if action.id == "pass":
            return self._do_pass()
        if action.id == "block":
            assert chosen is not None
            return self._do_block(chosen)
        if action.id == "hit":
            return self._do_hit()
        raise IllegalAction("That move is not available right now.")  # pragma: no cover

    # -- moves -----------------------------------------------------------------------------
    def _do_attack(self, cards: list[str], haymaker: bool) -> list[Event]:
        a = self.attacker
        cards = sorted(cards, key=_hand_key)
        self._take(a, cards)
        self.attack = cards
        self.haymaker = haymaker
        self.log.append({"player": a, "move": "haymaker" if haymaker else "attack", "cards": cards})
        self.phase = DEFEND
        strength = _strength(cards)
        if haymaker:
            text = f"{a} throws a haymaker: {labels(cards)} (strength {strength})."
        else:
            text = f"{a} attacks with {label(cards[0])} (strength {strength})."
        return [Event(text)]

    def _do_pass(self) -> list[Event]:
        a, d = self.attacker, self.defender
        events = [Event(f"{a} passes; the roles switch and {d} attacks next.")]
        self.log.append({"player": a, "move": "pass"})
        self.attacked_last = None  # a pass is not an attack
        self.attacker = d
        events.append(self._draw_both())
        events += self._begin_turn()
        return events

    def _do_block(self, chosen: list[str]) -> list[Event]:
        a, d = self.attacker, self.defender
        attack = _strength(self.attack)
        block = _strength(chosen)
        if block < attack:
            raise IllegalAction(f"Your block is {block}; it must be at least {attack}.")
        chosen = sorted(chosen, key=_hand_key)
        self._take(d, chosen)
        self.log.append({"player": d, "move": "block", "cards": chosen})
        played = self.attack + chosen
        reasons = []
        if block == attack:
            reasons.append("the block equals the attack")
        if self.haymaker:
            reasons.append("the attack was a haymaker")
        if not self.hands[a]:
            reasons.append(f"{a} has no cards left")
        events = [Event(f"{d} blocks with {labels(chosen)} (strength {block}).")]
        self.attack = []
        self.haymaker = False
        self.attacked_last = a
        if reasons:
            self.discards[d].extend(played)
            events.append(
                Event(
                    f"Reversal ({'; '.join(reasons)})! {d} adds the {_cards(len(played))} "
                    f"played to their discard pile; the roles switch and {d} attacks next."
                )
            )
            self.attacker = d
            events.append(self._draw_both())
        else:
            self.discards[a].extend(played)
            events.append(
                Event(f"{a} adds the {_cards(len(played))} played to their discard pile.")
            )
        self._update_scores()
        events += self._begin_turn()
        return events

    def _do_hit(self) -> list[Event]:
        a, d = self.attacker, self.defender
        need = 2 if self.haymaker else 1
        hand = self.hands[d]
        self.log.append({"player": d, "move": "hit", "given": need if len(hand) >= need else 0})
        if len(hand) < need:
            # The match ends here; the attack stays on the table (no resolution step).
            self._end(KNOCKOUT, [a])
            return [
                Event(f"{d} takes the hit but cannot give {_cards(need)}: {a} wins by knockout.")
            ]
        given = sorted(self.rng.sample(hand, need), key=_hand_key)
        self._take(d, given)
        self._give(a, given)
        self.given[d] += given
        played = self.attack
        self.discards[a].extend(played)
        self.attack = []
        self.haymaker = False
        self.attacked_last = a
        self._update_scores()
        events = [
            Event(
                f"{d} takes the hit and gives {a} {need} random {'cards' if need > 1 else 'card'}. "
                f"{a} adds the {_cards(len(played))} played to their discard pile.",
                {d: f"You gave {a} {labels(given)}.", a: f"{d} gave you {labels(given)}."},
            )
        ]
        events += self._begin_turn()
        return events

    # -- views and saving --------------------------------------------------------------------
    def _prompt(self) -> str:
        a, d = self.attacker, self.defender
        if self.phase == OVER:
            w = self.winners[0] if self.winners else None
            if self.result == DRAW:
                n = len(self.discards[a])
                return f"The game is a draw by decision: both discard piles hold {_cards(n)}."
            if self.result == DECISION and w is not None:
                loser = self._other(w)
                return (
                    f"{w} wins by decision, {len(self.discards[w])} discarded cards to "
                    f"{len(self.discards[loser])}."
                )
            return f"{w} wins by {self.result}."
        if self.phase == ATTACK:
            can_pass = self.attacked_last == a
            if not self.hands[a]:
                return f"{a} has no cards and must pass."
            # A haymaker needs two cards of one suit: offered only to a hand that size could
            # hold one (hand sizes are public, so the wording reveals nothing).
            with_what = "a card or a haymaker" if len(self.hands[a]) >= 2 else "a card"
            return f"{a} to attack {d} with {with_what}{', or pass' if can_pass else ''}."
        strength = _strength(self.attack)
        if not self.hands[d]:
            return f"{d} has no cards and must take the hit."
        if self.haymaker:
            what = f"the haymaker {labels(self.attack)}"
        else:
            what = label(self.attack[0])
        return f"{d} to block {what} (strength {strength}) or take the hit."

    def _view(self, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "phase": self.phase,
            "prompt": self._prompt(),
            "dealer": self.dealer,
            "attacker": self.attacker,
            "defender": self.defender,
            "attack": (
                {
                    "cards": list(self.attack),
                    "strength": _strength(self.attack),
                    "haymaker": self.haymaker,
                }
                if self.attack
                else None
            ),
            "attacked_last": self.attacked_last,
            "can_pass": self.phase == ATTACK and self.attacked_last == self.attacker,
            "hand_sizes": {p: len(self.hands[p]) for p in self.players},
            "deck": len(self.deck),
            "discards": {p: len(self.discards[p]) for p in self.players},
            "burned": len(self.burned),
            "result": self.result,
            "discard_piles": {p: list(self.discards[p]) for p in self.players},
            "history": [_copy_entry(e) for e in self.log],
        }
        if player is not None:
            view["hand"] = list(self.hands[player])
            # What this player alone knows of the other's hand: the cards it gave on a hit
            # that the other still holds.
            other = next(p for p in self.players if p != player)
            held = self.hands[other]
            view["known"] = {other: [c for c in self.given[player] if c in held]}
        return view

    def _state(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "attacker": self.attacker,
            "phase": self.phase,
            "hands": {p: list(h) for p, h in self.hands.items()},
            "deck": list(self.deck),
            "burned": list(self.burned),
            "discards": {p: list(d) for p, d in self.discards.items()},
            "attack": list(self.attack),
            "haymaker": self.haymaker,
            "attacked_last": self.attacked_last,
            "result": self.result,
            "log": [_copy_entry(e) for e in self.log],
            "given": {p: list(g) for p, g in self.given.items()},
        }

    def _restore(self, state: dict[str, Any]) -> None:
        self.dealer = state["dealer"]
        self.attacker = state["attacker"]
        self.phase = state["phase"]
        self.hands = {p: list(h) for p, h in state["hands"].items()}
        self.deck = list(state["deck"])
        self.burned = list(state["burned"])
        self.discards = {p: list(d) for p, d in state["discards"].items()}
        self.attack = list(state["attack"])
        self.haymaker = state["haymaker"]
        self.attacked_last = state["attacked_last"]
        self.result = state["result"]
        # Absent from games saved before it was kept (and from a bot's sampled worlds).
        given = state.get("given") or {}
        self.given = {p: list(given.get(p, [])) for p in self.players}
        self.log = [_copy_entry(e) for e in state.get("log", [])]  # older saves have none
