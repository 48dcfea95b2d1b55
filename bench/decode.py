"""Measure what decoding one ``move`` frame costs, against the parse alone.

``python -m bench.decode [--rounds 20000] [--json]``.  Per frame format (msgpack and
JSON): ``decode_us``, the whole :func:`protocol.decode_client` (parse with the
hardening hooks, the JSON-safe scan, the envelope, msgspec's compiled validation of the
body); ``parse_us``, the baseline of the same shape in the same run,
:func:`protocol.parse_frame` alone (parse and scan, no message); and their ratio.
``encode_us`` is :func:`protocol.encode` of an ``event`` the bridge sends per move.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

import protocol

MOVE = {"v": 1, "type": "move", "seq": 7, "body": {"token": "hero", "path": [[1, 2], [2, 2]]}}
EVENT = protocol.Event(
    seq=9,
    index=30,
    kind="move_started",
    data={"token": "hero", "start": [0, 2], "path": [[1, 2], [2, 2]], "mode": "combat"},
)


def per_call_us(call: Callable[[], Any], rounds: int) -> float:
    """The best of three runs of ``rounds`` calls, in microseconds a call."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(rounds):
            call()
        best = min(best, time.perf_counter() - start)
    return best / rounds * 1e6


def measure(rounds: int) -> dict[str, Any]:
    """Every figure, keyed by frame format."""
    frames: dict[str, bytes | str] = {
        "msgpack": protocol.encode(protocol.client_from_wire(MOVE), binary=True),
        "json": json.dumps(MOVE),
    }
    out: dict[str, Any] = {}
    for name, frame in frames.items():
        decode = per_call_us(lambda f=frame: protocol.decode_client(f), rounds)  # type: ignore[misc]
        parse = per_call_us(lambda f=frame: protocol.parse_frame(f), rounds)  # type: ignore[misc]
        binary = name == "msgpack"
        encode = per_call_us(lambda b=binary: protocol.encode(EVENT, binary=b), rounds)  # type: ignore[misc]
        out[name] = {
            "decode_us": round(decode, 2),
            "parse_us": round(parse, 2),
            "ratio_decode_parse": round(decode / parse, 2),
            "encode_event_us": round(encode, 2),
        }
    return out


def main() -> None:
    """Print the figures (``--json``: as JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.rounds)
    if args.json:
        print(json.dumps(figures))
        return
    for name, row in figures.items():
        print(name, "  ".join(f"{k} {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
