"""Bots choose only legal moves, and no plainly bad ones, in every phase of every game.

Seeded games with a bot in every seat (Normal and Hard mixed), with each game's rare phases
counted so the playouts are known to reach them: UNO's challenge, colour pick, stacking,
seven-zero, Wild Swap Hands, custom wilds' discards, jump-ins and catches; War of Suits' ties
and Ace answers; Item Collection's negotiation and swap; Haymaker's haymakers and blocks;
I Have It's restricted leads. Every chosen id is applied by the engine (an illegal one
raises). Plainly bad moves checked along the way: an UNO bot that could play its last card
and does not, or leaves itself open to a catch; an I Have It decline while an answer is
possible; a Haymaker hit that knocks the bot out while a block is possible; a War of Suits
Ace sent first while another card could go.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import engine
import engine.bots.haymaker as hay_bots
import engine.bots.ihaveit as ihi_bots
import engine.bots.itemcollection as ic_bots
import engine.bots.uno as uno_bots
import engine.bots.warofsuits as wos_bots
from engine.bots import LEVELS, choose
from engine.core import Game
from engine.games.uno_cards import build_deck

NAMES = ["ann", "bea", "cid", "dot", "eve"]


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Legality does not depend on how many worlds Hard searches; its candidates do not
    change with the budget."""
    monkeypatch.setattr(uno_bots, "HARD_MOVES", 300)
    monkeypatch.setattr(uno_bots, "MIN_WORLDS", 3)
    monkeypatch.setattr(wos_bots, "HARD_ROLLOUTS", 24)
    monkeypatch.setattr(hay_bots, "HARD_ROLLOUTS", 24)
    monkeypatch.setattr(ihi_bots, "MOVE_BUDGET", 150)
    monkeypatch.setattr(ihi_bots, "MIN_DEALS", 3)
    monkeypatch.setattr(ic_bots, "WORLDS", 6)


def play(
    kind: str,
    levels: list[str],
    seed: int,
    options: dict[str, Any] | None,
    seen: Counter[str],
    check: Any,
) -> Game:
    """A whole game with a bot in every seat; ``check(game, player, view, actions, choice)``
    runs before each move and returns tags to count."""
    names = NAMES[: len(levels)]
    game = engine.new_game(kind, names, seed=seed, options=options)
    order = random.Random(seed)
    for step in range(20_000):
        if game.finished:
            break
        able = [p for p in game.actors() if game.legal_actions(p)]
        assert able, f"{kind}: nobody can act"
        player = order.choice(able)
        view, actions = game.view(player), game.legal_actions(player)
        level = levels[names.index(player)]
        action = choose(kind, level, view, actions, random.Random(seed * 100_003 + step))
        seen[f"phase:{view.get('phase')}"] += 1
        for tag in check(game, player, view, actions, action, level):
            seen[tag] += 1
        game.apply(player, action)  # an illegal id raises IllegalAction
    assert game.finished, f"{kind} seed {seed} did not finish"
    return game


# -- UNO --------------------------------------------------------------------------------------
def uno_check(
    game: Game, player: str, view: dict[str, Any], actions: list[Any], action: str, level: str
) -> list[str]:
    tags = []
    plays = [a.id for a in actions if a.id.startswith(("play:", "play+uno:"))]
    if view["current"] != player and plays:
        tags.append("jump-in offered")
    if action.startswith("catch:"):
        tags.append("catch")
    if any(a.id.startswith("play:WS:") for a in actions):
        tags.append("swap hands offered")
    if any(a.id.count(":") == 2 and a.id.split(":")[1][1:] == "7" for a in actions):
        tags.append("seven offered")
    if len(view["hand"]) == 1 and plays:
        tags.append("last card playable")
        assert action in plays, (
            f"uno {level}: {player} could play its last card ({plays[0]}) and go out, "
            f"but chose {action!r}"
        )
    if action.startswith("play:") and len(view["hand"]) == 2:
        assert f"play+uno:{action[5:]}" not in {a.id for a in actions}, (
            f"uno {level}: {player} played its next-to-last card without calling UNO"
        )
    return tags


