"""Bots for A War of Suits.

Normal (a heuristic a player can follow):
- first card: never an Ace while it holds another card (an Ace played first is worth 1 and has
  no power); otherwise its lowest card, unless another card's loss is more often turned into a
  win by a double from the cards it keeps (their twin, or a card of the rank the opponent
  may show, which always wins): the high cards stay in hand to double and to win a head to
  head;
- in its window: a double only when it wins (the cheapest that does); else an Ace claim only
  when the battle is worth the Ace and the opponent is unlikely to answer it (or when it holds
  more Aces than the opponent can); else accept;
- facing an Ace: answers with an Ace whenever the answer can stand;
- in a tie: reinforces when its hand is likely to win the head to head (an Ace in hand still
  answers an Ace), else stops the fight with an Ace if it has one;
- at the end, both decks empty, every card is known (as a player counting cards knows it):
  it searches the few battles left to the end and plays the move that does best whatever the
  opponent does (Hard too); these rules of thumb alone sent a losing low card into the last
  battle, or spent an Ace on a battle where it only drew.

Hard: determinized Monte Carlo. Each sampled world deals the opponent's hand (and its secret
choice, if made, as Normal would make it) and both decks from the cards this seat has not
seen; every distinct candidate move is tried in a copy of the same world and played on with
the Normal policy for both sides for ``HORIZON`` more battles, then scored by the points
margin (cards still held count their average worth). The comparison is paired, world by world,
and Normal's own move is kept unless another beats it by more than a standard error.

Everything is read from the seat's view: its hand, the battlefield and the victory piles (every
card seen so far is in one of them), the sizes of hands and decks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.bots.base import GameBots, Rand
from engine.bots.registry import register
from engine.bots.search import paired_best, saved_game
from engine.cards import rank, value
from engine.core import Action, Game
from engine.games.warofsuits import COLOUR_CARDS, HIGH_RANKS, WarOfSuits, colour_of

SIDE_KEYS = ("red", "black")

# -- tuning (measured with bench/botbench/warofsuits.py) -------------------------------------
CLAIM_MARGIN = 3.0  # expected gain (points swing) an Ace claim must promise over accepting
HARD_ROLLOUTS = 100  # sampled worlds x candidates per Hard decision (p99 under 300 ms)
HORIZON = 3  # battles a rollout plays past the current one before it is scored
CARD_WORTH = 68 / 52  # average points of a card still held (the remainder goes to a side)
WIN_BONUS = 10.0  # points a won game is worth on top of its margin, in a rollout's score


# Dict lookups: rollouts ask these questions a great many times.
VALUE = {c: value(c) for c in COLOUR_CARDS[0] + COLOUR_CARDS[1]}
POINTS = {c: 2 if rank(c) in HIGH_RANKS else 1 for c in VALUE}


def pts(card: str) -> int:
    """Victory-pile points of one card: 2-10 count 1, J/Q/K/A count 2."""
    return POINTS[card]


def is_ace(card: str) -> bool:
    return VALUE[card] == 1


@dataclass(frozen=True, slots=True)
class Table:
    """What one seat knows, read from its view."""

    me: str
    opp: str
    side: int  # 0 red, 1 black
    phase: str
    hand: list[str]
    mine: list[str]  # my battlefield cards
    theirs: list[str]  # the opponent's battlefield cards
    opp_unseen: list[str]  # the opponent's cards nobody has seen: its hand and its deck
    opp_hand: int
    my_deck: int
    opp_deck: int
    doubled: bool  # have I doubled this battle
    ace_by: str | None  # who holds the claim with the last Ace

    @property
    def my_total(self) -> int:
        return sum(value(c) for c in self.mine)

    @property
    def their_total(self) -> int:
        return sum(value(c) for c in self.theirs)

    @property
    def field_points(self) -> int:
        return sum(pts(c) for c in self.mine) + sum(pts(c) for c in self.theirs)

    @property
    def my_aces(self) -> list[str]:
        return [c for c in self.hand if is_ace(c)]

    @property
    def opp_aces_unseen(self) -> int:
        return sum(1 for c in self.opp_unseen if is_ace(c))


def me_of(view: dict[str, Any]) -> str:
    """The seat whose view this is: its hand's colour names its side."""
    hand = view.get("hand") or []
    if hand:
        side = SIDE_KEYS[colour_of(hand[0])]
        for player, key in view["sides"].items():
            if key == side:
                return str(player)
    return str(view["actors"][0])


