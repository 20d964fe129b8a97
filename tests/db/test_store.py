"""The store: migrations, one open game per channel, atomic moves with optimistic versions."""

from __future__ import annotations

import pytest

from db import ChannelBusy, Result, SeatChange, StaleVersion, Store
from db.migrate import migration_files
from db.script import Script, one, run, single
from tests.db.test_upgrades import downgrade


@pytest.fixture
async def store(database: str):
    store = await Store.open(database)
    yield store
    await store.close()


async def test_migrations_set_user_version_wal_and_full_sync(tmp_path) -> None:
    store = await Store.open(tmp_path / "games.db")  # SQLite's own settings

    def pragmas() -> Script[list[object]]:
        found = []
        for name in ("user_version", "journal_mode", "foreign_keys", "synchronous"):
            found.append((yield one(f"PRAGMA {name}"))[0])
        return found

    try:
        for run_on in (store.backend.write, store.backend.read):  # both connections
            version, journal, keys, sync = await run_on(pragmas())
            assert (version, journal, keys) == (migration_files()[-1][0], "wal", 1)
            # FULL (2): an acknowledged move survives a power cut; NORMAL (1) may lose it.
            assert sync == 2
    finally:
        await store.close()


async def test_reopening_does_not_reapply_migrations(database: str) -> None:
    first = await Store.open(database)
    game = await first.create_lobby(1, 10, "uno", 100, "Ann", {"target": 300}, seed=7)
    await first.close()
    again = await Store.open(database)
    loaded = await again.get_game(game.id)
    await again.close()
    assert loaded is not None and loaded.options == {"target": 300} and loaded.seed == 7


async def test_running_games_count_as_shown_after_the_upgrade(tmp_path) -> None:
    """Before migration 5, nothing stored what a lone bot had shown: its first start after
    the upgrade redraws none of the running games, but from then on any change it stores
    and does not show."""
    path = tmp_path / "games.db"
    store = await Store.open(path)
    game = await store.create_lobby(1, 10, "uno", 100, "Ann", {}, seed=1)
    await store.start_game(game.id, {"n": 0}, {})
    await store.backend.write(single(run("UPDATE games SET drawn = 0")))
    await downgrade(store, 4)
    await store.close()

    store = await Store.open(path)
    try:
        assert await store.undrawn() == []
        await store.record_move(game.id, 0, 100, "draw", {"n": 1}, {})
        assert await store.undrawn() == [game.id]
        rev = await store.game_rev(game.id)
        await store.mark_drawn({game.id: rev})
        assert await store.undrawn() == []
    finally:
        await store.close()


async def test_games_ended_before_the_upgrade_count_as_shown(tmp_path) -> None:
    """Migration 6 looks for ends never shown too: not for ends older than itself, and never
    for a lobby (it has no table or DMs)."""
    path = tmp_path / "games.db"
    store = await Store.open(path)
    ended = await store.create_lobby(1, 10, "uno", 100, "Ann", {}, seed=1)
    await store.start_game(ended.id, {"n": 0}, {})
    await store.end_game(ended.id, "ended")
    await store.backend.write(single(run("UPDATE games SET drawn = 0")))
    await downgrade(store, 5)
    await store.close()

    store = await Store.open(path)
    try:
        since = store.clock() - 60
        assert await store.undrawn(since) == []
        lobby = await store.create_lobby(1, 11, "uno", 100, "Ann", {}, seed=2)
        await store.end_game(lobby.id, "expired")
        game = await store.create_lobby(1, 12, "uno", 100, "Ann", {}, seed=3)
        await store.start_game(game.id, {"n": 0}, {})
        await store.mark_drawn({game.id: await store.game_rev(game.id)})
        await store.end_game(game.id, "ended")
        assert await store.undrawn(since) == [game.id]
        assert await store.undrawn(store.clock() + 1) == []  # an end older than asked for
        await store.mark_drawn({game.id: await store.game_rev(game.id)})
        assert await store.undrawn(since) == []
    finally:
        await store.close()


async def test_one_open_game_per_channel(store: Store) -> None:
    game = await store.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
    with pytest.raises(ChannelBusy):
        await store.create_lobby(1, 10, "uno", 200, "Host", {}, seed=2)
    # Another channel is fine, and a cancelled game frees its channel.
    await store.create_lobby(1, 11, "uno", 200, "Host", {}, seed=3)
    assert await store.end_game(game.id, "ended")
    assert not await store.end_game(game.id, "ended")  # already ended: nothing changes
    await store.create_lobby(1, 10, "haymaker", 300, "Host", {}, seed=4)
    assert len(await store.open_games_in_guild(1)) == 2


