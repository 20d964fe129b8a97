"""I Have It: three players race to hold four of a rank or seven of a suit, or to outlast.

Seed rule text: shared/seeds/000_98507b8068086363.txt; its gaps are settled by the "I Have It"
rulings, and the few decisions left are marked in docs/rules/ihaveit.md.

How the deck is dealt (stack a deck for tests with engine.testing.stacked; first item = top):
  seat 0 gets deck[0:9], seat 1 deck[9:18], seat 2 deck[18:27]; the rest forms the pile, from
  which each seat in order draws its tenth card: deck[27] -> seat 0, deck[28] -> seat 1,
  deck[29] -> seat 2. deck[30:] is the pile, top first (22 cards). A stacked deck must hold
  each of the 52 cards once. The seat whose drawn (tenth) card is highest starts (Ace low,
  ties by suit C < D < H < S). If any hand meets a goal right after the deal, all 52 cards
  are gathered, shuffled with the game's RNG and dealt again the same way, until no hand
  does; so a stacked deck only fixes the first deal (the view counts re-deals in "redeals").

Action ids (a pair is one action; its two cards are written in suit order):
  lead:<card>        lead a single, e.g. lead:7C
  lead:<c1>.<c2>     lead a pair, e.g. lead:7C.7H
  answer:<card>      answer the play awaiting an answer with a single
  answer:<c1>.<c2>   answer it with a pair
  decline            decline (always allowed): the answered player takes that many cards
                     at random from your hand, then you lead, restricted

View keys (public unless noted):
  phase       "lead", "answer" or "over"
  prompt      one sentence: who must do what now
  current     the player to act (None when over)
  in_play     {"player": name, "cards": [codes]}: the play awaiting an answer, or None
  pile        cards left in the draw pile (never refilled)
  discard     played cards out of the game (count)
  played      those cards, in the order they left the game (each was shown when played)
  hand_sizes  {player: cards in hand}
  out         players who are out, in the order they went out
  restricted  True while the current lead is restricted after a decline
  lead_limit  the rank code of a restricted lead's limit (e.g. "5"); shown only to the
              decliner and the taker, who both know which cards were taken; None otherwise
  starter     who started (drew the highest tenth card)
  redeals     how many times the cards were dealt again because a hand met a goal
  hand        (private) your cards, sorted by rank then suit
  drawn       (private, before the first move only) the tenth card you drew at the deal
  known       (private) {player: [cards]}: cards you know another player holds, because they
              took them from your hand on a decline and have not played them since (forgotten
              when a third player takes cards at random from that hand)

Events: a lead, an answer (with the answered player's draw: public count, private cards),
a decline (public count; the taken cards privately to the taker and the decliner, plus the
decliner's limit), a player going out, and the win (naming the goal met).
Scores: 1 for the winner, 0 for the others.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.cards import (
    RANK_NAMES,
    RANK_VALUE,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    label,
    rank,
    sort_key,
    standard_deck,
    suit,
    value,
)
from engine.core import Action, Event, Game
from engine.turns import next_seat

DEALT = 9  # cards dealt to each player before the tenth is drawn from the pile
RANK_GOAL = 4  # four of one rank wins
SUIT_GOAL = 7  # seven of one suit wins


def goal_met(hand: list[str]) -> str | None:
    """The goal ``hand`` meets, as text for the win message, or None."""
    # Plain dict counts: this runs after every action, and Counter is slow here.
    ranks: dict[str, int] = {}
    suits: dict[str, int] = {}
    for c in hand:
        ranks[c[:-1]] = ranks.get(c[:-1], 0) + 1
        suits[c[-1]] = suits.get(c[-1], 0) + 1
    for r, n in ranks.items():
        if n >= RANK_GOAL:
            return f"four {RANK_NAMES.get(r, r)}s"
    for s, n in suits.items():
        if n >= SUIT_GOAL:
            return f"seven {SUIT_NAMES[s]} {SUIT_SYMBOLS[s]}"
    return None


def plays_in(hand: list[str]) -> list[list[str]]:
    """Every single and every pair in ``hand`` (pairs in suit order), singles first."""
    cards = sorted(hand, key=sort_key)
    # combinations keeps the sorted order, so each pair reads in suit order.
    pairs = [[a, b] for a, b in combinations(cards, 2) if rank(a) == rank(b)]
    return [[c] for c in cards] + pairs


def answers(play: list[str], prev: list[str]) -> bool:
    """Whether ``play`` may answer ``prev`` (the seed's answer table)."""
    if len(prev) == 1:
        # A single: a higher single (any suit), a single of its suit (any rank), any pair.
        return len(play) == 2 or value(play[0]) > value(prev[0]) or suit(play[0]) == suit(prev[0])
    # A pair: only a higher pair.
    return len(play) == 2 and value(play[0]) > value(prev[0])


def describe(cards: list[str]) -> str:
    return label(cards[0]) if len(cards) == 1 else f"pair {label(cards[0])} {label(cards[1])}"


def count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


class IHaveIt(Game):
    """I Have It for exactly three players; see the module docstring for deal and ids."""

    kind = "ihaveit"
    title = "I Have It"
    min_players = 3
    max_players = 3
    # No options: the base class's empty ``options`` stands.
    summary = (
        "Three players, one 52-card deck, 10 cards each. Play one card or a pair; the next "
        "player answers with a higher card, a card of the same suit or any pair (a pair only "
        "with a higher pair), and the answered player draws as many cards as they played. "
        "Or decline: the answered player takes that many cards at random from you, and you "
        "lead low. First to hold four of a rank or seven of a suit wins, or be the last "
        "player with cards."
    )

    hands: dict[str, list[str]]
    pile: list[str]
    discard: list[str]
    in_play: dict[str, Any] | None
    current: str | None
    phase: str
    limit: str | None
    taken_by: str | None
    out: list[str]
    redeals: int
    starter: str
    drawn: dict[str, str]
    moves: int
    known: dict[str, dict[str, list[str]]]  # viewer -> holder -> cards the viewer saw go there

    # -- setup ---------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        if deck is None:
            cards = standard_deck()
            self.rng.shuffle(cards)
        else:
            if sorted(deck) != sorted(standard_deck()):
                raise ValueError("A stacked I Have It deck must hold each of the 52 cards once.")
            cards = list(deck)
        self.redeals = 0
        self._deal(cards)
        # Ruling: a hand that meets a goal straight from the deal would win without play,
        # so the cards are gathered and dealt again (shuffled with the game's RNG).
        while any(goal_met(h) for h in self.hands.values()):
            self.redeals += 1
            self.rng.shuffle(cards)
            self._deal(cards)
        self.starter = max(self.players, key=lambda p: sort_key(self.drawn[p]))
        self.discard = []
        self.in_play = None
        self.current = self.starter
        self.phase = "lead"
        self.limit = None
        self.taken_by = None
        self.out = []
        self.moves = 0
        self.known = {p: {} for p in self.players}
        self.goal: str | None = None  # the goal the winner met, told once the game is won

    def _deal(self, cards: list[str]) -> None:
        n = len(self.players)
        self.hands = {p: cards[i * DEALT : (i + 1) * DEALT] for i, p in enumerate(self.players)}
        self.drawn = {p: cards[n * DEALT + i] for i, p in enumerate(self.players)}
        for p in self.players:
            self.hands[p] = sorted([*self.hands[p], self.drawn[p]], key=sort_key)
        self.pile = cards[n * DEALT + n :]

    # -- the contract ----------------------------------------------------------------------
    def actors(self) -> list[str]:
        if self.finished or self.current is None:
            return []
        return [self.current]

    def _legal(self, player: str) -> list[Action]:
        hand = self.hands[player]
        if self.phase == "lead":
            plays = plays_in(hand)
            if self.limit is not None:
                top = RANK_VALUE[self.limit]
                # With no single or pair that low, the decliner may lead anything.
                plays = [p for p in plays if value(p[0]) <= top] or plays
            return [Action(f"lead:{'.'.join(p)}", f"Play {describe(p)}") for p in plays]
        assert self.in_play is not None
        prev = self.in_play["cards"]
        owner = self.in_play["player"]
        actions = [
            Action(f"answer:{'.'.join(p)}", f"Play {describe(p)}")
            for p in plays_in(hand)
            if answers(p, prev)
        ]
        k = min(len(prev), len(hand))
        actions.append(Action("decline", f"Decline (let {owner} take {count(k)})"))
        return actions

    def _apply(self, player: str, action: Action, chosen: list[str] | None) -> list[Event]:
        # Every action here is one of _legal's plain ids, so nothing is left to refuse.
        self.moves += 1
        if action.id == "decline":
            return self._decline(player)
        verb, _, rest = action.id.partition(":")
        cards = rest.split(".")
        if verb == "lead":
            return self._lead(player, cards)
        return self._answer(player, cards)

    # -- actions ---------------------------------------------------------------------------
    def _play(self, player: str, cards: list[str]) -> None:
        hand = self.hands[player]
        for c in cards:
            hand.remove(c)
        self.in_play = {"player": player, "cards": list(cards)}
        for seen in self.known.values():
            held = seen.get(player)
            if held:
                seen[player] = [c for c in held if c not in cards]

    def _remember_take(self, taker: str, decliner: str, taken: list[str]) -> None:
        """Who knows where the taken cards went: the decliner and the taker saw them."""
        mine = self.known[decliner]
        mine[taker] = sorted([*mine.get(taker, []), *taken], key=sort_key)
        theirs = self.known[taker]
        if decliner in theirs:
            theirs[decliner] = [c for c in theirs[decliner] if c not in taken]
        for viewer in self.players:
            if viewer not in (taker, decliner):
                # A random take: the third player no longer knows which cards stayed.
                self.known[viewer].pop(decliner, None)

    def _lead(self, player: str, cards: list[str]) -> list[Event]:
        self._play(player, cards)
        self.limit = None
        self.taken_by = None
        events = [Event(f"{player} leads {describe(cards)}.")]
        self._settle(events)
        self._pass_to_answer(player)
        return events

    def _answer(self, player: str, cards: list[str]) -> list[Event]:
        assert self.in_play is not None
        owner = self.in_play["player"]
        prev = self.in_play["cards"]
        self.discard.extend(prev)
        self._play(player, cards)
        events = [Event(f"{player} answers {owner}'s {describe(prev)} with {describe(cards)}.")]
        # The answered player draws as many as they played; the pile is never refilled.
        k = min(len(prev), len(self.pile))
        got, self.pile = self.pile[:k], self.pile[k:]
        self.hands[owner] = sorted(self.hands[owner] + got, key=sort_key)
        if k == 0:
            events.append(Event(f"The pile is empty: {owner} draws nothing."))
        else:
            short = " (the pile ran short)" if k < len(prev) else ""
            events.append(
                Event(
                    f"{owner} draws {count(k)} from the pile{short}.",
                    {owner: f"You drew {', '.join(label(c) for c in got)}."},
                )
            )
        self._settle(events)
        self._pass_to_answer(player)
        return events

    def _decline(self, player: str) -> list[Event]:
        assert self.in_play is not None
        owner = self.in_play["player"]
        prev = self.in_play["cards"]
        self.discard.extend(prev)
        self.in_play = None
        hand = self.hands[player]
        taken = sorted(self.rng.sample(hand, len(prev)), key=sort_key)
        for c in taken:
            hand.remove(c)
        self.hands[owner] = sorted(self.hands[owner] + taken, key=sort_key)
        self._remember_take(owner, player, taken)
        names = ", ".join(label(c) for c in taken)
        lowest = min(taken, key=sort_key)
        mine = f"{owner} took {names} from you."
        theirs = f"You took {names} from {player}."
        if hand:
            mine += f" Lead a single or a pair of rank {rank(lowest)} or lower if you can."
            theirs += (
                f" {player}'s lead: a single or a pair of rank {rank(lowest)} or lower, "
                "if they have one."
            )
        events = [
            Event(
                f"{player} declines {owner}'s {describe(prev)}; "
                f"{owner} takes {count(len(taken))} at random from {player}'s hand.",
                {owner: theirs, player: mine},
            )
        ]
        self._settle(events)
        if self.finished:
            return events
        self.phase = "lead"
        if player in self.out:
            # A decliner left with no card is out; the next player still in leads freely.
            self.limit = None
            self.taken_by = None
            self.current = self._next(player)
        else:
            self.limit = rank(lowest)
            self.taken_by = owner
            self.current = player
        return events

    # -- helpers ---------------------------------------------------------------------------
    def _next(self, player: str) -> str:
        seat = self.players.index(player)
        nxt = next_seat(seat, len(self.players), 1, lambda s: self.players[s] in self.out)
        return self.players[nxt]

    def _pass_to_answer(self, player: str) -> None:
        if not self.finished:
            self.phase = "answer"
            self.current = self._next(player)

    def _settle(self, events: list[Event]) -> None:
        """After every action: goals, players running out, the last player standing."""
        for p in self.players:
            met = goal_met(self.hands[p])
            if met:
                events.append(Event(f"{p} has {met} and wins!"))
                self._end(p, "goal")
                self.goal = met
                return
        pending = self.in_play["player"] if self.in_play else None
        for p in self.players:
            # An empty hand whose play still awaits an answer is not out yet: the answer
            # lets them draw and a decline gives them cards.
            if p not in self.out and p != pending and not self.hands[p]:
                self.out.append(p)
                events.append(Event(f"{p} has no cards left and is out."))
        alive = [p for p in self.players if p not in self.out]
        if len(alive) == 1:
            events.append(Event(f"{alive[0]} is the last player not out and wins!"))
            self._end(alive[0], "last with cards")

    def _end(self, winner: str, reason: str) -> None:
        self._finish([winner], reason)
        self.scores = {p: int(p == winner) for p in self.players}
        self.phase = "over"
        self.current = None
        self.limit = None
        self.taken_by = None

    def _placings(self) -> list[list[str]]:
        # The winner; then those still holding cards; then the others, last out first.
        alive = [p for p in self.players if p not in self.out and p not in self.winners]
        places = [list(self.winners)] + ([alive] if alive else [])
        return places + [[p] for p in reversed(self.out) if p not in self.winners]

    def _prompt(self) -> str:
        if self.finished:
            return f"{', '.join(self.winners)} wins."
        if self.phase == "answer":
            assert self.in_play is not None
            owner = self.in_play["player"]
            return (
                f"{self.current} to answer {owner}'s {describe(self.in_play['cards'])} or decline."
            )
        if self.limit is not None:
            return (
                f"{self.current} to lead a single or a pair no higher than the lowest "
                f"rank {self.taken_by} took, if any fits."
            )
        return f"{self.current} to lead a single or a pair."

    def _view(self, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "phase": self.phase,
            "prompt": self._prompt(),
            "current": self.current,
            "in_play": (
                {"player": self.in_play["player"], "cards": list(self.in_play["cards"])}
                if self.in_play
                else None
            ),
            "pile": len(self.pile),
            "discard": len(self.discard),
            "played": list(self.discard),
            "hand_sizes": {p: len(self.hands[p]) for p in self.players},
            "out": list(self.out),
            "restricted": self.limit is not None,
            # The limit tells which rank was taken, so only the two who saw the cards get it.
            "lead_limit": None,
            "starter": self.starter,
            "redeals": self.redeals,
            "goal": self.goal,
        }
        if player is not None:
            view["hand"] = list(self.hands[player])
            if self.limit is not None and player in (self.current, self.taken_by):
                view["lead_limit"] = self.limit
            if self.moves == 0:
                view["drawn"] = self.drawn[player]
            view["known"] = {p: list(c) for p, c in self.known[player].items() if c}
        return view

    def _state(self) -> dict[str, Any]:
        return {
            "hands": {p: list(h) for p, h in self.hands.items()},
            "pile": list(self.pile),
            "discard": list(self.discard),
            "in_play": dict(self.in_play) if self.in_play else None,
            "current": self.current,
            "phase": self.phase,
            "limit": self.limit,
            "taken_by": self.taken_by,
            "out": list(self.out),
            "redeals": self.redeals,
            "starter": self.starter,
            "drawn": dict(self.drawn),
            "moves": self.moves,
            "goal": self.goal,
            "known": {v: {p: list(c) for p, c in k.items()} for v, k in self.known.items()},
        }

    def _restore(self, state: dict[str, Any]) -> None:
        self.hands = {p: list(h) for p, h in state["hands"].items()}
        self.pile = list(state["pile"])
        self.discard = list(state["discard"])
        ip = state["in_play"]
        self.in_play = {"player": ip["player"], "cards": list(ip["cards"])} if ip else None
        self.current = state["current"]
        self.phase = state["phase"]
        self.limit = state["limit"]
        self.taken_by = state["taken_by"]
        self.out = list(state["out"])
        self.redeals = state["redeals"]
        self.starter = state["starter"]
        self.drawn = dict(state["drawn"])
        self.moves = state["moves"]
        self.goal = state.get("goal")  # absent in games saved before it was kept
        # Games saved before "known" existed start remembering from here.
        known = state.get("known") or {}
        self.known = {v: {p: list(c) for p, c in known.get(v, {}).items()} for v in self.players}
