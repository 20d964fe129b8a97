"""The load benchmark's answer stamps (bench/loadgen/stamper.py): a forwarder process between
the bots and the fake Discord notes when each interaction answer arrives, so the fake's own
event loop (busy with the bot's edits) no longer decides a click's measured time."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace

from aiohttp import ClientSession, web

from bench.loadgen.proc import BotProcess
from bench.loadgen.report import _fake_delays
from bench.loadgen.stamper import Stamper
from tests.fakediscord import FakeDiscord

BUTTON = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "g:1:1:x"}]}


async def test_a_bot_through_the_forwarder_has_its_answer_stamped_there(tmp_path: Path) -> None:
    """The do-nothing bot logs in and answers through the forwarder (its gateway stays on
    the fake); the click's time is the forwarder's stamp, not the fake's."""
    async with FakeDiscord() as fake, Stamper(fake.port) as stamper:
        given: list[float | None] = []

        def arrived(interaction_id: int) -> float | None:
            given.append(stamper.arrived(interaction_id))
            return given[-1]

        fake.answer_arrived = arrived
        null = BotProcess(
            fake, tmp_path, module="bench.nullbot", name="nullbot", base_url=stamper.base_url
        )
        await null.start(commands=())
        try:
            message = fake.add_bot_message(fake.channel_id, content="table", components=[BUTTON])
            ix = await fake.click("alice", message.id, "g:1:1:x")
            answer = await ix.response()
            assert answer.type == 6
            assert stamper.found == 1 and stamper.missed == 0
            stamp = given[0]
            assert stamp is not None and stamp > ix.dispatched_at
            assert answer.elapsed == stamp - ix.dispatched_at
            # What a stamp on the fake's own loop would have added: kept for the report.
            assert fake.answer_delays[ix.id] >= 0
        finally:
            await null.stop()


async def _echo_server() -> tuple[web.AppRunner, int]:
    async def echo(request: web.Request) -> web.Response:
        return web.Response(body=b"echo:" + await request.read())

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, runner.addresses[0][1]


async def test_only_answers_are_stamped_and_bytes_pass_unchanged() -> None:
    runner, port = await _echo_server()
    try:
        async with Stamper(port) as stamper, ClientSession() as http:
            base = f"{stamper.base_url}/api/v10"
            before = time.monotonic()
            async with http.post(f"{base}/interactions/123/tok/callback", data=b"{}") as r:
                assert await r.read() == b"echo:{}"
            after = time.monotonic()
            async with http.patch(f"{base}/channels/5/messages/123", data=b"x" * 5000) as r:
                assert await r.read() == b"echo:" + b"x" * 5000
            async with http.post(f"{base}/interactions/9/tok/callback", data=b"{}") as r:
                await r.read()
            stamp = stamper.arrived(123)
            assert stamp is not None and before <= stamp <= after
            assert stamper.arrived(123) is None, "each stamp is handed over once"
            assert stamper.arrived(5) is None, "an edit is no answer"
            assert stamper.arrived(9) is not None
    finally:
        await runner.cleanup()


async def test_a_request_line_split_across_two_reads_is_still_stamped() -> None:
    runner, port = await _echo_server()
    try:
        async with Stamper(port) as stamper:
            reader, writer = await asyncio.open_connection("127.0.0.1", stamper.port)
            writer.write(b"POST /api/v10/intera")
            await writer.drain()
            await asyncio.sleep(0.2)  # two reads on the forwarder's side
            second = time.monotonic()
            writer.write(
                b"ctions/77/tok/callback HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
            )
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"echo:{}"), 5)
            assert head.startswith(b"HTTP/1.1 200")
            writer.close()
            stamp = stamper.arrived(77)
            assert stamp is not None and stamp >= second
    finally:
        await runner.cleanup()


def test_the_report_says_what_the_fakes_loop_would_have_added_for_each_bot() -> None:
    measured = [SimpleNamespace(interaction_id=i) for i in (1, 2, 3)]
    replayed = [SimpleNamespace(ix=SimpleNamespace(id=i)) for i in (11, 12, 13)]
    cell = SimpleNamespace(measured=measured, null=SimpleNamespace(items=replayed))
    delays = {1: 0.001, 2: 0.002, 3: 0.003, 11: 0.0001, 12: 0.0001, 13: 0.0001, 99: 5.0}
    text = _fake_delays([SimpleNamespace(answer_delays=delays, cells=[cell])])
    assert "the bot's 2.00 / 2.98, the floor's 0.10 / 0.10" in text
    assert _fake_delays([SimpleNamespace(answer_delays={}, cells=[cell])]) == ""
