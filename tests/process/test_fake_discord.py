"""Process-level smoke tests: a bot as a real subprocess against the wire-level fake Discord.

The bot is tests/fakediscord/sample_bot.py until bot.py exists; the same harness runs the real
one with module="bot". Everything talks to 127.0.0.1 only (run_bot.py also blocks anything else).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import HEARTBEAT_ACK_DELAY

REPO_ROOT = Path(__file__).resolve().parents[2]
RUN_BOT = REPO_ROOT / "tests" / "fakediscord" / "run_bot.py"
TEST_TIMEOUT = 30.0  # a hard ceiling; the tests take a few seconds


class BotProcess:
    """The bot as a subprocess of this test, its output kept in a log file for failures."""

    def __init__(self, fake: FakeDiscord, workdir: Path, module: str = "sample_bot") -> None:
        self.fake = fake
        self.module = module
        self.log_path = workdir / "bot.log"
        self.env = {
            **os.environ,
            "DISCORD_TOKEN": "fake",
            "DEV_GUILD_ID": str(fake.guild_id),
            "DATABASE_PATH": str(workdir / "bot.db"),
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",  # a SIGKILLed bot must not take its last log lines with it
        }
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log_path.open("a") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(RUN_BOT),
                self.fake.base_url,
                "--module",
                self.module,
                cwd=REPO_ROOT,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )

    async def kill(self) -> None:
        """SIGKILL, like a crash: no cleanup code of the bot runs."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await asyncio.wait_for(self.proc.wait(), 10)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def output(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fake, tmp_path)
    await process.start()
    try:
        await fake.wait_connected(timeout=15)
        await fake.wait_commands("newgame", timeout=15)
        yield process
    finally:
        await process.kill()
        # Shown by pytest only when the test fails.
        print(f"--- bot output ({process.log_path}) ---\n{process.output()[-8000:]}")


