"""Fixtures of the process tests: the wire-level fake Discord the real bot connects to."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord for one test (a test module may override it, e.g. with a wider scope)."""
    async with FakeDiscord() as fake:
        yield fake