def read(view: dict[str, Any]) -> Table:
    me = me_of(view)
    opp = next(p for p in view["players"] if p != me)
    side = SIDE_KEYS.index(view["sides"][me])
    seen = set()
    for cards in view["battlefield"].values():
        seen.update(cards)
    for cards in view["victory_piles"].values():
        seen.update(cards)
    return Table(
        me=me,
        opp=opp,
        side=side,
        phase=view["phase"],
        hand=list(view["hand"]),
        mine=list(view["battlefield"][me]),
        theirs=list(view["battlefield"][opp]),
        opp_unseen=[c for c in COLOUR_CARDS[1 - side] if c not in seen],
        opp_hand=view["hand_sizes"][opp],
        my_deck=view["deck_sizes"][me],
        opp_deck=view["deck_sizes"][opp],
        doubled=bool(view["doubled"][me]),
        ace_by=view["ace"],
    )


# -- probabilities ---------------------------------------------------------------------------
def p_fewer_than(k: int, successes: int, population: int, draws: int) -> float:
    """P(a hand of ``draws`` cards from ``population`` holds fewer than ``k`` of ``successes``)."""
    draws = max(0, min(draws, population))
    total = math.comb(population, draws)
    if total == 0:
        return 1.0
    ok = sum(
        math.comb(successes, m) * math.comb(population - successes, draws - m)
        for m in range(min(k, successes + 1, draws + 1))
    )
    return ok / total


def p_ace_chain_won(t: Table, aces_after: int) -> float:
    """P(I play the last Ace) when I still hold ``aces_after`` Aces after my next one.

    The opponent must answer each of mine; I win if it holds at most ``aces_after``.
    """
    return p_fewer_than(aces_after + 1, t.opp_aces_unseen, len(t.opp_unseen), t.opp_hand)


def p_head_to_head(t: Table) -> float:
    """P(my hand beats the opponent's in a head to head (ties count half), enumerated."""
    mine = sum(value(c) for c in t.hand)
    pool = [value(c) for c in t.opp_unseen]
    n = min(t.opp_hand, len(pool))
    if n == 0:
        return 1.0 if mine > 0 else 0.5
    wins = 0.0
    count = 0
    for sums in _subset_sums(pool, n):
        count += 1
        if mine > sums:
            wins += 1
        elif mine == sums:
            wins += 0.5
    return wins / count if count else 0.5


def _subset_sums(values: list[int], n: int) -> list[int]:
    """The sums of every ``n``-card subset of ``values`` (n is at most 3 here)."""
    if n == 1:
        return list(values)
    out: list[int] = []
    for i, v in enumerate(values):
        out += [v + s for s in _subset_sums(values[i + 1 :], n - 1)]
    return out


