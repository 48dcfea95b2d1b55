"""Rebuilding a table at start-up from its latest snapshot and a bounded tail of its log.

What start-up reads of a table: its latest snapshot, carried forward to this release's
form (:mod:`engine.versions`), and the commands after it (at most about
``--snapshot-every``), applied again; their events start the table's catch-up window in
memory and their acknowledgements are remembered for retransmission.  Nothing older is
read: older events come from the log when a client asks for them
(:meth:`Store.events_between`, by index), an older acknowledgement when its client
retransmits (:meth:`Store.find_ack`, by index, for a seq at most the highest that client
has in the log), and ``--verify-log`` reads everything (:func:`verify`).  So start-up
costs the same at 200,000 rows as at 2,000.

A logged command applied again must produce exactly the events it logged (events of an
older wire version upgraded first, :mod:`protocol.versions`).  When it does not (the
rules changed since it was logged, or it is refused now), the difference is reported
loudly (an error in the log, ``replay_divergences`` in ``/metrics``,
:attr:`LoadReport.divergences`) and the server starts anyway: the table carries on from
this release's result, the logged events stay what members saw.  Only a log with a
hole in it, or data from a newer release, stops the server (:class:`StartupError`).

A table whose snapshot or tail was written under older versions is carried forward
once: a snapshot of the result is written under this release's versions, so the next
start-up begins there and re-applies nothing old.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import engine
from engine import CommandRejected, Encounter, EncounterState
from engine.versions import RULES_VERSION, NewerVersion, upgrade_command, upgrade_state
from protocol.versions import WIRE_VERSION, fight_after, upgrade_events
from vtt_bridge import event_upgrades  # noqa: F401  (registers the event upgrade steps)
from vtt_bridge.replies import ack_reply
from vtt_bridge.store import LogRow, Snapshot, VersionRun, stored_hash
from vtt_bridge.store_protocol import EventStore
from vtt_bridge.tables import EventLog, Table
from vtt_bridge.translate import command_from_plain, event_to_plain

log = logging.getLogger("vtt_bridge")
#: ``on_deadline(table_id, prompt_id, deadline_ms)``: a prompt is open until then.
DeadlineFn = Callable[[str, str, int], None]
#: Divergences of one table logged one by one; the rest are counted.
DIVERGENCES_LOGGED = 5


class StartupError(RuntimeError):
    """The log on disk cannot be loaded: a position is missing, or a newer release
    wrote it."""


@dataclass(frozen=True, slots=True)
class Divergence:
    """A logged command that does not reproduce its logged events under this release."""

    position: int
    kind: str
    rules_version: int
    why: str


@dataclass
class LoadReport:
    """What start-up did with one table."""

    table: str
    name: str
    positions: int = 0
    #: The position of the snapshot it started from (None: from the log's start).
    snapshot: int | None = None
    snapshot_rules_version: int | None = None
    #: Commands applied again (those after the snapshot).
    replayed: int = 0
    #: Log rows read (the tail).
    rows_read: int = 0
    #: Snapshot or tail written under older versions: a new snapshot carries it forward.
    carried_forward: bool = False
    divergences: list[Divergence] = field(default_factory=list)


def load(table: Table, store: EventStore, on_deadline: DeadlineFn) -> LoadReport:
    """Bring a freshly installed ``table`` to the end of its log (see the module
    docstring), then arm the deadline of every prompt still open via ``on_deadline``."""
    report = LoadReport(table.id, table.row.name, positions=store.positions(table.id))
    snapshot = store.latest_snapshot(table.id)
    state = None
    if snapshot is not None and snapshot.position <= report.positions:
        state = carry_forward(table.id, snapshot)
    start = 0
    deadlines: dict[str, int] = {}
    if state is not None and snapshot is not None:
        table.encounter = Encounter(state)
        start = table.snapshot_position = snapshot.position
        report.snapshot, report.snapshot_rules_version = start, snapshot.rules_version
        report.carried_forward = snapshot.rules_version != RULES_VERSION
        deadlines = dict(snapshot.deadlines or {})
    tail = store.log(table.id, since=start)
    for expected, row in enumerate(tail, start):
        if row.position != expected:
            raise StartupError(f"table {table.id}: log position {expected} is missing")
    if start + len(tail) != report.positions:
        raise StartupError(f"table {table.id}: log position {report.positions - 1} is missing")
    fights: list[str | None] = []
    for row in tail:
        fights.append(fight_after(row.command, fight_of(table.encounter.state)))
        _replay_row(table.id, table.encounter, row, report, fights[-1])
        deadlines.update(row.meta.get("deadlines", {}))
    report.replayed = len(tail)
    total = (
        tail[-1].first_event + len(tail[-1].events)
        if tail
        else (snapshot.events if start and snapshot is not None else 0)
    )
    report.rows_read = len(tail)
    _fill_window(table, store, tail, fights, total)
    _remember_acks(table, tail)
    # Acknowledgements before the tail stay in the log: a retransmission with a seq at
    # most its client's highest there is looked up (Hub._retransmitted).
    table.acks_loaded_from = start
    table.committed = table.encounter.state
    table.positions = report.positions
    table.next_position, table.next_event = table.positions, len(table.events)
    combat = table.committed.combat
    open_prompts = {p.id for p in combat.prompts} if combat else set()
    missing = open_prompts - set(deadlines)
    if missing and start:  # a snapshot from before snapshots kept deadlines
        deadlines.update(store.deadlines_before(table.id, missing, start))
    table.deadlines = {p: d for p, d in deadlines.items() if p in open_prompts}
    if report.carried_forward or any(r.rules_version != RULES_VERSION for r in tail):
        report.carried_forward = True
        _snapshot_now(table, store)
    _tell(report)
    for prompt, deadline in table.deadlines.items():
        on_deadline(table.id, prompt, deadline)
    return report


def carry_forward(table_id: str, snapshot: Snapshot) -> EncounterState | None:
    """The snapshot's state in this release's form, or None (replay the whole log
    instead) when it is damaged (its stored form no longer hashes to its hash) or this
    release cannot read it."""
    if snapshot.rules_version > RULES_VERSION:
        raise StartupError(
            f"table {table_id}: snapshot {snapshot.position} was written under rules "
            f"version {snapshot.rules_version}; this release knows up to {RULES_VERSION}: "
            "run the newer release"
        )
    if stored_hash(snapshot.state) != snapshot.hash:
        log.warning(
            "table %s: snapshot %d does not match its hash; replaying the whole log",
            table_id,
            snapshot.position,
        )
        return None
    try:
        plain = upgrade_state(snapshot.state, snapshot.rules_version)
        state = engine.from_plain(EncounterState, plain)
    except (TypeError, ValueError, KeyError) as exc:
        log.error(
            "table %s: snapshot %d (rules version %d) cannot be read by this release "
            "(rules version %d): %s; replaying the whole log under this release's rules "
            "(an upgrade step belongs in engine/versions.py)",
            table_id,
            snapshot.position,
            snapshot.rules_version,
            RULES_VERSION,
            exc,
        )
        return None
    return state


def _replay_row(
    table_id: str, encounter: Encounter, row: LogRow, report: LoadReport, fight: str | None
) -> None:
    """Apply a logged command again and compare what it produces with what it logged
    (in fight ``fight``: the ruleset the row ran under, which its upgrade may need)."""
    if row.rules_version > RULES_VERSION or row.wire_version > WIRE_VERSION:
        raise StartupError(
            f"table {table_id}: command {row.position} was written under rules version "
            f"{row.rules_version}, wire version {row.wire_version}; this release knows up "
            f"to {RULES_VERSION} and {WIRE_VERSION}: run the newer release"
        )
    kind = str(row.command.get("type", "?"))
    try:
        command = command_from_plain(upgrade_command(row.command, row.rules_version))
        events = [event_to_plain(e) for e in encounter.apply(command)]
    except CommandRejected as exc:
        why = f"is refused now ({exc.code}: {exc.message})"
    except (TypeError, ValueError, KeyError, NewerVersion) as exc:
        why = f"cannot be read by this release ({exc})"
    else:
        if events == wire_events(row, fight):
            return
        why = "produces other events than it logged"
    report.divergences.append(Divergence(row.position, kind, row.rules_version, why))


def fight_of(state: EncounterState) -> str | None:
    """The ruleset of the fight running in ``state`` (None: no fight)."""
    return state.combat.ruleset if state.combat is not None else None


def wire_events(row: LogRow, fight: str | None) -> list[dict[str, object]]:
    """A row's logged events as this release sends them (``fight``: the ruleset of the
    fight the row ran in, :func:`protocol.versions.fight_after`)."""
    if row.wire_version == WIRE_VERSION:
        return row.events
    return upgrade_events(row.events, row.command, row.wire_version, fight)


def _fill_window(
    table: Table, store: EventStore, tail: list[LogRow], fights: list[str | None], total: int
) -> None:
    """The catch-up window, numbered so the last event is ``total - 1``: the tail's
    events, and before them, up to the window's count, the newest events of the log
    before the tail (read by index, ``log_by_event``), so a client that rejoins after a
    restart catches up with events as it would have before it, not with the whole
    state.  The window's byte bound then drops the oldest as it does in play."""
    events = EventLog(table.events.keep, table.events.keep_bytes)
    held = [
        event for row, fight in zip(tail, fights, strict=True) for event in wire_events(row, fight)
    ]
    first = total - len(held)
    earlier_from = max(0, first - events.keep)
    if earlier_from < first:
        held = store.events_between(table.id, earlier_from, first) + held
    events.base = total - len(held)
    events.extend(held)
    table.events = events


