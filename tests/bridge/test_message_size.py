"""``--max-message-bytes`` is the one frame limit, end to end: the WebSocket layer and the
decoder both take it, a frame of exactly the limit is accepted, and refusals name the
message they answer whenever its ``seq`` can be read."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack

import protocol
from bench.event_window import big_scene
from tests.bridge.conftest import closed_with, running
from tests.wsclient import wire_data


def padded_ping(seq: int, size: int) -> str:
    """A ``ping`` text frame of exactly ``size`` bytes (JSON allows trailing blanks)."""
    text = protocol.encode_json(protocol.Ping(seq=seq))
    assert len(text) <= size
    return text + " " * (size - len(text))


async def test_a_frame_of_exactly_the_limit_is_accepted_and_one_more_byte_closes(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("t", ["alice"])
        alice = await bridge.member(table, "alice")
        await alice.send_raw(padded_ping(41, protocol.MAX_FRAME_BYTES))
        pong = await alice.wait_for(protocol.Pong)
        assert pong.seq > 0
        await alice.send_raw(padded_ping(42, protocol.MAX_FRAME_BYTES + 1))
        assert await closed_with(alice.ws) == 1009


async def test_a_raised_limit_lets_a_76_kb_scene_load(tmp_path: Path) -> None:
    scene = big_scene(500)
    frame = protocol.encode_json(protocol.LoadScene(seq=1, scene=scene))
    assert 70_000 < len(frame) < 80_000
    # The default refuses it (1009) ...
    async with running(tmp_path / "default") as bridge:
        gm = await bridge.member(bridge.table("t", ["alice"]), "gm")
        await gm.send_raw(frame.replace('"seq":1', f'"seq":{gm.seq + 1}', 1))
        assert await closed_with(gm.ws) == 1009
    # ... and 128 KiB takes it, in both encodings.
    async with running(tmp_path / "raised", max_message_bytes=128 * 1024) as bridge:
        table = bridge.table("t", ["alice"])
        for binary in (False, True):
            gm = await bridge.member(table, "gm", binary=binary)
            gm.max_bytes = 128 * 1024
            seq = await gm.send(protocol.LoadScene, scene=scene)
            assert isinstance(await gm.reply_to(seq), protocol.Ack)
        assert len(table.committed.scene.tokens) == 500  # type: ignore[union-attr]


async def test_the_documented_2000_token_scene_loads_at_512_kib(tmp_path: Path) -> None:
    scene = big_scene(2000)
    assert len(protocol.encode_json(protocol.LoadScene(seq=1, scene=scene))) > 300_000
    async with running(tmp_path, max_message_bytes=512 * 1024) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        gm.max_bytes = 1 << 20
        seq = await gm.send(protocol.LoadScene, scene=scene)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        loaded = await gm.event("scene_loaded")
        assert len(wire_data(loaded)["scene"]["tokens"]) == 2000


async def test_refusals_carry_the_ref_whenever_the_seq_can_be_read(tmp_path: Path) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        # msgpack: a list over its limit fails the whole parse, yet the seq is read.
        over = {"v": 1, "type": "move", "seq": 77, "body": {"token": "a", "path": [0] * 5000}}
        await gm.send_raw(msgpack.packb(over))
        refused = await gm.wait_for(protocol.ErrorMessage)
        assert (refused.ref, refused.code) == (77, "too_large")
        # JSON with a body of the wrong shape.
        bad = {"v": 1, "type": "load_scene", "seq": 78, "body": {"scene": 5}}
        await gm.send_raw(json.dumps(bad))
        refused = await gm.wait_for(protocol.ErrorMessage)
        assert (refused.ref, refused.code) == (78, "bad_type")
        # JSON nested too deep to parse: the top-level seq is still found.
        deep = '{"v":1,"type":"move","seq":79,"body":' + "[" * 40 + "]" * 40 + "}"
        await gm.send_raw(deep)
        refused = await gm.wait_for(protocol.ErrorMessage)
        assert (refused.ref, refused.code) == (79, "too_deep")
        # Nothing to read a seq from: ref is null.
        await gm.send_raw(b"\xc1")
        refused = await gm.wait_for(protocol.ErrorMessage)
        assert refused.ref is None
