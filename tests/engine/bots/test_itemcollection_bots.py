"""Item Collection Game bots: Normal's named behaviours, the claim record, honesty, games.

``new(ann="3 5")`` stacks the decks as in tests/engine/test_itemcollection.py: the listed ranks
come first in that player's deck, then the rest of the suit A..K; the top 7 are the hand, and
ann (seat 0, clubs) starts round 1. ``edited`` changes a saved game's scores or claim record.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import engine
import engine.bots.itemcollection as bots
from engine.bots import choose, describe
from engine.cards import RANKS, sort_key
from engine.games.itemcollection import ItemCollection, classify
from engine.testing import stacked

P = ["ann", "bea", "cid", "dee"]  # seats 0-3 own clubs, diamonds, hearts, spades
SUIT = dict(zip(P, "CDHS", strict=True))
LEVELS = ("normal", "hard")


def new(**ranks: str) -> ItemCollection:
    deck = [r + SUIT[p] for p, text in ranks.items() for r in text.split()]
    game = stacked("itemcollection", P, deck)
    assert isinstance(game, ItemCollection)
    return game


def edited(game: ItemCollection, **state: Any) -> ItemCollection:
    """The same game with some saved state replaced (scores follow the scored rows)."""
    data = json.loads(json.dumps(game.to_dict()))
    data["state"].update(state)
    data["scores"] = {p: len(data["state"]["scored"][p]) for p in P}
    loaded = engine.load(data)
    assert isinstance(loaded, ItemCollection)
    return loaded


def record(**kept_of_made: tuple[int, int]) -> dict[str, dict[str, int]]:
    """A claim record: ``ann=(4, 4)`` means ann kept 4 claims of 4."""
    made = {p: (0, 0) for p in P} | kept_of_made
    return {p: {"made": m, "kept": k} for p, (k, m) in made.items()}


def declare(game: ItemCollection, claims: list[tuple[str, str, str]]) -> None:
    """Ready everyone (High), then each (player, claim, card) in order."""
    if game.phase == "negotiation":
        for p in list(game.actors()):
            game.apply(p, "ready")
    for player, claim, card in claims:
        game.apply(player, f"claim:{claim}")
        game.apply(player, f"place:{card}")


def bot(game: ItemCollection, player: str, level: str = "normal", seed: int = 0) -> str:
    view = game.view(player)
    return choose("itemcollection", level, view, game.legal_actions(player), random.Random(seed))


# -- negotiation ---------------------------------------------------------------------------------
def test_presses_ready_at_once_and_never_keeps_the_table_waiting() -> None:
    game = new()
    for p in P[1:]:
        for level in LEVELS:
            assert bot(game, p, level) == "ready"
    game.apply("ann", "high")
    assert bot(game, "ann") == "ready"


@pytest.mark.parametrize(("ranks", "mode"), [("K Q 9 8 7 6 5", "high"), ("A 2 3 9 10 J 8", "low")])
def test_starting_player_sets_the_mode_its_extreme_card_is_nearer(ranks: str, mode: str) -> None:
    game = new(ann=ranks)
    for level in LEVELS:
        assert bot(game, "ann", level) == mode


# -- claims and cards ------------------------------------------------------------------------------
def test_claims_a_card_it_holds_and_then_places_that_card() -> None:
    game = new(ann="2 4 6 8 10 Q K")
    declare(game, [])
    claim = bot(game, "ann")
    rank = claim.partition(":")[2]
    assert rank + "C" in game.hands["ann"]
    game.apply("ann", claim)
    assert bot(game, "ann") == f"place:{rank}C"


def test_joins_a_trusted_claim_it_can_match() -> None:
    game = edited(new(bea="7 A 3 5 9 J K"), claim_record=record(ann=(4, 4)))
    declare(game, [("ann", "7", "7C")])
    assert bot(game, "bea") == "claim:7"


def test_completes_four_of_a_kind_when_three_claimed_the_rank() -> None:
    game = edited(
        new(ann="9", bea="9", cid="9", dee="A 2 3 4 5 6 9"),
        claim_record=record(ann=(3, 3), bea=(3, 3), cid=(3, 3)),
    )
    declare(game, [("ann", "9", "9C"), ("bea", "9", "9D"), ("cid", "9", "9H")])
    for level in LEVELS:
        assert bot(game, "dee", level) == "claim:9"


def test_trust_follows_the_claim_record() -> None:
    view = edited(new(), claim_record=record(ann=(4, 4), bea=(0, 6))).view("cid")
    assert bots.trust(view, "ann") == pytest.approx(5 / 6)
    assert bots.trust(view, "bea") == pytest.approx(1 / 8)
    assert bots.trust(view, "dee") == pytest.approx(1 / 2)


def test_a_claim_of_a_rank_already_scored_is_no_claim() -> None:
    game = edited(new(bea="7"), scored={"ann": ["7C"], "bea": [], "cid": [], "dee": []})
    game.hands["ann"] = [c for c in game.hands["ann"] if c != "7C"] + [game.decks["ann"].pop()]
    declare(game, [("ann", "7", game.hands["ann"][0])])
    view = game.view("bea")
    table = bots.Round(view, "bea", "high")
    assert table.claimed == {0: None}


def test_an_untrusted_claim_is_not_followed_into_a_worse_card() -> None:
    # bea has broken every claim: joining her "3" is a long shot, the King is the high card.
    game = edited(new(cid="3 K 4 5 6 7 8"), claim_record=record(bea=(0, 9)))
    declare(game, [("ann", "none", "AC"), ("bea", "3", "2D")])
    assert bot(game, "cid") == "claim:K"


def test_does_not_make_an_opponent_win_without_winning_too() -> None:
    # ann has 4 scored cards and claims 9; bea (1 scored) holds the 9 but will not pair it.
    game = edited(
        new(bea="9 2 3 4 5 6 7"),
        scored={"ann": ["AC", "2C", "3C", "4C"], "bea": ["KD"], "cid": [], "dee": []},
        claim_record=record(ann=(4, 4)),
    )
    game.hands["ann"] = ["5C", "6C", "7C", "8C", "9C", "10C", "JC"]
    game.decks["ann"] = ["QC", "KC"]
    declare(game, [("ann", "9", "9C")])
    assert bot(game, "bea") != "claim:9"


def test_starting_player_swaps_for_a_clearly_better_card() -> None:
    game = edited(
        new(ann="2 K 3 4 5 6 7", bea="K", cid="K", dee="K"),
        claim_record=record(bea=(3, 3), cid=(3, 3), dee=(3, 3)),
    )
    declare(
        game,
        [("ann", "2", "2C"), ("bea", "K", "KD"), ("cid", "K", "KH"), ("dee", "K", "KS")],
    )
    assert game.phase == "swap"
    assert bot(game, "ann") == "swap:KC"


def test_starting_player_keeps_a_joined_claim_that_scores() -> None:
    game = edited(new(ann="7 2 3 4 5 6 8", cid="Q"), claim_record=record(bea=(3, 3), cid=(3, 3)))
    declare(
        game,
        [("ann", "7", "7C"), ("bea", "7", "7D"), ("cid", "Q", "QH"), ("dee", "none", "4S")],
    )
    assert bot(game, "ann") == "keep"


# -- the scoring table and the race ----------------------------------------------------------
def test_scorers_agree_with_the_engine_on_every_reveal() -> None:
    for values in itertools.product(range(1, 14), repeat=4):
        cards = [RANKS[v - 1] + "C" for v in values]
        for mode in ("high", "low"):
            assert bots.scorers(values, mode) == tuple(classify(cards, mode)[1])


def test_race_value_orders_positions() -> None:
    me = 0
    ahead, level, behind = [3, 2, 2, 2], [2, 2, 1, 1], [1, 2, 1, 1]
    far_behind = [0, 2, 2, 2]
    values = [bots.race_value(s, me) for s in (ahead, level, behind, far_behind)]
    assert values == sorted(values, reverse=True) and values[-1] == 0.0
    assert bots.race_value([5, 5, 2, 2], me) == 1.0
    assert bots.race_value([4, 5, 2, 2], me) == 0.0


# -- the claim record in the view ------------------------------------------------------------------
def test_claim_record_counts_claims_made_and_kept() -> None:
    game = new(dee="K")
    declare(
        game,
        [("ann", "2", "2C"), ("bea", "5", "3D"), ("cid", "none", "4H"), ("dee", "K", "KS")],
    )
    game.apply("ann", "keep")
    assert game.view()["claim_record"] == {
        "ann": {"made": 1, "kept": 1},
        "bea": {"made": 1, "kept": 0},
        "cid": {"made": 0, "kept": 0},
        "dee": {"made": 1, "kept": 1},
    }
    data = game.to_dict()
    del data["state"]["claim_record"]  # a game saved before the record existed
    assert engine.load(data).view()["claim_record"]["ann"] == {"made": 0, "kept": 0}


# -- honesty, worlds and complete games ------------------------------------------------------
def played_to(seed: int, moves: int) -> ItemCollection:
    game = engine.new_game("itemcollection", P, seed=seed)
    assert isinstance(game, ItemCollection)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.finished:
            break
        player = rng.choice(game.actors())
        actions = game.legal_actions(player)
        if rng.random() < 0.2:
            action = rng.choice(actions).id
        else:
            action = choose("itemcollection", "normal", game.view(player), actions, rng)
        game.apply(player, action)
    return game


def hidden_permuted(game: ItemCollection, me: str, rng: random.Random) -> ItemCollection:
    """The same game for ``me``: each other player's unseen cards dealt again (own suit)."""
    data = json.loads(json.dumps(game.to_dict()))
    state = data["state"]
    for p in P:
        if p == me:
            continue
        decl = next((d for d in state["decls"] if d["player"] == p and d["card"]), None)
        pool = state["hands"][p] + state["decks"][p] + ([decl["card"]] if decl else [])
        rng.shuffle(pool)
        if decl:
            decl["card"] = pool.pop()
        n = len(state["hands"][p])
        state["hands"][p], state["decks"][p] = pool[:n], pool[n:]
    twin = engine.load(data)
    assert isinstance(twin, ItemCollection)
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_a_choice_depends_only_on_what_the_seat_can_see(level: str) -> None:
    phases = set()
    for seed, moves in [(1, 0), (2, 5), (3, 7), (4, 12), (5, 26), (6, 14), (7, 30)]:
        game = played_to(seed, moves)
        if game.finished:
            continue
        me = game.actors()[-1]
        twin = hidden_permuted(game, me, random.Random(seed))
        assert twin.to_dict() != game.to_dict()
        assert twin.view(me) == game.view(me)
        assert bot(twin, me, level, seed) == bot(game, me, level, seed)
        phases.add(game.phase)
    assert {"negotiation", "declaration"} <= phases


