"""Real ``vtt-bridge serve`` processes on one PostgreSQL database, for the tests of several
bridges: each on its own loopback port with its own ``--public-url``, started, stopped,
killed, paused and resumed by signal, as an operator's supervisor would."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: This tree's command line, whatever folder a process runs in.
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli(*args: str) -> str:
    """``vtt-bridge ARGS`` in its own process; what it printed (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-m", "vtt_bridge", *args],
        capture_output=True, text=True, timeout=120, env=ENV, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def tokens_printed(out: str) -> dict[str, str]:
    """Participant -> join token, from what ``create-table`` prints."""
    found = {}
    for line in out.splitlines():
        words = line.split()
        if words[-3:-1] == ["join", "token"]:
            found[words[1]] = words[-1]
    return found


class BridgeProcess:
    """One ``vtt-bridge serve`` on ``database``; :meth:`start` waits until it listens."""

    def __init__(
        self, database: str, log: Path, *, lease: float = 2.0, extra: tuple[str, ...] = ()
    ) -> None:
        """A process to be started, logging to ``log``, with ``extra`` serve flags."""
        self.extra = extra
        self.database = database
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/ws"
        self.lease = lease
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> BridgeProcess:
        """Start it and wait (up to 30 s) until its port accepts connections."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "vtt_bridge", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", self.database, "--public-url", self.url,
                 "--lease", str(self.lease), "--rate-limit", "10000", "--rate-burst", "10000",
                 *self.extra],
                cwd=ROOT, env=ENV, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"bridge on {self.port} did not listen: {self.log.read_text()}")

    def signal(self, number: signal.Signals) -> None:
        """Send it ``number`` (SIGKILL, SIGSTOP, SIGCONT, SIGTERM)."""
        assert self.process is not None
        self.process.send_signal(number)

    def stop(self, timeout: float = 30) -> int:
        """SIGTERM, and wait for it to exit; its exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused process cannot exit
            self.process.terminate()
        return self.process.wait(timeout)

    def wait(self, timeout: float = 30) -> int:
        """Wait for it to exit (after a signal sent already); its exit status."""
        assert self.process is not None
        return self.process.wait(timeout)

    def kill(self) -> None:
        """SIGKILL, and wait for it to be gone."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(30)
