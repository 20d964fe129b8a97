"""Bots for the Item Collection Game: a claim-reading planner (Normal) and a search (Hard).

Normal reads the only negotiation signals the table shows, the public claims, weighted by
how often each player's past claims matched the card they revealed (``claim_record``):

- It presses Ready at once, so the table never waits for it; as the starting player it first
  sets High if its highest card is nearer the King than its lowest is to the Ace, else Low.
- It imagines the round many times: players who have claimed place their claimed rank as
  often as their record says they keep claims, or a card of theirs at random; players still
  to claim get a random hand and, as often as they keep claims, join the best-backed claim
  they can match (else place their most extreme card), otherwise a random card.
- It places the card that scores most often in those rounds, counting a game-winning round
  extra and a round that lets an opponent win without it as a loss, and claims that card's
  rank truthfully so that later players can join it. It places the card it claimed, and the
  starting player swaps at the end only for a clearly better card.

Hard chooses its claim by search: it deals the hidden cards in many worlds consistent with
what its seat has seen (each player's suit minus their scored cards; the face-down cards
weighted by the claims and each player's record), plays every candidate claim out to the
reveal through the engine, the others joining claims as Normal imagines them and the last
claimer answering with the card that scores with the claims, and keeps the claim with the
best mean round value (Normal's, with a small weight on the race to five: being level with
or ahead of the leader). Its other moves are Normal's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.bots.base import GameBots, Rand
from engine.bots.registry import register
from engine.cards import RANK_VALUE, RANKS
from engine.core import Action
from engine.games.itemcollection import CLAIMS, HAND_SIZE, WIN_SCORE, ItemCollection

SCENARIOS = 32  # imagined rounds per Normal decision (keeps its p99 under 5 ms)
SWAP_MARGIN = 0.1  # the starting player breaks its claim only for this much more value
WIN_BONUS = 2.0  # a round that makes this seat win counts this much more than a point
LOSS_COST = 2.0  # a round where another player wins and this seat does not


def _run_at(start: int) -> tuple[int, int, int]:
    """A small straight from ``start``; 14 is the Ace on top (Q-K-A), as in the engine."""
    a, b, c = start, start + 1, start + 2
    return (a, b, 1 if c == 14 else c)


SMALL_RUNS = tuple(_run_at(start) for start in range(1, 13))
LARGE_RUNS = tuple(
    frozenset(1 if v == 14 else v for v in range(start, start + 4)) for start in range(1, 12)
)


@lru_cache(maxsize=1 << 16)
def scorers(values: tuple[int, ...], mode: str) -> tuple[int, ...]:
    """The indexes (declaration order) of the four cards that score, as ``classify`` rules.

    The same table as the engine's ``classify``, on rank values (suits never matter there);
    a test checks the two agree on every possible reveal. Written out because a decision
    looks at thousands of imagined reveals.
    """
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    everyone = tuple(range(len(values)))
    shape = sorted(counts.values())
    if shape == [4] or shape == [2, 2]:
        return everyone
    if len(counts) == 4 and frozenset(counts) in LARGE_RUNS:
        return everyone
    if shape[-1] == 3:
        three = next(v for v, n in counts.items() if n == 3)
        return tuple(i for i in everyone if values[i] == three)
    for run in SMALL_RUNS:
        if run[0] in counts and run[1] in counts and run[2] in counts:
            return tuple(sorted(values.index(v) for v in run))
    if shape[-1] == 2:
        two = next(v for v, n in counts.items() if n == 2)
        return tuple(i for i in everyone if values[i] == two)
    pick = max(values) if mode == "high" else min(values)
    return (values.index(pick),)


def trust(view: dict[str, Any], player: str) -> float:
    """How likely ``player``'s claim is their card: kept claims so far, with a 1-in-2 prior."""
    record = view.get("claim_record", {}).get(player, {"made": 0, "kept": 0})
    return (int(record["kept"]) + 1) / (int(record["made"]) + 2)


def possible(view: dict[str, Any], player: str) -> list[int]:
    """Rank values ``player`` may hold or place: their suit minus what they scored."""
    scored = {RANK_VALUE[c[:-1]] for c in view["scored"][player]}
    return [v for v in range(1, len(RANKS) + 1) if v not in scored]


