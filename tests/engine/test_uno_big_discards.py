"""UNO custom rules 5 and 6 with hands too big to choose a discard from in one go.

A hand of more than ``DISCARD_AT_ONCE`` cards may discard in parts (one card or more each
time, never more than still owed); the player stays in the discard phase until the count is
met. A smaller hand discards exactly the count in one choice, as always, and a discard of the
whole count at once (every stored move log) is still accepted from any hand.
"""

from __future__ import annotations

import json
import random

import engine
import engine.bots
from engine import IllegalAction
from engine.games.uno import DISCARD_AT_ONCE, Uno
from engine.games.uno_cards import build_deck

NAMES = ["ann", "bob", "cat"]
ANN, BOB, CAT = NAMES


def dealt(rule: int, sizes: list[int], seed: int = 0) -> Uno:
    """A round in progress with a consistent deck: ann holds the Wild Custom card of
    ``rule`` plus cards up to ``sizes[0]``, the others hold ``sizes[i]`` cards, a Red 1 is
    on the pile, the rest is the draw pile; ann to play."""
    n = len(sizes)
    game = engine.new_game(
        "uno", NAMES[:n], seed=seed, options={"custom_wilds": 1, "custom_rules": str(rule)}
    )
    assert isinstance(game, Uno)
    deck = build_deck(False, [rule])
    deck.remove(f"WC{rule}")
    deck.remove("R1")
    random.Random(seed).shuffle(deck)
    hands = [[f"WC{rule}", *deck[: sizes[0] - 1]]]
    taken = sizes[0] - 1
    for size in sizes[1:]:
        hands.append(deck[taken : taken + size])
        taken += size
    data = game.to_dict()
    data["state"].update(
        h=[" ".join(h) for h in hands], d=" ".join(deck[taken:]), x="R1", c="R", t=0, ph="play"
    )
    loaded = engine.load(json.loads(json.dumps(data)))
    assert isinstance(loaded, Uno)
    return loaded


def discard_action(game: engine.Game, player: str) -> engine.Action:
    return next(a for a in game.legal_actions(player) if a.id == "discard")


def size(game: engine.Game, player: str) -> int:
    return int(game.view()["hand_sizes"][player])


def refused(game: engine.Game, player: str, action_id: str) -> None:
    before = json.dumps(game.to_dict(), sort_keys=True)
    try:
        game.apply(player, action_id)
    except IllegalAction:
        assert json.dumps(game.to_dict(), sort_keys=True) == before
        return
    raise AssertionError(f"{action_id} was accepted")


def test_a_big_hand_discards_down_to_three_in_parts() -> None:
    game = dealt(6, [31, 30])  # ann plays the Wild Custom #6: both keep 3
    game.apply(ANN, "play:WC6:G")
    assert game.view()["discarding"] == {ANN: 27, BOB: 27}
    act = discard_action(game, BOB)
    assert act.pick is not None and len(act.pick.options) == 30
    assert (act.pick.min, act.pick.max) == (1, 27)  # a part of one card or more
    refused(game, BOB, "discard:")
    refused(game, BOB, "discard:" + ".".join(act.pick.options[:28]))  # more than owed
    events = game.apply(BOB, "discard:" + ".".join(act.pick.options[:10]))
    assert "(17 more to discard)" in events[-1].public
    view = game.view()
    assert view["phase"] == "discard" and view["discarding"] == {ANN: 27, BOB: 17}
    assert size(game, BOB) == 20 and BOB in game.actors()
    # 20 cards now fit one choice: the 17 still owed, exactly, as for any small hand.
    act = discard_action(game, BOB)
    assert act.pick is not None and (act.pick.min, act.pick.max) == (17, 17)
    refused(game, BOB, "discard:" + ".".join(act.pick.options[:16]))
    game.apply(BOB, "discard:" + ".".join(act.pick.options[:17]))
    assert size(game, BOB) == 3 and game.view()["discarding"] == {ANN: 27}
    # ann, meanwhile, discards hers in parts (one of a single card) while her hand is big,
    # then the 21 still owed from the 24 cards left, at once.
    for part, big in ((3, True), (1, True), (2, True), (21, False)):
        act = discard_action(game, ANN)
        assert act.pick is not None and (act.pick.min == 1) == big
        game.apply(ANN, "discard:" + ".".join(act.pick.options[:part]))
    view = game.view()
    assert view["phase"] == "play" and view["discarding"] == {}
    assert view["hand_sizes"] == {ANN: 3, BOB: 3} and view["current"] == BOB


