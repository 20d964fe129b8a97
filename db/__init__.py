"""Persistence: SQLite through aiosqlite. Knows SQL and JSON, never Discord objects."""

from db.store import ChannelBusy, GameRow, SeatRow, StaleVersion, Store

__all__ = ["ChannelBusy", "GameRow", "SeatRow", "StaleVersion", "Store"]
