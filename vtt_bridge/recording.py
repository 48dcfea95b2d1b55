"""Recording a table's traffic, and replaying a recording headlessly.

A recording is JSON Lines.  The first line is a header with everything needed to
rebuild the table as it stood when recording began (settings, join tokens, the log so
far); then, in order, every frame a member sent (``in``, verbatim; a join's also
carries ``out_seq``, the connection's outbound seq before it), every message the
bridge sent each member (``out``), prompt deadlines passing (``expire``),
connections closing (``close``) and join tokens issued by another process, recorded
when first used to join (``token``), each with the bridge's clock reading ``t``.

Replay builds a fresh in-process bridge over an in-memory database, feeds it the
``in``, ``expire`` and ``close`` records at their recorded clock readings, and compares
what it sends each connection with the ``out`` records, message by message.  The clock
is an input, like the dice, so prompt deadlines replay exactly.

The header names the rules and wire versions it was recorded under (``rules_version``,
``wire_version``; a recording without them is version 1).  A replay under other
versions is expected to differ: it says so and where the first difference is, rather
than a diff of every message.
"""

from __future__ import annotations

import base64
import difflib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import protocol
from engine.versions import RULES_VERSION
from protocol.versions import WIRE_VERSION
from vtt_bridge.hub import SERVER_NAME, Hub
from vtt_bridge.store import JoinToken, LogRow, Store, TableRow
from vtt_bridge.tables import EVENTS_KEPT_BYTES, Session, Table

FORMAT = 1


class RecordingError(ValueError):
    """A recording file that cannot be read (not JSON Lines, no header, unknown format)."""


class FileRecorder:
    """Writes one table's traffic to a JSON Lines file, flushed line by line."""

    def __init__(
        self,
        path: Path,
        table: Table,
        log_rows: list[LogRow],
        now_ms: int,
        limits: dict[str, int] | None = None,
    ) -> None:
        """``limits``: the server's settings that change what a member is answered
        (:data:`REPLAYED_LIMITS`), so replay answers the same."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file: IO[str] = path.open("w", encoding="utf-8")
        self._write(
            {
                "record": "header",
                "format": FORMAT,
                "server": SERVER_NAME,
                "rules_version": RULES_VERSION,
                "wire_version": WIRE_VERSION,
                "t": now_ms,
                "table": asdict(table.row),
                "tokens": [asdict(t) for t in table.tokens.values()],
                "log": [asdict(r) for r in log_rows],
                "limits": dict(limits or {}),
            }
        )

    def frame_in(
        self, conn: str, frame: str | bytes, now_ms: int, out_seq: int | None = None
    ) -> None:
        """A frame a member sent, exactly as it arrived; a join also carries
        ``out_seq``, the seq of the last message the connection was sent before it."""
        record: dict[str, Any] = {"record": "in", "t": now_ms, "conn": conn}
        if isinstance(frame, bytes):
            record["binary"] = base64.b64encode(frame).decode()
        else:
            record["text"] = frame
        if out_seq is not None:
            record["out_seq"] = out_seq
        self._write(record)

    def frame_out(self, conn: str, message: protocol.ServerMessage, now_ms: int) -> None:
        """A message the bridge sent a member."""
        self._write(
            {"record": "out", "t": now_ms, "conn": conn, "message": protocol.to_wire(message)}
        )

    def token_added(self, grant: JoinToken, now_ms: int) -> None:
        """A join token the table did not have when recording began, issued by another
        process (``vtt-bridge issue-token``), first used to join: replay stores it."""
        self._write({"record": "token", "t": now_ms, "token": asdict(grant)})

    def expired(self, prompt: str, now_ms: int) -> None:
        """A prompt's deadline passed."""
        self._write({"record": "expire", "t": now_ms, "prompt": prompt})

    def left(self, conn: str, now_ms: int) -> None:
        """A member's connection closed."""
        self._write({"record": "close", "t": now_ms, "conn": conn})

    def close(self) -> None:
        """Finish the file."""
        self._file.close()

    def _write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n")
        self._file.flush()


@dataclass
class ReplayResult:
    """What a replay found: how many messages matched, and a readable diff if any did
    not; the versions it was recorded under, and the first difference."""

    path: str
    compared: int = 0
    diff: list[str] = field(default_factory=list)
    rules_version: int = 1
    wire_version: int = 1
    #: How many messages differ, and the first of them: (connection, index, recorded,
    #: replayed); a side that has no message there is None.
    differing: int = 0
    first: tuple[str, int, str | None, str | None] | None = None

    @property
    def ok(self) -> bool:
        """True when every message matched."""
        return not self.diff

    @property
    def other_versions(self) -> bool:
        """Recorded under other rules or wire versions than this release's."""
        return (self.rules_version, self.wire_version) != (RULES_VERSION, WIRE_VERSION)

    def explain(self) -> str:
        """Why a replay under other versions differs, and where it first does."""
        lines = [
            f"recorded under rules version {self.rules_version}, wire version "
            f"{self.wire_version}; this release is rules version {RULES_VERSION}, wire "
            f"version {WIRE_VERSION}.  A recording replays exactly only under the "
            "versions it was recorded with: the rules or what the bridge sends changed "
            f"since.  {self.differing} of {self.compared} recorded messages differ."
        ]
        if self.first is not None:
            conn, index, want, got = self.first
            lines.append(f"  first difference: connection {conn}, message {index + 1}")
            lines.append(f"    recorded: {want if want is not None else '(nothing)'}")
            lines.append(f"    replayed: {got if got is not None else '(nothing)'}")
        lines.append(
            "  Re-record it with this release (for the golden ones: python -m "
            "tests.scenario, python -m tests.scenario_hero), or replay it with the "
            "release that recorded it."
        )
        return "\n".join(lines)


