"""The whole deck, drawn once per test session (about 2 s)."""

from __future__ import annotations

import pytest

from cogs.faces import art, catalog


@pytest.fixture(scope="session")
def deck_pngs() -> dict[str, bytes]:
    return {name: art.png(name) for name in catalog.all_faces()}
