"""Group commit: the one writer that commits applied commands to the log, then answers.

A command is applied to its table's encounter and queued for the log in one synchronous
step (so the queue order is the order of application, with no lock), and the next
command (from anyone, at any table) is checked against the applied state while the
commit is in flight; the sender's connection goes on reading meanwhile.  One writer task takes
everything queued at the moment it becomes free and commits it in one transaction; then,
in queue order, each command is acknowledged and broadcast.  A refusal is queued the same
way, so it is never sent before the acknowledgement of a command it was judged after;
so is a member's answer that changes nothing (a query, ``ping``, a join's welcome) while
commands of its table are waiting (:meth:`Committer.in_order`).
If a commit fails, every command of the affected tables still in flight is refused
(``internal``) and the tables go back to their committed state: acknowledged still means
committed.  That refusal is not remembered as the command's answer (unlike every other):
nothing was done, so the same command sent again under the same seq is tried again, and
once the disk has room (a full disk is the usual cause) play goes on by itself, on the
same connections.  :attr:`Committer.storage_failure` says why the last commit failed, or
None once one succeeds (``/healthz`` shows it).

The committer also owns the hub's database threads: the store calls made while serving
run on the first (:meth:`Committer.in_db`), so the event loop never waits on a disk
flush.  A store that commits on several connections at once (PostgreSQL's
``--db-connections``; its ``commit_lanes``) gets as many lanes, each a queue, a writer
and a thread of its own: while a table has anything queued or in flight it stays on its
lane, so its groups stay in order, while groups of tables on different lanes commit at
once (each waits for its own flush, not the others').  A table with nothing queued or
in flight joins the group of a lane whose commit began less than
:data:`LANE_PATIENCE_S` ago (it will not wait long, and one transaction of many
commands costs the server and this process far less than many of one each: under load
the lanes' groups stay as big as one lane's), else starts one on an idle lane (a slow
flush holds back no other table for longer than that), else joins the lane whose
commit began first.  SQLite's file has one writer: one lane.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import protocol
from engine import Encounter, EncounterState
from engine.events import PromptOpened
from vtt_bridge.loading import DeadlineFn, snapshot_of
from vtt_bridge.metrics import Metrics
from vtt_bridge.replies import ack_reply, broadcast, send_ack, send_error
from vtt_bridge.store import AdminReply, LogRow, TableRow
from vtt_bridge.store_protocol import EventStore, Fenced
from vtt_bridge.tables import Session, Table

log = logging.getLogger("vtt_bridge")
T = TypeVar("T")
#: Called at named points of the request cycle (``after_commit``, ``after_ack``); a
#: crash test's hook kills the process there and returns True.
CrashFn = Callable[[str], bool]
#: Seconds a lane's commit may have been in flight for a table with nothing queued to
#: join its next group rather than start one on an idle lane: a few commits' worth on
#: an idle machine (one takes 1 to 3 ms), under the human-pace p99's 20 ms.
LANE_PATIENCE_S = 0.005


@dataclass(eq=False, slots=True)
class Pending:
    """A command applied to its table and waiting for its commit (or a queued refusal).

    Compared by identity (``eq=False``): the writer asks ``pending in live`` per command
    of a batch, and field-by-field equality made that quadratic in real work."""

    table: Table
    generation: int
    sender: Session | None
    ref: int | None
    client: str
    now_ms: int
    row: LogRow | None = None
    state: EncounterState | None = None
    opened: dict[str, int] = field(default_factory=dict)
    closed: set[str] = field(default_factory=set)
    #: The prompts it opened that are still open after it, as their events, in order.
    prompts: tuple[PromptOpened, ...] = ()
    refusal: tuple[str, str, str | None] | None = None
    done: asyncio.Future[None] | None = None
    #: A session message (a query, ``ping``, a join's answer) run at this place in the
    #: queue: after every command of the table submitted before it is answered.
    action: Callable[[], None] | None = None
    #: A table's new settings (``configure_table``): committed in the batch's transaction
    #: and acknowledged in order, like a command.
    settings: TableRow | None = None
    #: A place held for an answer not known yet (:meth:`Committer.hold_place`): the
    #: writer waits for it here before answering anything queued after it.
    ready: asyncio.Future[None] | None = None
    #: The code it was refused with, once answered (None: accepted, or an action).
    refused_code: str | None = None
    #: The engine command's kind (``move``, ``act`` ...), for the metrics; "" for
    #: anything else queued here.
    kind: str = ""
    #: When it was queued (monotonic seconds): its acknowledgement's latency.
    queued: float = field(default_factory=time.monotonic)
    #: The :func:`~vtt_bridge.replies.message_digest` of the message, kept with its reply.
    digest: str | None = None


@dataclass(eq=False)
class DueSnapshot:
    """A table's state to snapshot with the batch that brings it to ``position``."""

    table: Table
    state: EncounterState
    position: int
    events: int
    #: The open prompts' deadlines at ``position`` (start-up arms them from here).
    deadlines: dict[str, int] = field(default_factory=dict)
    written: bool = False


