"""Errors the store raises, the same whatever the database behind it."""

from __future__ import annotations


class StoreError(Exception):
    """The database failed in a way the caller cannot fix (logged, the user told kindly)."""


class StoreUnavailable(StoreError):
    """The database cannot be opened, migrated or written; the message says why and how to fix."""


class SaveUncertain(StoreUnavailable):
    """The connection was lost while a change was being committed: it may be stored or not."""


class Conflict(StoreError):
    """A uniqueness rule refused the write (translated from the backend's own error)."""


class ChannelBusy(Exception):
    """This channel already has an open game."""


class HostBusy(Exception):
    """The member already hosts as many lobbies in this server as one member may."""

    def __init__(self, channel_ids: list[int]) -> None:
        super().__init__(f"lobbies open in channels {channel_ids}")
        self.channel_ids = channel_ids  # where their open lobbies are


class HostTooFast(Exception):
    """The member opened as many lobbies lately (none of them started) as one member may."""

    def __init__(self, free_at: float) -> None:
        super().__init__(f"too many lobbies lately; another from {free_at}")
        self.free_at = free_at  # when the oldest of them stops counting (unix time)


class StaleVersion(Exception):
    """The game moved on since it was loaded (optimistic check failed)."""


class SeatRemoved(Exception):
    """The member was removed from the game (kicked) meanwhile: their seat stays a bot's."""