UNO_GAMES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {"stack_draws": True, "jump_in": True}),
    (3, {"seven_zero": True, "swap_hands": True, "draw_until_playable": True}),
    (4, {"custom_wilds": 3, "custom_rules": "5,6,7", "forced_play": True, "swap_hands": True}),
    (3, {"custom_wilds": 3, "custom_rules": "1,2,3", "scoring": "lowest", "jump_in": True}),
    (4, {"custom_wilds": 2, "custom_rules": "4,6", "seven_zero": True, "stack_draws": True}),
]


@pytest.mark.parametrize("mix", range(len(UNO_GAMES)))
def test_uno_bots_move_legally_and_go_out_when_they_can(mix: int) -> None:
    n, options = UNO_GAMES[mix]
    seen: Counter[str] = Counter()
    for seed in range(3):
        levels = [LEVELS[(i + seed) % 2] for i in range(n)]
        play("uno", levels, 40 + mix * 7 + seed, {**options, "target": 150}, seen, uno_check)
    assert seen["phase:challenge"] and seen["phase:drawn"], seen
    if options.get("stack_draws"):
        assert seen["phase:stack"], seen
    if options.get("jump_in"):
        assert seen["jump-in offered"], seen
    if options.get("seven_zero"):
        assert seen["seven offered"], seen
    if options.get("swap_hands"):
        assert seen["swap hands offered"], seen
    if "5" in options.get("custom_rules", "") or "6" in options.get("custom_rules", ""):
        assert seen["phase:discard"], seen


def uno_table(hands: list[list[str]], top: str, options: dict[str, Any]) -> Game:
    """A round in progress, ann to play, the cards not placed forming the draw pile."""
    game = engine.new_game("uno", NAMES[: len(hands)], seed=0, options=options)
    rest = Counter(build_deck(game.config["swap_hands"], game.custom))  # type: ignore[attr-defined]
    rest.subtract([c for h in hands for c in h] + [top])
    draw = sorted(rest.elements())
    random.Random(0).shuffle(draw)
    data = game.to_dict()
    data["state"].update(
        {
            "h": [" ".join(h) for h in hands],
            "d": " ".join(draw),
            "x": top,
            "c": top[0],
            "v": 1,
            "t": 0,
            "ph": "play",
        }
    )
    return engine.load(json.loads(json.dumps(data)))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("options", "last"),
    [({"seven_zero": True}, "R7"), ({"seven_zero": True}, "R0"), ({"swap_hands": True}, "WS")],
    ids=["seven", "zero", "wild-swap"],
)
def test_uno_bot_plays_its_last_card_even_when_it_swaps_hands(
    level: str, options: dict[str, Any], last: str
) -> None:
    """Playing the last card ends the round before any swap happens: drawing instead (what a
    timed-out member's Normal bot does too) throws away a won round."""
    game = uno_table(
        [[last], ["B1", "B2", "G3", "G4", "Y5"], ["B6", "G7", "Y8", "Y9", "G1"]], "R5", options
    )
    actions = game.legal_actions("ann")
    action = choose("uno", level, game.view("ann"), actions, random.Random(1))
    trial = game.copy()
    trial.apply("ann", action)
    assert trial.view()["last_round"] is not None, f"{level} chose {action!r} instead of going out"


# -- I Have It ---------------------------------------------------------------------------------
def ihaveit_check(
    game: Game, player: str, view: dict[str, Any], actions: list[Any], action: str, level: str
) -> list[str]:
    tags = []
    if view["restricted"]:
        tags.append("restricted lead")
    if view["known"]:
        tags.append("known cards")
    if view["phase"] == "answer" and len(actions) > 1:
        assert action != "decline", f"ihaveit {level}: declined with an answer in hand"
    return tags


def test_ihaveit_bots_move_legally() -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        levels = ["hard", "normal", "normal"][seed:] + ["hard", "normal", "normal"][:seed]
        play("ihaveit", levels, 300 + seed, None, seen, ihaveit_check)
    assert seen["restricted lead"] and seen["known cards"] and seen["phase:answer"], seen


