"""The load benchmark's statistics: message calls charged to the moves that caused them, and
the bootstrap interval of the p99 ratio."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace
from typing import Any

from bench.loadgen.stats import ratio_interval, rest_by_move_route

TABLE, DM_ANN, DM_BEA, ELSEWHERE = 100, 200, 201, 999


def fake() -> Any:
    channels = {
        TABLE: SimpleNamespace(type=0),
        DM_ANN: SimpleNamespace(type=1),
        DM_BEA: SimpleNamespace(type=1),
    }
    return SimpleNamespace(channels=channels)


def slot_of(channel_id: int) -> int | None:
    return {TABLE: 0, DM_ANN: 0, DM_BEA: 0}.get(channel_id)


def test_each_call_counts_for_the_last_move_of_its_game_before_it() -> None:
    requests = [
        ("PATCH", f"/channels/{TABLE}/messages/1", 200),  # before any move: left out
        ("POST", "/interactions/5/tok/callback", 204),  # an answer: never counted
        ("PATCH", f"/channels/{TABLE}/messages/1", 200),  # move 1 (DM): table
        ("PATCH", f"/channels/{DM_BEA}/messages/2", 200),  # move 1: next player's DM
        ("PATCH", f"/channels/{DM_ANN}/messages/3", 200),  # move 2 (picker): mover's DM
        ("PATCH", f"/channels/{TABLE}/messages/1", 200),  # move 2: table
        ("DELETE", f"/channels/{TABLE}/messages/7", 204),  # move 2: a reminder replaced
        ("POST", f"/channels/{TABLE}/messages", 200),  # move 2: the new reminder
        ("PATCH", f"/channels/{ELSEWHERE}/messages/9", 200),  # no game of ours: left out
    ]
    times = [0.5, 1.1, 1.2, 1.3, 2.1, 2.2, 30.0, 30.1, 31.0]
    moves = [(0, 1.0, "dm"), (0, 2.0, "picker")]
    out = rest_by_move_route(requests, times, moves, slot_of, fake())
    assert out == {
        "dm": {"moves": 1, "edits": 2, "dm": 1},
        "picker": {"moves": 1, "edits": 2, "dm": 1, "posts": 2},
    }


def test_a_move_with_no_calls_after_it_still_counts_as_a_move() -> None:
    out = rest_by_move_route([], [], [(0, 1.0, "table")], slot_of, fake())
    assert out == {"table": {"moves": 1}}


def _latencies(count: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [0.002 + rng.expovariate(1000) for _ in range(count)]


def test_the_p99_ratio_interval_holds_the_true_ratio_and_narrows_with_more_clicks() -> None:
    floor_small, floor_large = _latencies(300, 1), _latencies(5_000, 2)
    bot_small = [1.8 * x for x in _latencies(300, 3)]  # the same shape, 1.8 times as slow
    bot_large = [1.8 * x for x in _latencies(5_000, 4)]
    low, high = ratio_interval(bot_small, floor_small, 99, rounds=300)
    assert low < 1.8 < high
    low_large, high_large = ratio_interval(bot_large, floor_large, 99, rounds=200)
    assert low_large < 1.8 < high_large
    assert high_large - low_large < (high - low) / 2


def test_the_p99_ratio_interval_is_repeatable_and_empty_without_clicks() -> None:
    bot, floor = _latencies(500, 5), _latencies(500, 6)
    assert ratio_interval(bot, floor, 99, rounds=200) == ratio_interval(bot, floor, 99, rounds=200)
    assert all(math.isnan(x) for x in ratio_interval([], floor, 99))
    assert all(math.isnan(x) for x in ratio_interval(bot, [], 99))
