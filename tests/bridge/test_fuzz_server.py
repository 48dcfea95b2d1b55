"""A bad client hurts only itself: generated and named hostile frames against a real server.

At least 10,000 generated frames (hypothesis) plus a named corpus go to a bridge on
loopback from a joined player (bob, who owns nothing, so no frame of his may change
anything) and from a connection that never joined.  Every frame gets a typed ``error``
(a code the protocol or the bridge documents) or its proper answer (``pong`` for a
ping, events for a resync) or a close code; no exception escapes a handler; the table
is unchanged; ``/healthz`` still answers.

The server runs on its own event loop in a thread, so hypothesis (which is synchronous)
can drive it frame batch by frame batch.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import msgpack
import pytest
from aiohttp.test_utils import TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import protocol
from tests.bridge.conftest import table_fingerprint, token_of
from tests.scenario import scene_body
from tests.wsclient import TableClient
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.permissions import BRIDGE_ERROR_CODES
from vtt_bridge.tables import Table

T = TypeVar("T")
BATCH = 50
EXAMPLES = 210  # x BATCH frames = 10,500
SENTINEL_SEQ = 2**53 - 1
KNOWN_CODES = protocol.ERROR_CODES | engine.REJECTION_CODES | BRIDGE_ERROR_CODES
FIELDS = sorted(
    {
        "token", "last_event", "client", "scene", "grid", "tokens", "kind", "cell_size", "unit",
        "width", "height", "id", "name", "owner", "side", "x", "y", "size", "reach",
        "movement", "stats", "ruleset", "aware", "seed", "path", "prompt", "accept", "rolls",
        "after", "participant", "role", "dice", "prompt_timeout_ms", "wall", "open", "walls",
    }
)  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["hero", "ogre", "oa-1", "gm", "player"])
)
BODYISH = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=4), children, max_size=6)
    ),
    max_leaves=20,
)
TYPES = st.sampled_from(sorted(protocol.CLIENT_MESSAGE_TYPES)) | st.text(max_size=12)


def _pack(value: Any) -> bytes | None:
    try:
        packed: bytes = msgpack.packb(value, use_bin_type=True)
    except (OverflowError, ValueError, TypeError):
        return None
    return packed


@st.composite
def frames(draw: st.DrawFn) -> bytes | str:
    """A hostile frame: bytes, text, an envelope with a made-up body, a mutated frame."""
    shape = draw(st.integers(0, 5))
    if shape == 0:
        return draw(st.binary(max_size=200))
    if shape == 1:
        return draw(st.text(max_size=200))
    seq = draw(st.integers(-2, 2**54))
    wire: Any = {"v": draw(st.sampled_from([1, 1, 1, 2, "1"])), "type": draw(TYPES)}
    wire |= {"seq": seq, "body": draw(BODYISH)}
    if draw(st.booleans()):
        del wire[draw(st.sampled_from(sorted(wire)))]
    if shape == 2:
        return json.dumps(wire)
    packed = _pack(wire)
    if packed is None:
        return json.dumps(wire)
    if shape == 3:
        return packed
    mutated = bytearray(packed)
    for _ in range(draw(st.integers(1, 4))):
        mutated[draw(st.integers(0, len(mutated) - 1))] = draw(st.integers(0, 255))
    return bytes(mutated)


def expected_kind(frame: bytes | str) -> str:
    """What bob should get back: "reply" (one error or pong) or "events" (a resync)."""
    try:
        message = protocol.decode_client(frame)
    except protocol.ProtocolError:
        return "reply"
    return "events" if isinstance(message, protocol.Resync) else "reply"


def named_corpus() -> list[tuple[str, bytes | str]]:
    move = {"v": 1, "type": "move", "seq": 9, "body": {"token": "hero", "path": [[3, 5]]}}
    valid = msgpack.packb(move)
    nan_move = json.dumps(move).replace("[[3, 5]]", "[[3, NaN]]")
    return [
        ("truncated msgpack", valid[:-3]),
        ("trailing bytes", valid + b"\x00"),
        ("1,025-deep JSON", "[" * 1025 + "]" * 1025),
        ("1,025-deep msgpack", b"\x91" * 1025 + b"\xc0"),
        ("array header claiming 2**31 items", b"\xdd\x80\x00\x00\x00"),
        ("map header claiming 2**31 pairs", b"\xdf\x80\x00\x00\x00"),
        ("non-string map keys", msgpack.packb({1: 2, "v": 1})),
        ("extension type", msgpack.packb({"v": msgpack.ExtType(5, b"boom")})),
        ("timestamp extension", b"\xd6\xff\x00\x00\x00\x01"),
        ("binary value", msgpack.packb({"v": 1, "type": b"move"}, use_bin_type=True)),
        ("invalid UTF-8", b"\x81\xa1v\xa2\xff\xfe"),
        ("NaN coordinate (JSON)", nan_move),
        ("NaN coordinate (msgpack)", msgpack.packb({**move, "body": {"token": "hero",
                                                   "path": [[3, float("nan")]]}})),
        ("1e308 coordinate", json.dumps(move).replace("[[3, 5]]", "[[3, 1e308]]")),
        ("1e400 coordinate", json.dumps(move).replace("[[3, 5]]", "[[3, 1e400]]")),
        ("huge msgpack float", msgpack.packb({**move, "body": {"token": "hero",
                                             "path": [[3, 1e308]]}})),
        ("5,000-digit integer", json.dumps(move).replace('"seq": 9', '"seq": ' + "9" * 5000)),
        ("duplicate keys", '{"v":1,"v":1,"type":"ping","seq":1,"body":{}}'),
        ("wrong types", json.dumps({**move, "body": {"token": 5, "path": "x"}})),
        ("wrong version", json.dumps({**move, "v": 2})),
        ("not a map", json.dumps([1, 2, 3])),
        ("empty text", ""),
        ("empty binary", b""),
        ("lone surrogate escape", '{"v":1,"type":"ping","seq":1,"body":{"x":"\\ud800"}}'),
        ("off-scene move", json.dumps({**move, "body": {"token": "hero",
                                       "path": [[10**6, 10**6]]}})),
    ]  # fmt: skip


class LiveBridge:
    """A bridge on loopback, on an event loop of its own in a thread."""

    def __init__(self, tmp_path: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.config = Config(database=tmp_path / "db.sqlite3", rate_limit=1e6, rate_burst=10**6)
        self.run(self._start())

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> None:
        self.app = create_app(self.config)
        self.server = TestServer(self.app)
        await self.server.start_server()
        self.http = aiohttp.ClientSession()
        hub = self.app[HUB]
        self.table: Table = hub.create_table("fuzz", ["alice", "bob"], spectators=1)
        gm = await self.connect(token_of(self.table, "gm"))
        seq = await gm.send(protocol.LoadScene, scene=protocol.SceneSpec.from_wire(scene_body()))
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        seq = await gm.send(protocol.StartCombat, ruleset="hero-supplement", aware=None, seed=1)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        self.gm = gm
        self.bob = await self.connect(token_of(self.table, "bob"))

    async def connect(self, token: str | None) -> TableClient:
        client = await TableClient.connect(self.http, str(self.server.make_url("/ws")))
        if token is not None:
            await client.join(token)
            await client.wait_for(protocol.State)
        return client

    async def send_batch(
        self, client: TableClient, batch: list[bytes | str], *, joined: bool = True
    ) -> list[Any]:
        """Send frames and a sentinel ping; everything received before the sentinel's reply.

        A member's sentinel is answered with a pong (after one for each ping in the
        batch); a stranger's with a ``not_joined`` error."""
        for frame in batch:
            await client.send_raw(frame)
        await client.send_raw(protocol.encode_json(protocol.Ping(seq=SENTINEL_SEQ)))
        pongs_wanted = 1 + sum(1 for f in batch if _is_ping(f))
        received: list[Any] = []
        while True:
            message = await client.next()
            received.append(message)
            if joined and isinstance(message, protocol.Pong):
                pongs_wanted -= 1
                if pongs_wanted == 0:
                    return received[:-1]
            if (
                not joined
                and isinstance(message, protocol.ErrorMessage)
                and (message.ref, message.code) == (SENTINEL_SEQ, "not_joined")
            ):
                return received[:-1]

    async def health(self) -> dict[str, Any]:
        response = await self.http.get(self.server.make_url("/healthz"), timeout=5)
        result: dict[str, Any] = await response.json()
        return result

    async def stop(self) -> None:
        await self.http.close()
        await self.server.close()

    def close(self) -> None:
        self.run(self.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def _is_ping(frame: bytes | str) -> bool:
    try:
        return isinstance(protocol.decode_client(frame), protocol.Ping)
    except protocol.ProtocolError:
        return False


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveBridge]:
    bridge = LiveBridge(tmp_path_factory.mktemp("fuzz"))
    yield bridge
    bridge.close()


