"""Runs a bot against FakeDiscord instead of discord.com.

    python tests/fakediscord/run_bot.py <fake_base_url> [--module bot|sample_bot] [bot's options]

Points discord.py's REST base (`discord.http.Route.BASE`, which also serves `/gateway/bot`), its
default gateway and its CDN base at the fake, confines every socket of this process to loopback,
then imports the module (default: the real `bot` at the repository root) and calls its `main()`.
The bot itself is not modified: it reads DISCORD_TOKEN, DATABASE_PATH, ... as usual.
"""

from __future__ import annotations

import argparse
import importlib
import ipaddress
import os
import socket
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]


def _is_loopback(host: str | bytes | None) -> bool:
    if host is None:
        return True  # a passive/local lookup, not a remote address
    name = host.decode() if isinstance(host, bytes) else host
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name.split("%")[0]).is_loopback
    except ValueError:
        return False


def confine_to_loopback() -> None:
    """Makes any attempt to leave 127.0.0.1 fail loudly instead of reaching the network.

    The test environment has no network anyway; this turns a forgotten URL (a CDN asset, a hard
    coded discord.com) into an immediate, visible error rather than a hang or a real request.
    """
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_loopback(host):
            raise socket.gaierror(socket.EAI_NONAME, f"run_bot: lookup of {host!r} blocked")
        return real_getaddrinfo(host, *args, **kwargs)

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
            raise PermissionError(f"run_bot: connection to {address!r} blocked (loopback only)")

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    socket.getaddrinfo = getaddrinfo
    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]


def point_discord_at(base_url: str) -> None:
    """Redirects discord.py's REST, gateway and CDN base URLs to the fake."""
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    base = yarl.URL(base_url.rstrip("/"))
    discord.http.Route.BASE = f"{base}/api/v10"
    ws_scheme = "wss" if base.scheme == "https" else "ws"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = base.with_scheme(ws_scheme) / "ws"
    discord.asset.Asset.BASE = f"{base}/cdn"


def write_memory_report(path: str, files: str) -> None:
    """What tracemalloc saw still held: by file and line; with more than one frame traced,
    also the biggest call paths of the allocations in ``files`` (comma-separated patterns)."""
    import gc
    import tracemalloc

    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    with open(path, "w") as out:
        for key in ("filename", "lineno"):
            stats = snapshot.statistics(key)
            out.write(f"# by {key}: {sum(s.size for s in stats) / 2**20:.1f} MiB traced\n")
            for stat in stats[:60]:
                out.write(f"{stat.size / 1024:10.1f} KiB {stat.count:8d} {stat.traceback}\n")
        if tracemalloc.get_traceback_limit() > 1:
            kept = snapshot.filter_traces([tracemalloc.Filter(True, f) for f in files.split(",")])
            for stat in kept.statistics("traceback")[:25]:
                out.write(f"\n{stat.size / 1024:.1f} KiB in {stat.count} blocks\n")
                out.write("\n".join(stat.traceback.format(most_recent_first=True)) + "\n")


