"""The load benchmark pauses the real bot (SIGSTOP) while the floor is measured: a paused
process uses no CPU at all and runs on where it stopped once resumed (SIGCONT)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from bench.loadgen.proc import cpu_seconds, pause, process_state, resume

SPIN = "import time\nwhile True:\n    time.process_time()\n"


@pytest.fixture
def spinner() -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen([sys.executable, "-c", SPIN])
    try:
        yield proc
    finally:
        resume(proc.pid)
        proc.kill()
        proc.wait(5)


def burn(pid: int, seconds: float) -> float:
    """The CPU `pid` used over `seconds` of wall time."""
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - before


def test_a_paused_process_uses_no_cpu_and_runs_again_when_resumed(
    spinner: subprocess.Popen[bytes],
) -> None:
    time.sleep(0.2)  # started, spinning
    assert burn(spinner.pid, 0.3) > 0.02

    pause(spinner.pid)
    assert process_state(spinner.pid) in ("T", "t")
    assert burn(spinner.pid, 0.5) == 0.0

    resume(spinner.pid)
    time.sleep(0.05)
    assert process_state(spinner.pid) not in ("T", "t")
    assert burn(spinner.pid, 0.3) > 0.02
    assert spinner.poll() is None  # still alive