def test_sampled_worlds_agree_with_the_view() -> None:
    rng = random.Random(0)
    for seed in range(30):
        game = played_to(seed, seed * 3 % 40)
        if game.finished:
            continue
        me = rng.choice(game.actors())
        view = game.view(me)
        world = bots.sample_world(view, rng)
        assert world.view(me) == view
        for p in P:
            cards = world.hands[p] + world.decks[p] + world.scored[p]
            cards += [d["card"] for d in world.decls if d["player"] == p and d["card"]]
            assert sorted(cards, key=sort_key) == [r + SUIT[p] for r in RANKS]


def test_each_level_is_described() -> None:
    about = describe("itemcollection")
    assert set(about) == set(LEVELS)
    assert all(len(text) > 40 and text.endswith(".") for text in about.values())


@pytest.mark.parametrize(("level", "games"), [("normal", 3), ("hard", 1)], ids=["normal", "hard"])
def test_each_level_plays_complete_games_with_legal_moves(
    level: str, games: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bots, "WORLDS", 8)  # the search's size does not change legality
    for seed in range(games):
        game = engine.new_game("itemcollection", P, seed=200 + seed)
        rngs = {p: random.Random(seed * 10 + i) for i, p in enumerate(P)}
        moves = 0
        while not game.finished:
            player = rngs[P[0]].choice(game.actors())
            actions = game.legal_actions(player)
            action = choose("itemcollection", level, game.view(player), actions, rngs[player])
            assert action in {a.id for a in actions}
            game.apply(player, action)
            moves += 1
            assert moves < 400
        assert game.winners and all(game.scores[p] >= 5 for p in game.winners)
