"""The hub: every table, and the one path a client frame takes through the bridge.

``Hub.receive`` is the whole request cycle: decode, check who is asking (the permission
table in :mod:`vtt_bridge.permissions`), answer a retransmission from memory, apply to
the encounter, commit to the log, acknowledge, broadcast.  It knows nothing of
WebSockets: the server hands it frames and a clock reading, and so does replay, which
is how a recorded session replays exactly.

Group commit.  A command is applied to its table's encounter under the table lock and
queued for the log; the lock is released at once, so the next command (from anyone, at
any table) is checked against the applied state while the commit is in flight.  One
writer task takes everything queued at the moment it becomes free and commits it in
one transaction; then, in queue order, each command is acknowledged and broadcast.  A
refusal is queued the same way, so it is never sent before the acknowledgement of a
command it was judged after.  If a commit fails, every command of the affected tables
still in flight is refused (``internal``) and the tables go back to their committed
state: acknowledged still means committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import engine
import protocol
from engine import SYSTEM, CommandRejected, Encounter, EncounterState, ExpirePrompt
from vtt_bridge import permissions
from vtt_bridge.fanout import Shared
from vtt_bridge.metrics import Metrics
from vtt_bridge.store import JoinToken, LogRow, Snapshot, Store, TableRow
from vtt_bridge.tables import Reply, Session, Table
from vtt_bridge.translate import (
    command_from_plain,
    command_to_plain,
    event_to_plain,
    public_state,
    to_command,
)

SERVER_NAME = "vtt-bridge/0.1.0"
DEFAULT_PROMPT_TIMEOUT = 30.0
#: Events sent to a catching-up connection before waiting for room in its queue.
CATCH_UP_CHUNK = 64
#: Participant ids a GM may not hand to a player: they carry the GM's and the server's
#: own authority in the engine.
RESERVED_PARTICIPANTS = frozenset({engine.GM, SYSTEM})
log = logging.getLogger("vtt_bridge")
T = TypeVar("T")
DeadlineFn = Callable[[str, str, int], None]
#: Called at named points of the request cycle (``after_commit``, ``after_ack``); a
#: crash test's hook kills the process there and returns True.
CrashFn = Callable[[str], bool]


class StartupError(RuntimeError):
    """The log on disk cannot be replayed into the state it recorded."""


@dataclass
class _Pending:
    """A command applied to its table and waiting for its commit (or a queued refusal)."""

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
    refusal: tuple[str, str, str | None] | None = None
    done: asyncio.Future[None] | None = None


class Hub:
    """All tables of one server, over one :class:`Store`.

    ``on_deadline(table_id, prompt_id, deadline_ms)`` is called whenever a prompt opens;
    the server arms a timer that calls :meth:`expire`, replay does nothing (it feeds the
    recorded expiries instead).
    """

    def __init__(
        self,
        store: Store,
        on_deadline: DeadlineFn | None = None,
        *,
        snapshot_every: int = 0,
        verify_log: bool = False,
        crash: CrashFn | None = None,
    ) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self._by_token: dict[str, Table] = {}
        self._on_deadline = on_deadline or (lambda table, prompt, deadline: None)
        self._crash = crash or (lambda point: False)
        self.snapshot_every = snapshot_every
        self.metrics = Metrics()
        self.closing = False
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vtt-db")
        self._queue: asyncio.Queue[_Pending] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._inflight: dict[tuple[str, str, int], asyncio.Future[None]] = {}
        self._load(verify_log)

    def close(self) -> None:
        """Stop the writer and the database worker and close the store."""
        if self._writer is not None:
            self._writer.cancel()
        self._db.shutdown(wait=True)
        self.store.close()

    async def drain(self) -> None:
        """Wait until every queued command is committed, acknowledged and broadcast."""
        if self._queue is not None:
            await self._queue.join()

    # -- tables --------------------------------------------------------------------------

    def create_table(
        self,
        name: str,
        players: list[str],
        *,
        seed: int | None = None,
        prompt_timeout: float = DEFAULT_PROMPT_TIMEOUT,
        now_ms: int = 0,
        spectators: int = 0,
        dice: str = "gm",
    ) -> Table:
        """Create and store a table with a GM token and one token per player."""
        table_id = secrets.token_hex(4)
        row = TableRow(
            table_id,
            name,
            secrets.randbits(63) if seed is None else seed,
            prompt_timeout,
            now_ms,
            dice,
        )
        tokens = [JoinToken(secrets.token_urlsafe(18), table_id, engine.GM, "gm")]
        tokens += [JoinToken(secrets.token_urlsafe(18), table_id, p, "player") for p in players]
        tokens += [
            JoinToken(secrets.token_urlsafe(18), table_id, f"spectator-{i + 1}", "spectator")
            for i in range(spectators)
        ]
        self.store.create_table(row, tokens)
        return self._install(row, tokens)

    def restore_table(
        self, row: TableRow, tokens: list[JoinToken], log_rows: list[LogRow]
    ) -> Table:
        """Install a table from a recording's header (replay): settings, tokens and history."""
        self.store.create_table(row, tokens)
        if log_rows:
            self.store.append_many([(row.id, r) for r in log_rows])
        table = self._install(row, tokens)
        self._rebuild(table, log_rows, None)
        return table

    def table_by_name(self, name: str) -> Table | None:
        """The first table called ``name``."""
        return next((t for t in self.tables.values() if t.row.name == name), None)

    def _install(self, row: TableRow, tokens: list[JoinToken]) -> Table:
        table = Table(row=row, tokens={t.token: t for t in tokens})
        self.tables[row.id] = table
        for token in tokens:
            if not token.revoked:
                self._by_token[token.token] = table
        return table

    def _load(self, verify_log: bool) -> None:
        for row in self.store.tables():
            table = self._install(row, self.store.join_tokens(row.id))
            snapshot = self.store.latest_snapshot(row.id)
            self._rebuild(table, self.store.log(row.id), snapshot)
            if verify_log and snapshot is not None:
                full = self.full_replay_hash(table.id)
                if full != table.encounter.state_hash():
                    raise StartupError(
                        f"table {table.id}: snapshot {snapshot.position} plus the log's tail "
                        "disagrees with a full replay of the log"
                    )

    def _rebuild(self, table: Table, rows: list[LogRow], snapshot: Snapshot | None) -> None:
        start = 0
        state = self._snapshot_state(table, snapshot) if snapshot is not None else None
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
                table.remember(client, ref, _ack_reply(log_row.first_event, len(log_row.events)))
        table.committed = table.encounter.state
        table.next_position, table.next_event = table.positions, len(table.events)
        combat = table.encounter.state.combat
        open_prompts = {p.id for p in combat.prompts} if combat else set()
        table.deadlines = {p: d for p, d in table.deadlines.items() if p in open_prompts}
        for prompt, deadline in table.deadlines.items():
            self._on_deadline(table.id, prompt, deadline)

    @staticmethod
    def _snapshot_state(table: Table, snapshot: Snapshot) -> EncounterState | None:
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

    def full_replay_hash(self, table_id: str) -> str:
        """The state hash of replaying a table's whole log from nothing (no snapshot)."""
        encounter = Encounter()
        for log_row in self.store.log(table_id):
            encounter.apply(command_from_plain(log_row.command))
        return encounter.state_hash()

    # -- the request cycle ---------------------------------------------------------------

    async def receive(self, session: Session, frame: str | bytes, now_ms: int) -> None:
        """Handle one frame from ``session``'s connection."""
        try:
            message = protocol.decode_client(frame)
        except protocol.ProtocolError as exc:
            if session.table is not None and session.table.recorder is not None:
                session.table.recorder.frame_in(session.conn, frame, now_ms)
            self.metrics.refused(exc.code)
            session.send(
                protocol.ErrorMessage.from_protocol_error(exc, seq=session.next_seq()), now_ms
            )
            return
        table = session.table
        if table is None:
            session.binary = isinstance(frame, bytes)
        elif table.recorder is not None:
            table.recorder.frame_in(session.conn, frame, now_ms)
        refused = permissions.refusal(session.role, message)
        if refused is not None:
            self._error(session, message.seq, refused.code, refused.message, refused.path, now_ms)
            return
        rule = permissions.rule_for(message)
        assert rule is not None
        if isinstance(message, protocol.Join):
            await self._join(session, message, frame, now_ms)
        elif isinstance(message, protocol.Ping):
            session.send(protocol.Pong(seq=session.next_seq()), now_ms)
        elif isinstance(message, protocol.Resync):
            await self._catch_up(session, message.after, now_ms)
        elif isinstance(message, protocol.AskOptions):
            self._answer_options(session, message, now_ms)
        elif isinstance(message, protocol.AskPath):
            self._answer_path(session, message, now_ms)
        elif rule.kind == "admin":
            await self._admin(session, message, now_ms)
        elif rule.kind == "command":
            await self._command(session, message, now_ms)
        else:  # a row whose kind nobody handles: refuse, never ignore
            self._error(session, message.seq, "not_permitted", "not handled", None, now_ms)

    def _answer_options(self, session: Session, message: protocol.AskOptions, now_ms: int) -> None:
        """What may this token do now: asked of the committed state, changing nothing."""
        table = session.table
        assert table is not None
        found = engine.options_for(table.committed, message.token, session.participant)
        session.send(
            protocol.Options(
                seq=session.next_seq(),
                ref=message.seq,
                token=found.token,
                can_act=found.can_act,
                reason=found.reason,
                movement_left=found.movement_left,
                available=found.available,
                refused=found.refused,
                prompts=found.open_prompts,
            ),
            now_ms,
        )

    def _answer_path(self, session: Session, message: protocol.AskPath, now_ms: int) -> None:
        """The cheapest path to a cell, planned on the committed state, changing nothing."""
        table = session.table
        assert table is not None
        plan = table.encounter.plan_path(
            message.token, message.to, session.participant, state=table.committed
        )
        session.send(
            protocol.PathPlan(
                seq=session.next_seq(),
                ref=message.seq,
                token=plan.token,
                to=plan.goal,
                path=plan.path,
                cost=plan.cost,
                budget=plan.budget,
                reason=plan.reason,
            ),
            now_ms,
        )

    async def expire(self, table_id: str, prompt_id: str, now_ms: int) -> None:
        """A prompt's deadline passed: it counts as declined, unless already answered."""
        table = self.tables.get(table_id)
        if table is None or prompt_id not in table.deadlines:
            return
        if table.recorder is not None:
            table.recorder.expired(prompt_id, now_ms)
        self.metrics.count("prompts_expired")
        await self._apply(table, None, None, "", ExpirePrompt(SYSTEM, prompt_id), now_ms)

    async def _join(
        self, session: Session, message: protocol.Join, frame: str | bytes, now_ms: int
    ) -> None:
        table = self._by_token.get(message.token)
        if table is None:
            # A token issued with ``vtt-bridge issue-token`` while the server runs.
            grant = await self._in_db(self.store.join_token, message.token)
            table = None if grant is None or grant.revoked else self.tables.get(grant.table_id)
            if table is not None and grant is not None:
                table.tokens[grant.token] = grant
                self._by_token[grant.token] = table
        if table is None:
            self._error(
                session,
                message.seq,
                "bad_token",
                "no table has that join token",
                "body.token",
                now_ms,
            )
            return
        grant = table.tokens[message.token]
        session.table, session.participant, session.role = table, grant.participant, grant.role
        session.token = grant.token
        session.client = (
            f"{grant.participant}/{message.client}"
            if message.client is not None
            else f"conn:{session.conn}"
        )
        self.metrics.count("joins")
        if table.recorder is not None:
            table.recorder.frame_in(session.conn, frame, now_ms)
        session.send(
            protocol.Welcome(
                seq=session.next_seq(),
                table=table.id,
                participant=grant.participant,
                role=grant.role,
                protocol=protocol.PROTOCOL_VERSION,
                server=SERVER_NAME,
            ),
            now_ms,
        )
        if message.last_event is None:
            state = public_state(table.committed)
            session.send(
                protocol.State(seq=session.next_seq(), last_event=table.last_event(), state=state),
                now_ms,
            )
            self._resend_prompts(session, now_ms)
        else:
            await self._catch_up(session, message.last_event, now_ms)
        # A member from here on: broadcasts reach it after what it was just sent.
        if not session.left:
            table.sessions.append(session)

    def leave(self, session: Session, now_ms: int) -> None:
        """The connection closed: stop sending it anything."""
        session.left = True
        table = session.table
        if table is not None and session in table.sessions:
            table.sessions.remove(session)
            if table.recorder is not None:
                table.recorder.left(session.conn, now_ms)

    async def _catch_up(self, session: Session, after: int, now_ms: int) -> None:
        """Send every event after index ``after``, then the prompts waiting for this member.

        In chunks, each sent once the connection's queue has room (a long catch-up must
        not overflow it); events older than the table keeps in memory are read from the
        log.  The last chunk is sent without yielding before the caller makes the session
        a member, so it misses nothing and gets nothing twice."""
        table = session.table
        assert table is not None
        index = max(after + 1, 0)
        while index < len(table.events) and not session.left:
            await session.room()
            if index < table.events.base:
                end = min(table.events.base, index + CATCH_UP_CHUNK)
                chunk = await self._in_db(self.store.events_between, table.id, index, end)
            else:
                recent = table.events.since(index)
                assert recent is not None
                chunk = recent[:CATCH_UP_CHUNK]
            for offset, event in enumerate(chunk):
                session.send(
                    protocol.Event(
                        seq=session.next_seq(),
                        index=index + offset,
                        kind=event["kind"],
                        data=event["data"],
                    ),
                    now_ms,
                )
            index += len(chunk)
        self._resend_prompts(session, now_ms)

    def _resend_prompts(self, session: Session, now_ms: int) -> None:
        table = session.table
        assert table is not None
        combat = table.committed.combat
        for prompt in combat.prompts if combat else ():
            if session.participant == prompt.controller:
                session.send(
                    self._prompt_message(session, prompt, table.deadlines.get(prompt.id, now_ms)),
                    now_ms,
                )

    # -- commands --------------------------------------------------------------------------

    async def _command(
        self, session: Session, message: protocol.ClientMessage, now_ms: int
    ) -> None:
        table = session.table
        assert table is not None
        if await self._retransmitted(session, message.seq, now_ms):
            return
        if self.closing:
            self._error(
                session, message.seq, "shutting_down", "the server is stopping", None, now_ms
            )
            return
        refused = permissions.field_refusal(session.role, message, table.row.dice)
        if refused is not None:
            await self._refuse_in_order(table, session, message.seq, refused, now_ms)
            return
        try:
            command = to_command(message, actor=session.participant, seed=table.combat_seed())
        except TypeError:
            refusal = permissions.Refusal("not_permitted", f"{message.TYPE!r} is not a command")
            await self._refuse_in_order(table, session, message.seq, refusal, now_ms)
            return
        self.metrics.count("commands")
        await self._apply(table, session, message.seq, session.client, command, now_ms)

    async def _retransmitted(self, session: Session, ref: int, now_ms: int) -> bool:
        """Answer a command this client already sent from memory; True if it was one."""
        table = session.table
        assert table is not None
        inflight = self._inflight.get((table.id, session.client, ref))
        if inflight is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(inflight)
        reply = table.reply_to(session.client, ref)
        if reply is None:
            return False
        self.metrics.count("retransmits")
        if reply[0] == "ack":
            session.send(
                protocol.Ack(
                    seq=session.next_seq(), ref=ref, first_event=reply[1], last_event=reply[2]
                ),
                now_ms,
            )
        else:
            self._error(session, ref, reply[1], reply[2], reply[3], now_ms)
        return True

    async def _refuse_in_order(
        self,
        table: Table,
        sender: Session,
        ref: int,
        refusal: permissions.Refusal,
        now_ms: int,
    ) -> None:
        pending = _Pending(table, table.generation, sender, ref, sender.client, now_ms)
        pending.refusal = (refusal.code, refusal.message, refusal.path)
        await self._submit(pending)

    async def _apply(
        self,
        table: Table,
        sender: Session | None,
        ref: int | None,
        client: str,
        command: engine.Command,
        now_ms: int,
    ) -> None:
        pending = _Pending(table, table.generation, sender, ref, client, now_ms)
        async with table.lock:
            pending.generation = table.generation
            try:
                events = table.encounter.apply(command)
            except CommandRejected as exc:
                pending.refusal = (exc.code, exc.message, None)
            else:
                plain = [event_to_plain(e) for e in events]
                pending.opened = {
                    e.prompt: now_ms + int(table.row.prompt_timeout * 1000)
                    for e in events
                    if isinstance(e, engine.events.PromptOpened)
                }
                pending.closed = {
                    e.prompt for e in events if isinstance(e, engine.events.PromptClosed)
                }
                meta: dict[str, Any] = {"deadlines": pending.opened, "t": now_ms}
                if sender is not None and ref is not None and not client.startswith("conn:"):
                    meta["client"], meta["ref"] = client, ref
                pending.row = LogRow(
                    table.next_position, table.next_event, command_to_plain(command), plain, meta
                )
                pending.state = table.encounter.state
                table.next_position += 1
                table.next_event += len(plain)
            await self._submit(pending, wait=False)
        await self._wait(pending)

    async def _submit(self, pending: _Pending, *, wait: bool = True) -> None:
        loop = asyncio.get_running_loop()
        pending.done = loop.create_future()
        if pending.sender is not None and pending.ref is not None:
            key = (pending.table.id, pending.client, pending.ref)
            self._inflight[key] = pending.done
        if self._queue is None:
            self._queue = asyncio.Queue()
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_loop())
        self._queue.put_nowait(pending)
        if wait:
            await self._wait(pending)

    async def _wait(self, pending: _Pending) -> None:
        assert pending.done is not None
        try:
            await asyncio.shield(pending.done)
        finally:
            if pending.sender is not None and pending.ref is not None:
                self._inflight.pop((pending.table.id, pending.client, pending.ref), None)

    async def _write_loop(self) -> None:
        queue = self._queue
        assert queue is not None
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            try:
                await self._write_batch(batch)
            except Exception:  # never let the writer die: every waiter must hear back
                log.exception("writer failed on a batch of %d", len(batch))
            finally:
                for pending in batch:
                    if pending.done is not None and not pending.done.done():
                        pending.done.set_result(None)
                    queue.task_done()

    async def _write_batch(self, batch: list[_Pending]) -> None:
        live = [p for p in batch if p.generation == p.table.generation]
        rows = [(p.table.id, p.row) for p in live if p.row is not None]
        if rows:
            try:
                ms = await self._in_db(self.store.append_many, rows)
            except Exception:
                log.exception("commit of %d commands failed; they are refused", len(rows))
                for table in {p.table.id: p.table for p in live}.values():
                    self._reset(table)
                live = []
            else:
                self.metrics.commit(len(rows), ms)
                if self._crash("after_commit"):
                    return
        for pending in batch:
            if pending not in live:
                self._reply_error(pending, "internal", "the command could not be stored", None)
            elif pending.row is None:
                assert pending.refusal is not None
                self._reply_error(pending, *pending.refusal)
            else:
                self._committed(pending)
        for table in {p.table.id: p.table for p in live if p.row is not None}.values():
            if self.snapshot_every and table.positions - table.snapshot_position >= (
                self.snapshot_every
            ):
                await self._snapshot(table)

    def _reset(self, table: Table) -> None:
        """Forget everything applied to ``table`` but not committed."""
        table.generation += 1
        table.encounter = Encounter(table.committed)
        table.next_position, table.next_event = table.positions, len(table.events)

    def _reply_error(self, pending: _Pending, code: str, message: str, path: str | None) -> None:
        if pending.sender is None or pending.ref is None:
            self.metrics.refused(code)
            return
        pending.table.remember(pending.client, pending.ref, ("error", code, message, path))
        self._error(pending.sender, pending.ref, code, message, path, pending.now_ms)

    def _committed(self, pending: _Pending) -> None:
        """A command's row is committed: update the committed view, ack, broadcast."""
        table, row, now_ms = pending.table, pending.row, pending.now_ms
        assert row is not None and pending.state is not None
        table.committed = pending.state
        table.events.extend(row.events)
        table.positions += 1
        table.deadlines = {
            p: d for p, d in table.deadlines.items() if p not in pending.closed
        } | pending.opened
        self.metrics.count("commands_committed")
        self.metrics.count("prompts_opened", len(pending.opened))
        if pending.sender is not None and pending.ref is not None:
            reply = _ack_reply(row.first_event, len(row.events))
            table.remember(pending.client, pending.ref, reply)
            pending.sender.send(
                protocol.Ack(
                    seq=pending.sender.next_seq(),
                    ref=pending.ref,
                    first_event=reply[1],
                    last_event=reply[2],
                ),
                now_ms,
            )
            if self._crash("after_ack"):
                return
        self._broadcast(table, row.first_event, row.events, now_ms)
        for prompt_id, deadline in pending.opened.items():
            self._on_deadline(table.id, prompt_id, deadline)

    async def _snapshot(self, table: Table) -> None:
        state, position, events = table.committed, table.positions, len(table.events)
        table.snapshot_position = position

        def write() -> bool:
            plain = engine.to_plain(state)
            digest = engine.state_hash(state)
            # Only a snapshot that rebuilds exactly is worth keeping.
            if engine.state_hash(engine.from_plain(EncounterState, plain)) != digest:
                return False
            self.store.write_snapshot(table.id, Snapshot(position, events, plain, digest))
            return True

        try:
            written = await self._in_db(write)
        except Exception:
            log.exception("snapshot of table %s at %d failed", table.id, position)
            written = False
        if written:
            self.metrics.count("snapshots")
        else:
            log.error("table %s: state at %d does not round-trip; no snapshot", table.id, position)
            self.metrics.count("snapshots_skipped")

    def _broadcast(
        self, table: Table, first: int, events: list[dict[str, Any]], now_ms: int
    ) -> None:
        # Each event is built (and its data checked) once, then renumbered per member.
        built = [
            Shared(
                protocol.Event(seq=0, index=first + offset, kind=event["kind"], data=event["data"])
            )
            for offset, event in enumerate(events)
        ]
        opened = {e["data"]["prompt"] for e in events if e["kind"] == "prompt_opened"}
        combat = table.committed.combat
        prompts = [p for p in combat.prompts if p.id in opened] if combat else []
        for session in list(table.sessions):
            for event in built:
                session.send_shared(event, now_ms)
            for prompt in prompts:
                if session.participant == prompt.controller:
                    deadline = table.deadlines[prompt.id]
                    session.send(self._prompt_message(session, prompt, deadline), now_ms)

    # -- table administration --------------------------------------------------------------

    async def _admin(self, session: Session, message: protocol.ClientMessage, now_ms: int) -> None:
        table = session.table
        assert table is not None
        if isinstance(message, protocol.IssueToken):
            if message.participant in RESERVED_PARTICIPANTS:
                self._error(
                    session,
                    message.seq,
                    "bad_value",
                    f"participant id {message.participant!r} is reserved",
                    "body.participant",
                    now_ms,
                )
                return
            value = table.issue_token_value(message.participant, message.role)
            grant = JoinToken(value, table.id, message.participant, message.role)
            await self._in_db(self.store.add_token, grant)
            table.tokens[value] = grant
            self._by_token[value] = table
            self.metrics.count("tokens_issued")
            session.send(
                protocol.TokenIssued(
                    seq=session.next_seq(),
                    ref=message.seq,
                    token=value,
                    participant=grant.participant,
                    role=grant.role,
                ),
                now_ms,
            )
        elif isinstance(message, protocol.RevokeToken):
            found = table.tokens.get(message.token)
            if found is None or found.revoked or found.role == "gm":
                self._error(
                    session,
                    message.seq,
                    "unknown_join_token",
                    "this table has no such player or spectator token",
                    "body.token",
                    now_ms,
                )
                return
            await self.revoke(table, found.token, now_ms)
            session.send(
                protocol.TokenRevoked(seq=session.next_seq(), ref=message.seq, token=found.token),
                now_ms,
            )
        elif isinstance(message, protocol.ConfigureTable):
            row = table.row
            if message.dice is not None:
                row = replace(row, dice=message.dice)
            if message.prompt_timeout_ms is not None:
                row = replace(row, prompt_timeout=message.prompt_timeout_ms / 1000)
            await self._in_db(self.store.update_table, row)
            table.row = row
            session.send(protocol.Ack(seq=session.next_seq(), ref=message.seq), now_ms)
        else:
            self._error(session, message.seq, "not_permitted", "not handled", None, now_ms)

    async def revoke(self, table: Table, token: str, now_ms: int) -> None:
        """Revoke a join token and close every connection that joined with it."""
        await self._in_db(self.store.revoke_token, token)
        table.tokens[token] = replace(table.tokens[token], revoked=True)
        self._by_token.pop(token, None)
        self.metrics.count("tokens_revoked")
        for member in [s for s in table.sessions if s.token == token]:
            self.leave(member, now_ms)
            member.kick(1008, "join token revoked")

    # -- helpers -----------------------------------------------------------------------------

    @staticmethod
    def _prompt_message(
        session: Session, prompt: engine.model.Prompt, deadline_ms: int
    ) -> protocol.Prompt:
        return protocol.Prompt(
            seq=session.next_seq(),
            prompt=prompt.id,
            kind=prompt.kind,
            attacker=prompt.attacker,
            target=prompt.target,
            at=prompt.at,
            exit_point=prompt.exit_point,
            deadline_ms=deadline_ms,
        )

    def _error(
        self,
        session: Session,
        ref: int | None,
        code: str,
        message: str,
        path: str | None,
        now_ms: int,
    ) -> None:
        self.metrics.refused(code)
        session.send(
            protocol.ErrorMessage(
                seq=session.next_seq(), ref=ref, code=code, message=message, path=path
            ),
            now_ms,
        )

    async def _in_db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, fn, *args)


def _ack_reply(first: int, count: int) -> Reply:
    if count == 0:
        return ("ack", None, None)
    return ("ack", first, first + count - 1)
