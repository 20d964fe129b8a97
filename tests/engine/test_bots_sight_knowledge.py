"""What a seat knows and the bots use: Haymaker's cards given away on a hit.

A defender who takes a hit is told privately which cards it gave ("You gave ..."): it knows
the attacker holds them until they are played. Before, Hard's sampled deals ignored this and
put those cards in the deck or the burned pile (34 of 70 worlds in this test): not a leak, but
worlds that could not be, and a weaker Hard. The view now tells the giver (``known``).
"""

from __future__ import annotations

import random

import engine
import engine.bots.haymaker as hay_bots
from engine.bots import choose

PLAYERS = ["ann", "bea"]


def test_haymaker_worlds_keep_the_cards_the_seat_gave_in_the_attackers_hand() -> None:
    checked = misplaced = 0
    example = None
    for seed in range(6):
        game = engine.new_game("haymaker", PLAYERS, seed=seed)
        rng = random.Random(seed)
        gave: dict[str, set[str]] = {p: set() for p in PLAYERS}  # cards p handed over
        while not game.finished:
            player = game.actors()[0]
            other = next(p for p in PLAYERS if p != player)
            view, actions = game.view(player), game.legal_actions(player)
            still = {c for c in gave[player] if c in game.hands[other]}  # type: ignore[attr-defined]
            assert sorted(view["known"][other]) == sorted(still)
            if still and len(actions) > 1:
                sample = hay_bots.world_sampler(view)
                worlds = random.Random(seed)
                for _ in range(10):
                    world = sample(view, worlds)
                    checked += 1
                    lost = still - set(world.hands[other])  # type: ignore[attr-defined]
                    if lost:
                        misplaced += 1
                        example = example or (seed, player, sorted(lost))
            action = choose("haymaker", "normal", view, actions, rng)
            before = list(game.hands[player])  # type: ignore[attr-defined]
            events = game.apply(player, action)
            if action == "hit" and not game.finished:
                given = set(before) - set(game.hands[player])  # type: ignore[attr-defined]
                assert any("You gave" in e.private.get(player, "") for e in events)
                gave[player] |= given
    assert checked >= 20
    assert misplaced == 0, (
        f"{misplaced} of {checked} sampled worlds dealt cards the seat itself gave away "
        f"(e.g. seed {example[0]}: {example[1]} gave {example[2]}) into the deck or burned pile"
    )


def test_only_the_giver_is_told_what_it_gave() -> None:
    """``known`` is private: the public view has none, and the receiver's names nothing."""
    for seed in range(20):
        game = engine.new_game("haymaker", PLAYERS, seed=seed)
        rng = random.Random(seed)
        while not game.finished:
            player = game.actors()[0]
            game.apply(
                player,
                choose("haymaker", "normal", game.view(player), game.legal_actions(player), rng),
            )
            if any(game.view(p)["known"][q] for p in PLAYERS for q in PLAYERS if q != p):
                assert "known" not in game.view()
                giver = next(p for p in PLAYERS if any(game.view(p)["known"].values()))
                receiver = next(p for p in PLAYERS if p != giver)
                cards = game.view(giver)["known"][receiver]
                assert set(cards) <= set(game.view(receiver)["hand"])
                return
    raise AssertionError("no hit gave cards in 20 games")