async def test_slash_click_dm_closed_dm_and_kill_restart(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        fake.close_dms("dave")
        assert fake.command("newgame")["options"][0]["type"] == 3  # a string option

        # The slash command answers with a message (type 4) carrying the button.
        ix = await fake.slash("alice", "newgame", {"game": "uno"})
        assert (await ix.response()).type == 4
        table = ix.original
        assert table is not None and table in fake.messages_in(fake.channel_id)
        assert table.content == "New uno game by alice"
        assert table.custom_ids() == ["count:uno:0"]

        # A click edits the message through the interaction (type 7) and DMs the clicker.
        click = await fake.click("bob", table.id, "count:uno:0")
        assert (await click.response()).type == 7
        assert click.original is table
        assert table.content == "uno: 1 click(s), last by bob"
        assert table.custom_ids() == ["count:uno:1"]
        assert [old["content"] for old in table.history] == ["New uno game by alice"]
        dms = await fake.wait_for(lambda: fake.dms_to("bob"))
        assert dms[0].content == "You clicked uno; it now has 1 click(s)."

        # Closed DMs: the DM is refused with 50007, the bot says so ephemerally and carries on.
        click = await fake.click("dave", table.id, "count:uno:1")
        assert (await click.response()).type == 7
        notice = (await fake.wait_for(lambda: click.followups))[0]
        assert notice.ephemeral and notice.visible_to == fake.user_id("dave")
        assert "DMs are closed" in notice.content
        assert [user for user, _ in fake.failed_dms] == [fake.user_id("dave")]
        assert {"code": 50007, "message": "Cannot send messages to this user"} in [
            body for _, _, body in fake.rejected
        ]
        assert fake.dms_to("dave") == []
        click = await fake.click("alice", table.id, "count:uno:2")
        assert (await click.response()).type == 7
        assert bot.alive

        # kill -9, restart: the button on the old message still works (a DynamicItem).
        sessions = fake.identify_count
        await bot.kill()
        await fake.wait_disconnected()
        await bot.start()
        await fake.wait_connected(timeout=15)
        assert fake.identify_count == sessions + 1  # a fresh IDENTIFY, not a RESUME
        click = await fake.click("carol", table.id, "count:uno:3")
        assert (await click.response()).type == 7
        assert table.content == "uno: 4 click(s), last by carol"
        assert len(table.history) == 4
        await fake.wait_for(lambda: fake.dms_to("carol"))
        assert fake.unhandled == []


async def test_gateway_resume_and_reidentify(fake: FakeDiscord, bot: BotProcess) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        ix = await fake.slash("bob", "newgame", {"game": "haymaker"})
        await ix.response()
        table = ix.original
        assert table is not None

        # A dropped connection is RESUMEd: same session, no new IDENTIFY.
        sessions = fake.identify_count
        await fake.kill_connections()
        await fake.wait_connected()
        click = await fake.click("alice", table.id, "count:haymaker:0")
        assert (await click.response()).type == 7
        assert fake.identify_count == sessions

        # A session the gateway refuses to resume (op 9) is replaced by a new IDENTIFY, which
        # discord.py delays by 5 s (its before_identify back-off for non-initial connections).
        await fake.kill_connections(resumable=False)
        await fake.wait_for(
            lambda: fake.identify_count == sessions + 1 and fake.is_connected, timeout=15
        )
        click = await fake.click("alice", table.id, "count:haymaker:1")
        assert (await click.response()).type == 7
        assert table.content == "haymaker: 2 click(s), last by alice"


async def test_driver_refuses_what_the_discord_client_would_not_send(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    async with asyncio.timeout(TEST_TIMEOUT):
        with pytest.raises(ValueError, match="choices"):
            await fake.slash("alice", "newgame", {"game": "chess"})
        with pytest.raises(ValueError, match="required"):
            await fake.slash("alice", "newgame", {})
        ix = await fake.slash("alice", "newgame", {"game": "uno"})
        await ix.response()
        assert ix.original is not None
        with pytest.raises(ValueError, match="has no"):
            await fake.click("bob", ix.original.id, "count:uno:7")


async def test_rest_contract_without_a_bot(fake: FakeDiscord) -> None:
    """The wire details discord.py depends on, checked with a plain HTTP client."""
    api = f"{fake.base_url}/api/v10"
    headers = {"Authorization": "Bot fake"}
    async with asyncio.timeout(TEST_TIMEOUT), aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{api}/users/@me") as resp:
            assert resp.headers["Content-Type"] == "application/json"  # exactly, no charset
            assert (await resp.json())["id"] == str(fake.bot.id)
        async with http.get(f"{api}/gateway/bot") as resp:
            assert (await resp.json())["url"] == fake.gateway_url

        fake.close_dms("dave")
        payload = {"recipient_id": str(fake.user_id("dave"))}
        async with http.post(f"{api}/users/@me/channels", json=payload) as resp:
            dm = await resp.json()
        async with http.post(f"{api}/channels/{dm['id']}/messages", json={"content": "hi"}) as resp:
            assert resp.status == 403
            assert (await resp.json())["code"] == 50007

        too_long = {"content": "x" * 2001}
        async with http.post(f"{api}/channels/{fake.channel_id}/messages", json=too_long) as resp:
            assert resp.status == 400
            assert (await resp.json())["code"] == 50035
        rows = {"content": "t", "components": [{"type": 1, "components": []}] * 6}
        async with http.post(f"{api}/channels/{fake.channel_id}/messages", json=rows) as resp:
            assert (await resp.json())["code"] == 50035
        # An emoji Discord does not know on a button (a symbol, not an emoji) is refused.
        for mark, status in (("🂠", 400), ("▶", 400), ("▶️", 200), ("🃏", 200)):
            button = {"type": 2, "style": 2, "label": "My hand", "custom_id": "h", "emoji": {}}
            button["emoji"] = {"name": mark}
            one = {"content": "t", "components": [{"type": 1, "components": [button]}]}
            async with http.post(f"{api}/channels/{fake.channel_id}/messages", json=one) as resp:
                assert resp.status == status, (mark, await resp.json())

        posted = {"content": "table", "embeds": [{"title": "UNO"}]}
        async with http.post(f"{api}/channels/{fake.channel_id}/messages", json=posted) as resp:
            message = await resp.json()
        url = f"{api}/channels/{fake.channel_id}/messages/{message['id']}"
        async with http.patch(url, data=json.dumps({"content": "edited"})) as resp:
            assert (await resp.json())["embeds"] == [{"title": "UNO"}]  # a partial edit
        stored = fake.message(int(message["id"]))
        assert stored.content == "edited" and stored.history[0]["content"] == "table"

        fake.inject_error("PATCH", r"/channels/\d+/messages/\d+", 400, code=30046)
        async with http.patch(url, json={"content": "again"}) as resp:
            assert (await resp.json())["code"] == 30046
        assert stored.content == "edited"

        async with http.get(f"{api}/nothing/here") as resp:
            assert resp.status == 404
        assert fake.unhandled == [("GET", "/nothing/here")]


async def test_heartbeat_ack_comes_after_a_round_trip(fake: FakeDiscord) -> None:
    """Answered at once on loopback, an ACK could beat discord.py's keep-alive thread to
    recording the heartbeat's send time, and discord.py would log a bogus "41 s behind"."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(TEST_TIMEOUT), aiohttp.ClientSession() as http:
        async with http.ws_connect(fake.gateway_url) as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10
            sent = loop.time()
            await ws.send_json({"op": 1, "d": None})
            ack = await ws.receive_json()
            assert ack["op"] == 11
            assert loop.time() - sent >= HEARTBEAT_ACK_DELAY
