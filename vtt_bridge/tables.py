"""A table in memory: its encounter, its members, its events, and who may join it."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol

import protocol
from engine import Encounter
from vtt_bridge.store import JoinToken, TableRow


class Recorder(Protocol):
    """Where a table's traffic goes when it is being recorded (see ``vtt_bridge.recording``)."""

    def frame_in(self, conn: str, frame: str | bytes, now_ms: int) -> None:
        """A frame a member sent."""

    def frame_out(self, conn: str, message: protocol.ServerMessage, now_ms: int) -> None:
        """A message the bridge sent a member."""

    def expired(self, prompt: str, now_ms: int) -> None:
        """A prompt's deadline passed."""

    def left(self, conn: str, now_ms: int) -> None:
        """A member's connection closed."""


class Session:
    """One connection's identity and its outbound side.

    ``deliver`` is the connection's non-blocking sink (a bounded queue in the server, a
    list in replay); ``send`` numbers each message with the connection's own counter.
    """

    def __init__(self, conn: str, deliver: DeliverFn) -> None:
        self.conn = conn
        self._deliver = deliver
        self.binary = False
        self.table: Table | None = None
        self.participant = ""
        self.role = ""
        self._out_seq = 0

    def next_seq(self) -> int:
        """The seq number for the next outbound message."""
        self._out_seq += 1
        return self._out_seq

    def send(self, message: protocol.ServerMessage, now_ms: int) -> None:
        """Queue ``message`` for this connection (and the table's recording, if any)."""
        if self.table is not None and self.table.recorder is not None:
            self.table.recorder.frame_out(self.conn, message, now_ms)
        self._deliver(message)


class DeliverFn(Protocol):
    """A connection's outbound sink; must not block."""

    def __call__(self, message: protocol.ServerMessage) -> None:
        """Take one message for sending."""


@dataclass
class Table:
    """One table: settings, join tokens, the encounter and its event history."""

    row: TableRow
    tokens: dict[str, JoinToken]
    encounter: Encounter = field(default_factory=Encounter)
    events: list[dict[str, Any]] = field(default_factory=list)
    positions: int = 0
    deadlines: dict[str, int] = field(default_factory=dict)
    sessions: list[Session] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recorder: Recorder | None = None

    @property
    def id(self) -> str:
        """The table id."""
        return self.row.id

    def combat_seed(self) -> int:
        """The dice seed for a combat started now: derived from the table seed and the log.

        Deterministic, so a replay of the same messages rolls the same dice, and never
        sent to players.
        """
        digest = hashlib.blake2b(f"{self.row.seed}:{self.positions}".encode(), digest_size=8)
        return int.from_bytes(digest.digest(), "big") >> 1

    def last_event(self) -> int:
        """The index of the newest event, -1 when there is none."""
        return len(self.events) - 1
