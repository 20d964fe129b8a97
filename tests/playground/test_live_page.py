"""The playground's page must follow what the bot does on its own, between clicks.

simcord's preview publishes a new snapshot of the channel only when the page performs an
action (a click, a command, the toolbar's refresh). GET /api/state, which the page polls,
returns the last published snapshot. Before ``cogs.playground._follow``, everything the bot
did from its own clock after a click had settled -- a bot's move after the 10 s settle window
(UNO grace periods), a turn reminder, a turn timing out, the seat handed to a bot, "game
abandoned" -- never reached the page until the person clicked something.

Seen in a real session (bot.py --playground, driven over HTTP like the page): the table kept
saying "🤖 Babbage to play" while it was Alice's turn; her 60 s turn timer ran out three times,
a bot took her seat and the game was abandoned, none of which the page showed.

Here: the game waits for Alice; the bot posts its turn reminder (NUDGE_AFTER_SECONDS, here
11 s, beyond the click's settle window) from its clock; the page, polled like the browser
polls it, shows that reminder within a few seconds.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import uuid
from dataclasses import replace
from typing import Any

import pytest

from config import load_settings

NUDGE_AFTER = 11.0  # beyond the playground's settle window (10 s): it fires between clicks


class Page:
    """The preview page's HTTP protocol, as static/app.js and actions.js speak it."""

    def __init__(self, session: Any, url: str) -> None:
        base, self.capability = url.split("#", 1)
        self.base = base.rstrip("/")
        self.session = session
        self.context: str | None = None
        self.sequence = 0
        self.state: dict[str, Any] = {}

    def headers(self) -> dict[str, str]:
        headers = {"X-Simcord-Capability": self.capability}
        if self.context:
            headers["X-Simcord-Context"] = self.context
        return headers

    async def open(self) -> None:
        async with self.session.post(
            f"{self.base}/api/pages", json={}, headers=self.headers()
        ) as r:
            self.state = await r.json()
        self.context = self.state["context"]["id"]

    async def poll(self) -> dict[str, Any]:
        async with self.session.get(f"{self.base}/api/state", headers=self.headers()) as r:
            self.state = await r.json()
        return self.state

    async def act(self, kind: str, **extra: Any) -> dict[str, Any]:
        await self.poll()
        self.sequence += 1
        body = dict(
            extra,
            protocol_version=3,
            sequence=self.sequence,
            request_id=str(uuid.uuid4()),
            generation=self.state["context"]["generation"],
            bot_generation=self.state["botGeneration"],
            published_revision=self.state["publishedRevision"],
            kind=kind,
        )
        if kind == "click":
            body["target_id"] = extra["control_key"].split(":")[1]
        async with self.session.post(
            f"{self.base}/api/action", json=body, headers=self.headers()
        ) as r:
            result = await r.json()
        assert not result.get("rejected"), result
        await self.poll()
        return result

    async def command(self, *path: str, **options: str) -> None:
        async with self.session.get(f"{self.base}/api/commands", headers=self.headers()) as r:
            catalog = await r.json()
        entry = next(e for e in catalog["entries"] if e["path"] == list(path))
        await self.act(
            "run_command",
            command_id=entry["commandId"],
            path=list(path),
            options=options,
            schema_fingerprint=entry["schemaFingerprint"],
        )

    def buttons(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []

        def walk(components: Any) -> None:
            for c in components or []:
                if isinstance(c, dict):
                    if c.get("type") == 2:
                        found.append(c)
                    walk(c.get("components"))

        for message_id in self.state["timeline"]:
            walk(self.state["messages"][message_id].get("components"))
        return found

    async def click(self, label: str) -> None:
        button = [b for b in self.buttons() if b.get("label") == label][-1]
        await self.act("click", control_key=button["control_key"])

    def text(self) -> str:
        return json.dumps(
            [self.state["messages"][m] for m in self.state["timeline"]], ensure_ascii=False
        )


async def test_the_page_shows_what_the_bot_posts_between_clicks(tmp_path, monkeypatch) -> None:
    aiohttp = pytest.importorskip("aiohttp", reason="the playground extra is not installed")
    from cogs.playground import playground

    monkeypatch.chdir(tmp_path)  # the playground's own database lands here
    draw = secrets.randbits  # a pinned deal (/newgame draws its seed as randbits(63))
    monkeypatch.setattr(secrets, "randbits", lambda bits: 5 if bits == 63 else draw(bits))
    settings = replace(load_settings(need_token=False, dotenv=None), nudge_after=NUDGE_AFTER)
    async with playground(settings, "uno", bot_pause=0) as (preview, _env):
        async with aiohttp.ClientSession() as http:
            page = Page(http, preview.url)
            await page.open()
            # What the welcome message tells a newcomer to do: /newgame uno, bots, Start.
            await page.command("newgame", "uno", bots="2", turn_timer="0")
            await page.click("Start")
            assert "Alice to play" in page.text() or "Alice" in page.text()

            # The bot reminds Alice from its own clock, with no click from anybody.
            channel = preview.channel
            deadline = time.monotonic() + NUDGE_AFTER + 30
            reminder = None
            while time.monotonic() < deadline and reminder is None:
                recent = list(channel.history())[-5:]
                reminder = next((m for m in recent if "your turn" in (m.content or "")), None)
                await asyncio.sleep(0.5)
            assert reminder is not None, "the bot never posted its turn reminder"

            # The page polls /api/state (every browser tab does, about once a second).
            shown = False
            for _ in range(10):
                state = await page.poll()
                if str(reminder.id) in state["messages"]:
                    shown = True
                    break
                await asyncio.sleep(0.5)
            assert shown, (
                "the bot posted a message between clicks, but the page still shows the "
                f"snapshot of revision {state['publishedRevision']}: nothing republishes it"
            )
