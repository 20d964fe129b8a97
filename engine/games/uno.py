"""UNO: the official rules (seed 004) with the RULINGS, the 112-card extras and house rules.

Deal (what ``engine.testing.stacked`` relies on)
    In play, each player draws a card to pick the dealer (highest number deals, symbols count
    0, tied players draw again), then the full deck is shuffled. With a stacked ``deck`` there
    is no dealer draw: seat 0 deals. Either way the deck's first item is the top card: cards
    ``0 .. 7n-1`` are dealt one at a time round the table starting with the player left of
    the dealer (seat 1, then 2, ...), card ``7n`` is flipped to start the discard pile (Wild
    Draw Fours are put back at a random place and the next card is flipped), and the rest is
    the draw pile, top first. Later rounds use a fresh shuffled deck; the deal passes left.

Action ids
    ``play:<card>`` (``play:R5``); a wild ``play:<card>:<colour>`` (``play:W4:G``); Wild Swap
    Hands ``play:WS:<colour>:<opponent>``; with ``seven_zero`` a 7 is ``play:R7:<player>``
    (the player to swap hands with). ``draw`` (draw one card; "Pass" when both piles are
    empty), ``pass`` (keep the playable card just drawn), ``accept`` (take a pending Wild
    Draw Four or stacked draw), ``challenge`` (the Wild Draw Four), ``uno`` (call UNO),
    ``catch:<player>`` (catch a player who did not call UNO), ``play+uno:<...>`` (any
    ``play:`` id while holding two cards, calling UNO in the same move: no catch window
    opens), ``color:<colour>`` (colour for a first discard that is a wild), ``discard`` (a
    Pick: custom rules 5 and 6; the options are card codes, the k-th copy of a card
    suffixed ``_k``, e.g. ``R5``, ``R5_2``; exactly the count owed, or, from a hand of more
    than ``DISCARD_AT_ONCE`` cards, one card or more at a time until the count is met).

Public view keys (``view(None)``; a player's view adds ``hand`` and, while they hold a
playable card just drawn, ``drawn``)
    ``phase`` (``play``, ``drawn``, ``color``, ``challenge``, ``stack``, ``discard``,
    ``over``), ``prompt``, ``current``, ``dealer``, ``top``, ``color`` (``R``/``Y``/``G``/
    ``B``, or None while the first player picks), ``direction`` (1 = left, -1 = right),
    ``hand_sizes``, ``draw_pile``, ``discard_pile``, ``cards_played`` (this round),
    ``round``, ``target``, ``scoring``, ``house_rules`` (list of the house-rule options on),
    ``pending_draw`` (cards the current player takes on ``accept``), ``wild_draw_four_by``
    (the player open to a challenge), ``uno_window`` (a player who may still call UNO and be
    caught), ``uno_called`` (list: the player who called UNO since the last move, if any),
    ``custom_rules`` ({``WCk``: rule text}),
    ``face_up`` ({player: hand} while custom rule 7 holds, else {}), ``face_up_until``,
    ``draw_three`` (the player custom rule 3 is waiting for), ``discarding`` ({player: how
    many cards they still owe}), ``dealer_draw`` (list of {player: card} per draw for the first
    dealer), ``last_round`` ({round, winner, points: {player: hand points}, hands: {player:
    cards left, as counted}, deadlock}),
    plus the base keys (``scores`` etc.). What a good player remembers, for bots and
    reconnecting players: ``swap_hands`` (the deck has a Wild Swap Hands), ``discards`` (the
    cards in the discard pile, bottom first: each was shown when played or discarded),
    ``wild_draw_four_color`` (the colour in play when the Wild Draw Four open to a challenge
    was played, else None), ``lacks`` ({player: colour}: the colour in play when the player
    last drew instead of playing and did not keep a playable card; their hand has none of it
    unless they drew by choice; cleared when they take other cards), ``challenges``
    ({player: {guilty, innocent}}: Wild Draw Four challenges against them this game).
    A player's view also has ``you`` (their id) and ``known`` ({player: cards}: cards of
    another hand they know, from hands swapped or passed, a challenge, or face-up hands;
    cards leave it when played or discarded).

Events: plays, draws (the cards privately to the drawer), UNO calls and catches, the challenge
(the offender's hand privately to the challenger), reshuffles, round results, new rounds.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.cards import shared
from engine.core import Action, Event, Game, IllegalAction, Pick, rank_by
from engine.games.uno_cards import (
    ALL_CODES,
    CHALLENGE,
    COLOR,
    COLOR_ACTS,
    COLOR_NAMES,
    COLORS,
    CUSTOM_RULES,
    DEAL_VALUE,
    DRAW,
    DRAW_NONE,
    DRAW_THREE,
    LABEL,
    PASS,
    PLAY_ACTS,
    PLAY_PARSE,
    PLAYABLE,
    POINTS,
    UNO,
    VALUE,
    VALUE_NAMES,
    build_deck,
    labels,
    sort_hand,
)
from engine.options import InvalidOption, Option, shown

CALL_PREFIX = "play+uno:"
# Made once per play id, but ids name players too (a swap's target): bounded, or a process
# would keep some for every player it ever hosted.
_CALLED: dict[str, Action] = {}
CALLED_KEPT = 4096


def _called(play: Action) -> Action:
    """The twin of a play that also calls UNO (offered with the next-to-last card)."""
    act = _CALLED.get(play.id)
    if act is None:
        if len(_CALLED) >= CALLED_KEPT:
            _CALLED.clear()
        act = _CALLED[play.id] = Action(
            CALL_PREFIX + play.id[len("play:") :], f"{play.label} and call UNO!"
        )
    return act


# The most cards a discard (custom rules 5 and 6) is chosen from in one go. A bigger hand
# discards in parts: each part is a move of one card or more, and the player stays in the
# discard phase (``discarding`` counts what is still owed) until the count is met. Why a number
# in the rules: whether a move may be partial is a question of legality, which only the engine
# may answer (replays, bots and timeouts all go through it), and people choose from lists of
# limited length (Discord's select menus hold 25 options, hence 25). Hands of this size or
# fewer keep the one-choice discard of exactly the count.
DISCARD_AT_ONCE = 25

HOUSE_RULES = ("stack_draws", "seven_zero", "jump_in", "draw_until_playable", "forced_play")
_ACCEPT: dict[int, Action] = {}


def _accept(n: int) -> Action:
    act = _ACCEPT.get(n)
    if act is None:
        act = _ACCEPT[n] = Action("accept", f"Draw {n} and lose your turn")
    return act


def parse_custom_rules(text: str, count: int) -> list[int] | None:
    """The explicit rule numbers of option ``custom_rules`` ("1,4,7"), or None for random.

    Raises InvalidOption unless they are ``count`` distinct numbers from 1 to 7.
    """
    text = text.strip()
    # Discord sends no empty option: left out, typed as two quotes, or "random".
    if text.strip("\"'“”‘’ ").lower() in ("", "random"):
        return None
    try:
        rules = [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidOption(
            f"Option 'custom_rules' must be rule numbers like \"1,4,7\", not {shown(text)}."
        ) from None
    if any(k not in CUSTOM_RULES for k in rules):
        raise InvalidOption("Option 'custom_rules' may only use rules 1 to 7.")
    if len(set(rules)) != len(rules):
        raise InvalidOption("Option 'custom_rules' must not repeat a rule.")
    if len(rules) != count:
        raise InvalidOption(
            f"Option 'custom_rules' names {len(rules)} {'rule' if len(rules) == 1 else 'rules'}"
            f" but 'custom_wilds' is {count}."
        )
    return rules


class Uno(Game):
    """UNO for 2 to 10 players; see the module docstring for the deal, ids and view keys."""

    kind = "uno"
    title = "UNO"
    min_players = 2
    max_players = 10
    # Within one move: the card's player jumped in, ending custom rule 7; where the jump-in's
    # own line is in the move's events (-1: no such jump-in). Not game state.
    _face_down_by_jump = -1
    summary = (
        "Match the top card of the discard pile by colour, number or symbol, or play a Wild; "
        "action cards skip, reverse, and make the next player draw. Call UNO when you play "
        "your next-to-last card or be caught and draw 2. The first to empty their hand scores "
        "the cards left in the others' hands; the first to the target score (500) wins."
    )
    options: ClassVar[dict[str, Option]] = {
        "target": Option(500, "Points that end the game.", int, min=1, max=10_000),
        "scoring": Option(
            "standard",
            "standard: the round winner scores the others' cards; lowest: everyone adds the "
            "points they hold, and when someone reaches the target the lowest total wins.",
            str,
            choices=("standard", "lowest"),
            brief="standard: the winner scores the others' cards; lowest: lowest total wins",
        ),
        "swap_hands": Option(False, "Add the Wild Swap Hands card.", bool),
        "custom_wilds": Option(
            0, "Wild Customizable cards (0-3), each carrying one house rule.", int, min=0, max=3
        ),
        "custom_rules": Option(
            "",
            "Rules on the customizable cards: leave it out (or type random) for distinct "
            'ones at random, or list the thought-starter numbers (1-7), e.g. "1,4,7".',
            str,
            brief='House rules on the customizable cards, e.g. "1,4,7" (left out: at random)',
        ),
        "stack_draws": Option(False, "Stack Draw Two on Draw Two, Wild Draw Four on Four."),
        "seven_zero": Option(False, "7 swaps hands with a chosen player; 0 passes all hands."),
        "jump_in": Option(False, "Play a card identical to the top card out of turn."),
        "draw_until_playable": Option(False, "Keep drawing until a playable card comes."),
        "forced_play": Option(False, "A playable drawn card must be played."),
    }

    __slots__ = (
        "_actors",
        "_catch",
        "_tacts",
        "_targeted",
        "_tparse",
        "called",
        "color",
        "cur",
        "custom",
        "dealer",
        "dealer_draw",
        "direction",
        "discard",
        "discarders",
        "draw",
        "draw3",
        "drawn",
        "face_up",
        "hands",
        "known",
        "lacks",
        "last_round",
        "n",
        "pending",
        "phase",
        "played",
        "resume",
        "round",
        "seat",
        "stall",
        "uno",
        "w4_by",
        "w4_guilty",
        "w4_prev",
        "w4_record",
    )

    # -- setup -------------------------------------------------------------------------
    def _setup(self, deck: list[str] | None) -> None:
        cfg = self.config
        rules = parse_custom_rules(cfg["custom_rules"], cfg["custom_wilds"])
        if rules is None:
            rules = sorted(self.rng.sample(list(CUSTOM_RULES), cfg["custom_wilds"]))
        self.custom = rules
        for p in self.players:
            if len(p) > 50:  # keeps ``play:WS:<c>:<player>`` within 64 characters
                raise ValueError("Player ids must be at most 50 characters.")
        self._init_tables()
        self.round = 1
        self.last_round: dict[str, Any] | None = None
        self.w4_record = [[0, 0] for _ in self.players]
        if deck is None:
            self.dealer = self._choose_dealer()
            cards = self._deck()
            self.rng.shuffle(cards)
        else:
            unknown = sorted(set(deck) - set(ALL_CODES))
            if unknown:
                raise ValueError(f"Unknown UNO card codes: {', '.join(unknown)}")
            if len(deck) < 7 * self.n + 1:
                raise ValueError("A stacked UNO deck needs 7 cards per player and a first card.")
            self.dealer = 0
            self.dealer_draw: list[list[list[Any]]] = []
            cards = list(deck)
        self._start_round(cards, [])
        self._refresh()

    def _init_tables(self) -> None:
        """Per-game lookups (not saved): seats, and actions that name a player."""
        self.n = len(self.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        self._catch: dict[int, Action] = {}  # built on first use: most loads never need one
        targeted = {"WS"} if self.config["swap_hands"] else set()
        if self.config["seven_zero"]:
            targeted |= {c + "7" for c in COLORS}
        self._targeted = frozenset(targeted)
        self._tacts: dict[tuple[int, str], list[Action]] = {}
        self._tparse: dict[str, tuple[str, str, int]] = {}

    def _deck(self) -> list[str]:
        return build_deck(self.config["swap_hands"], self.custom)

    def _choose_dealer(self) -> int:
        """Each player draws a card; the highest number deals; tied players draw again."""
        cards = self._deck()
        self.rng.shuffle(cards)
        record: list[list[list[Any]]] = []
        contenders = list(range(self.n))
        while True:
            if len(cards) < len(contenders):
                cards = self._deck()
                self.rng.shuffle(cards)
            pairs = [(i, cards.pop()) for i in contenders]
            record.append([[i, c] for i, c in pairs])
            best = max(DEAL_VALUE[c] for _, c in pairs)
            contenders = [i for i, c in pairs if DEAL_VALUE[c] == best]
            if len(contenders) == 1:
                self.dealer_draw = record
                return contenders[0]

    def _start_round(self, cards: list[str], ev: list[Event]) -> None:
        """Deal ``cards`` (top first), flip the first discard and apply its effect."""
        n, dealer = self.n, self.dealer
        draw = cards[::-1]  # internally the top of every pile is its last item
        hands: list[list[str]] = [[] for _ in range(n)]
        for _ in range(7):
            for k in range(1, n + 1):
                hands[(dealer + k) % n].append(draw.pop())
        self.hands = hands
        self.lacks = [""] * n
        self.known: dict[tuple[int, int], list[str]] = {}
        returned = 0
        while draw and draw[-1] == "W4":  # "return this card to the deck and pick another"
            draw.pop()
            returned += 1
        if not draw:
            raise ValueError("No card left to start the discard pile.")
        first = draw.pop()
        for _ in range(returned):
            draw.insert(self.rng.below(len(draw) + 1), "W4")
        self.draw = draw
        self.discard = [first]
        self.direction = 1
        self.pending = 0
        self.drawn = ""
        self.uno = self.called = -1
        self.w4_by = -1
        self.w4_guilty = False
        self.w4_prev = ""
        self.discarders: dict[int, int] = {}
        self.resume = -1
        self.draw3 = -1
        self.face_up = -1
        self.stall = 0
        self.played = 0  # cards played this round: only grows (a reshuffle does not touch it)
        self.phase = "play"
        left = (dealer + 1) % n
        names = self.players
        text = f"Round {self.round}: {names[dealer]} deals. The first card is {LABEL[first]}."
        if returned:
            text = (
                f"Round {self.round}: {names[dealer]} deals. A Wild Draw Four was turned up and "
                f"returned to the deck; the first card is {LABEL[first]}."
            )
        ev.append(Event(text))
        value = VALUE[first]
        if COLOR[first] == "W":
            self.color = ""
            self.cur = left
            self.phase = "color"
        else:
            self.color = first[0]
            if value == "S":
                self.cur = (left + 1) % n
                ev.append(Event(f"{names[left]} is skipped."))
            elif value == "R":
                self.direction = -1
                self.cur = dealer
                ev.append(Event(f"Play goes right; {names[dealer]} starts."))
            elif value == "D2":
                got = self._take(left, 2, ev)
                ev.append(self._drew(left, got, "and is skipped"))
                self.cur = (left + 1) % n
            else:
                self.cur = left

    # -- the contract ------------------------------------------------------------------
    def actors(self) -> list[str]:
        return list(self._actors)

    def _refresh(self) -> None:
        """Recompute who may act (depends only on public state, never on who holds what)."""
        if self.finished:
            self._actors: list[str] = []
        elif self.uno >= 0 or (self.phase == "play" and self.config["jump_in"]):
            self._actors = self.players
        elif self.phase == "discard":
            self._actors = [self.players[i] for i in sorted(self.discarders)]
        else:
            self._actors = [self.players[self.cur]]

    def _legal(self, player: str) -> list[Action]:
        s = self.seat[player]
        phase = self.phase
        out: list[Action] = []
        if s == self.cur:
            if phase == "play":
                out = self._play_actions(s)
            elif phase == "drawn":
                out = list(self._card_actions(s, self.drawn))
                if not self.config["forced_play"]:
                    out.append(PASS)
            elif phase == "challenge":
                if self.config["stack_draws"] and "W4" in self.hands[s]:
                    out = list(PLAY_ACTS["W4"])
                out.append(CHALLENGE)
                out.append(_accept(self.pending))
            elif phase == "stack":
                seen = set()
                for c in self.hands[s]:
                    if VALUE[c] == "D2" and c not in seen:
                        seen.add(c)
                        out.append(PLAY_ACTS[c][0])
                out.append(_accept(self.pending))
            elif phase == "color":
                out = list(COLOR_ACTS)
        elif phase == "play" and self.config["jump_in"]:
            top = self.discard[-1]
            if top[0] != "W" and top in self.hands[s]:
                out = list(self._card_actions(s, top))
        if out and len(self.hands[s]) == 2:
            out += [_called(a) for a in out if a.id.startswith("play:")]
        elif out and (self._targeted or self.config["seven_zero"]):
            # A swap that leaves me one card owes the call too: offered with the play, so a
            # catch only catches a player who really forgot (as for a next-to-last card).
            out += [_called(a) for a in out if self._leaves_one(s, a.id)]
        if phase == "discard" and s in self.discarders:
            out.append(self._discard_action(s))
        if self.uno >= 0:
            out.append(UNO if s == self.uno else self._catch_action(self.uno))
        return out

    def _leaves_one(self, s: int, aid: str) -> bool:
        """Playing ``aid`` hands seat ``s`` a one-card hand (a swap or a seven-zero 0)."""
        if not aid.startswith("play:"):
            return False
        parsed = PLAY_PARSE.get(aid) or self._tparse.get(aid)
        if parsed is None:
            return False
        card, _, target = parsed
        if target >= 0:
            return len(self.hands[target]) == 1
        if VALUE[card] == "0" and self.config["seven_zero"]:
            return len(self.hands[self._next(s, -1)]) == 1
        return False

    def _catch_action(self, t: int) -> Action:
        act = self._catch.get(t)
        if act is None:
            name = self.players[t]
            act = self._catch[t] = Action(f"catch:{name}", f"Catch {name} (no UNO call)")
        return act

    def _play_actions(self, s: int) -> list[Action]:
        playable = PLAYABLE[self.discard[-1]][self.color]
        cards = [c for c in dict.fromkeys(self.hands[s]) if c in playable]
        if self._targeted:
            out = [a for c in cards for a in self._card_actions(s, c)]
        else:
            out = [a for c in cards for a in PLAY_ACTS[c]]
        if self.draw or len(self.discard) > 1:
            out.append(DRAW_THREE if self.draw3 == s and not out else DRAW)
        elif not out:
            out.append(DRAW_NONE)  # nothing to draw and nothing to play: pass
        return out

    def _card_actions(self, s: int, card: str) -> list[Action]:
        """The play actions of one card for seat ``s`` (with a target player if it needs one)."""
        if card not in self._targeted:
            return PLAY_ACTS[card]
        key = (s, card)
        acts = self._tacts.get(key)
        if acts is None:
            acts = []
            others = [i for i in range(self.n) if i != s]
            for t in others:
                name = self.players[t]
                if card == "WS":
                    for col in COLORS:
                        aid = f"play:WS:{col}:{name}"
                        label = f"Play Wild Swap Hands, choose {COLOR_NAMES[col]}, swap with {name}"
                        acts.append(Action(aid, label))
                        self._tparse[aid] = ("WS", col, t)
                else:
                    aid = f"play:{card}:{name}"
                    acts.append(Action(aid, f"Play {LABEL[card]}, swap hands with {name}"))
                    self._tparse[aid] = (card, "", t)
            self._tacts[key] = acts
        return acts

    def _discard_action(self, s: int) -> Action:
        """Custom rules 5 and 6: choose the cards to discard. A hand of more than
        ``DISCARD_AT_ONCE`` cards may discard in parts (one card or more each time, never
        more than are still owed); a smaller hand discards them all in one choice."""
        k = self.discarders[s]
        tokens = self._tokens(s)
        owed = f"{k} card" if k == 1 else f"{k} cards"
        if len(tokens) <= DISCARD_AT_ONCE:
            return Action("discard", f"Discard {owed}", Pick(tokens, k, k))
        return Action("discard", f"Discard {owed}, some at a time", Pick(tokens, 1, k))

    def _tokens(self, s: int) -> list[str]:
        """Pick options for a discard: card codes, the k-th copy suffixed ``_k``."""
        out: list[str] = []
        count: dict[str, int] = {}
        for c in sort_hand(self.hands[s]):
            k = count[c] = count.get(c, 0) + 1
            out.append(c if k == 1 else f"{c}_{k}")
        return out

    # -- applying ------------------------------------------------------------------------
    def _apply(self, player: str, action: Action, chosen: list[str] | None) -> list[Event]:
        aid = action.id
        s = self.seat[player]
        ev: list[Event] = []
        call = aid.startswith(CALL_PREFIX)
        if call:
            aid = "play:" + aid[len(CALL_PREFIX) :]
        parsed = PLAY_PARSE.get(aid) or self._tparse.get(aid)
        if parsed is not None or aid == "draw":
            # Any move but an UNO call or catch means the next player has acted: the UNO
            # window closes (a play may open a new one).
            self.uno = self.called = -1
            if parsed is None:
                self._draw_action(s, ev)
            else:
                self._play(s, parsed[0], parsed[1], parsed[2], ev)
                if call and self.uno == s:
                    # "play+uno": the call is made with the play, so no catch is possible.
                    self.uno = -1
                    self.called = s
                    ev.append(Event(f"{player} calls UNO!"))
        elif aid == "uno":
            self.uno = -1
            self.called = s
            ev.append(Event(f"{player} calls UNO!"))
        elif aid.startswith("catch:"):
            t = self.uno
            self.uno = -1
            got = self._take(t, 2, ev)
            name = self.players[t]
            ev.append(
                Event(
                    f"{player} catches {name} without an UNO call: {name} draws {len(got)}.",
                    {name: f"You drew {labels(got)}."} if got else {},
                )
            )
        else:
            self.uno = self.called = -1
            if aid == "pass":
                self.lacks[s] = ""  # the card kept may well be of the colour in play
                self.phase = "play"
                self.drawn = ""
                self.cur = self._next(s)
                ev.append(Event(f"{player} keeps the card."))
            elif aid == "accept":
                got = self._take(s, self.pending, ev)
                ev.append(self._drew(s, got, "and loses the turn"))
                self.pending = 0
                self.w4_by = -1
                self.phase = "play"
                self.cur = self._next(s)
            elif aid == "challenge":
                self._challenge(s, ev)
            elif aid.startswith("color:"):
                self.color = aid[6:]
                self.phase = "play"
                ev.append(Event(f"{player} chooses {COLOR_NAMES[self.color]}."))
            elif aid == "discard":
                self._discard(s, chosen or [], ev)
            else:  # pragma: no cover - every legal id is handled above
                raise IllegalAction("That move is not available right now.")
        if self.face_up >= 0 and self.face_up == self.cur:
            self.face_up = -1  # custom rule 7 lasts until the card's player's next turn
            self._remember_all()
            ev.append(Event("Hands go face down again."))
        elif self._face_down_by_jump >= 0:
            ev.insert(self._face_down_by_jump + 1, Event("Hands go face down again."))
        self._face_down_by_jump = -1
        self._refresh()
        return ev

    def _next(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def _reshuffle(self, ev: list[Event]) -> bool:
        """Shuffle the discard pile except its top card into a new draw pile."""
        discard = self.discard
        if len(discard) < 2:
            return False
        pile = discard[:-1]
        del discard[:-1]
        self.rng.shuffle(pile)
        self.draw = pile
        ev.append(Event("The discard pile is shuffled into a new draw pile."))
        return True

    def _take(self, seat: int, k: int, ev: list[Event]) -> list[str]:
        """Seat draws up to ``k`` cards (fewer if both piles run out); the cards drawn."""
        hand = self.hands[seat]
        self.lacks[seat] = ""  # new cards may be of any colour
        got: list[str] = []
        for _ in range(k):
            if not self.draw and not self._reshuffle(ev):
                break
            c = self.draw.pop()
            hand.append(c)
            got.append(c)
        return got

    def _drew(self, seat: int, got: list[str], tail: str = "") -> Event:
        name = self.players[seat]
        n = len(got)
        if n == 1:
            secret = LABEL[got[0]]
            text = f"{name} draws 1 card"
        else:
            secret = labels(got)
            text = f"{name} draws {n} cards"
        if tail:
            text += " " + tail
        return Event(text + ".", {name: f"You drew {secret}."} if n else {})

    def _play(self, s: int, card: str, col: str, target: int, ev: list[Event]) -> None:
        names = self.players
        name = names[s]
        hand = self.hands[s]
        prev = self.color
        jump = s != self.cur
        self.cur = s
        if jump and s == self.face_up:
            # Jumping in takes this player's next turn: custom rule 7's face-up hands end
            # (told right after the jump-in's line, in ``_apply``: the play's effects, a
            # round's end among them, come after it).
            self.face_up = -1
            self._remember_all()
            self._face_down_by_jump = len(ev)
        hand.remove(card)
        if self.known:
            self._forget(s, [card])
        self.discard.append(card)
        self.played += 1
        self.color = col or card[0]
        self.stall = 0
        self.draw3 = -1  # a play ends (or, by a jump-in, takes) the turn rule 3 waited for
        self.drawn = ""
        self.phase = "play"
        rnd = self.round
        text = f"{name} {'jumps in with' if jump else 'plays'} {LABEL[card]}"
        if col:
            text += f" and chooses {COLOR_NAMES[col]}"
        value = VALUE[card]
        if not hand:
            ev.append(Event(text + "."))
            debt = 0
            if value == "D2" or card == "W4":
                debt = self.pending + (2 if value == "D2" else 4)
            self.pending = 0
            if debt:
                v = self._next(s)
                ev.append(self._drew(v, self._take(v, debt, ev), "for the last card"))
            self._end_round(s, ev)
            return
        if card == "W4":
            # Guilty if they held a card of the colour in play (only printed colours count).
            self.w4_guilty = any(c[0] == prev for c in hand)
            self.w4_prev = prev
            self.w4_by = s
            self.pending += 4
            self.phase = "challenge"
            self.cur = self._next(s)
            ev.append(Event(text + "."))
        elif value == "D2":
            v = self._next(s)
            if self.config["stack_draws"]:
                self.pending += 2
                self.phase = "stack"
                self.cur = v
                ev.append(Event(text + "."))
            else:
                ev.append(Event(text + "."))
                ev.append(self._drew(v, self._take(v, 2, ev), "and is skipped"))
                self.cur = self._next(v)
        elif value == "S":
            ev.append(Event(f"{text}: {names[self._next(s)]} is skipped."))
            self.cur = self._next(s, 2)
        elif value == "R":
            self.direction = -self.direction
            ev.append(Event(text + "."))
            self.cur = s if self.n == 2 else self._next(s)
        elif card[0] == "W" and card != "W":
            if card == "WS":
                self._swap(s, target)
                ev.append(Event(f"{text} and swaps hands with {names[target]}."))
                self.cur = self._next(s)
            else:
                ev.append(Event(text + "."))
                self._custom(s, int(card[2:]), ev)
        elif target >= 0:  # seven-zero: a 7 swaps with the chosen player
            self._swap(s, target)
            ev.append(Event(f"{text} and swaps hands with {names[target]}."))
            self.cur = self._next(s)
        elif value == "0" and self.config["seven_zero"]:
            hands = self.hands
            self.hands = [hands[self._next(i, -1)] for i in range(self.n)]
            self._passed_on()
            where = "left" if self.direction == 1 else "right"
            ev.append(Event(f"{text}: every hand passes to the {where}."))
            self.cur = self._next(s)
        else:
            ev.append(Event(text + "."))
            self.cur = self._next(s)
        if len(self.hands[s]) == 1 and self.round == rnd and not self.finished:
            self.uno = s  # UNO may be called (or missed) until the next player acts

    def _swap(self, a: int, b: int) -> None:
        hands = self.hands
        hands[a], hands[b] = hands[b], hands[a]
        lacks = self.lacks
        lacks[a], lacks[b] = lacks[b], lacks[a]
        moved = {a: b, b: a}
        self._move_known(lambda h: moved.get(h, h))
        # Each knows the hand it gave away.
        self.known[(a, b)] = list(hands[b])
        self.known[(b, a)] = list(hands[a])

    # -- what each seat knows (the view's ``lacks``, ``known``) -------------------------------
    def _move_known(self, holder_now: Any) -> None:
        """Hands moved: what was known of seat h's hand is now known of ``holder_now(h)``."""
        moved: dict[tuple[int, int], list[str]] = {}
        for (x, h), cards in self.known.items():
            h2 = holder_now(h)
            if x != h2:  # a seat's knowledge of its own hand is its hand
                moved[(x, h2)] = cards
        self.known = moved

    def _passed_on(self) -> None:
        """Seven-zero's 0: every hand moved one seat on; each seat knows the hand it passed."""
        self.lacks = [self.lacks[self._next(i, -1)] for i in range(self.n)]
        self._move_known(self._next)
        for i in range(self.n):
            if self.hands[self._next(i)]:
                self.known[(i, self._next(i))] = list(self.hands[self._next(i)])

    def _forget(self, holder: int, cards: list[str]) -> None:
        """``holder`` played or discarded ``cards``: they are no longer known to be held."""
        for key in [k for k in self.known if k[1] == holder]:
            left = self.known[key]
            for c in cards:
                if c in left:
                    left.remove(c)
            if not left:
                del self.known[key]

    def _remember_all(self) -> None:
        """Hands go face down: everyone remembers what they saw."""
        for h, hand in enumerate(self.hands):
            for x in range(self.n):
                if x != h and hand:
                    self.known[(x, h)] = list(hand)

    def _custom(self, s: int, rule: int, ev: list[Event]) -> None:
        """The house rule written on a Wild Customizable card (thought starters 1-7)."""
        names = self.players
        v = self._next(s)
        self.cur = v
        if rule == 1:
            # Draw until a card of the colour declared with the card comes (or none is left).
            got: list[str] = []
            while True:
                more = self._take(v, 1, ev)
                if not more:
                    break
                got += more
                if more[0][0] == self.color:
                    break
            ev.append(self._drew(v, got, f"looking for {COLOR_NAMES[self.color]}"))
        elif rule == 2:
            emptied = -1
            for k in range(1, self.n):
                i = self._next(s, k)
                hand = self.hands[i]
                wilds = [c for c in hand if c[0] == "W"]
                if not wilds:
                    continue
                self.hands[i] = [c for c in hand if c[0] != "W"]
                if self.known:
                    self._forget(i, wilds)
                self.discard[-1:-1] = wilds  # under the top card, which stays in play
                ev.append(Event(f"{names[i]} discards {labels(wilds)}."))
                if not self.hands[i] and emptied < 0:
                    emptied = i
            if emptied >= 0:
                ev.append(Event(f"{names[emptied]} has no cards left."))
                self._end_round(emptied, ev)
        elif rule == 3:
            self.draw3 = v
            ev.append(Event(f"If {names[v]} can't play, they take three cards."))
        elif rule == 4:
            self.cur = s
            ev.append(Event(f"{names[s]} takes an extra turn."))
        elif rule == 5:
            size = len(self.hands[v])
            if size < 7:
                ev.append(self._drew(v, self._take(v, 7 - size, ev), "up to 7"))
            elif size > 7:
                self.discarders = {v: size - 7}
                self.resume = v
                self.phase = "discard"
        elif rule == 6:
            for k in range(1, self.n + 1):
                i = self._next(s, k)
                size = len(self.hands[i])
                if size < 3:
                    ev.append(self._drew(i, self._take(i, 3 - size, ev), "up to 3"))
            self.discarders = {i: len(h) - 3 for i, h in enumerate(self.hands) if len(h) > 3}
            if self.discarders:
                self.resume = v
                self.phase = "discard"
        else:  # rule 7
            self.face_up = s
            ev.append(Event(f"Everyone plays with their hand face up until {names[s]}'s turn."))

    def _discard(self, s: int, chosen: list[str], ev: list[Event]) -> None:
        cards = [t.split("_", 1)[0] for t in chosen]
        hand = self.hands[s]
        for c in cards:
            hand.remove(c)
        if self.known:
            self._forget(s, cards)
        self.discard[-1:-1] = cards
        left = self.discarders[s] - len(cards)
        if left > 0:  # a part of a big discard (``DISCARD_AT_ONCE``): still in the phase
            self.discarders[s] = left
            ev.append(
                Event(f"{self.players[s]} discards {labels(cards)} ({left} more to discard).")
            )
            return
        del self.discarders[s]
        ev.append(Event(f"{self.players[s]} discards {labels(cards)}."))
        if not self.discarders:
            self.phase = "play"
            self.cur = self.resume
            self.resume = -1

    def _draw_action(self, s: int, ev: list[Event]) -> None:
        name = self.players[s]
        three = self.draw3 == s and not self._can_play(s)
        self.draw3 = -1
        if three:
            got = self._take(s, 3, ev)
            ev.append(self._drew(s, got, "(custom rule 3) and the turn passes"))
        else:
            playable = PLAYABLE[self.discard[-1]][self.color]
            got = self._take(s, 1, ev)
            if self.config["draw_until_playable"]:
                while got and got[-1] not in playable:
                    more = self._take(s, 1, ev)
                    if not more:
                        break
                    got += more
            # The table saw them draw instead of playing, and saw whether the card drawn
            # could be played: the rest of their hand has none of the colour in play.
            self.lacks[s] = self.color
            if got and got[-1] in playable:
                self.phase = "drawn"
                self.drawn = got[-1]
                ev.append(self._drew(s, got))
                return
            if got:
                ev.append(self._drew(s, got, "and the turn passes"))
        if got:
            self.stall = 0
            self.cur = self._next(s)
            return
        self.stall += 1
        ev.append(Event(f"{name} can neither play nor draw and passes."))
        if self.stall >= self.n:
            # Decision: a full circle of players who could neither play nor draw ends the
            # round; the fewest card points (then fewest cards, then seat order from the
            # dealer's left) wins it.
            order = [(self.dealer + k) % self.n for k in range(1, self.n + 1)]
            winner = min(
                order, key=lambda i: (sum(POINTS[c] for c in self.hands[i]), len(self.hands[i]))
            )
            ev.append(Event("Nobody can play or draw: the round ends."))
            self._end_round(winner, ev, deadlock=True)
            return
        self.cur = self._next(s)

    def _can_play(self, s: int) -> bool:
        playable = PLAYABLE[self.discard[-1]][self.color]
        return any(c in playable for c in self.hands[s])

    def _challenge(self, s: int, ev: list[Event]) -> None:
        o = self.w4_by
        names = self.players
        shown = f"{names[o]}'s hand: {labels(self.hands[o])}."
        self.known[(s, o)] = list(self.hands[o])
        self.w4_record[o][0 if self.w4_guilty else 1] += 1
        total = self.pending
        self.pending = 0
        self.w4_by = -1
        self.phase = "play"
        if self.w4_guilty:
            ev.append(
                Event(
                    f"{names[s]} challenges the Wild Draw Four: {names[o]} is guilty.",
                    {names[s]: shown},
                )
            )
            ev.append(self._drew(o, self._take(o, total, ev)))
            self.cur = s
        else:
            ev.append(
                Event(
                    f"{names[s]} challenges the Wild Draw Four: {names[o]} is innocent.",
                    {names[s]: shown},
                )
            )
            ev.append(self._drew(s, self._take(s, total + 2, ev), "and loses the turn"))
            self.cur = self._next(s)

    # -- rounds and scoring ------------------------------------------------------------------
    def _end_round(self, w: int, ev: list[Event], deadlock: bool = False) -> None:
        names = self.players
        pts = [sum(POINTS[c] for c in h) for h in self.hands]
        target = self.config["target"]
        self.last_round = {
            "round": self.round,
            "winner": names[w],
            "points": {names[i]: pts[i] for i in range(self.n)},
            # The hands that scored, shown when the round is counted (the winner's is empty).
            "hands": {names[i]: sort_hand(self.hands[i]) for i in range(self.n)},
            "deadlock": deadlock,
        }
        detail = ", ".join(f"{names[i]} {pts[i]}" for i in range(self.n) if i != w)
        if self.config["scoring"] == "standard":
            gain = sum(pts) - pts[w]
            self.scores[names[w]] += gain
            ev.append(Event(f"{names[w]} wins round {self.round} and scores {gain} ({detail})."))
            over = self.scores[names[w]] >= target
        else:
            for i in range(self.n):
                self.scores[names[i]] += pts[i]
            ev.append(Event(f"{names[w]} wins round {self.round}; points left: {detail}."))
            over = max(self.scores.values()) >= target
        self.uno = self.called = -1
        self.face_up = self.draw3 = -1
        self.pending = 0
        self.discarders = {}
        if over:
            if self.config["scoring"] == "standard":
                winners = [names[w]]
            else:
                low = min(self.scores.values())
                winners = [p for p in names if self.scores[p] == low]
            self.phase = "over"
            standard = self.config["scoring"] == "standard"
            self._finish(winners, "went out" if standard else "lowest score")
            ev.append(Event(f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}!"))
            return
        self.round += 1
        self.dealer = (self.dealer + 1) % self.n
        cards = self._deck()
        self.rng.shuffle(cards)
        self._start_round(cards, ev)

    # -- views ------------------------------------------------------------------------------
    def _view(self, player: str | None) -> dict[str, Any]:
        names = self.players
        cfg = self.config
        view: dict[str, Any] = {
            "phase": self.phase,
            "prompt": self._prompt(),
            "current": names[self.cur],
            "dealer": names[self.dealer],
            "top": self.discard[-1],
            "color": self.color or None,
            "direction": self.direction,
            "hand_sizes": {p: len(self.hands[i]) for i, p in enumerate(names)},
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "cards_played": self.played,
            "round": self.round,
            "target": cfg["target"],
            "scoring": cfg["scoring"],
            "house_rules": [r for r in HOUSE_RULES if cfg[r]],
            "pending_draw": self.pending,
            "wild_draw_four_by": names[self.w4_by] if self.w4_by >= 0 else None,
            "uno_window": names[self.uno] if self.uno >= 0 else None,
            "uno_called": [names[self.called]] if self.called >= 0 else [],
            "custom_rules": {f"WC{k}": CUSTOM_RULES[k] for k in self.custom},
            "face_up": (
                {p: sort_hand(self.hands[i]) for i, p in enumerate(names)}
                if self.face_up >= 0
                else {}
            ),
            "face_up_until": names[self.face_up] if self.face_up >= 0 else None,
            "draw_three": names[self.draw3] if self.draw3 >= 0 else None,
            "discarding": {names[i]: k for i, k in sorted(self.discarders.items())},
            "dealer_draw": [{names[i]: c for i, c in draw} for draw in self.dealer_draw],
            "last_round": self.last_round,
            "swap_hands": cfg["swap_hands"],
            "discards": list(self.discard),
            "wild_draw_four_color": self.w4_prev if self.w4_by >= 0 else None,
            "lacks": {names[i]: c for i, c in enumerate(self.lacks) if c},
            "challenges": {
                names[i]: {"guilty": g, "innocent": k}
                for i, (g, k) in enumerate(self.w4_record)
                if g or k
            },
        }
        if player is not None:
            s = self.seat[player]
            view["you"] = player
            view["hand"] = sort_hand(self.hands[s])
            if self.phase == "drawn" and s == self.cur:
                view["drawn"] = self.drawn
            view["known"] = {
                names[h]: sort_hand(cards) for (x, h), cards in self.known.items() if x == s
            }
        return view

    def _placings(self) -> list[list[str]]:
        if self.config["scoring"] == "standard":
            return super()._placings()
        return rank_by(self.players, lambda p: self.scores[p])  # lowest total first

    def _prompt(self) -> str:
        names = self.players
        who = names[self.cur]
        phase = self.phase
        if phase == "over":
            return f"Game over: {' and '.join(self.winners)} won."
        if phase == "color":
            return f"{who} to choose the colour for the first card."
        if phase == "drawn":
            if self.config["forced_play"]:
                return f"{who} to play the drawn card (a playable drawn card must be played)."
            return f"{who} to play the drawn card or keep it."
        if phase == "challenge":
            return f"{who} to accept the Wild Draw Four or challenge {names[self.w4_by]}."
        if phase == "stack":
            return f"{who} to stack a Draw Two or draw {self.pending}."
        if phase == "discard":
            waiting = ", ".join(names[i] for i in sorted(self.discarders))
            return f"{waiting} to discard (custom rule)."
        top = self.discard[-1]
        # "a Green card or any 2": the number (or symbol) matches whatever its colour.
        value = VALUE_NAMES.get(top[1:], top[1:])
        text = f"{who} to play a {COLOR_NAMES[self.color]} card or any {value}"
        if self.discard[-1][0] == "W":
            text = f"{who} to play a {COLOR_NAMES[self.color]} card"
        return text + ", a wild, or draw."

    # -- saving --------------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "h": [" ".join(h) for h in self.hands],
            "d": " ".join(self.draw),
            "x": " ".join(self.discard),
            "c": self.color,
            "v": self.direction,
            "t": self.cur,
            "dl": self.dealer,
            "r": self.round,
            "ph": self.phase,
        }
        # Rarely set fields are saved only when they differ from their defaults.
        for key, value, default in (
            ("dr", self.drawn, ""),
            ("u", self.uno, -1),
            ("uc", self.called, -1),
            ("p", self.pending, 0),
            ("w", self.w4_by, -1),
            ("g", self.w4_guilty, False),
            ("rs", self.resume, -1),
            ("d3", self.draw3, -1),
            ("fu", self.face_up, -1),
            ("st", self.stall, 0),
            ("pl", self.played, 0),
            ("cr", self.custom, []),
            ("dd", self.dealer_draw, []),
            ("lr", self.last_round, None),
            ("wp", self.w4_prev if self.w4_by >= 0 else "", ""),
        ):
            if value != default:
                state[key] = value
        if self.discarders:
            state["ds"] = [[i, k] for i, k in self.discarders.items()]
        if any(self.lacks):
            state["lk"] = list(self.lacks)
        if any(g or k for g, k in self.w4_record):
            state["wr"] = [list(r) for r in self.w4_record]
        if self.known:
            state["kn"] = [[x, h, " ".join(cards)] for (x, h), cards in self.known.items()]
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        self.custom = list(state.get("cr", []))
        self._init_tables()
        self.hands = [shared(h.split()) for h in state["h"]]
        self.draw = shared(state["d"].split())
        self.discard = shared(state["x"].split())
        self.color = state["c"]
        self.direction = state["v"]
        self.cur = state["t"]
        self.dealer = state["dl"]
        self.round = state["r"]
        self.phase = state["ph"]
        self.drawn = state.get("dr", "")
        self.uno = state.get("u", -1)
        self.called = state.get("uc", -1)
        self.pending = state.get("p", 0)
        self.w4_by = state.get("w", -1)
        self.w4_guilty = state.get("g", False)
        self.resume = state.get("rs", -1)
        self.draw3 = state.get("d3", -1)
        self.face_up = state.get("fu", -1)
        self.stall = state.get("st", 0)
        self.played = state.get("pl", 0)
        self.dealer_draw = state.get("dd", [])
        self.last_round = state.get("lr")
        self.discarders = {i: k for i, k in state.get("ds", [])}
        self.w4_prev = state.get("wp", "")
        self.lacks = list(state.get("lk", [""] * self.n))
        self.w4_record = [list(r) for r in state.get("wr", [[0, 0]] * self.n)]
        self.known = {(x, h): shared(cards.split()) for x, h, cards in state.get("kn", [])}
        self._refresh()
