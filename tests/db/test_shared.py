"""Several processes on one database (issue 15): each test opens two stores on one
PostgreSQL schema, as two bot processes would, and checks they agree on every game."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from db import Result, StaleVersion, Store, StoreUnavailable
from db.script import many, run, single
from tests.pgserver import Server


@pytest.fixture
async def two(pg_url: str):
    first, second = await asyncio.gather(Store.open(pg_url), Store.open(pg_url))
    yield first, second
    await asyncio.gather(first.close(), second.close())


async def started(store: Store, channel: int, players: tuple[int, ...] = (100, 101)) -> int:
    game = await store.create_lobby(1, channel, "uno", players[0], "Host", {}, seed=1)
    for p in players[1:]:
        await store.add_seat(game.id, p, f"p{p}")
    await store.start_game(game.id, {"n": 0}, {})
    return game.id


async def test_both_processes_move_one_game_at_once_exactly_one_move_is_stored(two) -> None:
    a, b = two
    game = await started(a, 10)
    for version in range(25):
        results = await asyncio.gather(
            a.record_move(game, version, 100, f"a{version}", {"n": version + 1}, {}),
            b.record_move(game, version, 101, f"b{version}", {"n": version + 1}, {}),
            return_exceptions=True,
        )
        assert sorted(map(type, results), key=str) == sorted([int, StaleVersion], key=str)
    moves = await a.moves(game)
    assert [seq for seq, _, _ in moves] == list(range(1, 26))


async def test_due_clocks_are_claimed_by_exactly_one_process(two) -> None:
    a, b = two
    games = [await started(a, channel) for channel in range(20, 40)]
    now = time.time()
    await a.backend.write(
        lambda: single(run("UPDATE games SET wake_at = ? WHERE status = 'active'", now - 1))
    )
    mine, theirs = await asyncio.gather(a.claim_due(now, 30), b.claim_due(now, 30))
    assert not set(mine) & set(theirs)
    assert sorted(mine + theirs) == games
    # Claimed: nobody takes them again until the lease is over, then one process does.
    assert await b.claim_due(now + 1, 30) == []
    later = now + 31
    again = await asyncio.gather(a.claim_due(later, 30), b.claim_due(later, 30))
    assert sorted(again[0] + again[1]) == games and not set(again[0]) & set(again[1])


async def test_an_end_is_posted_by_one_process_and_by_another_if_the_first_dies(two) -> None:
    a, b = two
    game = await started(a, 10)
    await a.record_move(game, 0, 100, "win", {"n": 1}, {}, status="finished")
    assert await a.claim_announcement(game, 60)
    assert not await b.claim_announcement(game, 60)
    # The claimer died without posting: once the lease is over, another process may.
    b.clock = lambda: time.time() + 61
    claim = await b.claim_announcement(game, 60)
    assert claim is not None
    # Its post failed: the claim is given back at once, for its own retry or another process.
    await b.release_announcement(game, claim)
    b.clock = time.time
    mine = await a.claim_announcement(game, 60)
    assert mine is not None
    # A claim given back late never frees the one that followed it.
    await b.release_announcement(game, claim)
    assert not await b.claim_announcement(game, 60)
    await a.mark_announced(game)
    b.clock = lambda: time.time() + 200
    assert not await b.claim_announcement(game, 60)
    await a.release_announcement(game, mine)  # once posted, nothing to give back
    assert not await b.claim_announcement(game, 60)


async def test_every_change_to_a_game_or_its_seats_bumps_its_revision(two) -> None:
    a, b = two
    seen: list[tuple[int, int]] = []
    a.revised = lambda game_id, rev: seen.append((game_id, rev))
    lobby = await a.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
    assert lobby.rev == 0
    await a.add_seat(lobby.id, 101, "Bob")
    await a.start_game(lobby.id, {"n": 0}, {})
    await a.set_dm(lobby.id, 101, 555, 666)
    await a.record_move(lobby.id, 0, 100, "x", {"n": 1}, {})
    await a.set_table_message(lobby.id, 777, 1.0)
    assert seen == [(lobby.id, n) for n in range(1, 6)]
    # Another process sees the same revision with one cheap read.
    assert await b.game_rev(lobby.id) == 5
    await b.mark_dm_closed(lobby.id, 101)
    assert await a.game_rev(lobby.id) == 6 and len(seen) == 5  # not a's own write


async def test_two_games_finishing_at_once_both_count_in_the_shared_ratings(two) -> None:
    """The stats of one server and game are updated one finishing game at a time: neither
    process rates from a rating the other is replacing."""
    a, b = two

    def rate(previous: dict[int, tuple[float, float] | None]) -> dict[int, tuple[float, float]]:
        return {u: ((r[0] if r else 0.0) + 1.0, 1.0) for u, r in previous.items()}

    for rounds in range(6):
        games = [await started(a, 100 + 2 * rounds), await started(b, 101 + 2 * rounds)]
        result = Result([100, 101], [100], rate)
        await asyncio.gather(
            a.record_move(games[0], 0, 100, "w", {}, {}, status="finished", result=result),
            b.record_move(games[1], 0, 100, "w", {}, {}, status="finished", result=result),
        )
    rows = await a.backend.read(
        lambda: single(many("SELECT user_id, played, rated, mu FROM stats ORDER BY user_id"))
    )
    assert rows == [(100, 12, 12, 12.0), (101, 12, 12, 12.0)]


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(pg_url) for _ in range(3)))
    try:
        rows = await stores[0].backend.read(
            lambda: single(many("SELECT version, COUNT(*) FROM schema_version GROUP BY version"))
        )
        assert rows and all(count == 1 for _, count in rows)
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_an_unreachable_server_stops_the_bot_in_seconds_without_its_password() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once closed
    started_at = time.monotonic()
    with pytest.raises(StoreUnavailable) as error:
        await Store.open(f"postgresql://cards:s3cret@127.0.0.1:{port}/cards", timeout=2)
    assert time.monotonic() - started_at < 10
    text = str(error.value)
    assert f"127.0.0.1:{port}/cards" in text and "s3cret" not in text


async def test_the_store_reconnects_after_the_server_restarts(
    pg_server: Server | None, pg_url: str
) -> None:
    if pg_server is None:
        pytest.skip("needs the throwaway server (TEST_DATABASE_URL names another)")
    store = await Store.open(pg_url, pool_min=2)
    try:
        game = await started(store, 10)
        await asyncio.to_thread(pg_server.restart)
        # Every pooled connection died with the old server: the next calls open new ones.
        assert (await store.get_game(game)) is not None
        assert await store.record_move(game, 0, 100, "x", {"n": 1}, {}) == 1
        assert await store.end_game(game, "ended")
    finally:
        await store.close()


async def test_the_server_refusing_a_write_is_reported_not_retried(pg_url: str) -> None:
    store = await Store.open(pg_url)
    try:
        with pytest.raises(asyncpg.UndefinedTableError):
            await store.backend.write(lambda: single(run("UPDATE nowhere SET x = 1")))
    finally:
        await store.close()


async def test_one_process_at_a_time_draws_a_game_and_hears_of_changes_meanwhile(two) -> None:
    a, b = two
    game = await started(a, 10)
    assert await a.take_drawing(game, "A", 20) is False  # nobody drew it before
    assert await b.take_drawing(game, "B", 20) is None  # A is drawing it
    assert await a.take_drawing(game, "A", 20) is True  # A again: what it drew is still up
    drew = await a.game_rev(game)
    await b.record_move(game, 0, 101, "m", {"n": 1}, {})  # B stores a move meanwhile
    # A gives the drawing back and learns the game moved on (so it draws again).
    assert await a.end_drawing(game, "A", drew) == await b.game_rev(game) != drew
    assert await b.take_drawing(game, "B", 20) is False  # A drew it last
    assert await a.end_drawing(game, "A", drew) is None  # A no longer holds it
    # A holder that dies: its lease runs out and another process takes over.
    a.clock = lambda: time.time() + 21
    assert await a.take_drawing(game, "A", 20) is False


async def test_a_change_left_unshown_is_claimed_for_redrawing_by_one_process(two) -> None:
    a, b = two
    shown, orphan = await started(a, 10), await started(a, 11)
    for game in (shown, orphan):
        await a.record_move(game, 0, 100, "m", {"n": 1}, {})
        assert await a.take_drawing(game, "A", 20) is False
    # A showed one game in full, then died while drawing the other.
    await a.end_drawing(shown, "A", await a.game_rev(shown))
    now = time.time()
    # Within the grace and the lease A may still be drawing: nobody claims it.
    assert await b.claim_undrawn("B", now, 60, 30) == []
    later = now + 61
    mine, theirs = await asyncio.gather(
        a.claim_undrawn("A2", later, 60, 30), b.claim_undrawn("B", later, 60, 30)
    )
    assert sorted(mine + theirs) == [orphan]
    claimer, other = ("B", a) if theirs else ("A2", b)
    assert await other.claim_undrawn("X", later + 1, 60, 30) == []  # leased to the claimer
    # Shown at last: never claimed again, even once the lease is over.
    b.clock = lambda: later + 1
    assert await b.take_drawing(orphan, claimer, 30) is True
    assert await b.end_drawing(orphan, claimer, await b.game_rev(orphan)) is not None
    assert await a.claim_undrawn("A", later + 100, 60, 30) == []
    # Giving back an older revision never hides a newer change.
    rev = await a.game_rev(orphan)
    await a.record_move(orphan, 1, 101, "m2", {"n": 2}, {})
    assert await a.take_drawing(orphan, "A", 20) is False
    await a.end_drawing(orphan, "A", rev)
    assert await b.claim_undrawn("B", later + 100, 60, 30) == [orphan]


async def test_an_end_left_unshown_is_claimed_while_it_is_recent(two) -> None:
    a, b = two
    game = await started(a, 12)
    assert await a.take_drawing(game, "A", 20) is False
    await a.end_drawing(game, "A", await a.game_rev(game))
    await a.end_game(game, "ended")  # A stored the end and died before drawing it
    later = time.time() + 61
    assert await b.claim_undrawn("B", later, 60, 30) == []  # only when asked for ends too
    assert await b.claim_undrawn("B", later, 60, 30, ended_since=later + 1) == []  # too old
    assert await b.claim_undrawn("B", later, 60, 30, ended_since=later - 600) == [game]
    assert await a.claim_undrawn("A", later + 1, 60, 30, ended_since=later - 600) == []