async def test_seats_in_join_order_and_no_double_join(store: Store) -> None:
    game = await store.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
    assert await store.add_seat(game.id, 200, "Bea")
    assert not await store.add_seat(game.id, 200, "Bea")
    assert await store.add_seat(game.id, 300, "Cy")
    assert await store.remove_seat(game.id, 200)
    assert not await store.remove_seat(game.id, 200)
    seats = await store.seats(game.id)
    assert [(s.user_id, s.name) for s in seats] == [(100, "Host"), (300, "Cy")]


async def test_record_move_is_atomic_and_refuses_stale_versions(store: Store) -> None:
    game = await store.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
    await store.start_game(game.id, {"n": 0}, {"public": ["started"]})
    assert await store.record_move(game.id, 0, 100, "draw", {"n": 1}, {"public": ["a"]}) == 1
    with pytest.raises(StaleVersion):
        await store.record_move(game.id, 0, 200, "draw", {"n": 99}, {})
    loaded = await store.get_game(game.id)
    assert loaded is not None
    assert (loaded.version, loaded.state, loaded.log) == (1, {"n": 1}, {"public": ["a"]})
    assert await store.moves(game.id) == [(1, 100, "draw")]


async def test_finished_game_takes_no_more_moves(store: Store) -> None:
    game = await store.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
    await store.start_game(game.id, {}, {})
    await store.record_move(game.id, 0, 100, "x", {}, {}, status="finished")
    with pytest.raises(StaleVersion):
        await store.record_move(game.id, 1, 100, "y", {}, {})


async def test_finishing_move_counts_stats_in_the_same_transaction(store: Store) -> None:
    for winner in (100, 200):
        game = await store.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
        await store.start_game(game.id, {}, {})
        await store.record_move(
            game.id,
            0,
            winner,
            "play:R1",
            {},
            {},
            status="finished",
            result=Result([100, 200], [winner]),
        )
        assert [g.id for g in await store.unannounced()] == [game.id]
        await store.mark_announced(game.id)
        assert await store.unannounced() == []
    assert await store.stats(1, 100) == {"uno": (2, 1)}
    assert await store.stats(1, 200) == {"uno": (2, 1)}


async def test_a_game_no_member_won_is_a_loss_unless_nobody_won(store: Store) -> None:
    """A bot's win leaves no member among the winners: a loss for the members (their losing
    streak grows). Before: it was counted as a draw, which resets every streak."""

    async def finish(result: Result) -> None:
        game = await store.create_lobby(1, 10, "haymaker", 100, "Host", {}, seed=1)
        await store.start_game(game.id, {}, {})
        await store.record_move(game.id, 0, 100, "x", {}, {}, status="finished", result=result)

    async def streak() -> int:
        (row,) = await store.member_stats(1, 100)
        return row.streak

    for expected in (-1, -2):
        await finish(Result([100], [], draw=False))  # a bot won
        assert await streak() == expected
    await finish(Result([100], [], draw=True))  # nobody won: a draw breaks the streak
    assert await streak() == 0
    await finish(Result([100], [100]))
    await finish(Result([100], []))  # built without bots: no winner reads as a draw
    assert await streak() == 0


async def test_a_refused_finishing_move_counts_nothing(store: Store) -> None:
    game = await store.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
    await store.start_game(game.id, {}, {})
    await store.record_move(game.id, 0, 100, "draw", {}, {})
    with pytest.raises(StaleVersion):
        await store.record_move(
            game.id, 0, 100, "play:R1", {}, {}, status="finished", result=Result([100], [100])
        )
    assert await store.stats(1, 100) == {}


async def test_clocks_and_stale_lobbies(store: Store) -> None:
    game = await store.create_lobby(1, 10, "itemcollection", 100, "Host", {}, seed=1)
    assert await store.stale_lobbies(older_than=game.updated_at + 1) == [game.id]
    assert await store.stale_lobbies(older_than=game.updated_at - 1) == []
    assert await store.start_game(game.id, {}, {}, {"phase": 50.0}, wake_at=50.0)
    assert not await store.start_game(game.id, {}, {})  # not a lobby any more
    assert await store.stale_lobbies(older_than=game.updated_at + 1e9) == []
    assert await store.next_wake() == 50.0
    assert await store.due_games(now=60.0) == [game.id]
    assert await store.due_games(now=40.0) == []
    # A clock change is refused once the game has moved on.
    assert not await store.set_clocks(game.id, 1, {}, None)
    assert await store.set_clocks(game.id, 0, {}, None)
    assert await store.next_wake() is None