# -- the Normal policy -----------------------------------------------------------------------
def normal(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    ids = [a.id for a in actions]
    if len(ids) == 1:
        return ids[0]
    t = read(view)
    if t.my_deck == 0 and t.opp_deck == 0:
        exact = endgame(view, ids, rng)
        if exact is not None:
            return exact
    return decide(t, ids)


def decide(t: Table, ids: list[str]) -> str:
    if t.phase == "choose":
        return first_card(t, ids)
    if t.phase == "react":
        return react(t, ids)
    if t.phase == "answer":
        return answer(t, ids)
    if t.phase == "tie":
        return tie(t, ids)
    return ids[0]


def first_card(t: Table, ids: list[str]) -> str:
    """The card to send into battle: the lowest, unless another turns more losses into wins.

    A lost battle is turned by a double from the rest of the hand: a card of the opponent's
    rank (which always wins) or the twin of the card played (when twice it beats theirs). The
    higher cards stay in hand to do that and to win a head to head. Aces are kept back.
    """
    hand = [i.split(":", 1)[1] for i in ids if i.startswith("choose:")]
    candidates = [c for c in hand if not is_ace(c)] or hand
    counts = [0] * 14  # the opponent's unseen cards by value, Aces left out
    for c in t.opp_unseen:
        counts[VALUE[c]] += 1
    counts[1] = 0
    best = max(candidates, key=lambda c: (turned_losses(c, hand, counts), -VALUE[c]))
    return f"choose:{best}"


def turned_losses(card: str, hand: list[str], counts: list[int]) -> float:
    """Expected points swing the rest of the hand adds to ``card`` by doubling a lost battle.

    ``counts[v]`` is how many cards of value ``v`` the opponent may still play.
    """
    mine = VALUE[card]
    rest = [VALUE[d] for d in hand if d != card and VALUE[d] != 1]
    twin = mine in rest
    total = 0
    for theirs in range(mine + 1, 14):
        n = counts[theirs]
        if not n:
            continue
        # The double card that turns it: their rank (always enough) or my twin (if it is).
        if theirs in rest:
            helper = value_points(theirs)
        elif twin and 2 * mine > theirs:
            helper = value_points(mine)
        else:
            continue
        # From losing the stake to winning it plus the double card.
        stake = value_points(mine) + value_points(theirs)
        total += n * (2 * stake + helper)
    seen = sum(counts)
    return total / seen if seen else 0.0


def value_points(v: int) -> int:
    """Victory-pile points of a card of battle value ``v`` (Ace 1, J/Q/K 11-13 count 2)."""
    return 2 if v == 1 or v > 10 else 1


def react(t: Table, ids: list[str]) -> str:
    """Lower side's window: a winning double, else an Ace if the claim pays, else accept."""
    gap = t.their_total - t.my_total
    doubles = [i.split(":", 1)[1] for i in ids if i.startswith("double:")]
    winning = [d for d in doubles if value(d) > gap]
    if winning:
        # Cheapest in points, then the biggest lead (harder to double back).
        best = min(winning, key=lambda d: (pts(d), -value(d)))
        return f"double:{best}"
    aces = [i for i in ids if i.startswith("ace:")]
    if aces and claim_pays(t):
        return aces[0]
    return "accept"


def claim_pays(t: Table) -> bool:
    """Whether claiming this battle with an Ace beats accepting the loss."""
    aces = len(t.my_aces)
    p = p_ace_chain_won(t, aces - 1)
    stake = t.field_points
    gain = p * (2 * stake + 2) - (1 - p) * 4
    if p >= 0.999:
        return True  # it cannot be answered often enough: a sure win
    if aces == len(t.hand) or t.my_deck == 0:
        return gain > 0  # Aces left at the end only score their points: use them
    return gain >= CLAIM_MARGIN + 2


def answer(t: Table, ids: list[str]) -> str:
    """Facing an Ace: answer it if my answer can stand."""
    aces = [i for i in ids if i.startswith("ace:")]
    if not aces:
        return "accept"
    p = p_ace_chain_won(t, len(t.my_aces) - 1)
    stake = t.field_points
    if p * (2 * stake + 2) - (1 - p) * 2 > 0:
        return aces[0]
    return "accept"


def tie(t: Table, ids: list[str]) -> str:
    """A tie: reinforce when my hand should win the head to head, else stop it with an Ace."""
    aces = [i for i in ids if i.startswith("ace:")]
    if not aces or p_head_to_head(t) >= 0.5:
        return "reinforce"
    return aces[0]


# -- the endgame: every card known ------------------------------------------------------------
ENDGAME_NODES = 3000  # game states an exact endgame search may visit (a few ms), else rules


class _TooBig(Exception):
    pass


def endgame(view: dict[str, Any], ids: list[str], rng: Rand) -> str | None:
    """Both decks empty: the opponent's hand is every card of its colour not yet seen, so the
    rest of the game is a small tree, searched to its end (None if it is not small). The
    opponent is taken to answer each move as well as it can, a secret choice of mine too (so
    a move found best here is best whatever it does); the rules' own choice wins ties."""
    world = sample_world(view, rng, replay_choice=False)
    assert isinstance(world, WarOfSuits)
    t = read(view)
    favourite = decide(t, ids)
    visited = [0]
    try:
        scored = [(_after(world, t.me, i, t.side, visited), i == favourite, i) for i in _moves(ids)]
    except _TooBig:
        return None
    return max(scored)[2]


def _moves(ids: list[str]) -> list[str]:
    """One move of each kind: two cards of a rank play alike (same value, same points)."""
    out: dict[str, str] = {}
    for i in ids:
        out.setdefault(_move_kind(i), i)
    return list(out.values())


def _after(game: WarOfSuits, mover: str, action_id: str, side: int, visited: list[int]) -> float:
    """The final margin for ``side`` after ``mover`` plays ``action_id``, both sides then
    playing their best (minimax)."""
    visited[0] += 1
    if visited[0] > ENDGAME_NODES:
        raise _TooBig
    trial = game.copy()
    assert isinstance(trial, WarOfSuits)
    trial.apply(mover, action_id)
    me, them = trial.players[side], trial.players[1 - side]
    if trial.finished:
        won = 1 if me in trial.winners else -1 if trial.winners else 0
        return trial.scores[me] - trial.scores[them] + WIN_BONUS * won
    actors = trial.actors()
    # In a secret choice the opponent is taken to answer mine knowing it: the worst case.
    nxt = me if me in actors else actors[0]
    results = [
        _after(trial, nxt, i, side, visited)
        for i in _moves([a.id for a in trial.legal_actions(nxt)])
    ]
    return max(results) if nxt == me else min(results)


# -- the Hard policy -------------------------------------------------------------------------
def hard(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    ids = [a.id for a in actions]
    if len(ids) == 1:
        return ids[0]
    favourite = normal(view, actions, rng)
    if read(view).my_deck == 0 and read(view).opp_deck == 0:
        return favourite  # every card known: Normal searched the rest of the game exactly
    candidates = distinct_moves(favourite, ids)
    if len(candidates) == 1:
        return favourite
    return paired_best(
        read(view).me,
        view,
        candidates,
        rng,
        sample_world=sample_world,
        rollout=rollout_to(view["battle"] + HORIZON),
        value=margin,
        rollouts=HARD_ROLLOUTS,
    )


def distinct_moves(favourite: str, ids: list[str]) -> list[str]:
    """The moves worth comparing, the heuristic's favourite first.

    Cards of one rank do the same in every phase (the two Aces of a colour too), so one of
    each is enough; an Ace is never sent as a first card while another card can go.
    """
    chosen = [i for i in ids if i.startswith("choose:")]
    if chosen and any(not is_ace(i.split(":", 1)[1]) for i in chosen):
        ids = [i for i in ids if not is_ace(i.split(":", 1)[1])]
    out = [favourite]
    kinds = {_move_kind(favourite)}
    for i in ids:
        kind = _move_kind(i)
        if kind not in kinds:
            kinds.add(kind)
            out.append(i)
    return out


def _move_kind(action_id: str) -> str:
    verb, _, card = action_id.partition(":")
    return f"{verb}:{rank(card)}" if card else verb


def sample_world(view: dict[str, Any], rng: Rand, replay_choice: bool = True) -> Game:
    """A complete game that agrees with the view; the unseen cards dealt at random.

    If the opponent has already made its secret choice, the world's opponent makes it again
    as the Normal policy would from the hand this world gives it.
    """
    t = read(view)
    me, opp = t.side, 1 - t.side
    seen = set(t.hand)
    for cards in view["battlefield"].values():
        seen.update(cards)
    for cards in view["victory_piles"].values():
        seen.update(cards)
    my_unseen = [c for c in COLOUR_CARDS[me] if c not in seen]
    rng.shuffle(my_unseen)
    their = list(t.opp_unseen)
    rng.shuffle(their)
    hands: list[list[str]] = [[], []]
    decks: list[list[str]] = [[], []]
    hands[me], decks[me] = list(t.hand), my_unseen
    hands[opp], decks[opp] = their[: t.opp_hand], their[t.opp_hand :]
    players = list(view["players"])
    window = view["window"]
    ace_by = view["ace"]
    last = view["last_battle"]
    state = {
        "decks": decks,
        "hands": hands,
        "field": [list(view["battlefield"][p]) for p in players],
        "piles": [list(view["victory_piles"][p]) for p in players],
        "pending": [None, None],
        "doubled": [bool(view["doubled"][p]) for p in players],
        "turn": players.index(window[0]) if window else None,
        "ace": None if ace_by is None else players.index(ace_by),
        "phase": t.phase,
        "battle": view["battle"],
        "last": None
        if last is None
        else {
            "winner": None if last["winner"] is None else players.index(last["winner"]),
            "field": [list(last["battlefield"][p]) for p in players],
        },
    }
    data = saved_game("warofsuits", view, state, rng)
    world = WarOfSuits.from_dict(data)
    assert isinstance(world, WarOfSuits)
    if replay_choice and t.phase in ("choose", "tie") and t.opp in view["chosen"]:
        # Its choice is made while mine is still open, so applying it reveals nothing yet.
        actions = world.legal_actions(t.opp)
        world.apply(t.opp, decide(table_of(world, t.opp), [a.id for a in actions]))
    return world


def rollout_to(last_battle: int) -> Callable[[Game, Rand], None]:
    """Plays a sampled world on with the Normal policy for both sides, until the end of
    battle ``last_battle`` (or of the game)."""

    def play_on(game: Game, rng: Rand) -> None:
        assert isinstance(game, WarOfSuits)
        while not game.finished and game.battle <= last_battle:
            player = game.actors()[0]
            ids = [a.id for a in game.legal_actions(player)]
            choice = ids[0] if len(ids) == 1 else decide(table_of(game, player), ids)
            game.apply(player, choice)

    return play_on


def table_of(game: WarOfSuits, player: str) -> Table:
    """What ``player`` knows in a sampled world (the same facts ``read`` takes from a view)."""
    s = game.players.index(player)
    o = 1 - s
    return Table(
        me=player,
        opp=game.players[o],
        side=s,
        phase=game.phase,
        hand=list(game.hands[s]),
        mine=game.field[s],
        theirs=game.field[o],
        opp_unseen=game.hands[o] + game.decks[o],
        opp_hand=len(game.hands[o]),
        my_deck=len(game.decks[s]),
        opp_deck=len(game.decks[o]),
        doubled=game.doubled[s],
        ace_by=None if game.last_ace is None else game.players[game.last_ace],
    )


def margin(game: Game, player: str) -> float:
    """Points ahead at the end of the rollout, counting the cards each side has left.

    At the end a side keeps whatever the other cannot match, so every card still held is
    worth about the average card's points; a finished game adds a bonus for the win.
    """
    assert isinstance(game, WarOfSuits)
    s = game.players.index(player)
    o = 1 - s
    ahead = float(game.scores[player] - game.scores[game.players[o]])
    if game.finished:
        won = 1 if player in game.winners else -1 if game.winners else 0
        return ahead + WIN_BONUS * won
    left = len(game.hands[s]) + len(game.decks[s]) - len(game.hands[o]) - len(game.decks[o])
    return ahead + CARD_WORTH * left


register(
    "warofsuits",
    GameBots(
        normal,
        hard,
        {
            "normal": (
                "Sends its low cards into battle and keeps the high ones to double, doubles "
                "only when the double wins, keeps its Aces to claim a battle worth it or to "
                "answer yours, and reinforces a tie when its hand should win the head to head. "
                "Once both decks are empty it counts every card and plays the end out exactly."
            ),
            "hard": (
                "Imagines the cards you may hold from everything already shown, plays its "
                "options a few battles ahead in many such deals, and only leaves the Normal "
                "move when another clearly does better."
            ),
        },
    ),
)
