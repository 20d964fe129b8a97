"""The load benchmark's charging of message calls to the moves that caused them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bench.loadgen.stats import rest_by_move_route

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
        "dm": {"moves": 1, "edits": 2},
        "picker": {"moves": 1, "edits": 2, "posts": 2},
    }


def test_a_move_with_no_calls_after_it_still_counts_as_a_move() -> None:
    out = rest_by_move_route([], [], [(0, 1.0, "table")], slot_of, fake())
    assert out == {"table": {"moves": 1}}
