"""A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary folder, on a
free port of 127.0.0.1, stopped and deleted at the end.

PostgreSQL refuses to run as root, so under root the cluster belongs to the ``postgres`` user
the system package creates (or ``nobody``). Set TEST_DATABASE_URL to use a server of your own
instead (each test still gets its own schema).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def find_bin() -> Path | None:
    """The folder holding initdb and pg_ctl (Debian keeps them off the PATH)."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, bindir: Path, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable  # a benchmark's server commits to disk like a real one
        self.root = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres" if _exists("postgres") else "nobody"
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str, timeout: float = 60) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=timeout)

    def start(self) -> Server:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
        )
        self._pg_ctl_start()
        return self

    def _pg_ctl_start(self) -> None:
        # Speed over durability: a test server is thrown away (the bot's own settings are
        # the server owner's choice).
        fast = (
            ""
            if self.durable
            else ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off ")
        )
        options = f"-p {self.port} -h 127.0.0.1 -k {self.root} {fast}-c max_connections=200"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w",
            "start",
        )  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """Stop the server (dropping every connection) and start it again on the same port."""
        self.stop("fast")
        self._pg_ctl_start()

    def close(self) -> None:
        try:
            self.stop("immediate")
        except (subprocess.SubprocessError, OSError):
            pass
        shutil.rmtree(self.root, ignore_errors=True)


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True
