"""Bots for Haymaker.

Normal (a heuristic a player can follow):
- defending: blocks when the block is a reversal (it equals the attack, or the attack was a
  haymaker, or the attacker has no card left) and costs few cards, using the fewest and lowest
  cards that do it; else blocks with one card when one is enough; else takes the hit, unless
  the hit would knock it out;
- attacking: any attack on an empty hand; a haymaker only when the defender cannot block it
  whatever it holds (its hand size times the best unseen cards), choosing the suit that gets
  there with the fewest cards: a blocked haymaker is a reversal, so a haymaker that can be
  blocked only hands over the attack; else the single card the fewest unseen cards can block
  or match exactly; passes with its last card (which would make any block a reversal) or
  with nothing to attack with.

Hard: determinized Monte Carlo. Each sampled world deals the opponent's hand, the deck and the
burned cards at random from the cards this seat has not seen (the 40 cards less its hand, both
discard piles and the attack on the table), the opponent's hand within what its public moves
suggest it holds (``opponent_bounds``); a handful of candidate moves are each tried in a
copy of the same world and played on with the Normal policy for both players for ``HORIZON``
moves, then judged by ``win_chance`` (a logistic estimate of who wins from the cards held).
The comparison is paired, world by world, and Normal's own move is kept unless another beats
it by more than a standard error.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

from engine.bots.base import GameBots, Rand, pick_id
from engine.bots.registry import register
from engine.bots.search import SampleWorld, paired_best, saved_game
from engine.cards import suit, value
from engine.core import Action, Game
from engine.games.haymaker import HAND_SIZE, Haymaker, full_deck

# -- tuning (measured with bench/botbench/haymaker.py) ---------------------------------------
REVERSAL_CARDS = 2  # most cards a reversal may cost against a single-card attack
HARD_ROLLOUTS = 150  # sampled worlds x candidates per Hard decision (p99 under 300 ms)
MAX_COMBINATIONS = 1500  # blocks tried at most when looking for the cheapest one
HORIZON = 8  # moves a rollout plays before the position is judged by ``win_chance``
# win_chance's logistic weights (see there)
EVAL_BIAS, EVAL_CARDS, EVAL_VALUES, EVAL_PASS, EVAL_DISCARDS = 0.38, 1.19, 1.57, 0.64, 0.43
BELIEVE_HITS = True  # a defender who takes the hit holds no single card that would block it
ATTACK_SLACK = 2  # an attacker's other cards are believed at most this much above its attack

FULL_DECK = full_deck()
VALUE = {c: value(c) for c in FULL_DECK}  # a dict lookup: rollouts call this a lot


def strength(cards: list[str] | tuple[str, ...]) -> int:
    return sum(VALUE[c] for c in cards)


def by_suit(hand: list[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for c in hand:
        groups.setdefault(suit(c), []).append(c)
    return groups


def me_of(view: dict[str, Any]) -> str:
    """The seat whose view this is: the only actor (Haymaker has one actor at a time)."""
    return str(view["actors"][0])


def known_of(view: dict[str, Any], other: str) -> list[str]:
    """Cards this seat knows ``other`` holds: those it gave them on a hit."""
    return list(view.get("known", {}).get(other, []))


def unseen(view: dict[str, Any]) -> list[str]:
    """Cards this seat has not seen: the opponent's hand, the deck and the burned cards (the
    cards it gave the opponent on a hit count as unseen here: they are in play)."""
    seen = set(view["hand"])
    for pile in view["discard_piles"].values():
        seen.update(pile)
    if view["attack"] is not None:
        seen.update(view["attack"]["cards"])
    return [c for c in FULL_DECK if c not in seen]


# -- blocks ----------------------------------------------------------------------------------
def top_first(cards: tuple[str, ...]) -> list[int]:
    """The values of ``cards``, highest first: comparing these prefers lower top cards."""
    return sorted((VALUE[c] for c in cards), reverse=True)


def cheapest_block(hand: list[str], need: int) -> tuple[str, ...] | None:
    """The block with the fewest cards reaching ``need``, then the lowest total (keeps the
    strong cards)."""
    ordered = sorted(hand, key=VALUE.__getitem__, reverse=True)
    total = 0
    for size, card in enumerate(ordered, start=1):
        total += VALUE[card]
        if total >= need:
            pool = hand
            if math.comb(len(hand), size) > MAX_COMBINATIONS:
                # A huge hand: the best block is almost surely among its top and bottom cards.
                pool = ordered[: size + 3] + ordered[-3:]
            options = [c for c in combinations(pool, size) if strength(c) >= need]
            return min(options, key=lambda c: (strength(c), top_first(c)))
    return None


def exact_block(hand: list[str], need: int, most: int) -> tuple[str, ...] | None:
    """The block of at most ``most`` cards adding up to exactly ``need`` (a reversal), with the
    fewest cards, then the lowest top card."""
    for size in range(1, min(most, len(hand)) + 1):
        options = [c for c in combinations(hand, size) if strength(c) == need]
        if options:
            return min(options, key=top_first)
    return None


# -- the Normal policy -----------------------------------------------------------------------
def normal(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    if len(actions) == 1 and actions[0].pick is None:
        return actions[0].id
    if view["phase"] == "defend":
        return defend(view, actions)
    return attack(view, actions)


def defend(view: dict[str, Any], actions: list[Action]) -> str:
    block = next((a for a in actions if a.id == "block"), None)
    if block is None:
        return "hit"
    hand = list(view["hand"])
    attack_info = view["attack"]
    need = attack_info["strength"]
    haymaker = attack_info["haymaker"]
    cost = 2 if haymaker else 1  # cards a hit gives away
    knocked_out = len(hand) < cost
    attacker_empty = view["hand_sizes"][view["attacker"]] == 0
    if haymaker or attacker_empty:
        # Any block reverses: worth it unless it costs far more than the hit.
        cheap = cheapest_block(hand, need)
        if cheap is not None and (knocked_out or len(cheap) <= cost + REVERSAL_CARDS):
            return pick_id(block, cheap)
        return "hit"
    exact = exact_block(hand, need, REVERSAL_CARDS)
    if exact is not None:
        return pick_id(block, exact)
    singles = [c for c in hand if value(c) >= need]
    if singles:
        return pick_id(block, [min(singles, key=value)])
    if knocked_out:
        cheap = cheapest_block(hand, need)
        if cheap is not None:
            return pick_id(block, cheap)
    return "hit"


def attack(view: dict[str, Any], actions: list[Action]) -> str:
    other = view["defender"]
    hand = list(view["hand"])
    can_pass = any(a.id == "pass" for a in actions)
    hay = next((a for a in actions if a.id == "haymaker"), None)
    if not hand:
        return "pass"
    their = view["hand_sizes"][other]
    if their == 0:
        return f"attack:{min(hand, key=value)}"  # any attack knocks out an empty hand
    pool = unseen(view)
    if hay is not None:
        sure = unblockable_haymaker(hand, pool, their)
        if sure is not None:
            return pick_id(hay, sure)
    if len(hand) == 1 and can_pass and view["deck"] > 0:
        return "pass"  # my last card would make any block a reversal
    return f"attack:{best_single(hand, pool)}"


def unblockable_haymaker(hand: list[str], pool: list[str], their: int) -> list[str] | None:
    """The fewest cards of one suit adding up to more than any block the defender could hold.

    ``pool`` is every card the defender might hold; its ``their`` best cards are the
    strongest block possible. Such a haymaker costs the defender two cards (or knocks it out).
    Among suits that can do it, the one needing the fewest cards, then the weakest such
    haymaker (the strong cards stay for later).
    """
    best_block = sum(sorted((VALUE[c] for c in pool), reverse=True)[:their])
    options = []
    for cards in by_suit(hand).values():
        ordered = sorted(cards, key=VALUE.__getitem__, reverse=True)
        total = 0
        for size, card in enumerate(ordered, start=1):
            total += VALUE[card]
            if size >= 2 and total > best_block:
                options.append(ordered[:size])
                break
    if not options:
        return None
    return min(options, key=lambda cards: (len(cards), strength(cards)))


def best_single(hand: list[str], pool: list[str]) -> str:
    """The single attack the defender is least able to answer cheaply: a high card, unless
    many unseen cards match it exactly (a one-card reversal)."""
    counts = [0] * 11  # unseen cards by value
    for c in pool:
        counts[VALUE[c]] += 1

    def score(card: str) -> tuple[int, int]:
        v = VALUE[card]
        # Fewest unseen cards that block it, an exact match counting twice; then the lower.
        return (-(sum(counts[v:]) + counts[v]), -v)

    return max(hand, key=score)


# -- the Hard policy -------------------------------------------------------------------------
def hard(view: dict[str, Any], actions: list[Action], rng: Rand) -> str:
    if len(actions) == 1 and actions[0].pick is None:
        return actions[0].id
    favourite = normal(view, actions, rng)
    candidates = candidate_moves(view, actions, favourite)
    if len(candidates) == 1:
        return favourite
    return paired_best(
        me_of(view),
        view,
        candidates,
        rng,
        sample_world=world_sampler(view),
        rollout=rollout,
        value=outcome,
        rollouts=HARD_ROLLOUTS,
    )


def candidate_moves(view: dict[str, Any], actions: list[Action], favourite: str) -> list[str]:
    """A handful of sensible moves, the heuristic's favourite first."""
    out = [favourite]
    hand = list(view["hand"])

    def add(action_id: str) -> None:
        if action_id not in out:
            out.append(action_id)

    by_id = {a.id: a for a in actions}
    if view["phase"] == "defend":
        block = by_id.get("block")
        add("hit")
        if block is not None:
            need = view["attack"]["strength"]
            for found in (exact_block(hand, need, 3), cheapest_block(hand, need)):
                if found is not None:
                    add(pick_id(block, found))
            singles = [c for c in hand if value(c) >= need]
            if singles:
                add(pick_id(block, [min(singles, key=value)]))
        return out
    distinct: dict[int, str] = {}
    for c in sorted(hand, key=value):
        distinct.setdefault(value(c), c)
    singles = list(distinct.values())
    # The extremes and the middle: cards of one value attack alike, and the search budget is
    # better spent on a few moves than spread over every card.
    if singles:
        for c in [*singles[:2], singles[len(singles) // 2], *singles[-2:]]:
            add(f"attack:{c}")
    hay = by_id.get("haymaker")
    if hay is not None:
        for cards in by_suit(hand).values():
            if len(cards) >= 2:
                ordered = sorted(cards, key=value, reverse=True)
                add(pick_id(hay, ordered[:2]))
                if len(ordered) > 2:
                    add(pick_id(hay, ordered))
    if "pass" in by_id:
        add("pass")
    return out


def sample_world(view: dict[str, Any], rng: Rand) -> Game:
    """A complete game that agrees with the view (see ``world_sampler``)."""
    return world_sampler(view)(view, rng)


def world_sampler(view: dict[str, Any]) -> SampleWorld:
    """Deals complete games that agree with the view: the opponent's hand (within
    ``opponent_bounds``), the deck and the burned cards at random from the cards this seat has
    not seen. What the view tells is worked out once, for every world dealt."""
    me = me_of(view)
    players = list(view["players"])
    other = next(p for p in players if p != me)
    known = known_of(view, other)  # in their hand for sure: dealt only the rest
    unseen_cards = [c for c in unseen(view) if c not in known]
    n_their = view["hand_sizes"][other] - len(known)
    n_deck = view["deck"]
    bounds = opponent_bounds(view, other)
    if bounds is not None and len(bounds) != n_their + len(known):
        bounds = None
    if bounds is not None:
        for card in known:  # each known card takes the tightest bound it meets
            fits = [b for b in bounds if b >= VALUE[card]]
            bounds.remove(min(fits) if fits else max(bounds))
    attack_info = view["attack"]
    public = {
        "dealer": view["dealer"],
        "attacker": view["attacker"],
        "phase": view["phase"],
        "attack": [] if attack_info is None else list(attack_info["cards"]),
        "haymaker": False if attack_info is None else bool(attack_info["haymaker"]),
        "attacked_last": view["attacked_last"],
        "result": view["result"],
    }

    def deal(_: dict[str, Any], rng: Rand) -> Game:
        pool = list(unseen_cards)
        rng.shuffle(pool)
        if bounds is not None:
            their = deal_within(pool, bounds, rng)
            pool = their + [c for c in pool if c not in their]
        state = {
            **public,
            "attack": list(public["attack"]),
            "hands": {me: list(view["hand"]), other: known + pool[:n_their]},
            "deck": pool[n_their : n_their + n_deck],
            "burned": pool[n_their + n_deck :],
            "discards": {p: list(view["discard_piles"][p]) for p in players},
        }
        data = saved_game("haymaker", view, state, rng)
        return Haymaker.from_dict(data)

    return deal


def opponent_bounds(view: dict[str, Any], other: str) -> list[int] | None:
    """The highest value each card in ``other``'s hand is believed to have, from the public
    history (what a player who watched every move would guess).

    One bound per card held, tracked from the deal: a card drawn or received may be anything
    (10); a card played leaves (the one with the lowest bound that allows it); a player who
    takes the hit against a single card held nothing that blocks it alone (a sensible defender
    blocks with one card when one is enough), so every bound drops below the attack; a player
    who attacks with a single card keeps little far above it (``ATTACK_SLACK``). None when the
    history does not add up (then the hand is dealt without bounds).
    """
    history = view.get("history")
    if history is None:
        return None
    bounds = [10] * HAND_SIZE
    last_attack: dict[str, Any] | None = None
    for entry in history:
        move = entry["move"]
        mine = entry["player"] == other
        if move in ("attack", "haymaker"):
            last_attack = entry
        if move == "draw" and mine:
            bounds.append(10)
        elif move in ("attack", "haymaker", "block") and mine:
            for card in entry["cards"]:
                fits = [b for b in bounds if b >= VALUE[card]]
                if not bounds:
                    return None
                bounds.remove(min(fits) if fits else max(bounds))
            if move == "attack":
                # It attacked with one of its best cards: little it keeps is much higher.
                top = VALUE[entry["cards"][0]] + ATTACK_SLACK
                bounds = [min(b, top) for b in bounds]
        elif move == "hit":
            given = entry["given"]
            if mine:
                if BELIEVE_HITS and last_attack is not None and last_attack["move"] == "attack":
                    below = VALUE[last_attack["cards"][0]] - 1
                    bounds = [min(b, below) for b in bounds]
                bounds.sort()
                if given > len(bounds):
                    return None
                del bounds[len(bounds) - given :]  # given at random: drop the loosest
            else:
                bounds += [10] * given
    return sorted(bounds)


def deal_within(pool: list[str], bounds: list[int], rng: Rand) -> list[str]:
    """Cards for a hand with these value bounds (tightest first), from a shuffled ``pool``;
    a bound no unseen card meets any more is ignored."""
    left = list(pool)
    hand = []
    for bound in sorted(bounds):
        fits = [c for c in left if VALUE[c] <= bound] or left
        card = fits[rng.randrange(len(fits))]
        left.remove(card)
        hand.append(card)
    return hand


def rollout(game: Game, rng: Rand) -> None:
    """Plays a sampled world on with the Normal policy for both players: at least
    ``HORIZON`` moves, then to the start of the next attack (or to the end of the game)."""
    assert isinstance(game, Haymaker)
    moves = 0
    while not game.finished and (moves < HORIZON or game.phase != "attack"):
        player = game.actors()[0]
        actions = game.legal_actions(player)
        game.apply(player, normal(fast_view(game, player), actions, rng))
        moves += 1


def fast_view(game: Haymaker, player: str) -> dict[str, Any]:
    """The keys of ``view(player)`` the Normal policy reads, built cheaply in a sampled world."""
    attack_cards = game.attack
    return {
        "phase": game.phase,
        "actors": [player],
        "hand": game.hands[player],
        "attack": {
            "cards": attack_cards,
            "strength": strength(attack_cards),
            "haymaker": game.haymaker,
        }
        if attack_cards
        else None,
        "hand_sizes": {p: len(h) for p, h in game.hands.items()},
        "attacker": game.attacker,
        "defender": game.defender,
        "deck": len(game.deck),
        "discard_piles": game.discards,
    }


def outcome(game: Game, player: str) -> float:
    """``player``'s chance to win: 1 or 0 (a draw 0.5) once the game is over, else the
    estimate of ``win_chance``."""
    assert isinstance(game, Haymaker)
    if game.finished:
        return 0.5 if not game.winners else 1.0 if player in game.winners else 0.0
    chance = win_chance(game)
    return chance if player == game.attacker else 1.0 - chance


def win_chance(game: Haymaker) -> float:
    """The attacker's chance to win at the start of an attack.

    A logistic fit on 43,000 such positions of Normal against Normal (seeds 0-2999): the
    difference in cards held counts most, then the difference in their values, the right to
    pass and the discard piles (which decide a game where both hands run out).
    """
    a, d = game.attacker, game.defender
    mine, theirs = game.hands[a], game.hands[d]
    z = (
        EVAL_BIAS
        + EVAL_CARDS * (len(mine) - len(theirs))
        + EVAL_VALUES * (strength(mine) - strength(theirs)) / 10
        + EVAL_PASS * (game.attacked_last == a)
        + EVAL_DISCARDS * (len(game.discards[a]) - len(game.discards[d])) / 10
    )
    return 1.0 / (1.0 + math.exp(-z))


register(
    "haymaker",
    GameBots(
        normal,
        hard,
        {
            "normal": (
                "Blocks when the block turns the fight around, otherwise blocks with one card "
                "or takes the hit; attacks with the cards you are least likely to block, and "
                "throws a haymaker from the right suit when you cannot stop it."
            ),
            "hard": (
                "Imagines the cards you may hold from everything already played, plays its "
                "options a few turns ahead in many such deals, and only leaves the Normal "
                "move when another clearly does better."
            ),
        },
    ),
)
