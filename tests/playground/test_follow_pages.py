"""The playground's page follower (cogs/playground.py ``_follow``) after a click."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


class _Page:
    def __init__(self, page_id: str) -> None:
        self.id = page_id
        self.revision = 1


class _Preview:
    """The few parts of simcord's Preview that ``_follow``/``_republish`` use."""

    def __init__(self, *ids: str) -> None:
        self._pages = {i: _Page(i) for i in ids}
        self.published: list[str] = []

    def _advance_presentation_time(self) -> None:
        pass

    def _publish(self, page: _Page, *, reason: str = "action") -> None:
        page.revision += 1
        self.published.append(page.id)


class _Env:
    _operation_task: Any = None


class _Bot:
    def __init__(self) -> None:
        self.listeners: list[Any] = []

    def add_listener(self, fn: Any, event: str) -> None:
        self.listeners.append(fn)


async def test_a_bot_move_right_after_a_click_reaches_the_clicking_tab(monkeypatch) -> None:
    """Alice clicks; while the click is handled the table changes (her move), and a bot's
    move lands just after the click, within the follower's pause. Before, both were
    republished to the pages behind the click alone: Alice's tab, published by the click,
    missed the bot's move. Now a change outside a click is published to every page."""
    from cogs import playground as module

    monkeypatch.setattr(module, "FOLLOW_DEBOUNCE", 0.02)
    bot, env, preview = _Bot(), _Env(), _Preview("alice", "bob")
    follower = asyncio.create_task(module._follow(bot, env, preview))
    await asyncio.sleep(0)
    on_change = bot.listeners[0]
    try:
        env._operation_task = object()  # Alice's click is being handled
        await on_change()  # her move edits the table
        preview._publish(preview._pages["alice"], reason="action")  # the click's own publish
        env._operation_task = None  # the click is over
        preview.published.clear()
        await on_change()  # the bot's move, right after: outside any click
        await asyncio.sleep(0.2)
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
    assert "bob" in preview.published
    assert "alice" in preview.published, (
        f"the bot's move after Alice's click was published to {preview.published} only: "
        "Alice's own tab never shows it"
    )
