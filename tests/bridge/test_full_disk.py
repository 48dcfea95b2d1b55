"""A full disk, for real: the database on a small tmpfs the test mounts and fills.

Commands are refused with ``internal`` naming the full disk and changing nothing, the
connection stays open, ``/healthz`` says why, the same command sent again under the
same seq is tried again (not answered from memory), and once space returns play goes on
by itself; after a restart the log holds exactly what was acknowledged."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import protocol
from tests.bridge.conftest import Bridge
from tests.bridge.test_durability import crowd_scene
from vtt_bridge import Config, create_app
from vtt_bridge.store import Store


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs at a folder of the test's own (root only: a skip elsewhere on a
    workstation, a failure on CI, where the tests run as root)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"cannot mount a small tmpfs on CI: {mounted.stderr}")
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the filesystem has no room left; the file."""
    filler = disk / "filler"
    with contextlib.suppress(OSError), open(filler, "wb") as out:
        while True:
            out.write(b"\0" * 16384)
            out.flush()
    assert os.statvfs(disk).f_bavail == 0
    return filler


def cell(step: int) -> tuple[tuple[int, int], ...]:
    """The GM's token steps down and back up (it starts at (2, 0))."""
    return ((2, 1),) if step % 2 == 0 else ((2, 0),)


async def healthz(http: aiohttp.ClientSession, server: TestServer) -> dict[str, object]:
    async with http.get(server.make_url("/healthz")) as response:
        return dict(await response.json())


async def test_a_full_disk_refuses_commands_and_play_resumes_when_space_returns(
    small_disk: Path,
) -> None:
    config = Config(database=small_disk / "db.sqlite3")
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm", client="gm-vtt")
        assert isinstance(
            await gm.reply_to(await gm.send(protocol.LoadScene, scene=crowd_scene(["alice"]))),
            protocol.Ack,
        )
        acked = 1
        filler = fill(small_disk)
        # SQLite may still have room in pages it holds: move until a commit meets the
        # full disk (a few at most).
        refused = None
        for step in range(200):
            seq = await gm.send(protocol.Move, token="t-gm", path=cell(step))
            reply = await gm.reply_to(seq)
            if isinstance(reply, protocol.ErrorMessage):
                refused = (seq, step, reply)
                break
            acked += 1
        assert refused is not None, "the disk never filled"
        seq, step, reply = refused
        assert reply.code == "internal"
        assert "the disk is full" in reply.message and "send it again" in reply.message
        health = await healthz(http, server)
        assert health["storage_failure"] == "the disk is full"
        assert table.positions == acked, "nothing refused was applied"

        # The connection is open; the same command sent again is tried again.
        gm.seq = seq - 1
        again = await gm.reply_to(await gm.send(protocol.Move, token="t-gm", path=cell(step)))
        assert isinstance(again, protocol.ErrorMessage) and again.code == "internal"

        filler.unlink()  # space returns
        gm.seq = seq - 1
        resent = await gm.reply_to(await gm.send(protocol.Move, token="t-gm", path=cell(step)))
        assert isinstance(resent, protocol.Ack), resent
        acked += 1
        nxt = await gm.reply_to(await gm.send(protocol.Move, token="t-gm", path=cell(step + 1)))
        assert isinstance(nxt, protocol.Ack), nxt
        acked += 1
        assert (await healthz(http, server))["storage_failure"] is None
        await gm.close()
    store = Store(small_disk / "db.sqlite3")
    try:
        assert store.positions(table.id) == acked, "the log holds exactly what was acknowledged"
    finally:
        store.close()