def _remember_acks(table: Table, rows: Iterable[LogRow]) -> None:
    for row in rows:
        client, ref = row.meta.get("client"), row.meta.get("ref")
        if isinstance(client, str) and isinstance(ref, int):
            # Older logs name no participant: it is the client key's first part.
            participant = row.meta.get("participant")
            if not isinstance(participant, str):
                participant = client.split("/", 1)[0]
            digest = row.meta.get("digest")
            table.remember(
                participant,
                client,
                ref,
                ack_reply(row.first_event, len(row.events)),
                digest if isinstance(digest, str) else None,
            )


def _snapshot_now(table: Table, store: EventStore) -> None:
    """Store the table's state at the end of its log under this release's versions."""
    snapshot = snapshot_of(table.committed, table.positions, len(table.events), table.deadlines)
    if snapshot is None:
        log.error("table %s: state does not round-trip; not carried forward", table.id)
        return
    store.write_snapshot(table.id, snapshot)
    table.snapshot_position = table.positions


def snapshot_of(
    state: EncounterState, position: int, events: int, deadlines: dict[str, int]
) -> Snapshot | None:
    """The snapshot of ``state`` after ``position`` commands, or None when it does not
    rebuild exactly (only one that does is worth keeping)."""
    plain = engine.to_plain(state)
    digest = stored_hash(plain)
    # Compared as JSON text, where True and 1 differ (as values they are equal).
    if stored_hash(engine.to_plain(engine.from_plain(EncounterState, plain))) != digest:
        return None
    return Snapshot(position, events, plain, digest, dict(deadlines))


