"""Bots for UNO.

Normal (a heuristic a player can follow):
- calls UNO with its next-to-last card (``play+uno:``), and catches anyone who forgot;
- plays a card rather than drawing whenever it can; keeps Wilds for when no coloured card
  plays (a legal Wild Draw Four goes first when the next player is down to two cards), and
  never plays a Wild Draw Four while it holds the colour in play;
- among coloured cards, keeps in play the colour it holds most, then sheds high-point cards
  (action cards, high numbers) first, and turns to a colour the next player showed they lack;
  hits a player close to going out with Draw Twos, Skips and Wild Draw Fours; with two
  players, after a Skip, Reverse or draw card it picks colours for its own next play;
- picks the colour it holds most for a Wild (then one the next player lacks, then the colour
  with the fewest cards still unseen);
- challenges a Wild Draw Four when the cards it has not seen make it likely that the player
  still held the colour, and less readily against a player found innocent before;
- house rules: stacks a Draw Two / Wild Draw Four when it may, swaps hands (7, 0, Wild Swap
  Hands) only towards a smaller hand (drawing rather than taking two cards more), weighs what
  a Wild Customizable card's rule does to the table, jumps in, and discards its least useful
  cards (never a Wild first); with "lowest" scoring it sheds points harder.

Hard: determinized Monte Carlo with paired comparisons. Each round deals the cards this seat
has not seen (the deck the options imply, minus its hand, the discard pile and the cards it
knows others hold) into the other hands and the draw pile, giving a player who showed they
lack a colour none of it (nor a Wild); tries each candidate (Normal's choice first, then one
per card, and the two best colours of a Wild) in a copy of that world, and plays the round out
with a fast Normal-like policy for every seat. A round scores 1 for going out plus the points
won, minus the points held when another goes out. Hard leaves Normal's choice only when the
per-world differences show a clear gain; its budget counts the moves played in rollouts. Its
Wild Draw Four challenges, UNO calls and catches, jump-ins and discards follow Normal.

Everything is read from the seat's view: its hand and ``known`` cards, ``discards``,
``lacks``, ``challenges``, hand sizes and the public state.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.bots.base import GameBots, Rand, pick_id
from engine.bots.registry import register
from engine.core import Action, Game, IllegalAction
from engine.games.uno import CALL_PREFIX, Uno
from engine.games.uno_cards import (
    COLOR_ACTS,
    COLORS,
    PLAY_PARSE,
    PLAYABLE,
    POINTS,
    VALUE,
    build_deck,
)

# -- tuning (measured with bench/botbench/uno.py) --------------------------------------------
COLOR_WEIGHT = 3.0  # per card left in hand of the colour a play leaves in play
POINT_WEIGHT = 0.1  # per point of the card shed
LACK_BONUS = 2.5  # leaving in play a colour the next player showed they lack
KNOWN_PENALTY = 1.0  # per known card of the next player in the colour left in play
TEMPO_BONUS = 1.0  # two players: a Skip, Reverse or draw card gives another turn
SWAP_WEIGHT = 1.5  # per card gained (or lost) by a hand swap
UNSEEN_WEIGHT = 0.01  # per unseen card of a colour (others are likelier to hold it)
ATTACK_BONUS = 0.5  # three players or more: a Draw Two on the next player (a Skip: less)
W4_ATTACK = 2.0  # a Wild Draw Four goes before coloured cards at this threat (2: two cards)
CHALLENGE_AT = 0.3  # challenge a Wild Draw Four when guilt is at least this likely
BLUFF_RATIO = 0.5  # how much likelier an innocent player is to play a Wild Draw Four
HARD_MOVES = 5000  # rollout moves per Hard decision (the budget; p99 under 300 ms)
MIN_WORLDS = 8  # sampled worlds per Hard decision, at least...
MAX_WORLDS = 64  # ...and at most
ROLLOUT_MOVES = 400  # a rollout stops after this many moves even if nobody went out
POINTS_WEIGHT = 0.5  # Hard: a round's points (per 100) against a round's win (1)
REFUSED = -10.0  # the value of a candidate a sampled world refuses (below any round's)
SEARCH_MARGIN = 1.0  # Hard leaves Normal's favourite only when better by this many std errors


# -- reading the view ---------------------------------------------------------------------
@dataclass(slots=True)
class Table:
    """What one seat knows, read from its view."""

    me: str
    players: list[str]
    seat: int
    hand: list[str]
    top: str
    color: str
    direction: int
    sizes: dict[str, int]
    lacks: dict[str, str]
    known: dict[str, list[str]]  # cards of other hands this seat knows (face-up hands too)
    unseen_colors: dict[str, int]  # cards it has not seen anywhere, by colour ("W": wilds)
    seven_zero: bool
    lowest: bool  # scoring "lowest": everyone's points count against them

    def next_of(self, seat: int, steps: int = 1) -> str:
        return self.players[(seat + self.direction * steps) % len(self.players)]

    @property
    def nxt(self) -> str:
        return self.next_of(self.seat)

    @property
    def prev(self) -> str:
        return self.next_of(self.seat, -1)


def custom_numbers(view: dict[str, Any]) -> list[int]:
    return [int(code[2:]) for code in view["custom_rules"]]


@cache
def deck_counts(swap_hands: bool, custom: tuple[int, ...]) -> dict[str, int]:
    """How many of each card the deck of these options has."""
    return dict(Counter(build_deck(swap_hands, list(custom))))


def known_cards(view: dict[str, Any]) -> dict[str, list[str]]:
    """Cards of other hands the seat knows: remembered ones, and hands face up."""
    me = view["you"]
    known = {p: list(c) for p, c in view.get("known", {}).items()}
    for p, cards in view.get("face_up", {}).items():
        if p != me:
            known[p] = list(cards)
    return known


def seen_cards(view: dict[str, Any], known: dict[str, list[str]]) -> list[str]:
    """Every card of the deck the seat has seen where it is now."""
    seen = list(view["hand"]) + list(view["discards"])
    for cards in known.values():
        seen += cards
    return seen


def unseen_cards(view: dict[str, Any], known: dict[str, list[str]]) -> list[str]:
    """The cards the seat has not seen: other hands (but known cards) and the draw pile."""
    left = dict(deck_counts(view["swap_hands"], tuple(custom_numbers(view))))
    for c in seen_cards(view, known):
        left[c] = left.get(c, 0) - 1
    return sorted(c for c, k in left.items() for _ in range(k))


def read(view: dict[str, Any]) -> Table:
    me = view["you"]
    players = view["players"]
    known = known_cards(view)
    unseen_colors = dict(_deck_colors(view["swap_hands"], len(view["custom_rules"])))
    for c in seen_cards(view, known):
        unseen_colors[c[0]] -= 1
    return Table(
        me=me,
        players=players,
        seat=players.index(me),
        hand=list(view["hand"]),
        top=view["top"],
        color=view["color"] or "",
        direction=view["direction"],
        sizes=dict(view["hand_sizes"]),
        lacks=dict(view.get("lacks", {})),
        known=known,
        unseen_colors=unseen_colors,
        seven_zero="seven_zero" in view["house_rules"],
        lowest=view["scoring"] == "lowest",
    )


@cache
def _deck_colors(swap_hands: bool, customs: int) -> dict[str, int]:
    """Cards per colour in the deck (wilds under "W")."""
    out = {"R": 25, "Y": 25, "G": 25, "B": 25, "W": 8 + customs + swap_hands}
    assert sum(out.values()) == len(build_deck(swap_hands, list(range(1, customs + 1))))
    return out


@dataclass(frozen=True, slots=True)
class Play:
    """A parsed play action: the card, the colour declared with it, the player targeted."""

    id: str
    card: str
    color: str  # the colour in play afterwards
    target: str  # "" unless the card swaps hands with a chosen player


def parse_play(action_id: str) -> Play:
    parts = action_id.split(":")
    card = parts[1]
    if card[0] == "W":
        color = parts[2]
        target = parts[3] if len(parts) > 3 else ""
    else:
        color = card[0]
        target = parts[2] if len(parts) > 2 else ""
    return Play(action_id, card, color, target)


def with_call(action_id: str, ids: set[str]) -> str:
    """The ``play+uno:`` twin of a play when it is offered (holding two cards)."""
    if action_id.startswith("play:"):
        twin = CALL_PREFIX + action_id[len("play:") :]
        if twin in ids:
            return twin
    return action_id


# -- Normal -------------------------------------------------------------------------------
def threat(size: int) -> float:
    """How urgent it is to hold back a player with ``size`` cards."""
    return float(max(0, 4 - size))


def color_counts(cards: Iterable[str]) -> Counter[str]:
    return Counter(c[0] for c in cards if c[0] != "W")


def color_score(t: Table, color: str, after: list[str], next_player: str) -> float:
    """How good it is to leave ``color`` in play, holding ``after``, with ``next_player`` up."""
    score = COLOR_WEIGHT * sum(1 for c in after if c[0] == color)
    if t.lacks.get(next_player) == color:
        score += LACK_BONUS
    score -= KNOWN_PENALTY * sum(1 for c in t.known.get(next_player, ()) if c[0] == color)
    # Tie-breaks: the fewer of a colour still unseen, the less likely others hold it.
    return score - UNSEEN_WEIGHT * t.unseen_colors[color]


def best_colors(t: Table, after: list[str], next_player: str) -> list[str]:
    """Colours for a Wild, best first."""
    return sorted(COLORS, key=lambda col: -color_score(t, col, after, next_player))


def guilty_play(t: Table, card: str) -> bool:
    """A Wild Draw Four played while holding the colour in play (open to a challenge)."""
    return card == "W4" and any(c[0] == t.color for c in t.hand if c != "W4")


def next_after(t: Table, card: str) -> str:
    """Who plays after ``card`` (the same player again in two-player for S/R/D2/W4)."""
    n = len(t.players)
    value = VALUE[card]
    if value == "R":
        return t.prev if n > 2 else t.me
    if value in ("S", "D2") or card == "W4":
        return t.next_of(t.seat, 2) if n > 2 else t.me
    return t.nxt


def play_score(t: Table, play: Play) -> float:
    """Normal's liking for a play (higher is better); a Wild's colour is part of ``play``."""
    card = play.card
    after = list(t.hand)
    after.remove(card)
    n = len(t.players)
    nxt = t.nxt
    follower = next_after(t, card)
    # The colour matters for whoever plays next; when it is me again, only for me.
    judge = "" if follower == t.me else follower
    if card == "WS":
        # I will hold the target's hand and they mine: a colour they will not hold.
        mine = [c for c in t.known.get(play.target, ()) if c != "WS"]
        score = color_score(t, play.color, mine, judge)
        score -= COLOR_WEIGHT * sum(1 for c in after if c[0] == play.color)
    else:
        score = color_score(t, play.color, after, judge)
    value = VALUE[card]
    wild = card[0] == "W"
    if not wild:
        score += POINT_WEIGHT * (3 if t.lowest else 1) * POINTS[card]
    danger = threat(t.sizes[nxt])
    if value == "D2" or card == "W4":
        score += 1.5 * danger + (TEMPO_BONUS + 1.0 if n == 2 else ATTACK_BONUS)
    elif value == "S":
        score += danger + (TEMPO_BONUS if n == 2 else ATTACK_BONUS - 0.5)
    elif value == "R":
        score += TEMPO_BONUS if n == 2 else danger - threat(t.sizes[t.prev])
    score -= SWAP_WEIGHT * swap_gain(t, play)
    if wild:
        # Wilds wait until no coloured card plays (a Wild Draw Four not when the next player
        # is about to go out); among Wilds, the ones that hurt go first.
        score -= 0.0 if card == "W4" and danger >= W4_ATTACK else 100.0
        if card == "W4":
            score += 3.0 + 2.0 * danger
        elif card in CUSTOM_WORTH:
            score += CUSTOM_WORTH[card](t, len(after))
    if guilty_play(t, card):
        score -= 1000.0
    return score


def swap_gain(t: Table, play: Play) -> int:
    """Cards I would gain (lose, if negative) by the hands a play swaps or passes."""
    if len(t.hand) == 1:
        return 0  # my last card: the round ends before any hands change
    if play.target:
        return t.sizes[play.target] - (len(t.hand) - 1)
    if t.seven_zero and VALUE[play.card] == "0":
        return t.sizes[t.prev] - (len(t.hand) - 1)
    return 0


# How much a Wild Customizable card's rule helps me (given my hand size after playing it).
CUSTOM_WORTH: dict[str, Callable[[Table, int], float]] = {
    "WC1": lambda t, left: 2.0,  # the next player draws until the colour comes
    "WC2": lambda t, left: 1.5,  # everyone else discards their Wilds
    "WC3": lambda t, left: 1.0,  # the next player may take three
    "WC4": lambda t, left: 2.0,  # an extra turn
    "WC5": lambda t, left: 0.5 * (7 - t.sizes[t.nxt]),  # the next player to exactly 7
    "WC6": lambda t, left: 0.5 * (left - 3),  # everyone to exactly 3
    "WC7": lambda t, left: 0.0,  # hands face up
}


def best_play(t: Table, plays: list[Play]) -> Play:
    """Normal's favourite play; for a Wild, the best colour; for a swap, the best target."""
    return max(plays, key=lambda p: (play_score(t, p), -_order(p)))


