"""Fixtures for the tests of several processes sharing one PostgreSQL database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from cogs.sessions import Sessions
from db import Store


@pytest.fixture
async def two(pg_url: str) -> AsyncIterator[tuple[Sessions, Sessions, int]]:
    """Two processes' sessions on one database, and a started three-player UNO game."""
    a, b = await asyncio.gather(Store.open(pg_url), Store.open(pg_url))
    try:
        lobby = await a.create_lobby(1, 10, "uno", 100, "Alice", {}, seed=7)
        await a.add_seat(lobby.id, 101, "Bob")
        await a.add_seat(lobby.id, 102, "Carol")
        one = Sessions(a)
        session = await one.get(lobby.id)
        assert session is not None and await one.start(session, time.time())
        yield one, Sessions(b), lobby.id
    finally:
        await asyncio.gather(a.close(), b.close())
