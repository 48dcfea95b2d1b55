"""The Python side's table state at every step of a recorded session, as JSON.

``python -m tests.clients.recording_states RECORDING.jsonl`` replays the recording
through a fresh in-process bridge (:func:`vtt_bridge.recording.replay`) and prints one
JSON object: ``{"ok": bool, "checkpoints": [{"last_event", "state", "deadlines"}, ...]}``,
a checkpoint after every record that moved the table (the state a joining client would
be sent, and the open prompts' deadlines).  The JavaScript client's tests fold the
same recording's messages and compare their view with these states.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from vtt_bridge.recording import replay
from vtt_bridge.tables import Table
from vtt_bridge.translate import public_state


def checkpoints(path: Path) -> dict[str, Any]:
    """Replay ``path``; the table's public state after each record that changed it."""
    seen: list[dict[str, Any]] = []

    def after(table: Table) -> None:
        point = {
            "last_event": table.last_event(),
            "state": public_state(table.committed),
            "deadlines": dict(table.deadlines),
        }
        if not seen or seen[-1] != point:
            seen.append(point)

    result = asyncio.run(replay(path, after=after))
    return {"ok": result.ok, "checkpoints": seen}


def main(argv: list[str]) -> int:
    """Print the checkpoints of the recording named in ``argv``."""
    if len(argv) != 1:
        print("usage: python -m tests.clients.recording_states RECORDING.jsonl", file=sys.stderr)
        return 2
    json.dump(checkpoints(Path(argv[0])), sys.stdout, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
