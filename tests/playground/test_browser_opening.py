"""Opening the browser at start (bot.py --playground without --no-browser)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import urllib.request
import webbrowser

from config import load_settings


async def test_a_browser_command_that_waits_does_not_freeze_the_page(
    tmp_path, monkeypatch, capsys
) -> None:
    """Without a display (a VPS over SSH) webbrowser runs a console browser (w3m, lynx,
    $BROWSER) and waits until it exits. Before, that froze the playground (the page did not
    answer, no bot moved). Now the browser is opened off the loop. Here a stand-in browser
    stays open 1.5 s while the page is fetched."""
    from cogs import playground as module

    monkeypatch.chdir(tmp_path)
    answered: list[str] = []
    url_seen: list[str] = []

    def fetch(url: str) -> None:
        with contextlib.suppress(Exception):
            with urllib.request.urlopen(url.split("#")[0], timeout=1.0) as response:
                answered.append(str(response.status))

    def console_browser(url: str, *args, **kwargs) -> bool:  # waits like w3m would
        url_seen.append(url)
        fetcher = threading.Thread(target=fetch, args=(url,))
        fetcher.start()
        time.sleep(1.5)
        fetcher.join()
        return True

    monkeypatch.setattr(webbrowser, "open", console_browser)
    settings = load_settings(need_token=False, dotenv=None)
    task = asyncio.create_task(module.run(settings, "uno", open_page=True))
    for _ in range(100):
        await asyncio.sleep(0.05)
        if url_seen and not task.done():
            break
    await asyncio.sleep(0.1)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert url_seen, "the browser was never opened"
    assert answered == ["200"], "the page did not answer while the browser command ran"
