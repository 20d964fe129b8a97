"""The playground: the real bot in a browser, no token. Headless Chromium (Debian's package)
drives the local page like a person: opens UNO with two bots, plays a card, and the page
shows the table with the card played."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from config import load_settings

CHROMIUM = next(
    (
        p
        for p in (shutil.which("chromium"), "/usr/bin/chromium", shutil.which("chromium-browser"))
        if p and Path(p).exists()
    ),
    None,
)
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEED = 11  # a deal where Alice can play at her first turn


async def test_play_uno_with_two_bots_in_the_browser(tmp_path, monkeypatch) -> None:
    playwright_api = pytest.importorskip(
        "playwright.async_api", reason="the playground extra is not installed"
    )
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium)")
    from cogs import lobby
    from cogs.playground import playground

    monkeypatch.chdir(tmp_path)  # the playground's own database lands here
    draw = lobby.secrets.randbits
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: SEED if bits == 63 else draw(bits))
    settings = load_settings(need_token=False, dotenv=None)
    async with playground(settings, "uno", bot_pause=0) as (preview, _env):
        assert preview.url.startswith("http://127.0.0.1:")
        async with playwright_api.async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = await browser.new_page(viewport={"width": 1200, "height": 900})
            await page.goto(preview.url)
            await page.get_by_text("Welcome to the Card Table playground").last.wait_for()
            # /newgame uno, from the composer's command picker.
            box = page.get_by_placeholder("Message #uno")
            await box.click()
            await box.type("/newgame uno")
            await page.locator(".command-entry", has_text="/newgame uno").first.click()
            await page.locator(".send-message").click()
            await page.get_by_text("New game: UNO").last.wait_for()
            # Two bots, then Start: the table comes, the bots play until it is Alice's turn.
            for label in ("Add bot", "Add bot", "Start"):
                button = page.locator("button.component-button", has_text=label).last
                await button.click()
                await page.wait_for_timeout(300)
            await page.get_by_text("Top card").last.wait_for()
            await page.locator("button.component-button", has_text="Play a card").last.click()
            await page.get_by_text("Your move").last.wait_for()
            # A card from the picker: the newest message's buttons, but not Draw (a wild then
            # asks for its colour).
            cards = page.locator('button.component-button[aria-disabled="false"]').filter(
                has_text=re.compile(r"(Red|Yellow|Green|Blue|Wild)")
            )
            for _ in range(3):
                await cards.last.click()
                await page.wait_for_timeout(500)
                if await page.get_by_text(re.compile(r"Alice plays")).count():
                    break
            await page.locator("#refresh").click()
            await page.get_by_text(re.compile(r"Alice plays")).last.wait_for()
            await page.wait_for_timeout(1500)  # images settle
            await page.screenshot(path=str(tmp_path / "playground.png"))
            text = await page.locator("body").inner_text()
            await browser.close()
    assert "Top card" in text and "Players" in text  # the table
    played = re.search(r"Alice plays ([A-Za-z0-9 ]+?)(?: and|\.)", text)
    assert played is not None, text[-2000:]
    assert (tmp_path / "playground.png").stat().st_size > 20_000  # a real picture
