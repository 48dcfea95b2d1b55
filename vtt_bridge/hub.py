"""The hub: every table, and the one path a client frame takes through the bridge.

``Hub.receive`` is the whole request cycle: decode, look up the message's row in the
message table (:mod:`vtt_bridge.registry`, :mod:`vtt_bridge.rows`), check who is asking
(its roles, :mod:`vtt_bridge.permissions`), hand it to the row's handler, which for a
command answers a retransmission from memory, apply to
the encounter, commit to the log, acknowledge, broadcast.  It knows nothing of
WebSockets: the server hands it frames and a clock reading, and so does replay, which
is how a recorded session replays exactly.

Commands are committed by group commit (:mod:`vtt_bridge.committer`): applied at once,
queued for the log, and acknowledged only once committed.  The
rest of the cycle lives beside this module: :mod:`vtt_bridge.membership` (join, catch up,
leave), :mod:`vtt_bridge.queries` (questions answered without changing anything),
:mod:`vtt_bridge.admin` (join tokens and table settings), :mod:`vtt_bridge.replies`
(what members are sent) and :mod:`vtt_bridge.loading` (tables rebuilt from the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import engine
import protocol
from engine import SYSTEM, CommandRejected, ExpirePrompt
from vtt_bridge import admin, loading, membership, ownership, permissions
from vtt_bridge import rows as _rows  # noqa: F401  (registers the shipped messages' rows)
from vtt_bridge.admin import RESERVED_PARTICIPANTS
from vtt_bridge.committer import Committer, CrashFn, Pending
from vtt_bridge.config import wall_clock_ms
from vtt_bridge.large_frames import LARGE_FRAME, Ready, make_ready
from vtt_bridge.loading import DeadlineFn, StartupError
from vtt_bridge.membership import CATCH_UP_CHUNK, SERVER_NAME
from vtt_bridge.metrics import Metrics
from vtt_bridge.registry import ROWS
from vtt_bridge.replies import ack_reply, message_digest, resend, send_error
from vtt_bridge.store import JoinToken, LogRow, TableRow
from vtt_bridge.store_protocol import EventStore
from vtt_bridge.tables import EVENTS_KEPT_BYTES, EventLog, Kept, Session, Table, new_join_token
from vtt_bridge.token_cache import JoinTokens
from vtt_bridge.translate import command_to_plain, event_to_plain

__all__ = [
    "CATCH_UP_CHUNK",
    "DEFAULT_PROMPT_TIMEOUT",
    "RESERVED_PARTICIPANTS",
    "SERVER_NAME",
    "CrashFn",
    "DeadlineFn",
    "Hub",
    "StartupError",
]

log = logging.getLogger("vtt_bridge")
DEFAULT_PROMPT_TIMEOUT = 30.0
#: Commands one connection may have applied and not yet answered before its next frame
#: waits: enough for group commit to gather them, few enough that their answers (and
#: every member's broadcasts) stay far below the outbound queue's bound.
MAX_IN_FLIGHT = 8
#: When a prompt's expiry could not be stored, it is tried again this much later.
EXPIRE_RETRY_MS = 1000


class Hub:
    """All tables of one server, over one :class:`Store`.

    ``on_deadline(table_id, prompt_id, deadline_ms)`` is called whenever a prompt opens;
    the server arms a timer that calls :meth:`expire`, replay does nothing (it feeds the
    recorded expiries instead).
    """

    def __init__(
        self,
        store: EventStore,
        on_deadline: DeadlineFn | None = None,
        *,
        snapshot_every: int = 0,
        verify_log: bool = False,
        crash: CrashFn | None = None,
        max_message_bytes: int = protocol.MAX_FRAME_BYTES,
        max_connections_per_token: int = 0,
        events_kept_bytes: int = EVENTS_KEPT_BYTES,
        clock: Callable[[], int] = wall_clock_ms,
    ) -> None:
        self.store = store
        #: The server's clock (``Config.clock``), for what the hub does on its own (a
        #: table moved to another process).
        self.clock = clock
        #: Tasks the hub started on its own (sending a moved table's members on).
        self._moving: set[asyncio.Task[None]] = set()
        #: Tables loaded on demand at once (a shared database), and how many may be.
        self._loading = 0
        self.max_loads = ownership.MAX_LOADS
        #: The crash test's fault injector (see :func:`vtt_bridge.app.crash_hook`).
        self.crash: CrashFn = crash or (lambda point: False)
        #: The largest frame decoded (``--max-message-bytes``); the server closes larger
        #: ones (1009) before they reach the hub.
        self.max_message_bytes = max_message_bytes
        #: Connections one join token may have joined at once (0: no cap).
        self.max_connections_per_token = max_connections_per_token
        #: Bytes of recent events each table keeps in memory (:class:`EventLog`).
        self.events_kept_bytes = events_kept_bytes
        self.tables: dict[str, Table] = {}
        #: Every join token not revoked, to the table it admits to.
        self.by_token: dict[str, Table] = {}
        self._on_deadline = on_deadline or (lambda table, prompt, deadline: None)
        #: Called with every table installed from here on and its log so far (empty for
        #: a table made now): the server sets it once start-up's tables are in, to record
        #: the ones made or (on a shared database) loaded while it runs.
        self.on_table: Callable[[Table, list[LogRow]], None] = lambda table, rows: None
        #: Whether a table loaded while serving has its whole log read for ``on_table``
        #: (``--record``; else only its snapshot and tail are read).
        self.whole_log_on_load = False
        self.metrics = Metrics()
        self.closing = False
        #: The database's ``data_version`` when revocations were last read from it.
        self._revocations_read_at: int | None = None
        self.committer = Committer(
            store,
            self.metrics,
            on_deadline=self._on_deadline,
            crash=crash or (lambda point: False),
            snapshot_every=snapshot_every,
            on_lost=self.table_lost,
        )
        #: The join tokens joins read, kept while the database is unchanged.
        self.join_tokens = JoinTokens(self.committer, store)
        #: What was made ready of the large frame each connection is having handled.
        self._ready: dict[Session, Ready] = {}
        #: What start-up did with each table, and ``--verify-log``'s findings.
        self.load_reports: dict[str, loading.LoadReport] = {}
        self.verified: dict[str, loading.Verified] = {}
        self._load(verify_log)

    @property
    def snapshot_every(self) -> int:
        """Snapshot each table every this many commands (0: never)."""
        return self.committer.snapshot_every

    def close(self) -> None:
        """Stop the writer and the database worker and close the store."""
        self.committer.close()
        self.store.close()

    async def drain(self) -> None:
        """Wait until every queued command is committed, acknowledged and broadcast."""
        await self.committer.drain()

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
        row, tokens = new_table_records(
            secrets.token_hex(4), name, players, spectators, seed, prompt_timeout, now_ms, dice
        )
        self.store.create_table(row, tokens)
        self.join_tokens.forget()
        return self._install(row, tokens)

    def install(self, row: TableRow, tokens: list[JoinToken]) -> Table:
        """Install a table already stored (made on the database thread while the server
        runs, :mod:`vtt_bridge.tableops`): it joins at once."""
        return self._install(row, tokens)

    def close_archived(self, table: Table, now_ms: int) -> int:
        """The in-memory half of archiving ``table`` (the database already says so):
        it leaves the hub, its tokens no longer admit, and every member is closed
        (1008, "table archived").  Returns how many connections were closed."""
        self.tables.pop(table.id, None)
        for token, grant in list(table.tokens.items()):
            # Revoked in memory too: a join already waiting its turn is refused then.
            table.tokens[token] = replace(grant, revoked=True)
            if self.by_token.get(token) is table:
                del self.by_token[token]
        members = list(table.sessions)
        for member in members:
            self.leave(member, now_ms)
            member.kick(1008, "table archived")
        log.info("table %s (%s) archived: %d closed", table.id, table.row.name, len(members))
        return len(members)

    def restore_table(
        self, row: TableRow, tokens: list[JoinToken], log_rows: list[LogRow]
    ) -> Table:
        """Install a table from a recording's header (replay): settings, tokens and history."""
        self.store.create_table(row, tokens)
        self.join_tokens.forget()
        if log_rows:
            self.store.append_many([(row.id, r) for r in log_rows])
        table = self._install(row, tokens)
        self.load_reports[row.id] = loading.load(table, self.store, self._on_deadline)
        return table

    def table_lost(self, table_id: str) -> None:
        """Another process has taken ``table_id`` over (a shared database): forget it
        and send its members to the new owner (:func:`vtt_bridge.ownership.give_up`)."""
        task = asyncio.get_running_loop().create_task(
            ownership.give_up(self, table_id, self.clock())
        )
        self._moving.add(task)
        task.add_done_callback(self._moving.discard)

    def table_by_name(self, name: str) -> Table | None:
        """The first table called ``name``."""
        return next((t for t in self.tables.values() if t.row.name == name), None)

    def _install(self, row: TableRow, tokens: list[JoinToken]) -> Table:
        return self._admit(self._new_table(row, tokens))

    def _new_table(self, row: TableRow, tokens: list[JoinToken]) -> Table:
        return Table(
            row=row,
            tokens={t.token: t for t in tokens},
            events=EventLog(keep_bytes=self.events_kept_bytes),
        )

    def _admit(self, table: Table, rows: list[LogRow] | None = None) -> Table:
        self.tables[table.id] = table
        for token in table.tokens.values():
            if not token.revoked:
                self.by_token[token.token] = table
        self.on_table(table, rows or [])
        return table

    async def table_created_elsewhere(self, table_id: str) -> Table | None:
        """A table another process created since start-up (``vtt-bridge create-table``):
        read and loaded from the database now, on the database thread, and installed;
        None when the database has no such table or it is archived.  Joins for it that
        arrive together each read it; the first installs it, the others join that one.
        On a shared database, beyond :attr:`max_loads` at once the join is asked to come
        back (:func:`vtt_bridge.ownership.room_to_load`)."""
        if self.store.shared:
            ownership.room_to_load(self.store, self._loading, self.max_loads, table_id)
        self._loading += 1
        try:
            read = await self.committer.in_db(self._read_table, table_id)
        finally:
            self._loading -= 1
        if table_id in self.tables:
            return self.tables[table_id]
        if read is None:
            return None
        table, report, deadlines, rows = read
        self.load_reports[table_id] = report
        self._admit(table, rows)
        for deadline in deadlines:
            self._on_deadline(*deadline)
        log.info("table %s (%s) created by another process: loaded", table_id, table.row.name)
        return table

    def _read_table(
        self, table_id: str
    ) -> tuple[Table, loading.LoadReport, list[tuple[str, str, int]], list[LogRow]] | None:
        # On the database thread: nothing here touches the hub's own state.
        row = self.store.table(table_id)
        if row is None:
            return None
        if self.store.shared:
            ownership.take(self.store, table_id)  # raises OwnedElsewhere: join its owner
        table = self._new_table(row, self.store.join_tokens(table_id))
        deadlines: list[tuple[str, str, int]] = []
        report = loading.load(table, self.store, lambda *d: deadlines.append(d))
        admin.remember_stored(table, self.store.admin_replies(table_id))
        # Read in the same turn of the database thread: no commit of the table comes
        # between its load and this (it is not admitted yet).
        rows = self.store.log(table_id) if self.whole_log_on_load else []
        return table, report, deadlines, rows

    def _load(self, verify_log: bool) -> None:
        if self.store.shared:
            return  # several processes share the database: a table loads when claimed
        for row in self.store.tables():
            table = self._install(row, self.store.join_tokens(row.id))
            report = loading.load(table, self.store, self._on_deadline)
            self.load_reports[row.id] = report
            admin.remember_stored(table, self.store.admin_replies(row.id))
            self.metrics.count("replay_divergences", len(report.divergences))
            self.metrics.count("tables_carried_forward", int(report.carried_forward))
            if verify_log:
                self.verified[row.id] = self._verify(table)

    def _verify(self, table: Table) -> loading.Verified:
        """``--verify-log``: replay the whole log from nothing.  A log written wholly
        under this release's versions must reproduce every logged event and the loaded
        state (else :class:`StartupError`); older rows re-judged under today's rules
        may differ, and are reported."""
        found = loading.verify(self.store, table)
        log.info("verify-log: %s", found.describe())
        if found.current and (found.divergences or found.full_hash != found.loaded_hash):
            first = found.divergences[0] if found.divergences else None
            raise StartupError(
                f"table {table.id}: a full replay of the log disagrees with the loaded state"
                + (f" (command {first.position} {first.why})" if first else "")
            )
        if not found.current:
            log.warning(
                "verify-log: table %s: %d logged commands replay differently under this "
                "release's rules from nothing (written under older versions; the table "
                "was carried forward, not re-judged)",
                table.id,
                len(found.divergences),
            )
        return found

    def full_replay_hash(self, table_id: str) -> str:
        """The state hash of replaying a table's whole log from nothing (no snapshot)."""
        return loading.full_replay_hash(self.store, table_id)

    # -- the request cycle ---------------------------------------------------------------

    async def receive(self, session: Session, frame: str | bytes, now_ms: int) -> None:
        """Handle one frame from ``session``'s connection."""
        ready: Ready | None = None
        try:
            if len(frame) < LARGE_FRAME:
                message = protocol.decode_client(frame, max_bytes=self.max_message_bytes)
            else:
                ready = await self._make_ready(session, frame)
                message = ready.message
            self.metrics.received(message.TYPE)
        except protocol.ProtocolError as exc:
            if session.table is not None and session.table.recorder is not None:
                session.table.recorder.frame_in(session.conn, frame, now_ms)
            self.metrics.refused(exc.code)
            error = exc

            def refuse() -> None:
                session.send(
                    protocol.ErrorMessage.from_protocol_error(error, seq=session.next_seq()),
                    now_ms,
                )

            await self._answer(session, refuse, now_ms)
            return
        table = session.table
        if table is None:
            session.binary = isinstance(frame, bytes)
        # The message's row is the dispatch: its cost, who may send it, its handler.
        row = ROWS.get(type(message))
        extra = 0 if row is None else row.price(message)
        if extra and not session.charge(extra, message):
            return  # over the rate limit: refused, closing, and not recorded
        if table is not None and table.recorder is not None:
            table.recorder.frame_in(session.conn, frame, now_ms)
        refused = permissions.refusal(session.role, message, row)
        if refused is not None:
            ref, why = message.seq, refused
            await self._answer(
                session,
                lambda: send_error(
                    self.metrics, session, ref, why.code, why.message, why.path, now_ms
                ),
                now_ms,
            )
            return
        assert row is not None
        if ready is None or ready.command is None:
            await row.handle(self, session, message, frame, now_ms)
            return
        # A connection's frames are handled one at a time: its entry is this frame's.
        self._ready[session] = ready
        try:
            await row.handle(self, session, message, frame, now_ms)
        finally:
            del self._ready[session]

    async def _make_ready(self, session: Session, frame: str | bytes) -> Ready:
        """Decode a large frame, and work out its command's engine and log forms, in
        pieces with the loop's other work between them (:mod:`vtt_bridge.large_frames`,
        which says why and what that does to the frame's order)."""
        participant = session.participant if session.table is not None else None
        return await make_ready(frame, self.max_message_bytes, participant)

    async def answer(self, session: Session, action: Callable[[], None], now_ms: int) -> None:
        """Send a reply that changes nothing (see :meth:`_answer`)."""
        await self._answer(session, action, now_ms)

    async def administer(
        self, session: Session, message: protocol.ClientMessage, now_ms: int
    ) -> None:
        """A GM's change to the table's settings or join tokens: logged, answered once."""
        digest = self._digest(session, message)
        if not await self._retransmitted(session, message.seq, digest, now_ms):
            await admin.handle(self, session, message, digest, now_ms)

    async def _answer(self, session: Session, action: Callable[[], None], now_ms: int) -> None:
        """Send a reply that changes nothing: to a member, only once every command of its
        table submitted before it is answered (the order a replay answers in)."""
        if session.table is None:
            action()
        else:
            await self.committer.in_order(session.table, action, now_ms)

    async def expire(self, table_id: str, prompt_id: str, now_ms: int) -> None:
        """A prompt's deadline passed: it counts as declined, unless already answered.

        If the expiry cannot be stored (``internal``), it is tried again
        :data:`EXPIRE_RETRY_MS` later, so an unanswered prompt always ends declined."""
        table = self.tables.get(table_id)
        if table is None or prompt_id not in table.deadlines:
            return
        if table.recorder is not None:
            table.recorder.expired(prompt_id, now_ms)
        self.metrics.count("prompts_expired")
        pending = self._apply(table, None, None, "", ExpirePrompt(SYSTEM, prompt_id), now_ms)
        await self.committer.wait(pending)
        if pending.refused_code == "internal" and prompt_id in table.deadlines:
            self._on_deadline(table.id, prompt_id, now_ms + EXPIRE_RETRY_MS)

    async def apply_as_gm(self, table: Table, command: engine.Command, now_ms: int) -> str | None:
        """Apply a command of the GM's from the server itself (the demo table's scene),
        logged and broadcast as a member's would be; the refusal code, or None."""
        pending = self._apply(table, None, None, "", command, now_ms)
        await self.committer.wait(pending)
        return pending.refused_code

    def leave(self, session: Session, now_ms: int) -> None:
        """The connection closed: stop sending it anything."""
        membership.leave(session, now_ms)

    async def revoke(self, table: Table, token: str, now_ms: int) -> bool:
        """Revoke a join token and close every connection that joined with it."""
        if await admin.revoke(self, table, token, now_ms):
            return True
        self.metrics.refused("internal")
        return False

    async def apply_revocations(self, now_ms: int) -> int:
        """Close every connection whose join token another process revoked in the
        database (``vtt-bridge revoke-token``); returns how many tokens that was.  A
        table archived there (``vtt-bridge archive-table``) is closed as
        :meth:`close_archived` closes it (its tokens not counted).

        Cheap while nothing else writes to the database: one ``PRAGMA data_version``
        on the database thread, and the revoked tokens are read only when it moved."""
        version = await self.committer.in_db(self.store.data_version)
        if version == self._revocations_read_at:
            return 0
        revoked = await self.committer.in_db(self.store.revoked_tokens)
        live = {row.id for row in await self.committer.in_db(self.store.tables)}
        # Recorded only once read: a failed read is tried again at the next poll.
        self._revocations_read_at = version
        for table in [t for t in self.tables.values() if t.id not in live]:
            # Archived (``vtt-bridge archive-table``): its tokens are revoked too, but
            # its members are told why, not "join token revoked".
            self.close_archived(table, now_ms)
        return admin.sync_revocations(self, revoked, now_ms)

    # -- commands --------------------------------------------------------------------------

    async def command(self, session: Session, message: protocol.ClientMessage, now_ms: int) -> None:
        """A command: checked against the table's settings, made the engine's command by
        its row, applied at once, then committed, acknowledged and broadcast."""
        table = session.table
        assert table is not None
        digest = self._digest(session, message)
        if self._maybe_retransmitted(session, message.seq) and await self._retransmitted(
            session, message.seq, digest, now_ms
        ):
            return
        if self.closing:
            stopping = permissions.Refusal("shutting_down", "the server is stopping")
            await self._refuse_in_order(table, session, message.seq, stopping, now_ms, digest)
            return
        combat = table.encounter.state.combat
        ruleset = combat.ruleset if combat is not None else None
        row = ROWS[type(message)]
        refused = permissions.field_refusal(
            session.role,
            message,
            table.row.dice,
            ruleset,
            row,
            participant=session.participant,
            rolls_for=permissions.dice_owner(table.encounter.state),
        )
        if refused is not None:
            await self._refuse_in_order(table, session, message.seq, refused, now_ms, digest)
            return
        ready = self._ready.get(session)
        command = None if ready is None else ready.command_for(message, session.participant)
        if command is None:
            command = row.to_command(message, session.participant, table)
            ready = None
        self.metrics.count("commands")
        # Not waited for: the writer acknowledges it once committed, in queue order,
        # and the connection goes on reading (group commit wants commands in flight)...
        pending = self._apply(
            table, session, message.seq, session.client, command, now_ms, digest, ready
        )
        if session.in_flight >= MAX_IN_FLIGHT:
            # ...up to a few: a burst of commands must not become a burst of answers
            # bigger than a member's outbound queue holds.
            await self.committer.wait(pending)

    @staticmethod
    def _digest(session: Session, message: protocol.ClientMessage) -> str | None:
        """The message's digest, kept with its reply; None for a connection that named no
        ``client`` (it cannot retransmit, so nothing is kept)."""
        return None if session.client.startswith("conn:") else message_digest(message)

    def _maybe_retransmitted(self, session: Session, ref: int) -> bool:
        """Whether :meth:`_retransmitted` could find ``ref`` already seen: False for
        almost every command, which then skips it (a coroutine per command)."""
        table = session.table
        assert table is not None
        if self.committer.in_flight(table.id, session.participant, session.client, ref) is not None:
            return True
        if table.acks_loaded_from and not session.client.startswith("conn:"):
            return True  # older acknowledgements may be in the log only
        return table.kept(session.participant, session.client, ref) is not None

    async def _retransmitted(
        self, session: Session, ref: int, digest: str | None, now_ms: int
    ) -> bool:
        """Answer a message this client already sent (a command or an admin message)
        from memory; True if it was one.

        A *different* message under a seq already answered is refused (``seq_reused``)
        rather than taken for a retransmission: answering it with the old reply would
        drop it silently.  The kept reply is left as it was."""
        table = session.table
        assert table is not None
        inflight = self.committer.in_flight(table.id, session.participant, session.client, ref)
        if inflight is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(inflight)
        kept = table.kept(session.participant, session.client, ref)
        if kept is None and table.acks_loaded_from and not session.client.startswith("conn:"):
            try:
                kept = await self._logged_ack(table, session, ref)
            except Exception:
                # Not known to be new: applying it might apply it twice.  Not
                # remembered either, so sending it again gets the real answer.
                log.exception("retransmission: the log could not be read")
                await self._answer(
                    session,
                    lambda: send_error(
                        self.metrics, session, ref, "internal", "try again", None, now_ms
                    ),
                    now_ms,
                )
                return True
        if kept is None:
            return False
        reply, original = kept
        if digest is not None and original is not None and digest != original:
            reused = f"seq {ref} was already used by this client for another message"
            await self._answer(
                session,
                lambda: send_error(self.metrics, session, ref, "seq_reused", reused, "seq", now_ms),
                now_ms,
            )
            return True
        self.metrics.count("retransmits")
        # In queue order: commands this connection sent after the original are still
        # in flight, and their answers come first, as in a replay.
        await self._answer(
            session, lambda: resend(self.metrics, session, ref, reply, now_ms), now_ms
        )
        return True

    async def _logged_ack(self, table: Table, session: Session, ref: int) -> Kept | None:
        """The acknowledgement of an older command than start-up loaded, from the log:
        looked up only for a seq at most the highest this client has in the log (read
        once per client), so a new command costs no read."""
        client = session.client
        if client not in table.logged_refs:
            highest = await self.committer.in_db(self.store.highest_ref, table.id, client)
            table.logged_refs[client] = highest
        highest = table.logged_refs[client]
        if highest is None or ref > highest:
            return None
        found = await self.committer.in_db(self.store.find_ack, table.id, client, ref)
        if found is None or found.participant != session.participant:
            return None
        reply = ack_reply(found.first_event, found.events)
        table.remember(session.participant, session.client, ref, reply, found.digest)
        return reply, found.digest

    async def _refuse_in_order(
        self,
        table: Table,
        sender: Session,
        ref: int,
        refusal: permissions.Refusal,
        now_ms: int,
        digest: str | None = None,
    ) -> None:
        """Queue a refusal behind the commands in flight, so it is not sent before them."""
        pending = Pending(table, table.generation, sender, ref, sender.client, now_ms)
        pending.digest = digest
        pending.refusal = (refusal.code, refusal.message, refusal.path)
        await self.committer.submit(pending)

    def _apply(
        self,
        table: Table,
        sender: Session | None,
        ref: int | None,
        client: str,
        command: engine.Command,
        now_ms: int,
        digest: str | None = None,
        ready: Ready | None = None,
    ) -> Pending:
        """Apply ``command`` to the table at once and queue it for its commit and answer
        (:meth:`Committer.wait` waits for that).  ``ready``: what was made ready of the
        large frame ``command`` came in (its log forms, its scene's index).

        Synchronous on purpose: nothing else runs on the event loop between applying a
        command and queueing it, so the queue order is the order commands were applied
        in, with no lock."""
        pending = Pending(table, table.generation, sender, ref, client, now_ms)
        pending.digest, pending.kind = digest, command.kind
        try:
            events = table.encounter.apply(command)
        except CommandRejected as exc:
            pending.refusal = (exc.code, exc.message, None)
        else:
            plain = _ready_events(ready, command, events)
            if plain is None:
                plain = [event_to_plain(e) for e in events]
            elif ready is not None and ready.index is not None:
                assert isinstance(command, engine.LoadScene)
                table.encounter.adopt_index(command.scene, ready.index)
            # The prompts the command opened, found once: their deadlines here, and the
            # events themselves for the broadcast to tell each controller (not re-read
            # from the state).
            opened: dict[str, int] = {}
            closed: set[str] = set()
            prompts: list[engine.events.PromptOpened] = []
            for event in events:
                if isinstance(event, engine.events.PromptOpened):
                    opened[event.prompt] = now_ms + int(table.row.prompt_timeout * 1000)
                    prompts.append(event)
                elif isinstance(event, engine.events.PromptClosed):
                    closed.add(event.prompt)
            pending.opened, pending.closed = opened, closed
            if prompts:  # most commands open none
                pending.prompts = tuple(p for p in prompts if p.prompt not in closed)
            meta: dict[str, Any] = {"deadlines": opened, "t": now_ms}
            if sender is not None and ref is not None and not client.startswith("conn:"):
                meta["client"], meta["ref"] = client, ref
                meta["participant"] = sender.participant
                if digest is not None:
                    meta["digest"] = digest
            pending.row = LogRow(
                table.next_position,
                table.next_event,
                command_to_plain(command) if ready is None or ready.plain is None else ready.plain,
                plain,
                meta,
            )
            pending.state = table.encounter.state
            table.next_position += 1
            table.next_event += len(plain)
        self.committer.enqueue(pending)
        return pending


