"""A flood of handshakes against a server with few files: beyond ``--max-connections``
it answers 503 and ``/healthz`` stays reachable; when the file table does run out
(``accept()``: "Too many open files"), the failure is logged once per interval, not once
per attempt.  A real server process, with its file limit lowered."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bench.crash import free_port

resource = pytest.importorskip("resource")

FILES = 64
# Host: an IP literal, as every request must name an allowed host (``--allowed-hosts``).
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
RECORD = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ (WARNING|ERROR) (\S+) (.{0,60})")


def few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


async def flood(port: int, attempts: int) -> tuple[list[bytes], bytes]:
    """Open ``attempts`` handshakes at once; the first bytes each got (b"" for none), and
    what ``/healthz`` answered meanwhile."""
    opened: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    for _ in range(attempts):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            continue
        writer.write(HANDSHAKE.replace(b"127.0.0.1", f"127.0.0.1:{port}".encode()))
        opened.append((reader, writer))
    await asyncio.sleep(1.5)
    health = b""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 3)
        host = f"127.0.0.1:{port}".encode()
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
        health = await asyncio.wait_for(reader.read(), 5)
        writer.close()
    except (OSError, TimeoutError):
        pass
    answers = []
    for reader, writer in opened:
        try:
            answers.append(await asyncio.wait_for(reader.read(12), 0.05))
        except (OSError, TimeoutError):
            answers.append(b"")
        writer.close()
    return answers, health


def serve(tmp_path: Path, port: int, *flags: str) -> subprocess.Popen[str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "vtt_bridge", "serve", "--port", str(port),
         "--db", str(tmp_path / "db.sqlite3"), "--log-repeat-interval", "60", *flags],
        preexec_fn=few_files, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    assert "listening" in server.stdout.readline()
    return server


def records(stderr: str) -> Counter[tuple[str, str, str]]:
    """Log records by level, logger and the start of their message."""
    found: Counter[tuple[str, str, str]] = Counter()
    for line in stderr.splitlines():
        match = RECORD.match(line)
        if match:
            found[(match[1], match[2], re.sub(r"\d+", "#", match[3]))] += 1
    return found


def stop(server: subprocess.Popen[str]) -> str:
    server.terminate()
    _, stderr = server.communicate(timeout=30)
    return stderr


async def wait_listening(port: int) -> None:
    for _ in range(100):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.05)


async def test_a_cap_under_the_file_limit_refuses_cleanly(tmp_path: Path) -> None:
    port = free_port()
    server = serve(tmp_path, port, "--max-connections", "20")
    try:
        await wait_listening(port)
        answers, health = await flood(port, 200)
    finally:
        stderr = stop(server)
    assert health.startswith(b"HTTP/1.1 200")
    assert any(a.startswith(b"HTTP/1.1 503") for a in answers)
    assert any(a.startswith(b"HTTP/1.1 101") for a in answers)
    refused = [n for (lvl, _, text), n in records(stderr).items() if "refusing a conn" in text]
    assert refused == [1]  # one line for the whole flood, however many were refused


async def test_running_out_of_files_is_logged_once_per_interval(tmp_path: Path) -> None:
    port = free_port()
    server = serve(tmp_path, port, "--max-connections", "5000")
    try:
        await wait_listening(port)
        await flood(port, 300)
    finally:
        stderr = stop(server)
    seen = records(stderr)
    assert any("out of system resource" in text for _, _, text in seen), stderr[-2000:]
    # The machine's limit is one line that says so, not a traceback.
    assert "Traceback" not in stderr and "Too many open files (the open-file limit" in stderr
    assert any("close to the file limit" in text for _, _, text in seen)
    # Every kind of failure at most once (the interval is a minute), not once per attempt.
    assert max(seen.values()) == 1, seen.most_common(3)
    assert len(stderr) < 200_000