def log_full_collections(path: str) -> None:
    """Append one line per full (generation 2) garbage collection: when, how long, how many
    objects it looked at (the pauses behind the p99 tail under load)."""
    import gc
    import time

    started: list[float] = []
    out = open(path, "a", buffering=1)  # open for the process's life

    def callback(phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            pause = (time.perf_counter() - started[0]) * 1000
            tracked = len(gc.get_objects(generation=2))
            out.write(f"{time.time():.3f} {pause:.1f}ms tracked={tracked}\n")

    gc.callbacks.append(callback)


def total_collections(path: str) -> None:
    """Keep `path` holding, per generation, how many collections ran and their total time
    (rewritten at most once a second): the collector's share of the bot's CPU."""
    import gc
    import time

    started: list[float] = [0.0]
    totals = {0: [0, 0.0], 1: [0, 0.0], 2: [0, 0.0]}
    written = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            started[0] = now
            return
        entry = totals[info["generation"]]
        entry[0] += 1
        entry[1] += now - started[0]
        if now - written[0] > 1.0:
            written[0] = now
            with open(path, "w") as out:
                for gen, (count, seconds) in totals.items():
                    out.write(f"gen{gen} {count} {seconds * 1000:.1f}ms\n")

    gc.callbacks.append(callback)


PHASES = (
    # (name, from stamp, to stamp): where an applied move's answer goes inside the bot
    ("before the rules (lock, load, checks)", "click", "apply"),
    ("the rules, the log and the clocks", "apply", "submit"),
    ("to the database thread", "submit", "thread"),
    ("the statements", "thread", "commit"),
    ("the commit (fsync)", "commit", "committed"),
    ("back to the event loop", "committed", "resume"),
    ("drawing the answer", "applied", "answer"),
)


def trace_click_phases(path: str) -> None:
    """Benchmarks: one JSON line per click that stores a move and is answered, with the
    interaction id and `time.perf_counter()` stamps (CLOCK_MONOTONIC, the fake's clock too)
    at each step of the click path (`PHASES`). The bot is wrapped from outside, as for the
    profile: its code has no benchmark hooks."""
    import contextvars
    import json
    import time

    from cogs import components
    from cogs.sessions import Sessions
    from db.sqlite import SqliteBackend

    current: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
        "click_phases", default=None
    )
    out = open(path, "w", buffering=1)  # a line per move, open for the process's life

    def stamp(key: str, record: dict[str, Any] | None = None) -> None:
        record = record if record is not None else current.get()
        # Tasks started by the click (the presenter's) inherit the record: only the click's
        # own first pass through each step counts, and nothing once it has finished.
        if record is not None and "done" not in record and key not in record:
            record[key] = time.perf_counter()

    dispatch, answer = components.dispatch, components._answer
    apply, write, drive = Sessions.apply, SqliteBackend.write, SqliteBackend._drive

    async def traced_dispatch(interaction: Any, item: Any) -> None:
        record: dict[str, Any] = {"id": interaction.id, "click": time.perf_counter()}
        token = current.set(record)
        try:
            await dispatch(interaction, item)
        finally:
            record["done"] = time.perf_counter()
            current.reset(token)
            if "applied" in record and "answered" in record:
                out.write(json.dumps(record) + "\n")

    async def traced_apply(self: Any, *args: Any, **kwargs: Any) -> Any:
        stamp("apply")
        try:
            return await apply(self, *args, **kwargs)
        finally:
            stamp("applied")

    class Traced:
        """A write's script, marked with the click it belongs to."""

        def __init__(self, work: Any, record: dict[str, Any]) -> None:
            self.work, self.record = work, record

        def __call__(self) -> Any:
            stamp("thread", self.record)
            result = yield from (self.work() if callable(self.work) else self.work)
            stamp("commit", self.record)
            return result

    async def traced_write(self: Any, work: Any) -> Any:
        record = current.get()
        if record is None or "done" in record or "submit" in record or "apply" not in record:
            return await write(self, work)
        stamp("submit")
        try:
            return await write(self, Traced(work, record))
        finally:
            stamp("resume")

    def traced_drive(self: Any, conn: Any, work: Any, writing: bool) -> Any:
        try:
            return drive(self, conn, work, writing)
        finally:
            if isinstance(work, Traced):
                stamp("committed", work.record)

    async def traced_answer(interaction: Any, kind: Any, data: Any) -> None:
        stamp("answer")
        await answer(interaction, kind, data)
        stamp("answered")

    components.dispatch = traced_dispatch
    components._answer = traced_answer
    Sessions.apply = traced_apply  # type: ignore[method-assign]
    SqliteBackend.write = traced_write  # type: ignore[method-assign]
    SqliteBackend._drive = traced_drive  # type: ignore[method-assign,assignment]