#: The frame size replay decodes: no recorded frame is refused for its size.
REPLAY_MAX_BYTES = 1 << 30
#: Server settings a recording's header keeps (``limits``, as ``Hub`` arguments), because
#: they change what a member is answered: a join beyond the per-token cap is refused, a
#: catch-up from before the event window gets the state.  Older recordings have none:
#: the defaults.
REPLAYED_LIMITS = frozenset({"max_connections_per_token", "events_kept_bytes"})


def read_recording(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the records of a recording file."""
    try:
        lines = [
            json.loads(line)
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordingError(f"{path}: not a readable JSON Lines recording: {exc}") from None
    if not lines or lines[0].get("record") != "header":
        raise RecordingError(f"{path}: the first line is not a recording header")
    if lines[0].get("format") != FORMAT:
        raise RecordingError(
            f"{path}: recording format {lines[0].get('format')!r}, expected {FORMAT}"
        )
    return lines[0], lines[1:]


async def replay(path: Path, *, after: Callable[[Table], None] | None = None) -> ReplayResult:
    """Feed a recording into a fresh bridge and compare every message it sends.

    ``after``, if given, is called with the table once each record has been handled
    (the client library's tests read the table's state there)."""
    header, records = read_recording(path)
    versions = {
        "rules_version": header.get("rules_version", 1),
        "wire_version": header.get("wire_version", 1),
    }
    # Every recorded frame passed the live server's size limit (larger ones were closed
    # before they reached the hub), whatever ``--max-message-bytes`` it ran with.
    limits = header.get("limits") or {}
    hub = Hub(
        Store(":memory:"),
        max_message_bytes=REPLAY_MAX_BYTES,
        max_connections_per_token=int(limits.get("max_connections_per_token", 0)),
        events_kept_bytes=int(limits.get("events_kept_bytes", EVENTS_KEPT_BYTES)),
    )
    try:
        table = hub.restore_table(
            TableRow(**header["table"]),
            [JoinToken(**t) for t in header["tokens"]],
            # Rows say their own versions; those of an older recording, its header's.
            [LogRow(**(versions | r)) for r in header["log"]],
        )
        produced: dict[str, list[dict[str, Any]]] = {}
        expected: dict[str, list[dict[str, Any]]] = {}
        sessions: dict[str, Session] = {}
        closed: set[str] = set()
        for record in records:
            kind, now = record["record"], record["t"]
            if kind == "in":
                conn = record["conn"]
                if conn not in sessions:
                    sink = produced.setdefault(conn, [])
                    sessions[conn] = Session(
                        conn, lambda m, sink=sink: sink.append(protocol.to_wire(m))
                    )
                frame: str | bytes = (
                    base64.b64decode(record["binary"]) if "binary" in record else record["text"]
                )
                if "out_seq" in record:  # a join: carry on from the live connection's seq
                    sessions[conn].start_seq(record["out_seq"])
                await hub.receive(sessions[conn], frame, now)
                # The live bridge answers in queue order whatever the commit timing,
                # so each frame's answers are complete before the next record.
                await hub.drain()
            elif kind == "out":
                expected.setdefault(record["conn"], []).append(record["message"])
            elif kind == "token":  # issued by another process while recording
                hub.store.add_token(JoinToken(**record["token"]))
            elif kind == "expire":
                await hub.expire(table.id, record["prompt"], now)
            elif kind == "close" and record["conn"] in sessions:
                closed.add(record["conn"])
                hub.leave(sessions[record["conn"]], now)
            elif kind not in ("close",):
                raise RecordingError(f"{path}: unknown record kind {kind!r}")
            if after is not None:
                after(table)
    finally:
        hub.close()
    result = ReplayResult(str(path), **versions)
    return _compare(result, expected, produced, closed)


def _compare(
    result: ReplayResult,
    expected: dict[str, list[dict[str, Any]]],
    produced: dict[str, list[dict[str, Any]]],
    closed: set[str],
) -> ReplayResult:
    path = result.path
    for conn in sorted(set(expected) | set(produced)):
        want = [_line(m) for m in expected.get(conn, [])]
        got = [_line(m) for m in produced.get(conn, [])]
        result.compared += len(want)
        if conn in closed and got[: len(want)] == want:
            # A connection that closed while it was still being sent to (a catch-up
            # waiting for room in its queue) was sent less than a replay, which never
            # waits, produces: what it was sent must match, the rest never left.
            continue
        if want != got:
            _count_differences(result, conn, want, got)
            result.diff += list(
                difflib.unified_diff(
                    want, got, f"{path} [{conn}] recorded", f"{path} [{conn}] replayed", lineterm=""
                )
            )
    return result


def _count_differences(result: ReplayResult, conn: str, want: list[str], got: list[str]) -> None:
    for index in range(max(len(want), len(got))):
        recorded = want[index] if index < len(want) else None
        replayed = got[index] if index < len(got) else None
        if recorded != replayed:
            result.differing += 1
            if result.first is None:
                result.first = (conn, index, recorded, replayed)


def _line(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), sort_keys=True)