class Round:
    """One seat's picture of the current round, by place in the declaration order."""

    def __init__(self, view: dict[str, Any], me: str, mode: str) -> None:
        self.mode = mode
        self.order: list[str] = list(view["order"])
        self.slot = self.order.index(me)
        self.near = [view["scores"][p] + 1 >= WIN_SCORE for p in self.order]
        self.anyone_near = any(self.near)
        self.trust = [trust(view, p) for p in self.order]
        self.possible = [possible(view, p) for p in self.order]
        claims = {d["player"]: d["claim"] for d in view["declarations"]}
        # Claims made before this seat chooses (all of them at the swap), as rank values;
        # an impossible claim (a rank the player has scored) is no claim.
        self.claimed: dict[int, int | None] = {}
        for i, p in enumerate(self.order):
            if i != self.slot and p in claims:
                claim = claims[p]
                v = RANK_VALUE[claim] if claim is not None else None
                self.claimed[i] = v if v in self.possible[i] else None
        self.later = [i for i, p in enumerate(self.order) if i != self.slot and p not in claims]

    def value(self, cards: list[int]) -> float:
        """What a revealed round (cards by place in the order) is worth to this seat."""
        scoring = scorers(tuple(cards), self.mode)
        mine = self.slot in scoring
        if mine and self.near[self.slot]:
            return 1.0 + WIN_BONUS
        if self.anyone_near and any(self.near[i] for i in scoring):
            return (1.0 if mine else 0.0) - LOSS_COST  # another player wins, not this seat
        return 1.0 if mine else 0.0


def _draw(pool: list[int], k: int, rng: Rand) -> list[int]:
    """``k`` distinct items of ``pool`` at random (a partial shuffle; faster than sample)."""
    items = list(pool)
    n = len(items)
    k = min(k, n)
    for i in range(k):
        j = i + int(rng.random() * (n - i))
        items[i], items[j] = items[j], items[i]
    return items[:k]


class _Later:
    """An imagined player still to claim: a random hand, and whether they join claims."""

    __slots__ = ("at", "extreme", "hand", "random_card", "trusting", "weight")

    def __init__(self, rnd: Round, at: int, rng: Rand) -> None:
        hand = _draw(rnd.possible[at], HAND_SIZE, rng)
        self.at = at
        self.hand = frozenset(hand)
        self.extreme = max(hand) if rnd.mode == "high" else min(hand)
        self.weight = rnd.trust[at]
        self.trusting = rng.random() < self.weight
        self.random_card = hand[int(rng.random() * len(hand))]

    def respond(self, backing: dict[int, float]) -> int:
        """Join the best-backed claim held, else the most extreme card; or a random card."""
        if not self.trusting:
            return self.random_card
        best = 0
        weight = 0.0
        for v, w in backing.items():
            if w > weight and v in self.hand:
                best, weight = v, w
        return best or self.extreme


def evaluate(rnd: Round, candidates: list[int], rng: Rand, scenarios: int) -> list[float]:
    """Mean round value of placing each candidate rank, over shared imagined tables.

    In each imagined table a claimed player places their claim as often as they keep claims
    (else a possible card at random); a later player gets a random hand and, as often as
    they keep claims, joins the best-backed claim they hold (else their most extreme card),
    otherwise places a card at random.
    """
    totals = [0.0] * len(candidates)
    trust_of = rnd.trust
    cards = [0] * len(rnd.order)
    for _ in range(scenarios):
        base: dict[int, float] = {}
        for i, claim in rnd.claimed.items():
            if claim is not None:
                base[claim] = base.get(claim, 0.0) + trust_of[i]
                kept = rng.random() < trust_of[i]
                cards[i] = claim if kept else rng.choice(rnd.possible[i])
            else:
                cards[i] = rng.choice(rnd.possible[i])
        later = [_Later(rnd, i, rng) for i in rnd.later]
        for c, mine in enumerate(candidates):
            cards[rnd.slot] = mine
            backing = dict(base)
            backing[mine] = backing.get(mine, 0.0) + trust_of[rnd.slot]
            for player in later:
                card = player.respond(backing)
                cards[player.at] = card
                if player.trusting:
                    backing[card] = backing.get(card, 0.0) + player.weight
            totals[c] += rnd.value(cards)
    return [t / scenarios for t in totals]