def weaken_sqlite_sync(level: str) -> None:
    """Benchmarks only: the bot's SQLite connections use ``synchronous=level`` instead of FULL,
    to show in the load benchmark what the durable commit costs. The bot itself has no such
    setting: an acknowledged move must survive a power cut."""
    if level.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise SystemExit(f"RUN_BOT_SQLITE_SYNCHRONOUS: unknown level {level!r}")
    from db.sqlite import SqliteBackend

    connect = SqliteBackend._connect

    def weakened(self: Any, write: bool) -> Any:
        conn = connect(self, write)
        conn.execute(f"PRAGMA synchronous = {level.upper()}")
        return conn

    SqliteBackend._connect = weakened  # type: ignore[method-assign]


def pin_deals(seed: str) -> None:
    """Tests: the seeds this process picks for new games (`secrets.randbits` at /newgame and
    Play again, its only source of chance: bots and timers derive theirs from the game's seed)
    follow from ``seed``, so a whole-process test deals the same cards on every run and a
    failure can be replayed."""
    import random
    import secrets

    secrets.randbits = random.Random(seed).getrandbits  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url", help="FakeDiscord.base_url, e.g. http://127.0.0.1:8123")
    parser.add_argument("--module", default="bot", help="module whose main() runs the bot")
    # The rest of the line is the bot's own (``--adopt-database``...).
    args, rest = parser.parse_known_args(argv)

    confine_to_loopback()
    point_discord_at(args.base_url)
    # The real bot lives at the repository root; the sample bot next to this file.
    for path in (str(REPO_ROOT), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    module = importlib.import_module(args.module)
    sys.argv[1:] = rest  # the bot's own command line: without run_bot's arguments
    seed = os.environ.get("RUN_BOT_SEED")  # tests: pinned deals
    if seed:
        pin_deals(seed)
    profile = os.environ.get("RUN_BOT_PROFILE")  # benchmarks: where to write a cProfile dump
    if profile:
        import atexit
        import cProfile
        import signal

        profiler = cProfile.Profile()

        def save() -> None:
            profiler.disable()
            profiler.dump_stats(profile)

        def dump(*_: Any) -> None:
            raise SystemExit(0)  # the dump is written at exit

        # A bot that stops gracefully on SIGTERM (bot.py) replaces this handler with its own
        # and exits normally: the dump is written at exit either way.
        atexit.register(save)
        signal.signal(signal.SIGTERM, dump)
        if os.environ.get("RUN_BOT_PROFILE_WINDOWS"):
            # Only the benchmark's measured windows: it sends USR1 at the start, USR2 at the end.
            signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
            signal.signal(signal.SIGUSR2, lambda *_: profiler.disable())
        else:
            profiler.enable()
    gc_log = os.environ.get("RUN_BOT_GC_LOG")  # benchmarks: each full collection's pause
    if gc_log:
        log_full_collections(gc_log)
    gc_totals = os.environ.get("RUN_BOT_GC_TOTALS")  # benchmarks: the collector's CPU
    if gc_totals:
        total_collections(gc_totals)
    synchronous = os.environ.get("RUN_BOT_SQLITE_SYNCHRONOUS")  # benchmarks: FULL's cost
    if synchronous:
        weaken_sqlite_sync(synchronous)
    phases = os.environ.get("RUN_BOT_PHASES")  # benchmarks: where a move's answer goes
    if phases:
        trace_click_phases(phases)
    memory = os.environ.get("RUN_BOT_TRACEMALLOC")  # benchmarks: where memory is held
    if memory:
        import signal
        import tracemalloc

        tracemalloc.start(int(os.environ.get("RUN_BOT_TRACEMALLOC_FRAMES", "1")))

        def report(*_: Any) -> None:
            write_memory_report(memory, os.environ.get("RUN_BOT_TRACEMALLOC_FILES", "*"))
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, report)
    module.main()


if __name__ == "__main__":
    main()
