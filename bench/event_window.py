"""Measure what repeated big scene loads cost a table's memory, with the event window
bounded by bytes (``--events-kept-bytes``) against the count bound alone.

``python -m bench.event_window [--loads 300] [--keep-bytes N] [--json]``.  One hub over
a SQLite file, one table; its GM loads a scene of 260 tokens (a ``scene_loaded`` event
of about 32 KB packed, 40 KB as JSON) ``--loads`` times through ``Hub.receive``, as the
server would.  Each run is a process of its own; reported per run: its peak resident
memory (``ru_maxrss``) and how much it grew while loading (what the issue measured:
59 MB to 177 MB), the window's events and bytes, and the time per load.  The baseline
is the same run with the byte bound out of reach (``events_kept_bytes`` of 1 TB), so
only the count bound (4,096 to 8,192 events) applies.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import protocol
from vtt_bridge.hub import Hub
from vtt_bridge.store import Store
from vtt_bridge.tables import EVENTS_KEPT_BYTES, Session

UNBOUNDED = 1 << 40


def big_scene(tokens: int) -> protocol.SceneSpec:
    """A 100x100 scene of ``tokens`` monsters: about 125 bytes of JSON each."""
    return protocol.SceneSpec.from_wire(
        {
            "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 100, "height": 100},
            "tokens": [
                {
                    "id": f"t{i}", "name": f"Token number {i}", "owner": "gm", "side": "monsters",
                    "x": i % 100, "y": i // 100, "size": 1, "reach": 1.0, "movement": 6.0,
                    "stats": {"ocv": 5, "dcv": 5, "init": 10},
                }
                for i in range(tokens)
            ],
        }
    )  # fmt: skip


async def run(keep_bytes: int, loads: int, workdir: Path) -> dict[str, Any]:
    """Load the scene ``loads`` times into a fresh table; the figures."""
    hub = Hub(Store(workdir / f"bench-{keep_bytes}.sqlite3"), events_kept_bytes=keep_bytes)
    try:
        table = hub.create_table("bench", ["alice"])
        gm_token = next(t.token for t in table.tokens.values() if t.role == "gm")
        sent: list[protocol.ServerMessage] = []

        def deliver(message: protocol.ServerMessage) -> None:
            sent.append(message)

        gm = Session("gm", deliver)
        await hub.receive(gm, protocol.encode_json(protocol.Join(seq=1, token=gm_token)), 0)
        # One frame, renumbered per load: the frames themselves must not be what grows.
        template = protocol.encode_json(protocol.LoadScene(seq=999_999, scene=big_scene(260)))
        peak_before = _peak_rss_mb()
        started = time.perf_counter()
        for i in range(loads):
            await hub.receive(gm, template.replace('"seq":999999', f'"seq":{2 + i}', 1), 0)
            await hub.drain()
            sent.clear()
        elapsed = time.perf_counter() - started
        return {
            "keep_bytes": keep_bytes,
            "loads": loads,
            "peak_rss_mb": _peak_rss_mb(),
            "grown_mb": round(_peak_rss_mb() - peak_before, 1),
            "window_events": len(table.events) - table.events.base,
            "window_mb": round(table.events.bytes / 1e6, 1),
            "ms_per_load": round(elapsed / loads * 1000, 2),
        }
    finally:
        hub.close()


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def child(keep_bytes: int, loads: int) -> dict[str, Any]:
    """One run in a process of its own (its peak memory is its own)."""
    command = [sys.executable, "-m", "bench.event_window", "--child", str(keep_bytes)]
    done = subprocess.run(
        [*command, "--loads", str(loads)], capture_output=True, text=True, check=True
    )
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def main() -> int:
    """Run both and print them (``--json``: one object)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--loads", type=int, default=300)
    parser.add_argument("--keep-bytes", type=int, default=EVENTS_KEPT_BYTES)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(asyncio.run(run(args.child, args.loads, Path(tmp)))))
        return 0
    bounded = child(args.keep_bytes, args.loads)
    baseline = child(UNBOUNDED, args.loads)
    ratio = round(baseline["grown_mb"] / max(bounded["grown_mb"], 0.1), 1)
    result = {"bounded": bounded, "count_only": baseline, "growth_ratio": ratio}
    if args.json:
        print(json.dumps(result))
        return 0
    for name, row in (("bytes+count", bounded), ("count only", baseline)):
        print(
            f"{name:12} {row['loads']} loads: peak RSS {row['peak_rss_mb']:6.1f} MB "
            f"(grew {row['grown_mb']:5.1f} MB while loading), window "
            f"{row['window_events']} events / {row['window_mb']} MB, {row['ms_per_load']} ms/load"
        )
    print(f"count-only grows {ratio}x the memory the byte-bounded window grows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