def check_replies(batch: list[bytes | str], received: list[Any]) -> None:
    errors = [m for m in received if isinstance(m, protocol.ErrorMessage)]
    pongs = [m for m in received if isinstance(m, protocol.Pong)]
    others = [m for m in received if not isinstance(m, (protocol.ErrorMessage, protocol.Pong))]
    # A generated frame that is a whole, valid question (``list_rulesets`` has an empty
    # body) is answered, by its ``ref``; nothing else but events and prompts may come.
    answers = [m for m in others if not isinstance(m, (protocol.Event, protocol.Prompt))]
    assert all(isinstance(getattr(m, "ref", None), int) for m in answers), answers
    assert all(e.code in KNOWN_CODES for e in errors), [e.code for e in errors]
    replies = sum(1 for f in batch if expected_kind(f) == "reply")
    assert len(errors) + len(pongs) + len(answers) == replies


# 10,500 frames through a real server: about 30 s on an idle machine, past the suite's
# 120 s default when other work shares the two cores.
@pytest.mark.timeout(600)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
@given(batch=st.lists(frames(), min_size=BATCH, max_size=BATCH))
def test_generated_frames_get_typed_errors_and_change_nothing(
    live: LiveBridge, batch: list[bytes | str]
) -> None:
    before = table_fingerprint(live.table)
    received = live.run(live.send_batch(live.bob, batch))
    check_replies(batch, received)
    assert table_fingerprint(live.table) == before


def test_named_corpus_from_a_member_and_a_stranger(
    live: LiveBridge, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    before = table_fingerprint(live.table)
    corpus = named_corpus()
    for name, frame in corpus:
        received = live.run(live.send_batch(live.bob, [frame]))
        errors = [m for m in received if isinstance(m, protocol.ErrorMessage)]
        assert len(errors) == 1 and errors[0].code in KNOWN_CODES, (name, received)
    stranger = live.run(live.connect(None))
    received = live.run(live.send_batch(stranger, [frame for _, frame in corpus], joined=False))
    assert len([m for m in received if isinstance(m, protocol.ErrorMessage)]) == len(corpus)
    assert table_fingerprint(live.table) == before
    assert live.run(live.health())["ok"] is True
    # Nothing escaped a handler: aiohttp logs those at ERROR.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