async def test_a_seat_change_stores_its_clocks_in_the_same_transaction(store: Store) -> None:
    game = await store.create_lobby(1, 10, "uno", 100, "Host", {}, seed=1)
    await store.add_seat(game.id, 200, "Bea")
    await store.start_game(game.id, {}, {}, {"turn": {"100": 50.0}}, wake_at=50.0)
    left = SeatChange(100, True, "normal", "left", 0)
    assert await store.set_seat(game.id, left, (0, {"bot": 7.0}, 7.0))
    row = await store.get_game(game.id)
    assert row is not None and row.clocks == {"bot": 7.0} and row.wake_at == 7.0
    seat = next(s for s in await store.seats(game.id) if s.user_id == 100)
    assert seat.is_bot and seat.away == "left"
    # The game moved on meanwhile: the seat still changes; clocks worked out for the older
    # version are not stored over the newer ones.
    await store.record_move(game.id, 0, 200, "draw", {}, {}, clocks={"bot": 8.0}, wake_at=8.0)
    back = SeatChange(100, False, None, None, 0)
    assert not await store.set_seat(game.id, back, (0, {"turn": {"100": 9.0}}, 9.0))
    row = await store.get_game(game.id)
    assert row is not None and row.clocks == {"bot": 8.0} and row.wake_at == 8.0
    seat = next(s for s in await store.seats(game.id) if s.user_id == 100)
    assert not seat.is_bot and seat.away is None


async def test_a_lobby_is_seated_only_while_it_is_a_lobby(store: Store) -> None:
    game = await store.create_lobby(
        1, 10, "uno", 100, "Host", {}, seed=1, bots=[(-1, "🤖 Ada", "normal")]
    )
    seats = await store.seats(game.id)
    assert [(s.user_id, s.is_bot, s.human, s.level) for s in seats] == [
        (100, False, True, None),
        (-1, True, False, "normal"),
    ]
    await store.start_game(game.id, {}, {})
    assert not await store.add_seat(game.id, 300, "Late")
    assert not await store.remove_seat(game.id, -1)
    assert len(await store.seats(game.id)) == 2
    assert await store.reopen_lobby(game.id)
    row = await store.get_game(game.id)
    assert row is not None and row.status == "lobby" and row.state is None
    assert await store.add_seat(game.id, 300, "Late")


async def test_a_moves_notes_are_stored_with_it(store: Store) -> None:
    """The lines the bot adds to the table with a move (a timeout) go with the move: /replay
    shows them. A move without any stores none."""
    game = await store.create_lobby(1, 13, "uno", 100, "Ann", {}, seed=1)
    await store.start_game(game.id, {"n": 0}, {})
    await store.record_move(game.id, 0, 100, "draw", {"n": 1}, {})
    timed_out = {"before": ["⏰ 100 ran out of time (strike 3 of 3)."], "after": ["a bot plays"]}
    await store.record_move(game.id, 1, 100, "pass", {"n": 2}, {}, notes=timed_out)
    assert await store.move_notes(game.id) == {2: timed_out}
    assert [m[2] for m in await store.moves(game.id)] == ["draw", "pass"]


async def test_writes_that_change_nothing_shown_keep_a_shown_game_shown(tmp_path) -> None:
    """The reminder's id, the end posted and which message is the table make new revisions
    (other processes reload on them) but show nothing new: a game shown in full before them
    is not redrawn at the next start for them."""
    store = await Store.open(tmp_path / "games.db")
    try:
        game = await store.create_lobby(1, 10, "uno", 100, "Ann", {}, seed=1)
        await store.start_game(game.id, {"n": 0}, {})
        await store.mark_drawn({game.id: await store.game_rev(game.id)})  # type: ignore[dict-item]
        await store.set_nudge_message(game.id, 555)
        await store.set_table_message(game.id, 777, 0.0)
        assert await store.undrawn() == []
        await store.record_move(game.id, 0, 100, "draw", {"n": 1}, {})
        assert await store.undrawn() == [game.id]  # a move still is shown news
    finally:
        await store.close()


async def test_the_first_application_owns_the_database_until_one_adopts_it(store: Store) -> None:
    assert await store.claim_owner(1) == 1  # the first start claims it
    assert await store.claim_owner(1) == 1
    assert await store.claim_owner(2) == 1  # another application is told whose it is
    assert await store.claim_owner(2, adopt=True) == 2  # --adopt-database
    assert await store.claim_owner(1) == 2