def _tell(report: LoadReport) -> None:
    """Say what was loaded; divergences as errors (they need a person to look)."""
    if report.carried_forward:
        log.warning(
            "table %s (%s): carried forward from rules version %s to %d "
            "(snapshot at %s, %d later commands applied again, %d differ)",
            report.table,
            report.name,
            report.snapshot_rules_version or "1",
            RULES_VERSION,
            report.snapshot,
            report.replayed,
            len(report.divergences),
        )
    for divergence in report.divergences[:DIVERGENCES_LOGGED]:
        log.error(
            "table %s (%s): logged command %d (%s, rules version %d) %s; the table goes "
            "on from this release's result, its logged events stay as members saw them",
            report.table,
            report.name,
            divergence.position,
            divergence.kind,
            divergence.rules_version,
            divergence.why,
        )
    if len(report.divergences) > DIVERGENCES_LOGGED:
        log.error(
            "table %s (%s): %d more logged commands differ",
            report.table,
            report.name,
            len(report.divergences) - DIVERGENCES_LOGGED,
        )


@dataclass
class Verified:
    """``--verify-log``'s finding for one table: its whole log replayed from nothing."""

    table: str
    name: str
    versions: list[VersionRun]
    divergences: list[Divergence]
    full_hash: str
    loaded_hash: str

    @property
    def current(self) -> bool:
        """Every row was written under this release's versions."""
        return all(
            (run.rules_version, run.wire_version) == (RULES_VERSION, WIRE_VERSION)
            for run in self.versions
        )

    def describe(self) -> str:
        """One line: which positions were written under which versions."""
        runs = ", ".join(
            f"{run.first}-{run.last} rules {run.rules_version} wire {run.wire_version}"
            for run in self.versions
        )
        return f"table {self.table} ({self.name}): {runs or 'empty log'}"


def verify(store: EventStore, table: Table) -> Verified:
    """Replay ``table``'s whole log from nothing, as ``--verify-log`` does."""
    encounter = Encounter()
    report = LoadReport(table.id, table.row.name)
    for row in store.log(table.id):
        fight = fight_after(row.command, fight_of(encounter.state))
        _replay_row(table.id, encounter, row, report, fight)
    return Verified(
        table.id,
        table.row.name,
        store.versions(table.id),
        report.divergences,
        encounter.state_hash(),
        table.encounter.state_hash(),
    )


def full_replay_hash(store: EventStore, table_id: str) -> str:
    """The state hash of replaying a table's whole log from nothing (no snapshot)."""
    encounter = Encounter()
    for row in store.log(table_id):
        encounter.apply(command_from_plain(upgrade_command(row.command, row.rules_version)))
    return encounter.state_hash()