def _hand_values(view: dict[str, Any]) -> dict[int, str]:
    return {RANK_VALUE[c[:-1]]: c for c in view["hand"]}


def best_card(
    view: dict[str, Any], rng: Rand, mode: str, scenarios: int = SCENARIOS
) -> tuple[str, float]:
    """The card of the hand Normal would place now, and its value."""
    hand = _hand_values(view)
    candidates = sorted(hand)
    means = evaluate(Round(view, _me(view), mode), candidates, rng, scenarios)
    best = max(range(len(candidates)), key=lambda i: means[i])
    return hand[candidates[best]], means[best]


def _me(view: dict[str, Any]) -> str:
    """This seat's player: the one whose suit the hand is in (a hand is never empty)."""
    suit = view["hand"][0][-1]
    return str(next(p for p, s in view["suits"].items() if s == suit))


def _mode(view: dict[str, Any]) -> str:
    return str(view["mode"] or view["joker"])


def _negotiate(view: dict[str, Any], ids: set[str]) -> str:
    if "high" in ids and "low" in ids:
        # Set the mode its hand's extreme card is nearer to (K for High, A for Low), then
        # Ready on the next call. (Measured: as good as imagining the round under both.)
        values = sorted(_hand_values(view))
        return "high" if len(RANKS) - values[-1] <= values[0] - 1 else "low"
    return "ready"


def _my_claim(view: dict[str, Any]) -> str | None:
    me = _me(view)
    return next((d["claim"] for d in view["declarations"] if d["player"] == me), None)


def _place(view: dict[str, Any], rng: Rand, scenarios: int) -> str:
    claim = _my_claim(view)
    held = _hand_values(view)
    if claim is not None and RANK_VALUE[claim] in held:
        return f"place:{held[RANK_VALUE[claim]]}"  # keep its word: later players rely on it
    return f"place:{best_card(view, rng, _mode(view), scenarios)[0]}"


def _swap(view: dict[str, Any], rng: Rand, scenarios: int) -> str:
    placed = view.get("placed")
    if placed is None:
        return "keep"
    hand = _hand_values(view)
    current = RANK_VALUE[placed[:-1]]
    candidates = [current, *sorted(hand)]
    means = evaluate(Round(view, _me(view), _mode(view)), candidates, rng, scenarios)
    best = max(range(len(candidates)), key=lambda i: means[i])
    if best == 0 or means[best] <= means[0] + SWAP_MARGIN:
        return "keep"
    return f"swap:{hand[candidates[best]]}"


def _policy(view: dict[str, Any], actions: list[Action], rng: Rand, scenarios: int) -> str:
    ids = {a.id for a in actions}
    phase = view["phase"]
    if phase == "negotiation":
        return _negotiate(view, ids)
    if phase == "declaration":
        if "claim:none" in ids:
            return f"claim:{best_card(view, rng, _mode(view), scenarios)[0][:-1]}"
        return _place(view, rng, scenarios)
    if phase == "swap":
        return _swap(view, rng, scenarios)
    return actions[0].id


