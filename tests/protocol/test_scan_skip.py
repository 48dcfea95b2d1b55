"""A frame skips the JSON-safety scan only when the scan would find nothing: for any
value, hazards included (NaN, infinities, ints past int64, lone surrogates, bytes, deep
nesting), parsing with the skip gives what parsing with the scan always run gives, the
same tree or the same refusal."""

from __future__ import annotations

import json
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import MAX_FRAME_BYTES, ProtocolError, codec, parse_frame
from protocol.validate import MAX_DEPTH, checked_tree, json_safe

# st.text never draws a lone surrogate: joined characters may.
STRINGS = st.lists(st.characters() | st.sampled_from(["\ud800", "\udfff"]), max_size=4).map("".join)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**64), 2**64)
    | st.floats(allow_nan=True, allow_infinity=True)
    | STRINGS
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)


def nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


def outcome(parse: Any) -> Any:
    try:
        return ("tree", parse())
    except ProtocolError as exc:
        return ("error", exc.code, exc.path)


def always_scanned(frame: str | bytes) -> Any:
    doubts = codec._Doubts(True)
    if isinstance(frame, str):
        tree = codec._parse_json(frame, MAX_DEPTH, doubts)
    else:
        tree = codec._parse_msgpack(frame, MAX_FRAME_BYTES, doubts)
    return json_safe(tree, "")


def same(left: Any, right: Any) -> bool:
    # NaN never equals itself: compare the JSON texts, NaN written as NaN.
    return json.dumps(left, default=repr) == json.dumps(right, default=repr)


@settings(max_examples=300, deadline=None)
@given(value=VALUES, depth=st.integers(0, 36), ascii_only=st.booleans())
def test_a_json_frame_skips_the_scan_only_when_it_would_pass(
    value: Any, depth: int, ascii_only: bool
) -> None:
    frame = json.dumps(nested(value, depth), ensure_ascii=ascii_only)
    assert same(outcome(lambda: parse_frame(frame)), outcome(lambda: always_scanned(frame)))


@settings(max_examples=300, deadline=None)
@given(value=VALUES | st.binary(max_size=3), depth=st.integers(0, 36))
def test_a_msgpack_frame_skips_the_scan_only_when_it_would_pass(value: Any, depth: int) -> None:
    try:
        frame = msgpack.packb(nested(value, depth), unicode_errors="surrogatepass")
    except (OverflowError, ValueError):  # ints past uint64 do not pack: nothing to read
        return
    assert same(outcome(lambda: parse_frame(frame)), outcome(lambda: always_scanned(frame)))


@settings(max_examples=300, deadline=None)
@given(value=VALUES, depth=st.integers(0, 36))
def test_the_checked_walk_gives_json_safes_verdict_and_keeps_a_valid_tree(
    value: Any, depth: int
) -> None:
    tree = nested(value, depth)
    verdict = outcome(lambda: checked_tree(tree))
    assert same(verdict, outcome(lambda: json_safe(tree, "")))
    if verdict[0] == "tree":
        assert verdict[1] is tree  # not copied: a parser's tree is nobody else's
