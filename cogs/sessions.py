"""Live games: a lock per game, a cache in front of the store, apply-then-persist.

No Discord here: ids and engine objects only.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import engine
from cogs.clock import now
from cogs.render.registry import renderer_for
from db import GameRow, SeatRow, Store
from engine import Event, Game

PUBLIC_LOG = 12  # public events kept for the table
PRIVATE_LOG = 6  # private notes kept per player


@dataclass(slots=True)
class Session:
    row: GameRow
    seats: list[SeatRow]
    game: Game | None = None
    # What each player's DM last showed, so a move only edits the DMs that changed.
    dm_shown: dict[int, Any] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def names(self) -> dict[str, str]:
        return {str(s.user_id): s.name or f"Player {s.seat + 1}" for s in self.seats}

    def seat(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def public_log(self) -> list[str]:
        return list(self.row.log.get("public", []))

    def notes(self, user_id: int) -> list[str]:
        return list(self.row.log.get("private", {}).get(str(user_id), []))


def next_deadline(session: Session, log: dict[str, Any]) -> float | None:
    """The deadline for the phase the game is in now (kept while the same phase runs).

    Updates ``log["timer"]``, the key of the timed phase, stored with the state.
    """
    game = session.game
    assert game is not None
    spec = None if game.finished else renderer_for(session.row.kind).timer(game.view(None))
    if spec is None:
        log.pop("timer", None)
        return None
    key, seconds = spec
    if log.get("timer") == key and session.row.deadline is not None:
        return session.row.deadline
    log["timer"] = key
    return now() + seconds


def merge_log(log: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    """The log after ``events``: public lines for the table, private notes per player."""
    public = list(log.get("public", []))
    private = {k: list(v) for k, v in log.get("private", {}).items()}
    for event in events:
        if event.public:
            public.append(event.public)
        for player, text in event.private.items():
            private.setdefault(player, []).append(text)
    merged = {k: v for k, v in log.items() if k not in ("public", "private")}
    merged["public"] = public[-PUBLIC_LOG:]
    merged["private"] = {k: v[-PRIVATE_LOG:] for k, v in private.items()}
    return merged


class Sessions:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[int, Session] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def get(self, game_id: int) -> Session | None:
        """The game, from memory or (first click after a restart) from the database."""
        session = self._cache.get(game_id)
        if session is not None:
            return session
        row = await self.store.get_game(game_id)
        if row is None:
            return None
        session = Session(row=row, seats=await self.store.seats(game_id))
        if row.state is not None:
            session.game = engine.load(row.state)
        if row.status in ("lobby", "active"):
            self._cache[game_id] = session
        return session

    def forget(self, game_id: int) -> None:
        """Drop the cached copy (after a failed write, or once a game is over)."""
        self._cache.pop(game_id, None)

    async def reload_row(self, session: Session) -> None:
        row = await self.store.get_game(session.id)
        if row is not None:
            session.row = row
        session.seats = await self.store.seats(session.id)

    async def start(self, session: Session) -> list[Event]:
        """Deal: lobby -> active. The seed chosen at /newgame makes the deal reproducible."""
        players = [str(s.user_id) for s in session.seats]
        game = engine.new_game(session.row.kind, players, session.row.seed, session.row.options)
        log = merge_log({}, [Event(f"The game begins with {len(players)} players.")])
        session.game = game
        deadline = next_deadline(session, log)
        await self.store.start_game(session.id, game.to_dict(), log, deadline)
        await self.reload_row(session)
        return []

    async def apply(self, session: Session, user_id: int, action_id: str) -> list[Event]:
        """Apply one action and store it (move log + state, one transaction).

        Raises engine.IllegalAction (nothing changed) or db.StaleVersion. If the write fails
        the cached game is dropped, so memory never runs ahead of the database.
        """
        game = session.game
        assert game is not None
        events = game.apply(str(user_id), action_id)
        log = merge_log(session.row.log, events)
        status = "finished" if game.finished else "active"
        deadline = next_deadline(session, log)
        result = None
        if game.finished:
            result = ([s.user_id for s in session.seats], [int(w) for w in game.winners])
        try:
            version = await self.store.record_move(
                session.id,
                session.version,
                user_id,
                action_id,
                game.to_dict(),
                log,
                status,
                deadline,
                result,
            )
        except BaseException:
            self.forget(session.id)
            raise
        session.row.version = version
        session.row.log = log
        session.row.status = status
        session.row.deadline = deadline
        if game.finished:
            self.forget(session.id)
        return events

    async def set_status(self, session: Session, status: str) -> None:
        await self.store.set_status(session.id, status)
        session.row.status = status
        if status not in ("lobby", "active"):
            self.forget(session.id)