def normal(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    """Ready at once; claim the card that scores best given the trusted claims; keep its word."""
    return _policy(view, actions, rng, SCENARIOS)


# -- Hard: the rest of the round played out in sampled worlds --------------------------------

WORLDS = 64  # sampled worlds per claim, every candidate tried in each (300 ms p99 budget)
RACE_WEIGHT = 0.2  # the race table's weight beside Normal's round value

# How a position after a round stands in the race to five, from the seat's point of view:
# (its score minus the leader's among the others, how many others share that lead) -> the
# chance to win it went on to have, measured over 2,000 four-Normal games (regenerate with
# bench/botbench/itemcollection.py, ``race_table``). One point behind is nearly lost.
RACE = {
    (-1, 1): 0.32,
    (-1, 2): 0.09,
    (-1, 3): 0.06,
    (0, 1): 0.78,
    (0, 2): 0.67,
    (0, 3): 0.62,
}
RACE_LAST_STEP = 0.88  # level with the leaders, one card from winning
RACE_AHEAD = 0.95  # ahead of every other player


def race_value(scores: list[int], me: int) -> float:
    """How good ``scores`` (by seat) are for seat ``me``: a win, a loss, or the race table."""
    if max(scores) >= WIN_SCORE:
        return 1.0 if scores[me] >= WIN_SCORE else 0.0
    others = [s for i, s in enumerate(scores) if i != me]
    lead = max(others)
    gap = scores[me] - lead
    if gap >= 1:
        return RACE_AHEAD
    if gap <= -2:
        return 0.0
    if gap == 0 and scores[me] == WIN_SCORE - 1:
        return RACE_LAST_STEP
    return RACE[(gap, others.count(lead))]


def sample_world(view: dict[str, Any], rng: Rand) -> ItemCollection:
    """A full game that agrees with everything the seat knows; hidden cards dealt at random.

    Each other player's cards are their suit minus what they scored. A face-down card is
    their claim as often as their claims have proved true, else one of those cards at
    random; the hand is a random draw of the rest, to its public size; the deck the others.
    """
    me = _me(view)
    players: list[str] = list(view["players"])
    placed_by = {d["player"] for d in view["declarations"] if d["placed"]}
    claims = {d["player"]: d["claim"] for d in view["declarations"]}
    hands: dict[str, list[str]] = {}
    decks: dict[str, list[str]] = {}
    face_down: dict[str, str] = {}
    for p in players:
        suit = view["suits"][p]
        pool = [r + suit for r in RANKS if r + suit not in view["scored"][p]]
        if p == me:
            hands[p] = list(view["hand"])
            if view.get("placed"):
                face_down[p] = view["placed"]
            deck = [c for c in pool if c not in hands[p] and c != face_down.get(p)]
            rng.shuffle(deck)
            decks[p] = deck
            continue
        rng.shuffle(pool)
        if p in placed_by:
            claim = claims.get(p)
            card = pool[0]
            # The claimed card, as often as this player's claims have proved true.
            if claim is not None and claim + suit in pool and rng.random() < trust(view, p):
                card = claim + suit
            pool.remove(card)
            face_down[p] = card
        size = view["hand_sizes"][p]
        hands[p], decks[p] = pool[:size], pool[size:]
    state = {
        "hands": hands,
        "decks": decks,
        "scored": {p: list(view["scored"][p]) for p in players},
        "round": view["round"],
        "starter": players.index(view["starting"]),
        "phase": view["phase"],
        "mode": view["mode"],
        "joker": view["joker"],
        "ready": list(view["ready"]),
        "decls": [
            {"player": d["player"], "claim": d["claim"], "card": face_down.get(d["player"])}
            for d in view["declarations"]
        ],
        "swapped": view["swap_used"],
        "revealed": view["revealed"],
        "claim_record": view.get("claim_record", {}),
    }
    data = {
        "kind": ItemCollection.kind,
        "players": players,
        "options": {},
        "rng": rng.randrange(1 << 62),
        "finished": False,
        "winners": [],
        "scores": dict(view["scores"]),
        "state": state,
    }
    game = ItemCollection.from_dict(data)
    assert isinstance(game, ItemCollection)
    return game


class _Table:
    """What the rollout players go by in one sampled world: trust and each player's kind."""

    def __init__(self, view: dict[str, Any], rng: Rand) -> None:
        self.players: list[str] = list(view["players"])
        self.trust = {p: trust(view, p) for p in self.players}
        # A player "joins claims" (plays like Normal) as often as they keep their claims.
        self.joins = {p: rng.random() < self.trust[p] for p in self.players}


def _last_reply(game: ItemCollection, player: str) -> str | None:
    """The last claimer's lowest card that scores with the claims made (taken as true)."""
    assert game.mode is not None
    claims = [RANK_VALUE.get(d["claim"] or "", 0) for d in game.decls]
    for card in sorted(game.hands[player], key=lambda c: RANK_VALUE[c[:-1]]):
        if len(claims) in scorers((*claims, RANK_VALUE[card[:-1]]), game.mode):
            return card
    return None


def _rollout_claim(game: ItemCollection, player: str, table: _Table, rng: Rand) -> str:
    """The card a rollout player places: the last claimer the lowest card that scores with
    the claims; others join the best-backed claim they hold, else play their most extreme
    card; a player who does not join claims places a random card."""
    hand = game.hands[player]
    if not table.joins[player]:
        return rng.choice(hand)
    if len(game.decls) == len(game.players) - 1 and all(d["claim"] for d in game.decls):
        reply = _last_reply(game, player)
        if reply is not None:
            return reply
    backing: dict[str, float] = {}
    for d in game.decls:
        if d["claim"] is not None:
            backing[d["claim"]] = backing.get(d["claim"], 0.0) + table.trust[d["player"]]
    best: str | None = None
    weight = 0.0
    for card in hand:
        w = backing.get(card[:-1], 0.0)
        if w > weight:
            best, weight = card, w
    if best is not None:
        return best
    pick = max if game.mode == "high" else min
    return pick(hand, key=lambda c: RANK_VALUE[c[:-1]])


def _act(game: ItemCollection, player: str, action_id: str) -> None:
    """Carry out a rollout move by the engine's own rules. The check that the id is legal is
    skipped (it lists every choice again): the rollout only builds legal ids."""
    game._legal_cache.clear()
    game._apply(player, Action(action_id, ""), None)


def rollout(game: ItemCollection, me: str, table: _Table, rng: Rand) -> None:
    """Play the sampled world to the end of this round through the engine."""
    start = game.round
    while not game.finished and game.round == start:
        if game.phase == "negotiation":
            _act(game, game.actors()[0], "ready")
            continue
        player = game.current()
        assert player is not None
        if game.phase == "swap":
            # Everyone keeps their word in a rollout: a claim is worth what it makes happen.
            _act(game, player, "keep")
        elif game.decls and game.decls[-1]["card"] is None:
            claim = game.decls[-1]["claim"]
            mine = [c for c in game.hands[player] if c[:-1] == claim]
            if mine and (player == me or table.joins[player]):
                _act(game, player, f"place:{mine[0]}")
            else:
                _act(game, player, f"place:{_rollout_claim(game, player, table, rng)}")
        elif player == me or table.joins[player]:
            _act(game, player, f"claim:{_rollout_claim(game, player, table, rng)[:-1]}")
        else:
            _act(game, player, rng.choice(CLAIMS).id)


def _point_value(before: list[int], after: list[int], me: int) -> float:
    """Normal's round value: a point, a win counted extra, another player's win a loss."""
    scored = after[me] > before[me]
    if max(after) >= WIN_SCORE:
        if after[me] >= WIN_SCORE:
            return 1.0 + WIN_BONUS
        return (1.0 if scored else 0.0) - LOSS_COST
    return 1.0 if scored else 0.0


def hard(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    """The claim and the swap chosen by playing the round out in sampled worlds."""
    ids = {a.id for a in actions}
    phase = view["phase"]
    if phase == "declaration" and "claim:none" in ids:
        candidates = [f"claim:{c[:-1]}" for c in view["hand"]]
    else:
        return normal(view, actions, rng)
    me = _me(view)
    seat = list(view["players"]).index(me)
    before = [view["scores"][p] for p in view["players"]]
    totals = [0.0] * len(candidates)
    for _ in range(WORLDS):
        world = sample_world(view, rng)
        table = _Table(view, rng)
        for i, action_id in enumerate(candidates):
            trial = world.copy()
            assert isinstance(trial, ItemCollection)
            trial.apply(me, action_id)
            rollout(trial, me, table, rng)
            after = [trial.scores[p] for p in trial.players]
            totals[i] += _point_value(before, after, seat) + RACE_WEIGHT * race_value(after, seat)
    best = max(range(len(candidates)), key=lambda i: totals[i])
    return candidates[best]


register(
    "itemcollection",
    GameBots(
        normal,
        hard,
        {
            "normal": (
                "Presses Ready at once, trusts each player's claims as often as they have "
                "kept them, places the card most likely to score with what was claimed, and "
                "claims it truthfully so others can join it."
            ),
            "hard": (
                "Plays like Normal but deals out the hidden hands in many possible ways and "
                "plays the round out for each of its cards before choosing."
            ),
        },
    ),
)
