"""Where the load benchmark stamps a click's answer: a forwarder in a process of its own.

The bots' REST calls reach the fake Discord through this process, byte for byte. It notes
the moment each interaction answer (``POST /api/v10/interactions/<id>/<token>/callback``)
arrives, before forwarding it, and hands the stamps to the harness through a pipe.

Why: the fake serves every REST call on the event loop that also stamped the answers. An
answer that arrived while the fake was still handling the bot's own table and DM edits was
stamped late, and the real bot makes about one such edit per click while the do-nothing
floor makes none: a bias against the real bot in its p99. Real Discord takes its edits
elsewhere. This process does nothing but forward, and asks for real-time priority (granted
to root) so that it runs the moment bytes arrive, whatever the bots and the fake are doing.

Run as ``python -m bench.loadgen.stamper <target port> <stamp fd>``; it prints its own port.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import sys
import time

from bench.loadgen.proc import REPO_ROOT

ANSWER = re.compile(rb"POST /api/v\d+/interactions/(\d+)/[^/\s]+/callback")
CARRY = 160  # bytes of a connection's last chunk kept: a request line split in two is found
CHUNK = 1 << 16


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stamp_fd: int | None
) -> None:
    tail = b""
    try:
        while data := await reader.read(CHUNK):
            if stamp_fd is not None:
                now = time.monotonic()
                seen = tail + data
                lines = [
                    f"{m.group(1).decode()} {now!r}\n"
                    for m in ANSWER.finditer(seen)
                    if m.end() > len(tail)  # found in the carry alone: stamped already
                ]
                if lines:
                    # Before forwarding: the stamp is in the pipe when the fake gets the answer.
                    with contextlib.suppress(BlockingIOError):  # full: the fake stamps itself
                        os.write(stamp_fd, "".join(lines).encode())
                tail = seen[-CARRY:]
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


async def serve(target_port: int, stamp_fd: int) -> None:
    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            writer.close()
            return
        for sock in (writer.get_extra_info("socket"), up_writer.get_extra_info("socket")):
            if sock is not None:
                sock.setsockopt(6, 1, 1)  # TCP_NODELAY, as aiohttp sets it
        await asyncio.gather(_pipe(reader, up_writer, stamp_fd), _pipe(up_reader, writer, None))

    server = await asyncio.start_server(connection, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    print(f"{port} {'realtime' if _realtime() else 'normal'}", flush=True)
    async with server:
        await server.serve_forever()


def _realtime() -> bool:
    """Real-time priority: woken by an answer, this process runs at once rather than after
    whatever the two cores are busy with. Denied without privileges: then a normal process."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        return True
    except (PermissionError, OSError, AttributeError):
        return False


def main(argv: list[str]) -> None:
    target_port, stamp_fd = int(argv[0]), int(argv[1])
    flags = fcntl.fcntl(stamp_fd, fcntl.F_GETFL)
    fcntl.fcntl(stamp_fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(target_port, stamp_fd))


class Stamper:
    """The harness's side: starts the forwarder, and reads when each answer arrived."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.realtime = False
        self.proc: asyncio.subprocess.Process | None = None
        self._read_fd = -1
        self._buffer = b""
        self._stamps: dict[int, float] = {}
        self.found = 0  # answers it had stamped, when the fake asked
        self.missed = 0  # answers it had not (the fake stamped them itself)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> Stamper:
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.loadgen.stamper",
                str(self.target_port),
                str(write_fd),
                cwd=REPO_ROOT,
                pass_fds=(write_fd,),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
            )
        finally:
            os.close(write_fd)
        self._read_fd = read_fd
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 30)
        port, mode = line.decode().split()
        self.port, self.realtime = int(port), mode == "realtime"
        return self

    def arrived(self, interaction_id: int) -> float | None:
        """When the answer to ``interaction_id`` reached this process (``time.monotonic``, the
        same clock in every process here), or None if it was not seen."""
        self._drain()
        at = self._stamps.pop(interaction_id, None)
        if at is None:
            self.missed += 1
        else:
            self.found += 1
        return at

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self._read_fd, CHUNK)
            except BlockingIOError:
                break
            if not data:
                break
            self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            ident, at = line.split()
            self._stamps.setdefault(int(ident), float(at))  # the first arrival counts

    async def close(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            with contextlib.suppress(TimeoutError, ProcessLookupError):
                await asyncio.wait_for(self.proc.wait(), 5)
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()
        if self._read_fd >= 0:
            os.close(self._read_fd)
            self._read_fd = -1

    async def __aenter__(self) -> Stamper:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


if __name__ == "__main__":
    main(sys.argv[1:])