def _order(play: Play) -> int:
    """A stable tie-break: colours in R Y G B order."""
    return COLORS.index(play.color) if play.color in COLORS else 0


def ranked_plays(t: Table, plays: list[Play]) -> list[Play]:
    return sorted(plays, key=lambda p: (-play_score(t, p), _order(p)))


def guilt_chance(t: Table, view: dict[str, Any]) -> float:
    """How likely the pending Wild Draw Four's player held the colour in play before it."""
    by = view["wild_draw_four_by"]
    before = view["wild_draw_four_color"] or ""
    held = t.known.get(by, [])
    if any(c[0] == before for c in held):
        return 1.0
    if t.lacks.get(by) == before:
        return 0.0  # they drew on that colour and have taken no card since
    hidden = t.sizes[by] - len(held)
    total = sum(t.unseen_colors.values())
    of_color = t.unseen_colors[before]
    if hidden <= 0 or total <= 0:
        return 0.0
    # Hypergeometric: the chance that none of their hidden cards is of that colour.
    none = math.comb(total - of_color, hidden) / math.comb(total, hidden) if hidden <= total else 0
    prior = 1.0 - none
    record = view.get("challenges", {}).get(by, {})
    # Players mostly play it when they may: found innocent before, the less likely a bluff.
    ratio = BLUFF_RATIO * (record.get("guilty", 0) + 1) / (record.get("innocent", 0) + 1)
    odds = prior * ratio
    return odds / (odds + (1.0 - prior)) if odds + (1.0 - prior) > 0 else 0.0


