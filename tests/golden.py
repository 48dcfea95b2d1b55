"""The golden recordings (``tests/recordings``) and what replaying one leaves behind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vtt_bridge.recording import replay
from vtt_bridge.tables import Table

#: Every golden recording, one recorded session each.
RECORDINGS = sorted(Path(__file__).resolve().parent.joinpath("recordings").glob("*.jsonl"))


async def recorded_events(path: Path) -> list[dict[str, Any]]:
    """Replay ``path`` (it must replay exactly) and return its first table's events, as
    the table keeps them: the engine's own plain output, in wire form."""
    tables: list[Table] = []
    result = await replay(path, after=lambda table: tables.append(table) if not tables else None)
    assert result.ok, result
    events = tables[0].events.since(0)
    assert events, "the recording committed events"
    return events
