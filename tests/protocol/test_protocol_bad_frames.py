"""Bad frames: each is refused with a specific code and path, never another exception."""

from __future__ import annotations

import json
from typing import Any

import msgpack
import pytest

from protocol import (
    MAX_FRAME_BYTES,
    ErrorMessage,
    Move,
    ProtocolError,
    decode_client,
    decode_server,
    encode,
)


class Raw:
    """Already-packed msgpack bytes to splice into :func:`mp_map`."""

    def __init__(self, data: bytes) -> None:
        self.data = data


def mp(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)  # type: ignore[no-any-return]


def mp_map(*pairs: tuple[Any, Any]) -> Raw:
    """A msgpack map from pairs, so keys may repeat (msgpack.packb cannot do that)."""
    out = bytes([0x80 | len(pairs)])
    for key, value in pairs:
        out += mp(key)
        out += value.data if isinstance(value, Raw) else mp(value)
    return Raw(out)


def envelope(body: Any, *, type_: str = "move", seq: Any = 7) -> dict[str, Any]:
    return {"v": 1, "type": type_, "seq": seq, "body": body}


def js(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


MOVE = {"token": "hero", "path": [[1, 2]]}
MOVE_BYTES = mp(envelope(MOVE))
TOKEN = {
    "id": "t1",
    "name": "Goblin",
    "owner": "gm",
    "side": "monsters",
    "x": 0,
    "y": 0,
    "size": 1,
    "reach": 5,
    "movement": 30,
    "stats": {"hp": 7},
}
GRID = {"kind": "square", "cell_size": 5, "unit": "ft", "width": 10, "height": 10}


def scene_frame(*, grid: Any = None, tokens: Any = None, **token_changes: Any) -> str:
    tokens = tokens if tokens is not None else [{**TOKEN, **token_changes}]
    scene = {"grid": grid if grid is not None else GRID, "tokens": tokens}
    return js(envelope({"scene": scene}, type_="load_scene"))


def nested(depth: int) -> list[Any]:
    """``depth`` lists, one inside the other."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


DEEP_JSON = "[" * 1025 + "]" * 1025
DEEP_MSGPACK = b"\x91" * 1025 + b"\xc0"


BAD_FRAMES: list[tuple[bytes | str, str, str]] = [
    # -- parse: msgpack -----------------------------------------------------------------
    # truncated msgpack: the map claims more bytes than follow
    (MOVE_BYTES[:-3], "invalid_msgpack", ""),
    # trailing bytes after a complete message
    (MOVE_BYTES + b"\x00", "invalid_msgpack", ""),
    # empty binary frame
    (b"", "invalid_msgpack", ""),
    # 0xc1 is the one byte msgpack never uses
    (b"\xc1", "invalid_msgpack", ""),
    # 1,025-deep nesting, msgpack (the C unpacker's own stack limit)
    (DEEP_MSGPACK, "too_deep", ""),
    # 33-deep nesting inside the body, msgpack: found by the scan, with its path
    (mp(envelope({"a": nested(31)}, type_="ping")), "too_deep", "body.a" + "[0]" * 30),
    # an array header claiming 2**31 items in a 5-byte frame
    (b"\xdd\x80\x00\x00\x00", "too_large", ""),
    # a map header claiming 2**31 keys
    (b"\xdf\x80\x00\x00\x00", "too_large", ""),
    # non-string map key (int), refused by the unpacker
    (b"\x81\x01\x02", "bad_type", ""),
    # non-string map key (empty bin) inside the body, refused by the scan
    (
        mp_map(("v", 1), ("type", "ping"), ("seq", 1), ("body", mp_map((b"", 1)))).data,
        "bad_type",
        "body",
    ),
    # an extension type (fixext 1)
    (b"\xd4\x05\x00", "bad_type", ""),
    # a zero-length extension type reaches the ext_hook
    (b"\xc7\x00\x05", "bad_type", ""),
    # the timestamp extension is an extension too
    (b"\xd6\xff\x00\x00\x00\x01", "bad_type", ""),
    # invalid UTF-8 in a string
    (b"\xa2\xff\xfe", "invalid_msgpack", ""),
    # a bytes value where a string belongs
    (mp(envelope({"token": b"hero", "path": [[1, 2]]})), "bad_type", ""),
    # an empty bytes value slips past max_bin_len=0; the scan refuses it with its path
    (mp(envelope({"token": b"", "path": [[1, 2]]})), "bad_type", "body.token"),
    # NaN coordinate, msgpack
    (mp(envelope({"token": "hero", "path": [[1, float("nan")]]})), "non_finite", "body.path[0][1]"),
    # 1e308 * 10 (infinity) coordinate, msgpack
    (mp(envelope({"token": "hero", "path": [[1e308 * 10, 1]]})), "non_finite", "body.path[0][0]"),
    # uint64 beyond int64
    (mp(envelope({"token": "hero", "path": [[2**64 - 1, 1]]})), "bad_value", "body.path[0][0]"),
    # duplicate key in the body, msgpack
    (
        mp_map(
            ("v", 1),
            ("type", "end_phase"),
            ("seq", 1),
            ("body", mp_map(("token", "a"), ("token", "b"))),
        ).data,
        "duplicate_key",
        "body.token",
    ),
    # a top-level value that is not a map
    (mp([1, 2]), "not_a_map", ""),
    # over 64 KiB, msgpack
    (b"\x00" * (MAX_FRAME_BYTES + 1), "too_large", ""),
    # -- parse: JSON --------------------------------------------------------------------
    # not JSON at all
    ("{", "invalid_json", ""),
    # empty text frame
    ("", "invalid_json", ""),
    # 1,025-deep nesting, JSON (pre-scanned: json.loads never recurses)
    (DEEP_JSON, "too_deep", ""),
    # 33-deep nesting, JSON: one past the limit
    ("[" * 33 + "]" * 33, "too_deep", ""),
    # brackets inside strings do not count towards depth
    (js(envelope({"token": "[" * 100, "path": [[1, 2]]})), "bad_value", "body.token"),
    # NaN coordinate, JSON
    (
        '{"v":1,"type":"move","seq":7,"body":{"token":"hero","path":[[1,NaN]]}}',
        "non_finite",
        "body.path[0][1]",
    ),
    # -Infinity coordinate, JSON
    (
        '{"v":1,"type":"move","seq":7,"body":{"token":"hero","path":[[-Infinity,1]]}}',
        "non_finite",
        "body.path[0][0]",
    ),
    # 1e308 * 10 coordinate: the literal 1e309 parses to infinity
    (
        '{"v":1,"type":"move","seq":7,"body":{"token":"hero","path":[[1,1e309]]}}',
        "non_finite",
        "body.path[0][1]",
    ),
    # a 5,000-digit integer, refused before int() sees it
    (
        '{"v":1,"type":"move","seq":7,"body":{"token":"hero","path":[[' + "9" * 5000 + ",1]]}}",
        "bad_value",
        "body.path[0][0]",
    ),
    # a 20-digit integer parses but is beyond int64
    (
        '{"v":1,"type":"move","seq":7,"body":{"token":"hero","path":[[1,' + "9" * 20 + "]]}}",
        "bad_value",
        "body.path[0][1]",
    ),
    # duplicate key in the envelope, JSON
    ('{"v":1,"v":1,"type":"ping","seq":7,"body":{}}', "duplicate_key", "v"),
    # duplicate key in the body, JSON
    (
        '{"v":1,"type":"move","seq":7,"body":{"token":"a","token":"b","path":[[1,2]]}}',
        "duplicate_key",
        "body.token",
    ),
    # a lone surrogate escape is not valid Unicode
    ('{"v":1,"type":"end_phase","seq":7,"body":{"token":"\\ud800"}}', "bad_value", "body.token"),
    # a top-level array
    ("[1]", "not_a_map", ""),
    # over 64 KiB of ASCII
    (" " * (MAX_FRAME_BYTES + 1), "too_large", ""),
    # under 64 Ki characters but over 64 KiB of UTF-8
    ("é" * (MAX_FRAME_BYTES // 2 + 1), "too_large", ""),
    # -- envelope -----------------------------------------------------------------------
    # wrong version
    (js({**envelope(MOVE), "v": 2}), "unsupported_version", "v"),
    # version missing
    (js({"type": "ping", "seq": 1, "body": {}}), "missing_field", "v"),
    # version as a string
    (js({**envelope(MOVE), "v": "1"}), "bad_type", "v"),
    # unknown type
    (js(envelope({}, type_="teleport")), "unknown_type", "type"),
    # a server message type sent by a client
    (js(envelope({}, type_="pong")), "unknown_type", "type"),
    # type not a string
    (js({**envelope(MOVE), "type": 3}), "bad_type", "type"),
    # unknown envelope field
    (js({**envelope(MOVE), "extra": 1}), "unknown_field", "extra"),
    # envelope without a body
    (js({"v": 1, "type": "ping", "seq": 1}), "missing_field", "body"),
    # seq as a string
    (js(envelope(MOVE, seq="7")), "bad_type", "seq"),
    # seq beyond 2**53 - 1
    (js(envelope(MOVE, seq=2**53)), "bad_value", "seq"),
    # negative seq
    (js(envelope(MOVE, seq=-1)), "bad_value", "seq"),
    # body not a map
    (js(envelope([1, 2])), "bad_type", "body"),
    # -- bodies -------------------------------------------------------------------------
    # unknown body field
    (js(envelope({**MOVE, "speed": 3})), "unknown_field", "body.speed"),
    # missing body field
    (js(envelope({"token": "hero"})), "missing_field", "body.path"),
    # a nullable field must still be present
    (js(envelope({"token": "abc"}, type_="join")), "missing_field", "body.last_event"),
    # wrong type: a string coordinate
    (js(envelope({"token": "hero", "path": [[3, "a"]]})), "bad_type", "body.path[0][1]"),
    # wrong type: bool is not an int
    (js(envelope({"after": True}, type_="resync")), "bad_type", "body.after"),
    # wrong type: a float where an int belongs (a move's path takes fractional waypoints
    # for gridless scenes, so the int is the resync's index)
    (js(envelope({"after": 1.5}, type_="resync")), "bad_type", "body.after"),
    # wrong type: a coordinate that is a bool, neither int nor float
    (js(envelope({"token": "hero", "path": [[True, 2]]})), "bad_type", "body.path[0][0]"),
    # a path cell with three coordinates
    (js(envelope({"token": "hero", "path": [[1, 2, 3]]})), "bad_value", "body.path[0]"),
    # a path cell that is a string
    (js(envelope({"token": "hero", "path": ["ab"]})), "bad_type", "body.path[0]"),
    # an empty path
    (js(envelope({"token": "hero", "path": []})), "bad_value", "body.path"),
    # a token id with a space
    (js(envelope({"token": "bad id", "path": [[1, 2]]})), "bad_value", "body.token"),
    # an empty join token
    (js(envelope({"token": "", "last_event": None}, type_="join")), "bad_value", "body.token"),
    # last_event below -1
    (js(envelope({"token": "x", "last_event": -2}, type_="join")), "bad_value", "body.last_event"),
    # a die that rolled 0
    (
        js(envelope({"prompt": "p1", "accept": True, "rolls": [0]}, type_="answer_prompt")),
        "bad_value",
        "body.rolls[0]",
    ),
    # accept as 1 instead of true
    (
        js(envelope({"prompt": "p1", "accept": 1, "rolls": None}, type_="answer_prompt")),
        "bad_type",
        "body.accept",
    ),
    # the same combatant twice in aware
    (
        js(envelope({"ruleset": "5e", "aware": ["a", "a"], "seed": None}, type_="start_combat")),
        "bad_value",
        "body.aware[1]",
    ),
    # a negative seed
    (
        js(envelope({"ruleset": "5e", "aware": None, "seed": -1}, type_="start_combat")),
        "bad_value",
        "body.seed",
    ),
    # -- scenes -------------------------------------------------------------------------
    # a token off the grid
    (scene_frame(x=10), "bad_value", "body.scene.tokens[0].x"),
    (scene_frame(y=-1), "bad_value", "body.scene.tokens[0].y"),
    # two tokens with one id
    (scene_frame(tokens=[TOKEN, TOKEN]), "bad_value", "body.scene.tokens[1].id"),
    # negative reach
    (scene_frame(reach=-1), "bad_value", "body.scene.tokens[0].reach"),
    # a stat that is a list
    (scene_frame(stats={"hp": [1]}), "bad_type", "body.scene.tokens[0].stats.hp"),
    # a stat name that is not an identifier gets a quoted path
    (scene_frame(stats={"max hp": None}), "bad_type", 'body.scene.tokens[0].stats["max hp"]'),
    # stats given as pairs rather than a map
    (scene_frame(stats=[["hp", 1]]), "bad_type", "body.scene.tokens[0].stats"),
    # an unknown token field
    (scene_frame(colour="red"), "unknown_field", "body.scene.tokens[0].colour"),
    # a grid kind this version does not know
    (scene_frame(grid={**GRID, "kind": "octagonal"}), "bad_value", "body.scene.grid.kind"),
    # a gridless scene pricing diagonals: it has no cells to step between
    (
        scene_frame(grid={**GRID, "kind": "gridless", "diagonal": "alternating"}),
        "bad_value",
        "body.scene.grid.diagonal",
    ),
    # a fractional position on a square grid
    (scene_frame(x=1.5), "bad_value", "body.scene.tokens[0].x"),
    # a gridless token's centre off the scene (10 cells of 5 ft: 50 ft across)
    (scene_frame(grid={**GRID, "kind": "gridless"}, x=50.5), "bad_value", "body.scene.tokens[0].x"),
    # a zero cell size
    (
        scene_frame(grid={**GRID, "kind": "square", "cell_size": 0}),
        "bad_value",
        "body.scene.grid.cell_size",
    ),
    # tokens not a list
    (scene_frame(tokens={"a": 1}), "bad_type", "body.scene.tokens"),
]


@pytest.mark.parametrize(("frame", "code", "path"), BAD_FRAMES)
def test_bad_frame_is_refused(frame: bytes | str, code: str, path: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(frame)
    assert (info.value.code, info.value.path) == (code, path), str(info.value)
    assert path in str(info.value)


def test_error_seq_is_set_once_the_envelope_seq_is_readable() -> None:
    # seq readable: carried by errors found after parsing, even in the scan step
    readable: list[bytes | str] = [
        js(envelope({"token": "hero", "path": [[3, "a"]]}, seq=41)),
        js({**envelope(MOVE, seq=41), "v": 2}),
        js(envelope({}, type_="teleport", seq=41)),
        '{"v":1,"type":"move","seq":41,"body":{"token":"hero","path":[[1,NaN]]}}',
        mp(envelope({"token": b"", "path": [[1, 2]]}, seq=41)),
    ]
    for frame in readable:
        with pytest.raises(ProtocolError) as info:
            decode_client(frame)
        assert info.value.seq == 41, frame
    # seq unreadable: None
    for frame in ["{", js(envelope(MOVE, seq="41")), js(envelope(MOVE, seq=-1)), DEEP_JSON]:
        with pytest.raises(ProtocolError) as info:
            decode_client(frame)
        assert info.value.seq is None, frame


def test_error_message_replies_to_a_protocol_error() -> None:
    with pytest.raises(ProtocolError) as info:
        decode_client(js(envelope({"token": "hero", "path": [[3, "a"]]}, seq=41)))
    reply = ErrorMessage.from_protocol_error(info.value, seq=0)
    assert reply.ref == 41
    assert reply.code == "bad_type"
    assert reply.path == "body.path[0][1]"
    assert reply.message == "body.path[0][1]: expected a number, got 'a'"
    assert decode_server(encode(reply, binary=False)) == reply


def test_building_a_bad_message_in_python_raises_too() -> None:
    with pytest.raises(ProtocolError) as info:
        Move(seq=1, token="hero", path=((1, 2), (3, "a")))  # type: ignore[arg-type]
    assert (info.value.code, info.value.path) == ("bad_type", "path[1][1]")
    with pytest.raises(ProtocolError) as info:
        Move(seq=-1, token="hero", path=((1, 2),))
    assert (info.value.code, info.value.path) == ("bad_value", "seq")


def test_error_message_is_readable() -> None:
    error = ProtocolError("bad_type", "expected an integer, got 'a'", path="body.path[3][1]")
    assert str(error) == "body.path[3][1]: expected an integer, got 'a'"
    assert isinstance(error, ValueError)
    with pytest.raises(AssertionError):
        ProtocolError("no_such_code", "x")


def test_depth_limit_boundary() -> None:
    # 32 levels is allowed (the frame then fails for being a list, not for depth)
    with pytest.raises(ProtocolError) as info:
        decode_client("[" * 32 + "]" * 32)
    assert info.value.code == "not_a_map"
    with pytest.raises(ProtocolError) as info:
        decode_client(mp(nested(32)))
    assert info.value.code == "not_a_map"


def test_decode_refuses_non_frames_as_a_caller_bug() -> None:
    with pytest.raises(TypeError):
        decode_client(42)  # type: ignore[arg-type]
