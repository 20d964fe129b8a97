"""UNO random playouts: thousands of complete games, 2 to 10 players, across option mixes.

Uniformly random play draws so often that a round lasts thousands of moves, so most games use
``policy`` below: a random actor, then a random legal action, but 80% of the time a play is
preferred when there is one. A few games use ``engine.testing.playout`` (uniform random).

Checked at every step: all cards accounted for (the card count at every step, the exact
cards every 10th step and at each new round: hands + draw pile + discard pile = the game's
deck); someone can act; public event text names only cards that are face up; a challenged
hand goes privately to the challenger only. On a share of the games, also at every step: no
hand in the public view or in another player's view (except hands face up under custom rule
7, under ``face_up``); every action id is ASCII and at most 64 characters; the JSON round
trip continues identically; refused actions change nothing. After each game:
the same seed and actions give the same game, and the result matches the scores.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

import engine
from engine import IllegalAction, load
from engine.core import Event, Game
from engine.games.uno import Uno
from engine.games.uno_cards import LABEL, build_deck, sort_hand
from engine.rng import Rng
from engine.testing import playout

MIXES: list[dict[str, Any]] = [
    {},
    {"stack_draws": True},
    {"seven_zero": True},
    {"jump_in": True},
    {"draw_until_playable": True, "forced_play": True},
    {"swap_hands": True, "custom_wilds": 3},
    {"custom_wilds": 3, "custom_rules": "5,6,7"},
    {"custom_wilds": 3, "custom_rules": "1,2,3"},
    {"scoring": "lowest", "custom_wilds": 1, "custom_rules": "4"},
    {
        "swap_hands": True,
        "custom_wilds": 2,
        "stack_draws": True,
        "seven_zero": True,
        "jump_in": True,
        "forced_play": True,
    },
]
GAMES_PER_MIX = 100  # 1,000 games in all
DEEP_EVERY = 10  # every 10th game also checks views, round trips and refusals at every step
MAX_ACTIONS = 50_000
PUBLIC_KEYS = {
    "kind", "players", "actors", "finished", "winners", "scores", "phase", "prompt",
    "current", "dealer", "top", "color", "direction", "hand_sizes", "draw_pile",
    "discard_pile", "cards_played", "round", "target", "scoring", "house_rules", "pending_draw",
    "wild_draw_four_by", "uno_window", "uno_called", "custom_rules", "face_up",
    "face_up_until", "draw_three", "discarding", "dealer_draw", "last_round",
    "swap_hands", "discards", "wild_draw_four_color", "lacks", "challenges",
}  # fmt: skip
LABELS = sorted(LABEL.items(), key=lambda kv: -len(kv[1]))
LABEL_RE = re.compile("|".join(re.escape(label) for _, label in LABELS))
CODE_OF = {label: code for code, label in LABELS}


def policy(game: Game, rng: Rng) -> tuple[str, str]:
    able = [(p, acts) for p in game.actors() if (acts := game.legal_actions(p))]
    assert able, "nobody can act in an unfinished game"
    player, acts = able[rng.below(len(able))]
    if rng.below(10) < 8:
        plays = [a for a in acts if a.id.startswith(("play", "discard", "color"))]
        acts = plays or acts
    action = acts[rng.below(len(acts))]
    if action.pick is None:
        return player, action.id
    chosen = rng.sample(action.pick.options, action.pick.min)
    return player, f"{action.id}:{'.'.join(chosen)}"


def all_cards(game: Uno) -> Counter[str]:
    cards: Counter[str] = Counter(game.draw)
    cards.update(game.discard)
    for h in game.hands:
        cards.update(h)
    return cards


def check_events(
    game: Uno, player: str, action: str, events: list[Event], before: list[str], rnd: int
) -> None:
    """Public text names only face-up cards; a shown hand goes to the challenger only."""
    allowed = set(before) | set(game.discard)
    parts = action.split(":")
    if parts[0] == "play":
        allowed.add(parts[1])
    if parts[0] == "discard":
        allowed |= {t.split("_")[0] for t in parts[1].split(".")}
    if game.round != rnd:
        allowed.add("W4")  # a Wild Draw Four turned up first is announced and put back
    for event in events:
        for label in LABEL_RE.findall(event.public):
            assert CODE_OF[label] in allowed, (event.public, action)
        for who, text in event.private.items():
            assert who in game.players
            if "'s hand:" in text:
                assert action == "challenge" and who == player


def check_views(game: Uno) -> None:
    """No hand in the public view or another player's view (but custom rule 7's face_up)."""
    public = game.view()
    assert set(public) == PUBLIC_KEYS
    assert public["hand_sizes"] == {p: len(game.hands[i]) for i, p in enumerate(game.players)}
    if public["face_up_until"] is None:
        assert public["face_up"] == {}
    else:
        assert public["face_up"] == {
            p: sort_hand(h) for p, h in zip(game.players, game.hands, strict=True)
        }
    bare = json.dumps({k: v for k, v in public.items() if k != "face_up"})
    for h in game.hands:
        if len(h) >= 3:
            assert json.dumps(sort_hand(h)) not in bare
    for i, p in enumerate(game.players):
        view = game.view(p)
        assert view.pop("hand") == sort_hand(game.hands[i])
        assert view.pop("you") == p
        view.pop("known")  # cards of other hands this seat saw (checked in the bot tests)
        drawn = view.pop("drawn", None)
        if drawn is not None:
            assert game.phase == "drawn" and game.cur == i and drawn in game.hands[i]
        assert view == public


def check_refusals(game: Uno, rng: Rng) -> None:
    before = json.dumps(game.to_dict(), sort_keys=True)
    outsiders = [p for p in game.players if p not in game.actors()]
    tries = [("nobody", "draw"), (game.actors()[0], "play:XX"), (game.actors()[0], "catch:")]
    if outsiders:
        tries.append((outsiders[rng.below(len(outsiders))], "draw"))
    for player, action in tries:
        with pytest.raises(IllegalAction):
            game.apply(player, action)
    assert json.dumps(game.to_dict(), sort_keys=True) == before


def run_game(n: int, seed: int, options: dict[str, Any], deep: bool) -> None:
    game = engine.new_game("uno", [f"p{i}" for i in range(n)], seed=seed, options=options)
    assert isinstance(game, Uno)
    deck = Counter(build_deck(game.config["swap_hands"], game.custom))
    size = sum(deck.values())
    assert size == 108 + game.config["swap_hands"] + game.config["custom_wilds"]
    rng = Rng(seed)
    log: list[tuple[str, str]] = []
    while not game.finished:
        assert len(log) < MAX_ACTIONS, "the game did not end"
        player, action = policy(game, rng)
        if deep:
            for p in game.actors():
                for act in game.legal_actions(p):
                    assert act.id.isascii() and len(act.id) <= 64 and act.label
            check_views(game)
            if len(log) % 7 == 0:
                check_refusals(game, rng)
            saved = json.dumps(game.to_dict())
            assert n != 4 or len(saved) < 4096
            copy = load(json.loads(saved))
        before, rnd = list(game.discard), game.round
        events = game.apply(player, action)
        log.append((player, action))
        check_events(game, player, action, events, before, rnd)
        if len(log) % 10 == 0 or game.round != rnd:
            assert all_cards(game) == deck
        else:
            assert len(game.draw) + len(game.discard) + sum(map(len, game.hands)) == size
        if deep:
            copy_events = copy.apply(player, action)
            assert [(e.public, e.private) for e in copy_events] == [
                (e.public, e.private) for e in events
            ]
            assert copy.to_dict() == game.to_dict()
    check_result(game)
    # Determinism: the same seed and actions give the same game.
    again = engine.new_game("uno", [f"p{i}" for i in range(n)], seed=seed, options=options)
    for player, action in log:
        again.apply(player, action)
    assert again.to_dict() == game.to_dict()


def check_result(game: Game) -> None:
    target = game.config["target"]
    scores = game.scores
    assert game.actors() == [] and game.view()["phase"] == "over"
    if game.config["scoring"] == "standard":
        (winner,) = game.winners
        assert scores[winner] >= target
        assert all(s < target for p, s in scores.items() if p != winner)
    else:
        assert max(scores.values()) >= target
        low = min(scores.values())
        assert game.winners == [p for p in game.players if scores[p] == low]


@pytest.mark.parametrize("mix", range(len(MIXES)))
def test_random_playouts(mix: int) -> None:
    options = dict(MIXES[mix])
    for k in range(GAMES_PER_MIX):
        seed = mix * 10_000 + k
        n = 2 + k % 9
        game_options = {**options, "target": 30 + (k % 4) * 20}  # 30 to 90
        run_game(n, seed, game_options, deep=k % DEEP_EVERY == 0)


@pytest.mark.parametrize("n", [2, 4, 7])
def test_full_matches_to_500(n: int) -> None:
    run_game(n, 777 + n, {"stack_draws": n == 4}, deep=False)


def test_uniform_random_playouts_end() -> None:
    """engine.testing.playout: uniformly random actions, rounds thousands of moves long."""
    for seed in range(12):
        n = 2 + seed % 9
        options = {**MIXES[seed % len(MIXES)], "target": 10}
        game = engine.new_game("uno", [f"p{i}" for i in range(n)], seed=seed, options=options)
        assert isinstance(game, Uno)
        deck = Counter(build_deck(game.config["swap_hands"], game.custom))
        log = playout(game, seed=seed)
        assert game.finished and log
        assert all_cards(game) == deck
        check_result(game)
