"""Rebuilding a table from its log, starting from its latest snapshot when that is sound.

Every logged command is applied again and must produce exactly the events the log holds;
if it does not, the server refuses to start (:class:`StartupError`) rather than serve a
state the log never recorded.  A snapshot only saves applying the commands before it:
their events are still read into the table, and the replies to them are remembered for
retransmission.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import engine
from engine import CommandRejected, Encounter, EncounterState
from vtt_bridge.replies import ack_reply
from vtt_bridge.store import LogRow, Snapshot, Store
from vtt_bridge.tables import Table
from vtt_bridge.translate import command_from_plain, event_to_plain

log = logging.getLogger("vtt_bridge")
#: ``on_deadline(table_id, prompt_id, deadline_ms)``: a prompt is open until then.
DeadlineFn = Callable[[str, str, int], None]


class StartupError(RuntimeError):
    """The log on disk cannot be replayed into the state it recorded."""


def rebuild(
    table: Table, rows: list[LogRow], snapshot: Snapshot | None, on_deadline: DeadlineFn
) -> None:
    """Bring a freshly installed ``table`` to the end of its log ``rows``.

    Applies the rows after ``snapshot`` (all of them if there is none, or it is unsound),
    then arms the deadline of every prompt still open through ``on_deadline``."""
    start = 0
    state = snapshot_state(table, snapshot) if snapshot is not None else None
    if snapshot is not None and state is not None and snapshot.position <= len(rows):
        table.encounter = Encounter(state)
        start = table.snapshot_position = snapshot.position
    for expected, log_row in enumerate(rows):
        if log_row.position != expected:
            raise StartupError(f"table {table.id}: log position {expected} is missing")
        if log_row.position >= start:
            command = command_from_plain(log_row.command)
            try:
                events = [event_to_plain(e) for e in table.encounter.apply(command)]
            except CommandRejected as exc:
                raise StartupError(
                    f"table {table.id}: logged command {log_row.position} "
                    f"is refused on replay: {exc}"
                ) from exc
            if events != log_row.events:
                raise StartupError(
                    f"table {table.id}: command {log_row.position} replays to other "
                    "events than the log holds; the engine is not deterministic for this log"
                )
        table.events.extend(log_row.events)
        table.positions += 1
        table.deadlines.update(log_row.meta.get("deadlines", {}))
        client, ref = log_row.meta.get("client"), log_row.meta.get("ref")
        if isinstance(client, str) and isinstance(ref, int):
            # Older logs name no participant: it is the client key's first part.
            participant = log_row.meta.get("participant")
            if not isinstance(participant, str):
                participant = client.split("/", 1)[0]
            reply = ack_reply(log_row.first_event, len(log_row.events))
            digest = log_row.meta.get("digest")
            table.remember(
                participant, client, ref, reply, digest if isinstance(digest, str) else None
            )
    table.committed = table.encounter.state
    table.next_position, table.next_event = table.positions, len(table.events)
    combat = table.encounter.state.combat
    open_prompts = {p.id for p in combat.prompts} if combat else set()
    table.deadlines = {p: d for p, d in table.deadlines.items() if p in open_prompts}
    for prompt, deadline in table.deadlines.items():
        on_deadline(table.id, prompt, deadline)


def snapshot_state(table: Table, snapshot: Snapshot) -> EncounterState | None:
    """The snapshot's state, or None (replay the whole log instead) if it does not
    rebuild to the hash it was stored with: written by another engine version, say."""
    try:
        state = engine.from_plain(EncounterState, snapshot.state)
    except (TypeError, ValueError, KeyError):
        state = None
    if state is None or engine.state_hash(state) != snapshot.hash:
        log.warning(
            "table %s: snapshot %d does not rebuild to its hash; replaying the whole log",
            table.id,
            snapshot.position,
        )
        return None
    return state


def full_replay_hash(store: Store, table_id: str) -> str:
    """The state hash of replaying a table's whole log from nothing (no snapshot)."""
    encounter = Encounter()
    for log_row in store.log(table_id):
        encounter.apply(command_from_plain(log_row.command))
    return encounter.state_hash()