class _Lane:
    """One writer's queue, its task and the database thread it commits on."""

    def __init__(self, index: int) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"vtt-db{index}")
        self.queue: asyncio.Queue[Pending] | None = None
        self.writer: asyncio.Task[None] | None = None
        #: When the writer took the group it is working on (monotonic seconds); None
        #: while it waits for one.
        self.since: float | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (a blocking store call) on this lane's thread."""
        return await asyncio.get_running_loop().run_in_executor(self.thread, fn, *args)


def _settings_replies(live: list[Pending]) -> list[AdminReply]:
    """The answers to the ``configure_table`` messages among ``live``, stored with the
    settings they change (only for clients that can retransmit)."""
    return [
        AdminReply(p.table.id, p.sender.participant, p.client, p.ref, p.digest, ["ack", None, None])
        for p in live
        if p.settings is not None
        and p.sender is not None
        and p.ref is not None
        and p.digest is not None
        and not p.client.startswith("conn:")
    ]


def _inflight_key(pending: Pending) -> tuple[str, str, str, int]:
    assert pending.sender is not None and pending.ref is not None
    return (pending.table.id, pending.sender.participant, pending.client, pending.ref)


class Committer:
    """The commit queues (a lane's each), their writer tasks and the database threads
    of one hub.

    After a commit it acknowledges and broadcasts, arms each opened prompt's deadline
    through ``on_deadline``, and snapshots a table every ``snapshot_every`` commands
    (0: never).
    """

    def __init__(
        self,
        store: EventStore,
        metrics: Metrics,
        *,
        on_deadline: DeadlineFn,
        crash: CrashFn,
        snapshot_every: int,
        on_lost: Callable[[str], None] = lambda table_id: None,
    ) -> None:
        self.store = store
        #: Called with a table another process has taken over (a fenced commit): its
        #: commands here are not answered, their senders are sent to the new owner.
        self._on_lost = on_lost

        self.metrics = metrics
        self.snapshot_every = snapshot_every
        self._on_deadline = on_deadline
        self._crash = crash
        self._lanes = [_Lane(i) for i in range(max(1, store.commit_lanes))]
        #: The lane of each table (by the object's identity: a copy loaded again is
        #: another) with anything queued or in flight, kept until it has none: a table's
        #: groups must not overtake each other on two lanes.
        self._lane_of: dict[int, tuple[Table, _Lane]] = {}
        self._inflight: dict[tuple[str, str, str, int], asyncio.Future[None]] = {}
        #: Why the last commit failed ("the disk is full"), or None since one succeeded.
        self.storage_failure: str | None = None

    def close(self) -> None:
        """Stop the writers and the database threads."""
        for lane in self._lanes:
            if lane.writer is not None:
                lane.writer.cancel()
            lane.thread.shutdown(wait=True)

    async def drain(self) -> None:
        """Wait until every queued command is committed, acknowledged and broadcast."""
        await asyncio.gather(*(lane.queue.join() for lane in self._lanes if lane.queue))

    def _lane(self, table: Table) -> _Lane:
        held = self._lane_of.get(id(table))
        if held is not None:
            return held[1]
        lane = self._free_lane()
        self._lane_of[id(table)] = (table, lane)
        return lane

    def _free_lane(self) -> _Lane:
        """The lane for a table with nothing queued or in flight (see the module's
        docstring): the group of the lane whose commit began first among those that
        began under :data:`LANE_PATIENCE_S` ago, else an idle lane, else the group of
        the lane whose commit began first."""
        if len(self._lanes) == 1:
            return self._lanes[0]
        now = time.monotonic()
        young: tuple[float, _Lane] | None = None
        oldest: tuple[float, _Lane] | None = None
        idle = None
        for lane in self._lanes:
            queued = lane.queue is not None and not lane.queue.empty()
            if lane.since is None and not queued:
                idle = idle or lane
                continue
            # A lane with a queue and no group yet: its writer takes the queue next.
            age = 0.0 if lane.since is None else now - lane.since
            if age < LANE_PATIENCE_S and (young is None or age > young[0]):
                young = (age, lane)
            if oldest is None or age > oldest[0]:
                oldest = (age, lane)
        if young is not None:
            return young[1]
        if idle is not None:
            return idle
        assert oldest is not None
        return oldest[1]

    async def in_db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` (a blocking store call) on the database thread."""
        return await self._lanes[0].run(fn, *args)

    def in_flight(
        self, table_id: str, participant: str, client: str, ref: int
    ) -> asyncio.Future[None] | None:
        """The commit ``client``'s command ``ref`` at the table waits for, if still queued."""
        return self._inflight.get((table_id, participant, client, ref))

    def hold_place(
        self,
        table: Table,
        now_ms: int,
        sender: Session | None = None,
        ref: int | None = None,
        client: str = "",
    ) -> Pending:
        """Hold the next place in ``table``'s answer order for an answer that needs an
        await first (an admin message's database write); :meth:`fill` gives it.  Its
        holder must fill it, or every later answer of the server waits.  Held for
        ``sender``'s message ``ref``, it is that message's :meth:`in_flight` until
        answered (a retransmission waits for it)."""
        pending = Pending(table, table.generation, sender, ref, client, now_ms)
        pending.ready = asyncio.get_running_loop().create_future()
        self.enqueue(pending)
        return pending

    @contextlib.asynccontextmanager
    async def place_held(
        self,
        table: Table,
        now_ms: int,
        sender: Session | None = None,
        ref: int | None = None,
        client: str = "",
    ) -> AsyncIterator[Pending]:
        """:meth:`hold_place` for the block's work, which fills it; on the way out an
        empty place is filled with nothing (whatever went wrong, every later answer
        would wait for it) and its turn is waited for."""
        place = self.hold_place(table, now_ms, sender, ref, client)
        try:
            yield place
        finally:
            self.fill(place, lambda: None)
            await self.wait(place)

    @staticmethod
    def fill(place: Pending, action: Callable[[], None]) -> None:
        """Give a held place its answer (sent at once if the writer is waiting for it)."""
        assert place.ready is not None
        if not place.ready.done():
            place.action = action
            place.ready.set_result(None)

    async def in_order(self, table: Table, action: Callable[[], None], now_ms: int) -> None:
        """Run ``action`` (it sends a session its answer) once every command of ``table``
        submitted so far is answered: at once when none is waiting, else at its place
        in the queue.  So a member is answered in the order a replay answers it."""
        if table.unanswered == 0:
            action()
            return
        pending = Pending(table, table.generation, None, None, "", now_ms)
        pending.action = action
        await self.submit(pending)

    async def submit(self, pending: Pending) -> None:
        """Queue ``pending`` for the writer and wait until it is answered."""
        self.enqueue(pending)
        await self.wait(pending)

    def enqueue(self, pending: Pending) -> None:
        """Queue ``pending`` for the writer (it is answered in queue order)."""
        loop = asyncio.get_running_loop()
        pending.done = loop.create_future()
        if pending.sender is not None and pending.ref is not None:
            self._inflight[_inflight_key(pending)] = pending.done
        pending.table.unanswered += 1
        if pending.sender is not None:
            pending.sender.in_flight += 1
        lane = self._lane(pending.table)
        if lane.queue is None:
            lane.queue = asyncio.Queue()
        if lane.writer is None or lane.writer.done():
            lane.writer = loop.create_task(self._write_loop(lane))
        lane.queue.put_nowait(pending)

    async def wait(self, pending: Pending) -> None:
        """Wait until a queued ``pending`` is committed and answered, or refused."""
        assert pending.done is not None
        await asyncio.shield(pending.done)

    async def _write_loop(self, lane: _Lane) -> None:
        queue = lane.queue
        assert queue is not None
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            lane.since = time.monotonic()
            try:
                await self._write_batch(batch, lane)
            except Exception:  # never let the writer die: every waiter must hear back
                log.exception("writer failed on a batch of %d", len(batch))
            finally:
                lane.since = None
                for pending in batch:
                    pending.table.unanswered -= 1
                    if pending.table.unanswered == 0:
                        # Nothing of it queued or in flight: its next group may go on
                        # any lane.
                        self._lane_of.pop(id(pending.table), None)
                    if pending.sender is not None:
                        pending.sender.in_flight -= 1
                    if pending.sender is not None and pending.ref is not None:
                        # Only its own entry: a held place and the settings change
                        # queued behind it share a key.
                        key = _inflight_key(pending)
                        if self._inflight.get(key) is pending.done:
                            del self._inflight[key]
                    if pending.done is not None and not pending.done.done():
                        pending.done.set_result(None)
                    queue.task_done()

    async def _write_batch(self, batch: list[Pending], lane: _Lane) -> None:
        # A moved table's commands are not written even when its owner row would let
        # them: this process may have claimed the table again since (a newer epoch, a
        # fresh copy loaded), and the fence checks the epoch it holds now, not the one
        # the stale copy applied them under.  Their senders are sent on (below).
        live = [p for p in batch if p.generation == p.table.generation and not p.table.moved]
        rows = [(p.table.id, p.row) for p in live if p.row is not None]
        settings = [p.settings for p in live if p.settings is not None]
        if rows or settings:
            due = self._snapshots_due(live)
            replies = _settings_replies(live)
            try:
                ms = await lane.run(self._commit, rows, due, settings, replies)
            except Exception as exc:
                if not isinstance(exc, Fenced):  # not the storage's fault: it works
                    self._failed(
                        exc, f"commit of {len(rows)} commands and {len(settings)} settings"
                    )
                live = await self._commit_tables_apart(live, lane)
            else:
                self._stored()
                self.metrics.commit(len(rows), ms)
                self._snapshots_taken(due)
                if self._crash("after_commit"):
                    return
        for pending in batch:
            if pending.ready is not None:
                await pending.ready  # a held place: its answer comes from its holder
            if pending.action is not None:
                try:
                    pending.action()
                except Exception:
                    log.exception("answering a session message failed")
            elif pending.table.moved:
                # Not answered here: the connection is sent to the table's new owner,
                # which answers it when the client sends it again.
                self.metrics.command_done(pending.kind, "not_stored")
            elif pending not in live:
                self.metrics.command_done(pending.kind, "not_stored")
                why = self.storage_failure or "the log could not be written"
                message = f"the command could not be stored ({why}); nothing changed: send it again"
                self._reply_error(pending, "internal", message, None, remember=False)
            else:
                try:
                    self._answer(pending)
                except Exception:  # one failed answer (a recording's disk) must not
                    # keep the rest of the batch from being answered and remembered
                    log.exception("answering a committed command failed")

    def _answer(self, pending: Pending) -> None:
        if pending.settings is not None:
            self._settings_stored(pending)
        elif pending.row is None:
            assert pending.refusal is not None
            if pending.kind:  # an engine command the engine refused
                self.metrics.command_done(pending.kind, "refused")
            self._reply_error(pending, *pending.refusal)
        else:
            self._committed(pending)

    def _snapshots_due(self, live: list[Pending]) -> list[DueSnapshot]:
        """The tables this batch brings to a snapshot, with their state after it."""
        if not self.snapshot_every:
            return []
        last: dict[str, Pending] = {}  # each table's last command in the batch
        for pending in live:
            if pending.row is not None:
                last[pending.table.id] = pending
        due = []
        for final in last.values():
            table, row = final.table, final.row
            assert row is not None and final.state is not None
            if row.position + 1 - table.snapshot_position < self.snapshot_every:
                continue  # most batches: nothing to work out for this table
            # The deadlines as the batch leaves them: the committed ones (this batch is
            # not answered yet), with each command's closed and opened prompts in turn.
            deadlines = dict(table.deadlines)
            for pending in live:
                if pending.table is table and pending.row is not None:
                    for prompt in pending.closed:
                        deadlines.pop(prompt, None)
                    deadlines.update(pending.opened)
            due.append(
                DueSnapshot(
                    table,
                    final.state,
                    row.position + 1,
                    row.first_event + len(row.events),
                    deadlines,
                )
            )
        return due

    def _commit(
        self,
        rows: list[tuple[str, LogRow]],
        due: list[DueSnapshot],
        settings: list[TableRow],
        replies: list[AdminReply],
    ) -> float:
        """On the database thread: the batch's rows, snapshots and settings in one
        transaction, so a snapshot costs no flush of its own.  Returns the milliseconds
        it took."""
        snapshots = []
        for snap in due:
            try:
                snapshot = snapshot_of(snap.state, snap.position, snap.events, snap.deadlines)
            except Exception:  # a snapshot is an optimisation: never refuse the batch
                log.exception("snapshot of table %s at %d failed", snap.table.id, snap.position)
                continue
            if snapshot is not None:
                snapshots.append((snap.table.id, snapshot))
                snap.written = True
        return self.store.append_many(rows, snapshots, settings, replies)

    async def snapshot_tables(self, tables: list[Table]) -> int:
        """Snapshot every table with commands after its last snapshot, at its committed
        state (a graceful shutdown does, so the next start-up, perhaps of a newer
        release, applies nothing again).  Returns how many it wrote."""
        due = [
            DueSnapshot(t, t.committed, t.positions, len(t.events), dict(t.deadlines))
            for t in tables
            if t.positions > t.snapshot_position and t.unanswered == 0
        ]
        if due:
            await self.in_db(self._commit, [], due, [], [])
            self._snapshots_taken(due)
        return sum(snap.written for snap in due)

    def _snapshots_taken(self, due: list[DueSnapshot]) -> None:
        for snap in due:
            # Skipped or not, the next try is a whole interval later.
            snap.table.snapshot_position = snap.position
            if snap.written:
                self.metrics.count("snapshots")
            else:
                log.error(
                    "table %s: state at %d does not round-trip; no snapshot",
                    snap.table.id,
                    snap.position,
                )
                self.metrics.count("snapshots_skipped")

    async def _commit_tables_apart(self, live: list[Pending], lane: _Lane) -> list[Pending]:
        """After a failed batch, commit each table's rows in a transaction of its own, so
        one table's bad row refuses that table's commands and nobody else's."""
        kept: list[Pending] = []
        for table in {p.table.id: p.table for p in live}.values():
            mine = [p for p in live if p.table is table]
            rows = [(table.id, p.row) for p in mine if p.row is not None]
            settings = [p.settings for p in mine if p.settings is not None]
            try:
                if rows or settings:
                    replies = _settings_replies(mine)
                    ms = await lane.run(self.store.append_many, rows, (), settings, replies)
                    self.metrics.commit(len(rows), ms)
            except Fenced:
                log.warning("table %s: another process owns it now; commit refused", table.id)
                self._reset(table)
                table.moved = True
                self._on_lost(table.id)
                continue
            except Exception as exc:
                self._failed(exc, f"commit for table {table.id}")
                self._reset(table)
                continue
            self._stored()
            kept += mine
        return [p for p in live if p in kept]

    @staticmethod
    def _reset(table: Table) -> None:
        """Forget everything applied to ``table`` but not committed."""
        table.generation += 1
        table.encounter = Encounter(table.committed)
        table.next_position, table.next_event = table.positions, len(table.events)
        assert table.stored_row is not None
        table.row = table.stored_row

    def _settings_stored(self, pending: Pending) -> None:
        """A table's new settings are committed: acknowledge them."""
        assert pending.settings is not None and pending.sender is not None
        pending.table.stored_row = pending.settings
        if pending.ref is not None:
            sender = pending.sender
            pending.table.remember(
                sender.participant, pending.client, pending.ref, ("ack", None, None), pending.digest
            )
            sender.send(protocol.Ack(seq=sender.next_seq(), ref=pending.ref), pending.now_ms)

    def _failed(self, exc: BaseException, what: str) -> None:
        """A commit failed: keep the reason, and log it when it is new (a full disk is
        one line, not a traceback per batch; any other failure its traceback, once)."""
        full = _disk_full(exc)
        why = "the disk is full" if full else f"the log could not be written: {exc}"
        self.metrics.count("commit_failures")
        if why != self.storage_failure:
            if full:
                log.error(
                    "%s failed: the disk is full; commands are refused until it has room", what
                )
            else:
                log.error("%s failed; its commands are refused", what, exc_info=exc)
        self.storage_failure = why

    def _stored(self) -> None:
        """A commit succeeded: storage works (again)."""
        if self.storage_failure is not None:
            log.warning("commits succeed again after: %s", self.storage_failure)
            self.storage_failure = None

    def _reply_error(
        self, pending: Pending, code: str, message: str, path: str | None, *, remember: bool = True
    ) -> None:
        pending.refused_code = code
        if pending.sender is None or pending.ref is None:
            self.metrics.refused(code)
            return
        if remember:  # a storage failure is not the command's answer: a resend tries again
            pending.table.remember(
                pending.sender.participant,
                pending.client,
                pending.ref,
                ("error", code, message, path),
                pending.digest,
            )
        send_error(self.metrics, pending.sender, pending.ref, code, message, path, pending.now_ms)

    def _committed(self, pending: Pending) -> None:
        """A command's row is committed: update the committed view, ack, broadcast."""
        table, row, now_ms = pending.table, pending.row, pending.now_ms
        assert row is not None and pending.state is not None
        table.committed = pending.state
        table.events.extend(row.events)
        table.positions += 1
        if pending.closed or pending.opened:
            table.deadlines = {
                p: d for p, d in table.deadlines.items() if p not in pending.closed
            } | pending.opened
            self.metrics.count("prompts_opened", len(pending.opened))
        self.metrics.count("commands_committed")
        self.metrics.command_done(pending.kind, "committed", time.monotonic() - pending.queued)
        # Armed before anything is sent: a send that fails (a recording's disk) must not
        # leave a prompt without its deadline.
        for prompt_id, deadline in pending.opened.items():
            self._on_deadline(table.id, prompt_id, deadline)
        if pending.sender is not None and pending.ref is not None:
            reply = ack_reply(row.first_event, len(row.events))
            table.remember(
                pending.sender.participant, pending.client, pending.ref, reply, pending.digest
            )
            try:
                send_ack(pending.sender, pending.ref, reply, now_ms)
            except Exception:  # the others still hear of the command
                log.exception("acknowledging a committed command failed")
            if self._crash("after_ack"):
                return
        broadcast(table, row.first_event, row.events, now_ms, pending.opened, pending.prompts)


def _disk_full(exc: BaseException) -> bool:
    """Whether a failed commit failed for lack of space (SQLite's ``SQLITE_FULL``,
    PostgreSQL's ``disk_full``, SQLSTATE 53100, or the operating system's ``ENOSPC`` or
    ``EDQUOT``)."""
    if getattr(exc, "sqlstate", None) == "53100":
        return True
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        return code == sqlite3.SQLITE_FULL or "disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
