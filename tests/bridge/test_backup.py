"""``vtt-bridge backup`` and ``restore`` against a real server process and real files.

A backup taken while a GM keeps moving a token holds every command acknowledged before
the backup began; ``restore`` checks a copy before it takes it, refuses a damaged or
tampered one and a database a server is using, and keeps what it replaced."""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp

import protocol
from bench.crash import free_port
from tests.wsclient import TableClient
from vtt_bridge.store import Store

GOBLIN_CELLS = ([[13, 2]], [[12, 2]])  # the demo goblin steps right and back
ROOT = Path(__file__).resolve().parents[2]
#: The command line of this tree, whatever folder it runs in.
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``vtt-bridge ARGS`` as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "vtt_bridge", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )


def serve_demo(db: Path, port: int) -> tuple[subprocess.Popen[str], str]:
    """``vtt-bridge serve --demo`` on ``db``; the process and the GM's join token."""
    command = [sys.executable, "-m", "vtt_bridge", "serve", "--demo"]
    server = subprocess.Popen(
        [*command, "--db", str(db), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    while True:
        line = server.stdout.readline()
        assert line, "serve exited before printing the demo tokens"
        if line.split()[:2] == ["gm", "gm"]:
            return server, line.split()[-1]


async def connect(http: aiohttp.ClientSession, port: int) -> TableClient:
    """A client of the server on ``port``, once it accepts connections (it prints its
    tokens while starting up, before it listens)."""
    for _ in range(200):
        try:
            return await TableClient.connect(http, f"http://127.0.0.1:{port}/ws")
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def contents(path: Path) -> tuple[int, str]:
    """The file's inode and a digest of what SQLite reads from it, write-ahead log included.

    A running server may checkpoint its write-ahead log into the main file at any
    moment, which changes the file's bytes but not what it holds, so a database in use
    is compared by its rows, and by its inode to show it was not swapped for another.
    """
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        dump = "\n".join(reader.iterdump())
    finally:
        reader.close()
    return path.stat().st_ino, hashlib.sha256(dump.encode()).hexdigest()


def logged_events(db: Path) -> int:
    """How many events the database's logs hold, over every table."""
    store = Store(db)
    try:
        return sum(len(row.events) for table in store.tables() for row in store.log(table.id))
    finally:
        store.close()


async def test_a_live_backup_holds_everything_acknowledged_before_it(tmp_path: Path) -> None:
    db, copy = tmp_path / "live.sqlite3", tmp_path / "backups" / "copy.sqlite3"
    port = free_port()
    server, gm_token = serve_demo(db, port)
    acked: list[int] = []
    stop = asyncio.Event()

    async def keep_moving(gm: TableClient) -> None:
        step = 0
        while not stop.is_set():
            seq = await gm.send(protocol.Move, token="goblin", path=GOBLIN_CELLS[step % 2])
            reply = await gm.reply_to(seq)
            assert isinstance(reply, protocol.Ack), reply
            acked.append(reply.last_event)
            step += 1
            await asyncio.sleep(0.03)  # a brisk GM, within the rate limit (50 a second)

    try:
        async with aiohttp.ClientSession() as http:
            gm = await connect(http, port)
            await gm.join(gm_token)
            mover = asyncio.create_task(keep_moving(gm))
            while len(acked) < 40 and not mover.done():
                await asyncio.sleep(0.01)
            if mover.done():
                mover.result()  # the load's own failure, if it had one
            before = acked[-1]  # acknowledged before the backup began
            done = await asyncio.to_thread(cli, "backup", str(copy), "--db", str(db), cwd=tmp_path)
            during = len(acked)
            while len(acked) < during + 20 and not mover.done():  # the table played on
                await asyncio.sleep(0.01)
            stop.set()
            await mover
            await gm.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert "integrity ok" in done.stdout and "(demo)" in done.stdout
    # Event indices start at 0: everything up to ``before`` is in the copy.
    assert logged_events(copy) >= before + 1
    assert logged_events(db) > logged_events(copy) or logged_events(db) >= acked[-1] + 1

    again = cli("backup", str(copy), "--db", str(db), cwd=tmp_path)
    assert again.returncode == 1 and "never overwrites" in again.stderr

    restored = tmp_path / "restored" / "db.sqlite3"
    done = cli("restore", str(copy), "--db", str(restored), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "replays to its state" in done.stdout
    assert logged_events(restored) == logged_events(copy)


async def test_restore_refuses_a_database_a_server_is_using(tmp_path: Path) -> None:
    db, copy = tmp_path / "db.sqlite3", tmp_path / "copy.sqlite3"
    server, _ = serve_demo(db, free_port())
    try:
        assert cli("backup", str(copy), "--db", str(db), cwd=tmp_path).returncode == 0
        before = contents(db)
        refused = cli("restore", str(copy), "--db", str(db), cwd=tmp_path)
        assert refused.returncode == 1, refused.stdout
        assert f"a server (pid {server.pid}) is using" in refused.stderr
        assert contents(db) == before
        assert not list(tmp_path.glob("db.sqlite3.re*"))
        second = subprocess.run(
            [sys.executable, "-m", "vtt_bridge", "serve", "--db", str(db), "--port", "0"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2 and "stop it first" in second.stderr
    finally:
        server.terminate()
        server.wait(timeout=30)
    # Once the server is gone the same restore goes through and keeps the old file.
    done = cli("restore", str(copy), "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    kept = next(tmp_path.glob("db.sqlite3.replaced-*"))
    assert "kept at" in done.stdout and kept.name in done.stdout


async def test_restore_refuses_a_damaged_copy_and_changes_nothing(tmp_path: Path) -> None:
    db, copy = tmp_path / "db.sqlite3", tmp_path / "copy.sqlite3"
    server, _ = serve_demo(db, free_port())
    server.terminate()
    server.wait(timeout=30)
    assert cli("backup", str(copy), "--db", str(db), cwd=tmp_path).returncode == 0
    data = copy.read_bytes()
    copy.write_bytes(data[: len(data) // 2])  # a copy cut short, as a full disk leaves it
    before = digest(db)
    refused = cli("restore", str(copy), "--db", str(db), cwd=tmp_path)
    assert refused.returncode == 1
    assert "integrity" in refused.stderr or "not a" in refused.stderr
    assert digest(db) == before
    assert not list(tmp_path.glob("db.sqlite3.re*"))


async def test_restore_refuses_a_copy_whose_log_does_not_replay(tmp_path: Path) -> None:
    db, copy = tmp_path / "db.sqlite3", tmp_path / "copy.sqlite3"
    server, _ = serve_demo(db, free_port())
    server.terminate()
    server.wait(timeout=30)
    assert cli("backup", str(copy), "--db", str(db), cwd=tmp_path).returncode == 0
    tampered = sqlite3.connect(copy)
    (position,) = tampered.execute("SELECT max(position) FROM log").fetchone()
    tampered.execute("UPDATE log SET events = '[]' WHERE position = ?", (position,))
    tampered.commit()
    tampered.close()
    refused = cli("restore", str(copy), "--db", str(tmp_path / "new.sqlite3"), cwd=tmp_path)
    assert refused.returncode == 1
    assert "replay" in refused.stderr or "disagrees" in refused.stderr, refused.stderr
    assert not (tmp_path / "new.sqlite3").exists()


def test_backup_of_a_missing_database_is_refused(tmp_path: Path) -> None:
    done = cli("backup", "copy.sqlite3", "--db", "nothing.sqlite3", cwd=tmp_path)
    assert done.returncode == 1 and "no database at nothing.sqlite3" in done.stderr
