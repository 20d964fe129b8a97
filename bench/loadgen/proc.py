"""A bot as a subprocess of the benchmark (through tests/fakediscord/run_bot.py), and what
/proc tells about it: CPU time (user + system, all threads) and resident memory."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

from tests.fakediscord import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
RUN_BOT = REPO_ROOT / "tests" / "fakediscord" / "run_bot.py"
# run_bot.py's main(), called with its arguments as a list and an empty sys.argv, so a bot
# whose own main() reads the command line sees none of run_bot's arguments.
LAUNCH = (
    "import sys; args = sys.argv[1:]; del sys.argv[1:]; sys.path.insert(0, {here!r}); "
    "import run_bot; run_bot.main(args)"
)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def remove_database(path: Path) -> None:
    """Delete a SQLite database with its WAL and shared-memory files, if there."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (its threads included), from /proc/<pid>/stat."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw[raw.rindex(")") + 2 :].split()  # the command name may hold spaces
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14, 15)


def process_state(pid: int) -> str:
    """The process's state letter from /proc/<pid>/stat: R running, S sleeping, T stopped..."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    return raw[raw.rindex(")") + 2 :].split()[0]


def pause(pid: int, timeout: float = 2.0) -> None:
    """SIGSTOP, and wait until the kernel shows the process stopped: from then on it uses no
    CPU at all (its timers fall due meanwhile and fire when it is resumed)."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + timeout
    while process_state(pid) not in ("T", "t") and time.monotonic() < deadline:
        time.sleep(0.001)


def resume(pid: int) -> None:
    """SIGCONT: the process runs again where it stopped."""
    os.kill(pid, signal.SIGCONT)


def rss_bytes(pid: int) -> int:
    """Resident set size of a process, from /proc/<pid>/statm."""
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_SIZE


class BotProcess:
    """`module` is run by run_bot.py (`bot`: the real one; `bench.nullbot`: the floor)."""

    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        *,
        module: str = "bot",
        db_path: Path | None = None,
        extra_env: dict[str, str] | None = None,
        name: str = "bot",
        root: Path = REPO_ROOT,
        base_url: str | None = None,
    ) -> None:
        self.fake = fake
        # Where its REST calls go: the fake, or the forwarder that stamps answers (stamper.py).
        self.base_url = base_url or fake.base_url
        self.module = module
        self.root = root  # the checkout whose run_bot.py (and so whose bot) runs
        self.db_path = db_path or workdir / "bot.db"
        self.log_path = workdir / f"{name}.log"
        self.env = {
            **os.environ,
            "DISCORD_TOKEN": "fake",
            "DEV_GUILD_ID": str(fake.guild_id),
            "DATABASE_PATH": str(self.db_path),
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            # What the bot asks of Discord, unthrottled: at 50 clicks/s over 500 games that is
            # more than Discord's 50 calls/s. `--bot-env REST_PER_SECOND=50` shows the budget.
            "REST_PER_SECOND": "0",
            **(extra_env or {}),
        }
        self.proc: asyncio.subprocess.Process | None = None
        self.spawned_at = 0.0
        self.session_id: str | None = None  # its gateway session on the fake
        self._identified = 0
        self.paused = False

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def spawn(self) -> None:
        """Starts the process without waiting for anything."""
        self._identified = self.fake.identify_count
        self.session_id = None
        with self.log_path.open("a") as log:
            log.write(f"\n===== start {self.module} =====\n")
            self.spawned_at = time.monotonic()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                LAUNCH.format(here=str(self.root / RUN_BOT.relative_to(REPO_ROOT).parent)),
                self.base_url,
                "--module",
                self.module,
                cwd=self.root,
                env=self.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )

    async def connected(self, timeout: float = 60) -> None:
        """Waits until this process has identified on the fake's gateway (another bot may be
        connected too: the fake then sends its dispatches to this one)."""
        await self.fake.wait_for(lambda: self.fake.identify_count > self._identified, timeout)
        self.session_id = self.fake.session_id
        await self.fake.wait_connected(timeout=timeout)

    async def start(self, commands: tuple[str, ...] = ("newgame",), timeout: float = 60) -> None:
        """Starts the bot and waits until it is connected (and has synced `commands`)."""
        await self.spawn()
        try:
            await self.connected(timeout)
            if commands:
                await self.fake.wait_commands(*commands, timeout=timeout)
        except TimeoutError:
            tail = self.output()[-4000:]
            raise RuntimeError(f"{self.module} did not come up; its output:\n{tail}") from None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def cpu(self) -> float:
        return cpu_seconds(self.pid)

    def pause(self) -> None:
        """Stops the process (SIGSTOP) so it neither runs nor loads the machine: the benchmark
        measures the floor meanwhile. The fake does not drop a gateway client that sends no
        heartbeat, and discord.py only reconnects after 60 s without receiving anything
        (`heartbeat_timeout`), so a pause of a few tens of seconds is resumed cleanly."""
        if self.alive() and not self.paused:
            pause(self.pid)
            self.paused = True

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            if self.alive():
                resume(self.pid)

    def rss(self) -> int:
        return rss_bytes(self.pid)

    async def settled_rss(self, still: float = 1.5, timeout: float = 30.0) -> int:
        """Resident memory once it has not changed for `still` seconds (after log-in the bot
        keeps growing for a few seconds: the guild, the command tree, first drawings)."""
        start = time.monotonic()
        value, since = self.rss(), time.monotonic()
        while time.monotonic() - start < timeout:
            await asyncio.sleep(0.25)
            now = self.rss()
            if now != value:
                value, since = now, time.monotonic()
            elif time.monotonic() - since >= still:
                break
        return value

    def profile_window(self, start: bool) -> None:
        """With RUN_BOT_PROFILE and RUN_BOT_PROFILE_WINDOWS set: profile only from here (start)
        or stop here, so a profile shows the measured clicks and not the set-up."""
        if self.env.get("RUN_BOT_PROFILE_WINDOWS") and self.alive():
            os.kill(self.pid, signal.SIGUSR1 if start else signal.SIGUSR2)

    async def idle(self, timeout: float = 10.0, below: float = 0.05) -> float:
        """Waits until the process uses under `below` of a core over 0.2 s (a backlog of work
        from an earlier window is done); returns the seconds waited (up to `timeout`)."""
        start = time.monotonic()
        last = self.cpu()
        while time.monotonic() - start < timeout:
            await asyncio.sleep(0.2)
            now = self.cpu()
            if now - last < below * 0.2:
                break
            last = now
        return time.monotonic() - start

    async def stop(self) -> None:
        """SIGTERM (discord.py closes cleanly), then SIGKILL if it lingers."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.resume()
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            await asyncio.wait_for(self.proc.wait(), 10)
        if self.session_id is not None and self.fake.session_id == self.session_id:
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_disconnected(timeout=10)

    def log_size(self) -> int:
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def output(self, start: int = 0) -> str:
        if not self.log_path.exists():
            return ""
        with self.log_path.open("rb") as log:
            log.seek(start)
            return log.read().decode(errors="replace")