# -- A War of Suits ----------------------------------------------------------------------------
def warofsuits_check(
    game: Game, player: str, view: dict[str, Any], actions: list[Any], action: str, level: str
) -> list[str]:
    if view["phase"] == "choose":
        cards = [a.id.split(":")[1] for a in actions]
        if any(not c.startswith("A") for c in cards):
            assert not action.split(":")[1].startswith("A"), (
                f"warofsuits {level}: sent an Ace first while it held {cards}"
            )
    return [f"double {level}"] if action.startswith("double:") else []


def test_warofsuits_bots_move_legally() -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        levels = ["hard", "normal"] if seed % 2 else ["normal", "hard"]
        play("warofsuits", levels, 400 + seed, None, seen, warofsuits_check)
    assert seen["phase:tie"] and seen["phase:answer"] and seen["phase:react"], seen


# -- Item Collection ---------------------------------------------------------------------------
def itemcollection_check(
    game: Game, player: str, view: dict[str, Any], actions: list[Any], action: str, level: str
) -> list[str]:
    tags = []
    if action in ("high", "low"):
        tags.append("mode set")
    if view["phase"] == "declaration" and action.startswith("place:"):
        claim = next(d["claim"] for d in view["declarations"] if d["player"] == player)
        held = [c for c in view["hand"] if claim is not None and c[:-1] == claim]
        if held:
            assert action[6:-1] == claim, f"itemcollection {level}: broke its own claim"
    return tags


def test_itemcollection_bots_move_legally() -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        levels = [LEVELS[(i + seed) % 2] for i in range(4)]
        play("itemcollection", levels, 500 + seed, None, seen, itemcollection_check)
    assert seen["mode set"] and seen["phase:swap"] and seen["phase:negotiation"], seen


# -- Haymaker ----------------------------------------------------------------------------------
def haymaker_check(
    game: Game, player: str, view: dict[str, Any], actions: list[Any], action: str, level: str
) -> list[str]:
    tags = []
    if action.startswith("haymaker:"):
        tags.append("haymaker")
    if action.startswith("block:"):
        tags.append("block")
    if view["phase"] == "defend" and action == "hit":
        need = 2 if view["attack"]["haymaker"] else 1
        if len(view["hand"]) < need:
            assert not any(a.id == "block" for a in actions), (
                f"haymaker {level}: took a knockout hit while it could block"
            )
    return tags


def test_haymaker_bots_move_legally() -> None:
    seen: Counter[str] = Counter()
    for seed in range(6):
        levels = ["hard", "normal"] if seed % 2 else ["normal", "hard"]
        play("haymaker", levels, 600 + seed, None, seen, haymaker_check)
    assert seen["haymaker"] and seen["block"], seen


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("first", "seed"), [("W", 0), ("WS", 8)])
def test_uno_bot_never_names_a_colour_it_lacks_for_a_wild_first_card(
    level: str, first: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rare ``color`` phase: the first discard is a Wild (or a Wild Swap Hands) and the
    player left of the dealer names the colour, then plays at once. Naming a colour it holds
    none of (here yellow) forces a draw when any other colour would let it play. Hard runs
    at its real budget here (the pinned seed is a case its search gets wrong)."""
    monkeypatch.setattr(uno_bots, "HARD_MOVES", 5000)
    monkeypatch.setattr(uno_bots, "MIN_WORLDS", 8)
    from engine.testing import stacked

    deck = build_deck(True, [])
    deck.remove(first)
    hand = ["G1", "G2", "G3", "R4", "R5", "B6", "B7"]  # no yellow, no wild
    for c in hand:
        deck.remove(c)
    random.Random(seed).shuffle(deck)
    top: list[str] = []
    for i in range(7):  # dealt one at a time from seat 1 (left of the dealer, seat 0)
        top += [hand[i], deck.pop(0), deck.pop(0)]
    names = NAMES[:3]
    game = stacked("uno", names, [*top, first, *deck], options={"swap_hands": True})
    view = game.view(names[1])
    assert view["phase"] == "color" and sorted(view["hand"]) == sorted(hand)
    action = choose("uno", level, view, game.legal_actions(names[1]), random.Random(seed))
    game.apply(names[1], action)
    assert action != "color:Y", f"{level} named yellow holding no yellow card"
