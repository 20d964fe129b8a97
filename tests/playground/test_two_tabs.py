"""Two tabs of the playground's page, one per player (the page's viewer picker in each)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from config import load_settings


async def labels_within(page: Any, wanted: str, seconds: float = 2.0) -> list[str]:
    """The page's button labels once ``wanted`` is among them, or after ``seconds`` (the
    page polls about once a second)."""
    deadline = time.monotonic() + seconds
    labels: list[str] = []
    while time.monotonic() < deadline:
        await page.poll()
        labels = [b.get("label") for b in page.buttons()]
        if wanted in labels:
            break
        await asyncio.sleep(0.25)
    return labels


async def test_a_move_in_one_tab_shows_in_the_other_players_tab(tmp_path, monkeypatch) -> None:
    """Alice plays in one browser tab, Bob in another. Bob joins Alice's game; Alice presses
    Start. Before, Bob's tab kept showing the lobby until he clicked something himself
    (simcord publishes the clicking page alone). Now the other pages follow once it is over."""
    aiohttp = pytest.importorskip("aiohttp", reason="the playground extra is not installed")
    from cogs.playground import playground
    from tests.playground.test_live_page import Page

    monkeypatch.chdir(tmp_path)
    settings = load_settings(need_token=False, dotenv=None)
    async with playground(settings, "warofsuits", bot_pause=0) as (preview, _env):
        async with aiohttp.ClientSession() as http:
            alice = Page(http, preview.url)
            await alice.open()
            bob = Page(http, preview.url)
            await bob.open()
            await bob.act("viewer", viewer_id=bob.state["viewers"][1]["id"])
            await alice.command("newgame", "warofsuits")
            assert "Join" in [b.get("label") for b in alice.buttons()]
            labels = await labels_within(bob, "Join")
            assert "Join" in labels, f"Bob's tab does not show Alice's new game: {labels}"
            await bob.click("Join")
            await alice.click("Start")
            assert "My hand" in [b.get("label") for b in alice.buttons()]
            labels = await labels_within(bob, "My hand")
            assert "My hand" in labels, f"Bob's tab still shows the lobby: {labels}"
