"""Bots for I Have It: a pair-first heuristic (Normal) and a search over sampled deals (Hard).

Most games end with players running out of cards rather than on a goal, so cards in hand are
what matter. Normal plays by four rules, measured against the benchmark's Basic player:

- It always answers when it can: a decline hands a random card to the player it declines and
  then costs a lead as well, while an answer costs one chosen card.
- It prefers to play a pair, lowest first. A pair can only be answered by a higher pair, so the
  next player usually has to decline and give up two cards; high pairs are kept to answer pairs.
- Otherwise it plays its lowest single, keeping high cards, which answer more plays.
- It does not break up goal material: three of a rank that can still make four, or four or
  more of a suit that can still make seven (cards already played are counted as gone).

Hard samples deals consistent with what its seat has seen (its hand, the played cards, the
cards it knows another player took from it, the hand and pile sizes), tries each of its few
best moves in every sampled deal and plays the games out with Normal's rules for every seat,
then keeps the move that won most often (Normal's choice unless another is clearly better).
"""

from __future__ import annotations

from typing import Any

from engine.bots.base import GameBots, Rand
from engine.bots.registry import register
from engine.cards import RANK_VALUE, RANKS, sort_key, standard_deck
from engine.core import Action, Game
from engine.games.ihaveit import RANK_GOAL, SUIT_GOAL, IHaveIt, answers

# What holding n cards is worth toward a goal (index n), if that goal is still reachable.
RANK_KEEP = (0.0, 0.0, 1.0, 3.0, 3.0)
SUIT_KEEP = (0.0, 0.0, 0.0, 0.3, 1.0, 2.0, 4.0, 4.0)
PAIR_BONUS = 2.5  # playing a pair: the next player must find a higher pair or give up two
PAIR_STEP = -0.15  # per rank of the pair: low pairs first, high pairs answer pairs
SINGLE_STEP = -0.1  # per rank of a single: low singles first, high cards answer more

DECK = tuple(standard_deck())