def test_a_big_hand_discards_down_to_seven_in_parts() -> None:
    game = dealt(5, [3, 40])  # the Wild Custom #5: bob keeps 7
    game.apply(ANN, "play:WC5:Y")
    assert game.view()["discarding"] == {BOB: 33} and game.actors() == [BOB]
    while game.view()["phase"] == "discard":
        act = discard_action(game, BOB)
        assert act.pick is not None and act.pick.max == game.view()["discarding"][BOB]
        # From the end of the hand (the wilds sort last): every card may be chosen.
        game.apply(BOB, "discard:" + ".".join(act.pick.options[-min(act.pick.max, 12) :]))
    view = game.view()
    assert view["hand_sizes"][BOB] == 7 and view["current"] == BOB and view["phase"] == "play"


def test_the_whole_count_at_once_is_still_a_discard_as_stored_logs_have_it() -> None:
    game = dealt(6, [31, 30])
    game.apply(ANN, "play:WC6:G")
    act = discard_action(game, BOB)
    assert act.pick is not None
    events = game.apply(BOB, "discard:" + ".".join(act.pick.options[3:]))
    assert events[-1].public.startswith("bob discards ") and "more to discard" not in (
        events[-1].public
    )
    assert size(game, BOB) == 3 and game.view()["discarding"] == {ANN: 27}


def test_a_hand_of_the_limit_or_fewer_discards_exactly_the_count() -> None:
    game = dealt(6, [DISCARD_AT_ONCE + 1, DISCARD_AT_ONCE])
    game.apply(ANN, "play:WC6:B")
    act = discard_action(game, BOB)
    assert act.pick is not None and len(act.pick.options) == DISCARD_AT_ONCE
    k = DISCARD_AT_ONCE - 3
    assert (act.pick.min, act.pick.max) == (k, k)
    refused(game, BOB, "discard:" + ".".join(act.pick.options[: k - 1]))


def test_a_discard_in_parts_survives_a_save_and_replays_identically() -> None:
    moves: list[tuple[str, str]] = [(ANN, "play:WC6:R")]
    game = dealt(6, [31, 30, 28], seed=3)
    start = json.loads(json.dumps(game.to_dict()))
    game.apply(*moves[0])
    rng = random.Random(5)
    while game.view()["phase"] == "discard":
        player = rng.choice(game.actors())
        act = discard_action(game, player)
        assert act.pick is not None
        chosen = rng.sample(act.pick.options, rng.randint(act.pick.min, act.pick.max))
        move = f"discard:{'.'.join(chosen)}"
        saved = engine.load(json.loads(json.dumps(game.to_dict())))
        game.apply(player, move)
        saved.apply(player, move)
        assert saved.to_dict() == game.to_dict()
        moves.append((player, move))
    assert len(moves) > 4  # some discards were made in parts
    assert set(game.view()["hand_sizes"].values()) == {3}
    replayed = engine.load(start)
    for player, move in moves:
        replayed.apply(player, move)
    assert replayed.to_dict() == game.to_dict()


def test_bots_and_the_timeout_policy_discard_all_they_owe_at_once() -> None:
    for level in ("normal", "hard"):
        game = dealt(6, [31, 30, 28], seed=4)
        game.apply(ANN, "play:WC6:R")
        for player in list(game.actors()):
            owed = game.view()["discarding"][player]
            action = engine.bots.choose(
                "uno",
                level,
                game.view(player),
                game.legal_actions(player),
                random.Random(1),
            )
            assert action.startswith("discard:") and len(action.split(":")[1].split(".")) == owed
            game.apply(player, action)
        assert game.view()["phase"] == "play"
        assert set(game.view()["hand_sizes"].values()) == {3}


def test_bots_finish_a_discard_a_person_began_in_parts() -> None:
    game = dealt(5, [3, 40])
    game.apply(ANN, "play:WC5:R")
    act = discard_action(game, BOB)
    assert act.pick is not None
    game.apply(BOB, "discard:" + ".".join(act.pick.options[:5]))  # then the timer runs out
    action = engine.bots.choose(
        "uno", "normal", game.view(BOB), game.legal_actions(BOB), random.Random(1)
    )
    game.apply(BOB, action)
    assert size(game, BOB) == 7 and game.view()["phase"] == "play"
