"""Server settings, with their defaults: everything ``vtt-bridge serve`` can be told."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


def wall_clock_ms() -> int:
    """Milliseconds since the Unix epoch."""
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Config:
    """How one server runs.

    ``clock`` is the only clock the bridge reads: prompt deadlines and recordings use
    it, and tests can drive it.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    database: Path = Path("data/vtt-bridge.sqlite3")
    demo: bool = False
    record_dir: Path | None = None
    prompt_timeout: float = 30.0
    max_message_bytes: int = 64 * 1024
    outbound_queue: int = 256
    heartbeat: float = 20.0
    clock: Callable[[], int] = field(default=wall_clock_ms)