def _counts(cards: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    ranks: dict[str, int] = {}
    suits: dict[str, int] = {}
    for c in cards:
        ranks[c[:-1]] = ranks.get(c[:-1], 0) + 1
        suits[c[-1]] = suits.get(c[-1], 0) + 1
    return ranks, suits


class Table:
    """What the scoring needs about one hand: goal counts, and which goals are still open."""

    __slots__ = ("open_ranks", "open_suits", "ranks", "suits")

    def __init__(
        self, hand: list[str], gone_ranks: dict[str, int], gone_suits: dict[str, int]
    ) -> None:
        self.ranks, self.suits = _counts(hand)
        # Four of a rank needs every card of it; seven of a suit needs seven still in play.
        self.open_ranks = {r for r in self.ranks if r not in gone_ranks}
        self.open_suits = {s for s in self.suits if len(RANKS) - gone_suits.get(s, 0) >= SUIT_GOAL}

    @classmethod
    def of(cls, hand: list[str], gone: list[str]) -> Table:
        return cls(hand, *_counts(gone))

    def loss(self, cards: list[str]) -> float:
        """Goal value given up by playing ``cards`` (a single, or a pair of one rank)."""
        lost = 0.0
        r = cards[0][:-1]
        if r in self.open_ranks:
            n = self.ranks[r]
            lost += RANK_KEEP[min(n, RANK_GOAL)] - RANK_KEEP[min(n - len(cards), RANK_GOAL)]
        for c in cards:
            s = c[-1]
            if s in self.open_suits:
                n = self.suits[s]
                lost += SUIT_KEEP[min(n, SUIT_GOAL)] - SUIT_KEEP[min(n - 1, SUIT_GOAL)]
        return lost


def play_score(table: Table, cards: list[str]) -> float:
    """How much Normal likes playing ``cards`` (higher is better)."""
    top = RANK_VALUE[cards[0][:-1]]
    if len(cards) == 2:
        return PAIR_BONUS + PAIR_STEP * top - table.loss(cards)
    return SINGLE_STEP * top - table.loss(cards)


def _cards_of(action_id: str) -> list[str]:
    return action_id.partition(":")[2].split(".")


def ranked_plays(view: dict[str, Any], actions: list[Action]) -> list[str]:
    """The legal plays (not ``decline``), Normal's favourite first."""
    plays = [a.id for a in actions if a.id != "decline" and a.pick is None]
    gone = list(view.get("played", []))
    if view.get("in_play"):
        gone += view["in_play"]["cards"]
    table = Table.of(list(view.get("hand", [])), gone)
    finishing = _finishing(view, plays)
    # Stable sort: equal scores keep the engine's order (lower cards first).
    return sorted(plays, key=lambda a: (a not in finishing, -play_score(table, _cards_of(a))))


def _finishing(view: dict[str, Any], plays: list[str]) -> set[str]:
    """The plays that win at once: two players left and the pile empty, every card is known,
    and the other player can neither answer the play nor keep a card after declining it
    (they hand over as many cards as the play holds, and are out)."""
    me = view.get("current")
    left = [p for p, n in view["hand_sizes"].items() if p not in view["out"]]
    if view["pile"] or len(left) != 2 or me not in left:
        return set()
    other = next(p for p in left if p != me)
    seen = set(view.get("hand", [])) | set(view.get("played", []))
    if view.get("in_play"):
        seen |= set(view["in_play"]["cards"])
    theirs = [c for c in DECK if c not in seen]
    if len(theirs) != view["hand_sizes"][other]:
        return set()  # not what the count says: nothing is known for sure
    replies = [[c] for c in theirs] + [
        [a, b] for i, a in enumerate(theirs) for b in theirs[i + 1 :] if a[:-1] == b[:-1]
    ]
    return {
        play
        for play in plays
        if len(theirs) <= len(cards := _cards_of(play))
        and not any(answers(reply, cards) for reply in replies)
    }


def normal(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    """Answer whenever possible; a low pair first, else a low single; keep goal material."""
    plays = ranked_plays(view, actions)
    return plays[0] if plays else actions[0].id


# -- Hard: determinized search --------------------------------------------------------------

# The search budget, counted in moves played out in sampled games (about 0.09 ms each on the
# benchmark machine), so a decision early in a long game costs no more than a late one.
MOVE_BUDGET = 1600
MIN_DEALS = 6  # sampled deals per decision, whatever the moves cost
CANDIDATES = 4  # Normal's best few plays are searched
CONFIDENCE = 1.0  # standard errors by which another play must beat Normal's choice


def sample_world(view: dict[str, Any], rng: Rand) -> IHaveIt:
    """A full game that agrees with everything ``view``'s seat knows; the rest dealt at random.

    Unseen cards = the deck minus the seat's hand, the played cards, the play in front and
    the cards it knows others hold. They fill the other hands to their public sizes and the
    pile (in random order).
    """
    me = view["current"]
    players = list(view["players"])
    hand = list(view["hand"])
    in_play = view["in_play"]
    known: dict[str, list[str]] = {p: list(c) for p, c in view.get("known", {}).items()}
    placed = set(hand) | set(view["played"]) | set(in_play["cards"] if in_play else [])
    for cards in known.values():
        placed.update(cards)
    unseen = [c for c in DECK if c not in placed]
    rng.shuffle(unseen)
    hands: dict[str, list[str]] = {}
    for p in players:
        if p == me:
            hands[p] = hand
            continue
        mine = known.get(p, [])
        need = view["hand_sizes"][p] - len(mine)
        hands[p] = sorted(mine + unseen[:need], key=sort_key)
        unseen = unseen[need:]
    limit = _sampled_limit(view, me, hands, rng)
    drawn = {p: (hands[p][0] if hands[p] else DECK[0]) for p in players}
    if "drawn" in view:
        drawn[me] = view["drawn"]
    state = {
        "hands": hands,
        "pile": unseen,
        "discard": list(view["played"]),
        "in_play": {"player": in_play["player"], "cards": list(in_play["cards"])}
        if in_play
        else None,
        "current": me,
        "phase": view["phase"],
        "limit": limit,
        "taken_by": _taker(view) if limit is not None else None,
        "out": list(view["out"]),
        "redeals": view.get("redeals", 0),
        "starter": view.get("starter", me),
        "drawn": drawn,
        "moves": 0 if "drawn" in view else 1,
        "known": {me: known},
    }
    data = {
        "kind": IHaveIt.kind,
        "players": players,
        "options": {},
        "rng": rng.randrange(1 << 62),
        "finished": False,
        "winners": [],
        "scores": dict.fromkeys(players, 0),
        "state": state,
    }
    game = IHaveIt.from_dict(data)
    assert isinstance(game, IHaveIt)
    return game


def _sampled_limit(
    view: dict[str, Any], me: str, hands: dict[str, list[str]], rng: Rand
) -> str | None:
    """The restricted lead's limit: known to the decliner and the taker, else guessed."""
    if not view.get("restricted"):
        return None
    if view.get("lead_limit") is not None:
        return str(view["lead_limit"])
    # A third player only knows a lead is restricted: guess one of the taker's cards.
    others = [c for p, h in hands.items() if p != me for c in h]
    return rng.choice(others)[:-1] if others else None


class _Memory:
    """Counts of the cards gone in one sampled game, kept up to date as its discard grows."""

    __slots__ = ("ranks", "seen", "suits")

    def __init__(self) -> None:
        self.ranks: dict[str, int] = {}
        self.suits: dict[str, int] = {}
        self.seen = 0

    def update(self, discard: list[str]) -> None:
        for c in discard[self.seen :]:
            self.ranks[c[:-1]] = self.ranks.get(c[:-1], 0) + 1
            self.suits[c[-1]] = self.suits.get(c[-1], 0) + 1
        self.seen = len(discard)


def _taker(view: dict[str, Any]) -> str:
    """Who took the cards before a restricted lead: the decliner's previous player still in."""
    players = list(view["players"])
    seat = players.index(view["current"])
    for step in range(1, len(players)):
        p = players[(seat - step) % len(players)]
        if p not in view["out"]:
            return str(p)
    return str(view["current"])


def _fast_choice(game: IHaveIt, player: str, memory: _Memory) -> str:
    """Normal's choice read straight from a sampled game (no view or action list to build)."""
    hand = game.hands[player]  # kept sorted by the engine
    memory.update(game.discard)
    prev = game.in_play["cards"] if game.in_play else []
    gone_ranks, gone_suits = memory.ranks, memory.suits
    if prev:
        gone_ranks, gone_suits = dict(gone_ranks), dict(gone_suits)
        for c in prev:
            gone_ranks[c[:-1]] = gone_ranks.get(c[:-1], 0) + 1
            gone_suits[c[-1]] = gone_suits.get(c[-1], 0) + 1
    table = Table(hand, gone_ranks, gone_suits)
    plays = [[c] for c in hand]
    for i in range(len(hand) - 1):
        for j in range(i + 1, len(hand)):
            if hand[i][:-1] == hand[j][:-1]:
                plays.append([hand[i], hand[j]])
    if game.phase == "lead":
        verb = "lead"
        if game.limit is not None:
            top = RANK_VALUE[game.limit]
            plays = [p for p in plays if RANK_VALUE[p[0][:-1]] <= top] or plays
    else:
        verb = "answer"
        plays = [p for p in plays if answers(p, prev)]
        if not plays:
            return "decline"
    best = max(plays, key=lambda p: play_score(table, p))
    return f"{verb}:{'.'.join(best)}"


def rollout(game: Game, rng: Rand) -> int:
    """Play a sampled game to its end with Normal's rules for every seat; the moves made."""
    assert isinstance(game, IHaveIt)
    memory = _Memory()
    moves = 0
    while not game.finished:
        moves += 1
        player = game.current
        assert player is not None
        action_id = _fast_choice(game, player, memory)
        # The engine's own rules carry the move out; the check that the id is legal is
        # skipped (it lists every play again), as _fast_choice only builds legal ids.
        game._legal_cache.clear()
        game._apply(player, Action(action_id, ""), None)
    return moves


def hard(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    """Normal's few best moves, each played out in sampled deals; the most winning one."""
    plays = ranked_plays(view, actions)
    if not plays:
        return actions[0].id
    candidates = plays[:CANDIDATES]
    if len(candidates) == 1:
        return candidates[0]
    me = view["current"]
    # Each deal's result per candidate (1 won, 0 lost): all candidates face the same deals.
    results: list[list[int]] = [[] for _ in candidates]
    spent = 0
    while len(results[0]) < MIN_DEALS or spent < MOVE_BUDGET:
        world = sample_world(view, rng)
        for i, action_id in enumerate(candidates):
            trial = world.copy()
            trial.apply(me, action_id)
            spent += 1 + rollout(trial, rng)
            results[i].append(1 if me in trial.winners else 0)
    return candidates[_clear_winner(results)]


def _clear_winner(results: list[list[int]]) -> int:
    """The candidate that won most, if it beat Normal's choice (index 0) clearly enough.

    Compared deal by deal (a paired test): a few lucky deals must not overturn the heuristic,
    which is better than a noisy guess.
    """
    n = len(results[0])
    best, best_gain = 0, 0.0
    for i in range(1, len(results)):
        diffs = [a - b for a, b in zip(results[i], results[0], strict=True)]
        mean = sum(diffs) / n
        spread = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
        if mean > best_gain and mean > CONFIDENCE * spread / n**0.5:
            best, best_gain = i, mean
    return best


register(
    "ihaveit",
    GameBots(
        normal,
        hard,
        {
            "normal": (
                "Always answers when it can, plays its lowest pair first (only a higher pair "
                "beats it), otherwise its lowest single, and keeps three of a kind and long "
                "suits toward a goal. At the very end it plays the card you cannot answer."
            ),
            "hard": (
                "Plays like Normal but thinks ahead: it deals out the cards it cannot see in "
                "many possible ways, plays each of its best moves to the end of the game, and "
                "keeps the move that wins most often."
            ),
        },
    ),
)