def _ready_events(
    ready: Ready | None, command: engine.Command, events: Sequence[engine.Event]
) -> list[dict[str, Any]] | None:
    """The events' log forms made ready with ``command``'s large frame, if the
    encounter answered it with exactly the events written (a scene load's one
    ``scene_loaded`` of that very scene); else None."""
    if ready is None or ready.events is None or ready.command is not command:
        return None
    assert isinstance(command, engine.LoadScene)
    if len(events) != 1 or not isinstance(events[0], engine.events.SceneLoaded):
        return None
    return ready.events if events[0].scene is command.scene else None


def new_table_records(
    table_id: str,
    name: str,
    players: Sequence[str],
    spectators: int,
    seed: int | None,
    prompt_timeout: float,
    now_ms: int,
    dice: str,
) -> tuple[TableRow, list[JoinToken]]:
    """A new table's row and join tokens (the GM's first, then each player's, then
    ``spectator-1`` ...), not yet stored."""
    row = TableRow(
        table_id,
        name,
        secrets.randbits(63) if seed is None else seed,
        prompt_timeout,
        now_ms,
        dice,
    )
    tokens = [JoinToken(new_join_token(), table_id, engine.GM, "gm")]
    tokens += [JoinToken(new_join_token(), table_id, p, "player") for p in players]
    tokens += [
        JoinToken(new_join_token(), table_id, f"spectator-{i + 1}", "spectator")
        for i in range(spectators)
    ]
    return row, tokens
