"""Plain rows the store hands out: ids and JSON-decoded values, never library objects."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, host_id, status, options, seed, state, version, log, "
    "table_message_id, table_posted_at, created_at, updated_at, settings, clocks, wake_at, "
    "ended_reason, finished_at, nudge_message_id, announced, ratings, rev, drawn, old_dms"
)
SEAT_COLUMNS = (
    "game_id, user_id, seat, name, is_bot, dm_channel_id, dm_message_id, dm_closed, human, "
    "level, away, strikes"
)


@dataclass(slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    host_id: int
    status: str  # lobby | active | finished | cancelled
    options: dict[str, Any]  # the engine options chosen at /newgame
    seed: int
    state: dict[str, Any] | None  # engine to_dict(); None in the lobby and once a cached
    # session has built its game from it (cogs.sessions: one copy in memory)
    version: int  # moves applied; buttons carry it
    log: dict[str, Any]  # recent public lines, private notes, what each player last saw
    table_message_id: int | None
    table_posted_at: float | None
    created_at: float
    updated_at: float
    settings: dict[str, Any] = field(default_factory=dict)  # hosting: turn timer, bot level...
    clocks: dict[str, Any] = field(default_factory=dict)  # deadlines, a bot's move, a nudge
    wake_at: float | None = None  # the nearest clock
    # Why a cancelled game stopped: ended, abandoned, expired, channel_gone, server_left,
    # thread_locked.
    ended_reason: str | None = None
    finished_at: float | None = None
    nudge_message_id: int | None = None
    announced: bool = False
    ratings: dict[str, list[float | None]] = field(default_factory=dict)  # {user: [was, is]}
    rev: int = 0  # bumped by every change to the game or its seats (shared-database checks)
    drawn: int = 0  # the revision shown in full on Discord (stored a second after, at most)
    old_dms: bool = False  # its DMs were drawn by a version before the Play button between turns

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "active")


@dataclass(slots=True)
class SeatRow:
    game_id: int
    user_id: int  # a Discord user id; bots created as bots have negative ids
    seat: int
    name: str
    is_bot: bool  # a bot plays this seat now
    dm_channel_id: int | None
    dm_message_id: int | None
    dm_closed: bool
    human: bool = True  # a member owns the seat (a bot may be playing it while they are away)
    level: str | None = None  # the bot's level while a bot plays
    away: str | None = None  # why a member's seat is played by a bot: left, kicked, timeout
    strikes: int = 0  # turns timed out in a row


@dataclass(frozen=True, slots=True)
class StatRow:
    """A member's record in one game on one server."""

    user_id: int
    kind: str
    played: int
    won: int
    streak: int
    best_streak: int
    ordinal: float | None  # the conservative rating (mu - 3 sigma), None until rated
    rated: int


STAT_COLUMNS = "user_id, kind, played, won, streak, best_streak, ordinal, rated"


def stat_row(r: tuple[Any, ...]) -> StatRow:
    return StatRow(int(r[0]), str(r[1]), r[2], r[3], r[4], r[5], r[6], r[7])


def _loads(text: str | None, default: Any) -> Any:
    return json.loads(text) if text else default


def game_row(r: tuple[Any, ...]) -> GameRow:
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        kind=r[3],
        host_id=r[4],
        status=r[5],
        options=_loads(r[6], {}),
        seed=r[7],
        state=_loads(r[8], None),
        version=r[9],
        log=_loads(r[10], {}),
        table_message_id=r[11],
        table_posted_at=r[12],
        created_at=r[13],
        updated_at=r[14],
        settings=_loads(r[15], {}),
        clocks=_loads(r[16], {}),
        wake_at=r[17],
        ended_reason=r[18],
        finished_at=r[19],
        nudge_message_id=r[20],
        announced=bool(r[21]),
        ratings=_loads(r[22], {}),
        rev=r[23],
        drawn=r[24],
        old_dms=bool(r[25]),
    )


def seat_row(r: tuple[Any, ...]) -> SeatRow:
    return SeatRow(
        game_id=r[0],
        user_id=r[1],
        seat=r[2],
        name=r[3],
        is_bot=bool(r[4]),
        dm_channel_id=r[5],
        dm_message_id=r[6],
        dm_closed=bool(r[7]),
        human=bool(r[8]),
        level=r[9],
        away=r[10],
        strikes=r[11],
    )


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
