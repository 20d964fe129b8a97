"""The whole deck, drawn once per test session (about 2 s), and a client logged in to the
project's fake Discord (REST only)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import discord
import pytest

from cogs.faces import art, catalog
from tests.fakediscord import FakeDiscord


@pytest.fixture(scope="session")
def deck_pngs() -> dict[str, bytes]:
    return {name: art.png(name) for name in catalog.all_faces()}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        yield fake


@pytest.fixture
def connect(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> Callable[[], AsyncIterator[discord.Client]]:
    """Logs a fresh client in to the fake (REST only: FaceBook needs no gateway)."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"{fake.base_url}/api/v10")

    @asynccontextmanager
    async def logged_in() -> AsyncIterator[discord.Client]:
        client = discord.Client(intents=discord.Intents.none())
        await client.login("fake-token")
        try:
            yield client
        finally:
            await client.close()

    return logged_in  # type: ignore[return-value]
