"""Persistence: knows SQL and JSON, never Discord objects."""

from db.errors import (
    ChannelBusy,
    HostBusy,
    HostTooFast,
    SaveUncertain,
    SeatRemoved,
    StaleVersion,
    StoreError,
    StoreUnavailable,
)
from db.rows import GameRow, SeatRow
from db.store import Result, SeatChange, Store

__all__ = [
    "ChannelBusy",
    "GameRow",
    "HostBusy",
    "HostTooFast",
    "Result",
    "SaveUncertain",
    "SeatChange",
    "SeatRemoved",
    "SeatRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "StoreUnavailable",
]
