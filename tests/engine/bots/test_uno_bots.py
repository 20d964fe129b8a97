"""UNO bots: the heuristic's named behaviours, honesty, complete games, the search's pieces.

Positions are built with ``table()``: chosen hands and discard pile, and the rest of the real
deck (the one the options imply) as the draw pile, so a bot's count of unseen cards is exact.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

import engine
import engine.bots.uno as uno_bots
from engine import load
from engine.bots import choose, describe
from engine.core import Game
from engine.games.uno import Uno
from engine.games.uno_cards import build_deck
from engine.rng import Rng

NAMES = ["ann", "bob", "cat", "dan"]
ANN, BOB, CAT, DAN = NAMES
LEVELS = ("normal", "hard")


def table(
    hands: list[list[str]],
    top: str,
    *,
    under: Iterable[str] = (),
    color: str | None = None,
    cur: int = 0,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    **state: Any,
) -> Game:
    """A round in progress with a consistent deck: the cards not placed form the draw pile."""
    n = len(hands)
    game = engine.new_game("uno", NAMES[:n], seed=seed, options=options)
    assert isinstance(game, Uno)
    rest = Counter(build_deck(game.config["swap_hands"], game.custom))
    placed = [c for h in hands for c in h] + [*under, top]
    rest.subtract(placed)
    assert all(k >= 0 for k in rest.values()), "more copies than the deck has"
    draw = sorted(rest.elements())
    random.Random(seed).shuffle(draw)
    data = game.to_dict()
    data["state"].update(
        {
            "h": [" ".join(h) for h in hands],
            "d": " ".join(draw),
            "x": " ".join([*under, top]),
            "c": color or top[0],
            "v": 1,
            "t": cur,
            "ph": "play",
            **state,
        }
    )
    return load(json.loads(json.dumps(data)))


def decide(game: Game, player: str, level: str = "normal", seed: int = 1) -> str:
    action = choose(
        "uno", level, game.view(player), game.legal_actions(player), random.Random(seed)
    )
    assert_legal(game, player, action)
    return action


def assert_legal(game: Game, player: str, action_id: str) -> None:
    trial = game.copy()
    trial.apply(player, action_id)  # raises IllegalAction if the engine refuses it


# -- the view: what a good player remembers ----------------------------------------------
def test_private_view_names_the_seat_and_public_view_keeps_the_discard_pile() -> None:
    game = table([["R5", "G7", "B2"], ["Y1", "Y2", "Y3"]], "R1", under=["G1", "W"])
    assert game.view(ANN)["you"] == ANN and "you" not in game.view()
    assert game.view()["discards"] == ["G1", "W", "R1"]
    assert game.view(ANN)["known"] == {} and "known" not in game.view()
    game.apply(ANN, "play:R5")
    assert game.view()["discards"] == ["G1", "W", "R1", "R5"]


def test_lacks_records_a_draw_without_a_playable_card() -> None:
    game = table([["B5", "G7", "B2"], ["Y1", "Y2", "Y3"]], "R1", cur=1)
    game.draw.append("G4")  # not playable on the red 1: the turn passes
    game.apply(BOB, "draw")
    assert game.view()["lacks"] == {BOB: "R"}
    game.draw.append("R8")  # ann draws a playable card and keeps it: she may hold red
    game.apply(ANN, "draw")
    game.apply(ANN, "pass")
    assert game.view()["lacks"] == {BOB: "R"}


def test_lacks_cleared_by_a_penalty_and_kept_after_playing_the_drawn_card() -> None:
    game = table([["R2", "RD2", "B2"], ["Y1", "Y2", "Y3"]], "R1", cur=1)
    game.draw.append("R9")  # bob draws a playable card and plays it: still no other red
    game.apply(BOB, "draw")
    game.apply(BOB, "play:R9")
    assert game.view()["lacks"] == {BOB: "R"}
    game.apply(ANN, "play:RD2")  # bob takes two unknown cards
    assert game.view()["lacks"] == {}


def test_challenge_records_guilt_and_shows_the_hand_to_the_challenger() -> None:
    game = table([["W4", "R7", "G3"], ["Y1", "Y2", "Y3"]], "R1")
    game.apply(ANN, "play:W4:G")
    view = game.view(BOB)
    assert view["wild_draw_four_by"] == ANN and view["wild_draw_four_color"] == "R"
    game.apply(BOB, "challenge")
    assert game.view()["challenges"] == {ANN: {"guilty": 1, "innocent": 0}}
    assert game.view(BOB)["known"] == {ANN: ["R7", "G3"]}
    assert game.view(ANN)["known"] == {} and game.view()["wild_draw_four_color"] is None
    game.draw.append("Y9")  # bob keeps the turn but holds no green: he draws
    game.apply(BOB, "draw")
    game.apply(ANN, "play:G3")  # ann's penalty cards are unknown; the green 3 is gone
    assert game.view(BOB)["known"] == {ANN: ["R7"]}


def test_known_follows_a_seven_swap_and_forgets_played_cards() -> None:
    options = {"seven_zero": True}
    game = table([["R7", "R3", "G3"], ["Y1", "Y2", "R4", "B3"]], "R1", options=options)
    game.apply(ANN, "play:R7:bob")
    assert game.view(ANN)["known"] == {BOB: ["R3", "G3"]}
    assert game.view(BOB)["known"] == {ANN: ["R4", "Y1", "Y2", "B3"]}
    game.apply(BOB, "play:R3")
    assert game.view(ANN)["known"] == {BOB: ["G3"]}


def test_known_cards_are_always_held_along_random_games_with_swaps() -> None:
    options = {"seven_zero": True, "swap_hands": True, "custom_wilds": 2, "custom_rules": "6,7"}
    for seed in range(4):
        game = engine.new_game("uno", NAMES[: 2 + seed % 3], seed=seed, options=options)
        rng = Rng(seed)
        for _ in range(600):
            if game.finished:
                break
            able = [p for p in game.actors() if game.legal_actions(p)]
            player = able[rng.below(len(able))]
            game.apply(
                player,
                choose(
                    "uno",
                    "normal",
                    game.view(player),
                    [*game.legal_actions(player)],
                    random.Random(seed),
                ),
            )
            assert isinstance(game, Uno)
            for p in game.players:
                for holder, cards in game.view(p)["known"].items():
                    held = Counter(game.hands[game.seat[holder]])
                    assert not Counter(cards) - held


def test_remembered_state_survives_a_save_and_load() -> None:
    options = {"seven_zero": True, "swap_hands": True}
    game = table([["W4", "R7", "G3"], ["Y1", "Y2", "Y3", "B4"]], "R1", options=options)
    assert game.view()["swap_hands"] is True
    game.apply(ANN, "play:W4:G")
    saved = game.to_dict()
    assert saved["state"]["wp"] == "R"
    assert load(json.loads(json.dumps(saved))).view(BOB) == game.view(BOB)
    game.apply(BOB, "challenge")  # guilty: ann draws 4; bob keeps the turn, holds no green
    game.draw.append("Y9")
    game.apply(BOB, "draw")
    copy = load(json.loads(json.dumps(game.to_dict())))
    assert copy.to_dict() == game.to_dict()
    for p in (None, ANN, BOB):
        assert copy.view(p) == game.view(p)
    assert copy.view()["lacks"] == {BOB: "G"} and copy.view()["challenges"][ANN]["guilty"] == 1
    assert copy.view(BOB)["known"] == {ANN: ["R7", "G3"]}


# -- Normal: named behaviours -------------------------------------------------------------
def test_calls_uno_with_the_next_to_last_card() -> None:
    game = table([["R5", "G7"], ["Y1", "Y2", "Y3"]], "R1")
    assert decide(game, ANN) == "play+uno:R5"


def test_calls_uno_in_its_window_and_catches_a_forgetful_player() -> None:
    game = table([["R5", "G7"], ["Y1", "Y2", "Y3"], ["B1", "B2"]], "R1")
    game.apply(ANN, "play:R5")  # no call: the window opens
    assert decide(game, ANN) == "uno"
    assert decide(game, BOB) == "catch:ann"
    assert decide(game, CAT) == "catch:ann"


def test_plays_a_card_rather_than_drawing() -> None:
    game = table([["G5", "B7", "Y9", "R3"], ["Y1", "Y2", "Y3"]], "R1")
    assert decide(game, ANN) == "play:R3"
    wild_only = table([["G5", "B7", "W"], ["Y1", "Y2", "Y3"]], "R1")
    assert decide(wild_only, ANN).startswith("play:W:")


def test_keeps_wilds_while_a_coloured_card_plays() -> None:
    game = table([["R5", "W", "B2", "G2"], ["Y1", "Y2", "Y3"]], "R1")
    assert decide(game, ANN) == "play:R5"


def test_keeps_the_wild_draw_four_while_it_holds_the_colour() -> None:
    game = table([["R2", "W4", "B9", "G9"], ["Y1", "Y2", "Y3"]], "R7")
    assert decide(game, ANN) == "play:R2"
    without = table([["W4", "B9", "G9", "B8"], ["Y1", "Y2", "Y3"]], "R7")
    assert decide(without, ANN) == "play:W4:B"


def test_picks_the_colour_it_holds_most_for_a_wild() -> None:
    game = table([["W", "G1", "G2", "B3", "Y4"], ["Y1", "Y2", "Y3"]], "R5")
    assert decide(game, ANN) == "play:W:G"
    first = table([["G1", "G2", "B3"], ["Y1", "Y2", "Y3"]], "W", ph="color", c="")
    assert decide(first, ANN) == "color:G"


def test_sheds_high_point_cards_first() -> None:
    game = table([["R9", "R1", "G2", "B3"], ["Y1", "Y2", "Y3", "Y4", "Y5"]], "R5")
    assert decide(game, ANN) == "play:R9"


def test_keeps_the_colour_it_holds_most_in_play() -> None:
    game = table([["B5", "R1", "R2", "R3", "G7"], ["Y1", "Y2", "Y3", "Y4", "Y5"]], "R5")
    assert decide(game, ANN) == "play:R3"


def test_turns_to_a_colour_the_next_player_lacks() -> None:
    hands = [["R3", "B3", "G8", "Y8"], ["Y1", "Y2", "Y7", "G5", "G6"]]
    game = table(hands, "Y3", lk=["", "B"])
    assert decide(game, ANN) == "play:B3"
    assert decide(table(hands, "Y3", lk=["", "R"]), ANN) == "play:R3"


def test_hits_a_player_about_to_go_out() -> None:
    game = table([["RD2", "R4", "R8", "G2"], ["Y1"], ["B4", "B5", "B6", "B7"]], "R5")
    assert decide(game, ANN) == "play:RD2"


def test_challenges_a_wild_draw_four_only_when_worth_it() -> None:
    hands = [["Y1", "Y2", "Y3", "B4"], ["G1", "G2", "G3", "G4", "G5", "G6", "B9"]]
    # Bob played a Wild Draw Four on red holding seven unknown cards: likely guilty.
    likely = table(hands, "W4", under=["R4"], color="B", ph="challenge", p=4, w=1, wp="R", cur=0)
    assert decide(likely, ANN) == "challenge"
    # ...but not if bob showed he had no red (he drew on red and took nothing since).
    showed = table(
        hands, "W4", under=["R4"], color="B", ph="challenge", p=4, w=1, wp="R", lk=["", "R"]
    )
    assert decide(showed, ANN) == "accept"
    # ...nor when every red card is seen and bob holds one card.
    reds = ["R0", *[f"R{v}" for v in range(1, 10) for _ in (0, 1)], *["RS", "RR", "RD2"] * 2]
    reds.remove("R4")
    seen = table(
        [["Y1", "Y2"], ["G1"]],
        "W4",
        under=["R4", *reds],
        color="B",
        ph="challenge",
        p=4,
        w=1,
        wp="R",
    )
    assert decide(seen, ANN) == "accept"


def test_found_innocent_before_makes_a_challenge_less_likely() -> None:
    hands = [["Y1", "Y2", "Y3", "B4"], ["G1", "G2"]]
    state = {"color": "B", "ph": "challenge", "p": 4, "w": 1, "wp": "R", "under": ["R4"]}
    fresh = table(hands, "W4", **state)
    honest = table(hands, "W4", wr=[[0, 0], [0, 3]], **state)
    assert uno_bots.guilt_chance(
        uno_bots.read(honest.view(ANN)), honest.view(ANN)
    ) < uno_bots.guilt_chance(uno_bots.read(fresh.view(ANN)), fresh.view(ANN))
    assert decide(honest, ANN) == "accept"


def test_plays_the_drawn_card_and_stacks_draws() -> None:
    game = table([["G5", "B7"], ["Y1", "Y2", "Y3"]], "R1")
    game.draw.append("R8")
    game.apply(ANN, "draw")
    assert decide(game, ANN) == "play:R8"
    stacking = table(
        [["BD2", "G5", "B7"], ["Y1", "Y2", "Y3"]],
        "RD2",
        options={"stack_draws": True},
        ph="stack",
        p=2,
    )
    assert decide(stacking, ANN) == "play:BD2"


def test_swaps_hands_with_the_smallest_hand_only_when_it_helps() -> None:
    options = {"seven_zero": True}
    hands = [["R7", "R2", "G3", "G4", "B6"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], ["B1", "B2"]]
    game = table(hands, "R1", options=options)
    assert decide(game, ANN) == "play:R7:cat"
    big = [["R7", "R2", "G3"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], ["B1", "B2", "B3", "B4"]]
    assert decide(table(big, "R1", options=options), ANN) == "play:R2"


def test_draws_rather_than_take_a_bigger_hand_in_a_swap() -> None:
    options = {"swap_hands": True}
    game = table([["WS", "G3", "G4"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]], "R1", options=options)
    assert decide(game, ANN) == "draw"
    small = table([["WS", "G3", "G4", "G5", "B5"], ["Y1", "Y2"]], "R1", options=options)
    # Swap for the two-card hand, and name a colour the hand it gives away lacks.
    assert decide(small, ANN) in ("play:WS:R:bob", "play:WS:Y:bob")


def test_stacks_a_wild_draw_four_only_when_it_may() -> None:
    options = {"stack_draws": True}
    state: dict[str, Any] = {"ph": "challenge", "p": 4, "w": 1, "wp": "R", "color": "G"}
    free = table([["W4", "Y2", "B3"], ["G1", "G2"]], "W4", options=options, **state)
    assert decide(free, ANN).startswith("play:W4:")
    holding = table([["W4", "G7", "B3"], ["G1", "G2"]], "W4", options=options, **state)
    assert decide(holding, ANN) in ("challenge", "accept")


def test_discards_its_least_useful_cards_for_a_custom_rule() -> None:
    options = {"custom_wilds": 1, "custom_rules": "6"}
    game = table(
        [["W", "R9", "RS", "R1", "B7", "G8"], ["Y1", "Y2", "Y3", "Y4"]],
        "G5",
        options=options,
        ph="discard",
        ds=[[0, 3]],
        rs=1,
        cur=1,
    )
    action = decide(game, ANN)
    assert action.startswith("discard:")
    chosen = set(action.split(":")[1].split("."))
    assert len(chosen) == 3 and "W" not in chosen
    assert chosen == {"B7", "G8", "RS"}


def test_jumps_in_when_it_holds_the_same_card() -> None:
    game = table([["R5", "G7", "B2"], ["Y1", "R1", "Y3"]], "R1", options={"jump_in": True}, cur=0)
    assert decide(game, BOB) == "play:R1"


# -- honesty: the choice depends only on the seat's view ------------------------------------
def permuted_hidden(game: Game, player: str, seed: int) -> Game:
    """The same game with the cards ``player`` cannot see (other hands, draw pile) reshuffled."""
    assert isinstance(game, Uno)
    data = game.to_dict()
    state = data["state"]
    me = game.seat[player]
    hands = [h.split() for h in state["h"]]
    hidden = [c for i, h in enumerate(hands) if i != me for c in h] + state["d"].split()
    random.Random(seed).shuffle(hidden)
    for i, h in enumerate(hands):
        if i != me:
            hands[i], hidden = hidden[: len(h)], hidden[len(h) :]
    state["h"] = [" ".join(h) for h in hands]
    state["d"] = " ".join(hidden)
    data["rng"] = data["rng"] + 12345  # the engine's own future shuffles are hidden too
    return load(json.loads(json.dumps(data)))


def positions(players: int, seed: int, count: int) -> list[tuple[Game, str]]:
    """Positions from a game between Normal seats where the mover has a real choice."""
    game = engine.new_game("uno", NAMES[:players], seed=seed)
    rng = random.Random(seed)
    found: list[tuple[Game, str]] = []
    while not game.finished and len(found) < count:
        able = [p for p in game.actors() if game.legal_actions(p)]
        player = rng.choice(able)
        view, actions = game.view(player), game.legal_actions(player)
        plays = {a.id.split(":")[1] for a in actions if a.id.startswith("play:")}
        if len(plays) >= 2 and not view["known"]:
            found.append((game.copy(), player))
        game.apply(player, choose("uno", "normal", view, actions, rng))
    return found


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 4])
def test_choice_unchanged_when_hidden_cards_are_permuted(level: str, players: int) -> None:
    cases = positions(players, seed=players, count=3 if level == "hard" else 12)
    assert cases
    for k, (game, player) in enumerate(cases):
        other = permuted_hidden(game, player, seed=k)
        assert isinstance(game, Uno) and isinstance(other, Uno)
        assert other.hands != game.hands or other.draw != game.draw
        assert other.view(player) == game.view(player)
        view, actions = game.view(player), game.legal_actions(player)
        mine = choose("uno", level, view, actions, random.Random(k))
        theirs = choose(
            "uno", level, other.view(player), other.legal_actions(player), random.Random(k)
        )
        assert mine == theirs


# -- complete games -------------------------------------------------------------------------
MIXES: list[dict[str, Any]] = [
    {},
    {"stack_draws": True, "jump_in": True},
    {"seven_zero": True, "swap_hands": True, "draw_until_playable": True},
    {"custom_wilds": 3, "custom_rules": "5,6,7", "forced_play": True},
    {"custom_wilds": 3, "custom_rules": "1,2,3", "scoring": "lowest"},
    {"custom_wilds": 1, "custom_rules": "4", "seven_zero": True, "stack_draws": True},
]


def play_out(levels: list[str], seed: int, options: dict[str, Any]) -> Game:
    names = NAMES[: len(levels)]
    game = engine.new_game("uno", names, seed=seed, options=options)
    rngs = {p: random.Random(seed * 10 + i) for i, p in enumerate(names)}
    order = Rng(seed)
    for _ in range(20_000):
        if game.finished:
            break
        able = [p for p in game.actors() if game.legal_actions(p)]
        player = able[order.below(len(able))]
        level = levels[names.index(player)]
        action = choose("uno", level, game.view(player), game.legal_actions(player), rngs[player])
        game.apply(player, action)  # an illegal id raises
    assert game.finished
    return game


@pytest.mark.parametrize("mix", range(len(MIXES)))
def test_normal_plays_complete_games_under_every_option_mix(mix: int) -> None:
    options = {**MIXES[mix], "target": 200}
    for seed, players in ((mix, 2), (mix + 10, 4)):
        play_out(["normal"] * players, seed, options)


@pytest.mark.parametrize("mix", range(len(MIXES)))
def test_hard_plays_complete_games_under_every_option_mix(
    mix: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uno_bots, "HARD_MOVES", 200)  # legality does not depend on budget
    options = {**MIXES[mix], "target": 30}
    play_out(["hard", "normal", "hard"], mix, options)


def test_hard_at_full_budget_finishes_a_round() -> None:
    game = play_out(["hard", "normal"], 3, {"target": 1})
    assert game.winners


# -- the search's pieces --------------------------------------------------------------------
def test_sampled_worlds_agree_with_the_view_and_respect_lacks() -> None:
    hands = [["R5", "G7", "B2", "W"], ["Y1", "Y2", "Y3", "G1", "G2"], ["B5", "B6", "B7"]]
    game = table(hands, "R1", under=["G9", "RS"], lk=["", "R", ""], cur=0)
    view = game.view(ANN)
    sampler = uno_bots.WorldSampler(view)
    rng = random.Random(4)
    for _ in range(30):
        world = sampler.sample(view, rng)
        assert isinstance(world, Uno)
        mine = world.view(ANN)
        for key in ("hand", "hand_sizes", "top", "color", "discards", "phase", "current"):
            assert mine[key] == view[key], key
        assert mine["draw_pile"] == view["draw_pile"]
        assert not any(c[0] in "RW" for c in world.hands[1])  # bob showed he had no red
        cards = Counter(world.draw + world.discard + [c for h in world.hands for c in h])
        assert cards == Counter(build_deck(False, []))


def test_fast_rollout_steps_match_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed, options in enumerate(MIXES[:4]):
        start = engine.new_game("uno", NAMES[:3], seed=seed, options=options)
        fast, checked = start.copy(), start.copy()
        uno_bots.rollout(fast, random.Random(0))
        monkeypatch.setattr(uno_bots, "trusted", lambda action_id: False)
        uno_bots.rollout(checked, random.Random(0))
        monkeypatch.undo()
        assert fast.to_dict() == checked.to_dict()
        assert fast.round != start.round or fast.finished


def test_levels_are_described() -> None:
    about = describe("uno")
    assert set(about) == {"normal", "hard"} and all(len(s) > 40 for s in about.values())
