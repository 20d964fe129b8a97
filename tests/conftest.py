"""Fixtures every suite may use: the databases a test runs against.

``database`` is a place to keep games, once as a SQLite file and once as a PostgreSQL schema
(the store and Discord suites take it, so both backends run the same tests). PostgreSQL is a
throwaway server started once per run (``tests/pgserver.py``); where PostgreSQL is not
installed its tests are skipped, except in CI (``CI=true``), where that is an error.
"""

from __future__ import annotations

import itertools
import os
import random
import secrets
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from tests.pgserver import Server, find_bin

_schemas = itertools.count(1)
DEAL_SEEDS = 20261123  # where every test's sequence of deal seeds starts


@pytest.fixture(autouse=True)
def pinned_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game a test opens deals from a fixed sequence of seeds, so no test depends on a
    lucky deal: /newgame draws its seed as ``secrets.randbits(63)`` (other draws stay random).
    A test that pins a deal of its own patches over this one."""
    seeds = random.Random(DEAL_SEEDS)
    draw = secrets.randbits
    monkeypatch.setattr(
        secrets, "randbits", lambda bits: seeds.getrandbits(63) if bits == 63 else draw(bits)
    )


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server | None]:
    """The throwaway server (None when TEST_DATABASE_URL names a server of your own)."""
    if os.environ.get("TEST_DATABASE_URL", "").strip():
        yield None
        return
    bindir = find_bin()
    if bindir is None:
        message = "PostgreSQL is not installed (initdb not found)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: .ci/run installs it", pytrace=False)
        pytest.skip(message)
    server = Server(bindir).start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def postgres(pg_server: Server | None) -> str:
    """The URL of a PostgreSQL server for this test run."""
    if pg_server is None:
        return os.environ["TEST_DATABASE_URL"].strip()
    return pg_server.url


async def new_schema(url: str) -> str:
    """A URL for a fresh, empty schema on the server at ``url``: a test's own database."""
    name = f"t{os.getpid()}_{next(_schemas)}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return f"{url}?search_path={name}"


@pytest.fixture
async def pg_url(postgres: str) -> str:
    return await new_schema(postgres)


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test keeps its games: a SQLite file, then a PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    return await new_schema(request.getfixturevalue("postgres"))
