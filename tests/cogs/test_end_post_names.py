"""The end post's names, shortened to fit in one message, stay told apart."""

from __future__ import annotations

import random

import engine
from cogs.endings import end_post
from cogs.sessions import Session
from db.rows import GameRow, SeatRow

GAME = 1234


def _finished_uno(players: list[str]) -> engine.Game:
    game = engine.new_game("uno", players, 1, {"target": 1})
    rng = random.Random(1)
    while not game.finished:
        player = next(p for p in game.actors() if game.legal_actions(p))
        game.apply(player, rng.choice(game.legal_actions(player)).id)
    return game


def _ended(names: list[str]) -> Session:
    """Ten members whose names carry the same decoration at both ends, the part that tells
    them apart in the middle (a clan's styled nicknames), and a post 80 characters too
    long. Shortened to their ends only, all ten read "*_*_*_*_*_…*_*_*_*_*". Now names are
    cut only as much as needed, and those that would still read alike get their seat's
    number."""
    players = [str(100_000_000_000_000_000 + i) for i in range(len(names))]
    game = _finished_uno(players)
    row = GameRow(
        id=GAME,
        guild_id=1,
        channel_id=2,
        kind="uno",
        host_id=int(players[0]),
        status="finished",
        options={"target": 1},
        seed=1,
        state=None,
        version=1,
        log={},
        table_message_id=None,
        table_posted_at=None,
        created_at=0.0,
        updated_at=0.0,
    )
    row.ratings = {p: [None, 3.0 + i] for i, p in enumerate(players)}
    seats = [
        SeatRow(GAME, int(p), i, n, False, None, None, False)
        for i, (p, n) in enumerate(zip(players, names, strict=True))
    ]
    for seat in seats:
        if str(seat.user_id) == game.winners[0]:
            seat.is_bot, seat.away = True, "left"
    session = Session(row=row, seats=seats)
    session.game = game
    return session


def test_names_shortened_for_a_long_end_post_stay_told_apart() -> None:
    """Ten members whose display names carry the same decoration at both ends (as the
    commit's own test names do, with the part that tells them apart in the middle instead
    of at the end: a clan's styled nicknames). The post is 2,080 characters, 80 too many,
    so every name is cut to its first 10 and last 9 characters as shown: the nine who
    stayed all read "*_*_*_*_*_…*_*_*_*_*" in the scores, the forfeit line and the ratings
    (the leaver the same plus 🤖), and nobody can tell who placed where or whose rating
    moved how (the commit promises every player
    "told apart"). Expected: the shortened names stay distinct (cut only as much as needed,
    keep the part where they differ, or fall back to something unique)."""
    first = ["Chris", "Alex", "Max", "Sam", "Jo", "Kim", "Lee", "Ray", "Ada", "Eve"]
    names = [f"{'*_' * 6} {n} {'_*' * 6}" for n in first]  # 26-31 characters each
    text = end_post(_ended(names))
    assert text is not None and len(text) <= 2000
    scores = next(line for line in text.splitlines() if line.startswith("Final scores: "))
    shown = [
        entry.split(". ", 1)[1].rsplit(" ", 1)[0]
        for entry in scores.removeprefix("Final scores: ").split(" · ")
    ]
    assert len(shown) == 10
    assert len(set(shown)) == 10, f"the ten players read as {len(set(shown))} name(s): {shown}"