def discard_choice(t: Table, action: Action) -> str:
    """The cards to discard for a custom rule: the least useful first (Wilds kept last).
    All that is owed at once, also when a big hand may discard in parts."""
    assert action.pick is not None
    k = action.pick.max
    counts = color_counts(t.hand)

    def keep(token: str) -> tuple[int, int, int]:
        card = token.split("_", 1)[0]
        return (card[0] == "W", counts[card[0]], -POINTS[card])

    chosen = sorted(action.pick.options, key=keep)[:k]
    return pick_id(action, chosen)


def normal(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    ids = {a.id for a in actions}
    if "uno" in ids:
        return "uno"
    for a in actions:
        if a.id.startswith("catch:"):
            return a.id
    return with_call(_normal_move(read(view), view, actions), ids)


def _normal_move(t: Table, view: dict[str, Any], actions: list[Action]) -> str:
    phase = view["phase"]
    ids = {a.id for a in actions}
    for a in actions:
        if a.pick is not None:
            return discard_choice(t, a)
    plays = [parse_play(a.id) for a in actions if a.id.startswith("play:")]
    if phase == "color":  # the first card is a Wild: I choose, then I play
        return "color:" + best_colors(t, t.hand, "")[0]
    if phase == "challenge":
        legal = [p for p in plays if not guilty_play(t, p.card)]
        if legal:  # stack our own Wild Draw Four: the next player takes it all
            return best_play(t, legal).id
        return "challenge" if guilt_chance(t, view) >= CHALLENGE_AT else "accept"
    if phase == "stack":
        return best_play(t, plays).id if plays else "accept"
    if phase == "drawn":
        if plays:
            play = best_play(t, plays)
            if "pass" not in ids or not (guilty_play(t, play.card) or swap_gain(t, play) > 0):
                return play.id
        return "pass" if "pass" in ids else actions[0].id
    if plays:
        # A swap that would hand me two cards or more is worse than drawing one; so is a
        # Wild Draw Four while I hold the colour in play (a challenge costs four).
        fair = [p for p in plays if swap_gain(t, p) < 2 and not guilty_play(t, p.card)]
        if fair or "draw" not in ids:
            return best_play(t, fair or plays).id
        return "draw"
    for a in actions:
        if a.id in ("draw", "pass", "accept"):
            return a.id
    return actions[0].id


# -- Hard ---------------------------------------------------------------------------------
def hard(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    ids = {a.id for a in actions}
    if (
        view["current"] != view["you"]
        or view["phase"] not in ("play", "drawn", "stack", "color")
        or any(a.pick is not None or a.id in ("uno",) or a.id.startswith("catch:") for a in actions)
    ):
        return normal(view, actions, rng)
    candidates = hard_candidates(view, actions)
    if len(candidates) <= 1:
        return normal(view, actions, rng)
    return with_call(paired_search(view, candidates, rng, HARD_MOVES), ids)


def paired_search(view: dict[str, Any], candidates: list[str], rng: Rand, budget: int) -> str:
    """The candidate with the best mean value over sampled worlds, if it beats the first
    (Normal's favourite) by more than the noise of the comparison.

    Like ``engine.bots.search.best_by_sampling``, every candidate faces the same worlds (and,
    the rollout policy being deterministic, the same continuation), so the per-world
    differences against the favourite are what is compared. The budget counts the moves
    played in rollouts (a long round costs more than a short one), whole worlds at a time.
    """
    me = view["you"]
    sampler = WorldSampler(view)
    value = RoundValue(view["round"])
    values: list[list[float]] = [[] for _ in candidates]
    moves = 0
    while len(values[0]) < MIN_WORLDS or (moves < budget and len(values[0]) < MAX_WORLDS):
        world = sampler.sample(view, rng)
        for i, action_id in enumerate(candidates):
            trial = world.copy()
            try:
                trial.apply(me, action_id)
            except IllegalAction:  # never expected: the world agrees with the view
                values[i].append(REFUSED)
                continue
            moves += 1 + rollout(trial, rng)
            values[i].append(value(trial, me))
    means = [sum(v) / len(v) for v in values]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    if best == 0:
        return candidates[0]
    diffs = [a - b for a, b in zip(values[best], values[0], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return candidates[best] if mean > SEARCH_MARGIN * spread / math.sqrt(n) else candidates[0]


def hard_candidates(view: dict[str, Any], actions: list[Action]) -> list[str]:
    """Distinct moves worth comparing, Normal's favourite first."""
    t = read(view)
    plays = [parse_play(a.id) for a in actions if a.id.startswith("play:")]
    plays = [p for p in plays if not guilty_play(t, p.card)] or plays
    if view["phase"] == "color":
        # Only colours I hold (any, when I hold no coloured card): naming one I lack makes
        # me draw, and a few sampled worlds can make that look good by chance.
        held = {c[0] for c in t.hand if c[0] != "W"}
        return ["color:" + c for c in best_colors(t, t.hand, "") if not held or c in held]
    out: list[str] = []
    per_card: dict[str, int] = {}
    for play in ranked_plays(t, plays):
        # One target per swap card, the two best colours per Wild.
        room = 2 if play.card[0] == "W" and not play.target else 1
        if per_card.get(play.card, 0) < room:
            per_card[play.card] = per_card.get(play.card, 0) + 1
            out.append(play.id)
    ids = {a.id for a in actions}
    if view["phase"] == "drawn" and "pass" in ids:
        out.append("pass")
    elif view["phase"] == "stack":
        out.append("accept")
    elif "draw" in ids and (not out or all(swap_gain(t, p) >= 2 for p in plays)):
        out.append("draw")
    # Normal's own choice goes first: the search leaves it only for a clear gain.
    favourite = _normal_move(t, view, actions)
    return [favourite] + [c for c in out if c != favourite]


class WorldSampler:
    """Complete games consistent with one seat's view: its unseen cards dealt at random."""

    def __init__(self, view: dict[str, Any]) -> None:
        t = read(view)
        self.view = view
        self.table = t
        self.pool = unseen_cards(view, t.known)
        players = t.players
        self.seat = {p: i for i, p in enumerate(players)}
        custom = custom_numbers(view)
        options: dict[str, Any] = {
            "target": view["target"],
            "scoring": view["scoring"],
            "swap_hands": view["swap_hands"],
            "custom_wilds": len(custom),
            "custom_rules": ",".join(str(k) for k in custom),
        }
        for rule in view["house_rules"]:
            options[rule] = True
        # The world ends with the round: a won round reaches the target, so the engine does
        # not shuffle and deal a next round that no rollout would look at.
        options["target"] = 1
        self.options = options
        seat = self.seat
        base: dict[str, Any] = {
            "x": " ".join(view["discards"]),
            "c": view["color"] or "",
            "v": view["direction"],
            "t": seat[view["current"]],
            "dl": seat[view["dealer"]],
            "r": view["round"],
            "ph": view["phase"],
            "cr": custom,
        }
        if view.get("drawn"):
            base["dr"] = view["drawn"]
        if view["pending_draw"]:
            base["p"] = view["pending_draw"]
        if view["draw_three"]:
            base["d3"] = seat[view["draw_three"]]
        if view["face_up_until"]:
            base["fu"] = seat[view["face_up_until"]]
        if view["last_round"]:
            base["lr"] = view["last_round"]
        if view["discarding"]:
            base["ds"] = [[seat[p], k] for p, k in view["discarding"].items()]
            base["rs"] = seat[view["current"]]
        if view["lacks"]:
            base["lk"] = [view["lacks"].get(p, "") for p in players]
        self.base = base

    def sample(self, view: dict[str, Any], rng: Rand) -> Game:
        t = self.table
        pool = list(self.pool)
        rng.shuffle(pool)
        hands: dict[str, list[str]] = {t.me: list(t.hand)}
        # Players who showed they lack a colour get theirs first, from the cards that fit.
        others = [p for p in t.players if p != t.me]
        others.sort(key=lambda p: p not in t.lacks)
        for p in others:
            hand = list(t.known.get(p, []))
            need = t.sizes[p] - len(hand)
            lack = t.lacks.get(p)
            if need > 0 and lack:
                fits = [i for i, c in enumerate(pool) if c[0] != lack and c[0] != "W"][:need]
                taken = set(fits)
                hand += [pool[i] for i in fits]
                pool = [c for i, c in enumerate(pool) if i not in taken]
                need = t.sizes[p] - len(hand)
            if need > 0:
                hand += pool[:need]
                pool = pool[need:]
            hands[p] = hand
        state = dict(self.base)
        state["h"] = [" ".join(hands[p]) for p in t.players]
        state["d"] = " ".join(pool)
        by = self.view["wild_draw_four_by"]
        if by is not None:
            before = self.view["wild_draw_four_color"] or ""
            state["w"] = self.seat[by]
            state["wp"] = before
            state["g"] = any(c[0] == before for c in hands[by])
        data = {
            "kind": "uno",
            "players": list(t.players),
            "options": self.options,
            "rng": rng.randrange(1 << 62),
            "finished": False,
            "winners": [],
            "scores": dict(self.view["scores"]),
            "state": state,
        }
        return Uno.from_dict(data)


# -- rollouts -------------------------------------------------------------------------------
def fast_counts(hand: list[str]) -> dict[str, int]:
    counts = {"R": 0, "Y": 0, "G": 0, "B": 0, "W": 0}
    for c in hand:
        counts[c[0]] += 1
    return counts


def fast_action(game: Uno, seat: int) -> str:
    """A quick Normal-like move read from a sampled world (every seat plays it in rollouts)."""
    phase = game.phase
    hand = game.hands[seat]
    if phase == "play" or phase == "drawn":
        if phase == "drawn":
            cards = [game.drawn]
        else:
            playable = PLAYABLE[game.discard[-1]][game.color]
            cards = [c for c in hand if c in playable]
        if not cards:
            return "draw"
        counts = fast_counts(hand)
        best = ""
        best_score = -1e9
        for c in cards:
            if c[0] == "W":
                s = -100.0 + (3.0 if c == "W4" else 0.0)
                if c == "W4" and counts[game.color]:
                    s -= 1000.0
            else:
                s = counts[c[0]] + 0.1 * POINTS[c]
            if s > best_score:
                best, best_score = c, s
        return _play_id(game, seat, best, counts)
    if phase == "color":
        counts = fast_counts(hand)
        return "color:" + max(COLORS, key=counts.__getitem__)
    if phase == "stack":
        for c in hand:
            if VALUE[c] == "D2":
                return _play_id(game, seat, c, fast_counts(hand))
        return "accept"
    if phase == "challenge":
        return "accept"
    if phase == "discard":
        k = game.discarders[seat]
        action = next(a for a in game.legal_actions(game.players[seat]) if a.pick is not None)
        assert action.pick is not None
        options = sorted(
            action.pick.options, key=lambda o: (o[0] == "W", -POINTS[o.split("_", 1)[0]])
        )
        return pick_id(action, options[:k])
    return game.legal_actions(game.players[seat])[0].id


def _play_id(game: Uno, seat: int, card: str, counts: dict[str, int]) -> str:
    prefix = CALL_PREFIX if len(game.hands[seat]) == 2 else "play:"
    aid = prefix + card
    if card[0] == "W":
        aid += ":" + max(COLORS, key=counts.__getitem__)
    if card == "WS" or (card[1:] == "7" and card in game._targeted):
        others = [i for i in range(game.n) if i != seat]
        target = min(others, key=lambda i: len(game.hands[i]))
        aid += ":" + game.players[target]
    return aid


_TRUSTED = frozenset({"draw", "accept", *(a.id for a in COLOR_ACTS)})


def trusted(action_id: str) -> bool:
    """Ids the engine can apply without its legality scan when ``fast_action`` built them."""
    if action_id.startswith(CALL_PREFIX):
        action_id = "play:" + action_id[len(CALL_PREFIX) :]
    return action_id in _TRUSTED or action_id in PLAY_PARSE


def rollout(game: Game, rng: Rand) -> int:
    """Play the sampled world to the end of the round with ``fast_action`` for every seat;
    the number of moves played."""
    assert isinstance(game, Uno)
    start = game.round
    for moves in range(ROLLOUT_MOVES):
        if game.finished or game.round != start:
            return moves
        seat = min(game.discarders) if game.phase == "discard" else game.cur
        player = game.players[seat]
        aid = fast_action(game, seat)
        if trusted(aid):
            # ``fast_action`` builds these ids from the same tables the engine checks them
            # against, so the rollout skips the legality scan (a third of a rollout's time).
            game._legal_cache.clear()
            game._apply(player, Action(aid, ""), None)
            game._legal_cache.clear()
            continue
        try:
            game.apply(player, aid)
        except IllegalAction:
            game.apply(player, game.legal_actions(player)[0].id)
    return ROLLOUT_MOVES


class RoundValue:
    """The round that was being played, for ``player``: 1 for going out, plus or minus the
    points (won from the others, or held when another went out)."""

    def __init__(self, round_no: int) -> None:
        self.round = round_no

    def __call__(self, game: Game, player: str) -> float:
        assert isinstance(game, Uno)
        last = game.last_round
        if last is None or last["round"] != self.round:
            return _unfinished_value(game, player)
        points: dict[str, int] = last["points"]
        if game.config["scoring"] == "lowest":
            won = 1.0 if last["winner"] == player else 0.0
            return won - POINTS_WEIGHT * points[player] / 100
        if last["winner"] == player:
            return 1.0 + POINTS_WEIGHT * sum(points.values()) / 100
        return -POINTS_WEIGHT * points[player] / 100


def _unfinished_value(game: Uno, player: str) -> float:
    """A rollout cut short: the share of the smallest hands, as a rough chance to go out."""
    sizes = [len(h) for h in game.hands]
    mine = len(game.hands[game.seat[player]])
    weights = [math.exp(-0.5 * s) for s in sizes]
    return math.exp(-0.5 * mine) / sum(weights)


ABOUT = {
    "normal": (
        "Keeps the colour it holds most in play and sheds high-point cards first, saves Wilds "
        "and Wild Draw Fours for when nothing else plays, picks the colour it holds most, "
        "challenges a Wild Draw Four when the odds favour it, and never forgets to call UNO "
        "or to catch you."
    ),
    "hard": (
        "Remembers every card played and who could not follow a colour, imagines dozens of "
        "deals of the cards it has not seen, plays each of its options to the end of the "
        "round in every one, and picks the one that wins the most points."
    ),
}


def optional(view: dict[str, Any], actions: list[Action]) -> list[Action]:
    """Out of turn: catches, and the jump-ins that neither swap my hand for a bigger one
    nor bluff a Wild Draw Four (a jump-in is never owed: the chance may pass)."""

    def worth(action_id: str) -> bool:
        play = parse_play(action_id.replace("play+uno:", "play:", 1))
        return swap_gain(t, play) < 2 and not guilty_play(t, play.card)

    if not any(a.id.startswith(("play:", "play+uno:")) for a in actions):
        return actions
    t = read(view)
    return [a for a in actions if not a.id.startswith(("play:", "play+uno:")) or worth(a.id)]


register("uno", GameBots(normal, hard, ABOUT, optional))
