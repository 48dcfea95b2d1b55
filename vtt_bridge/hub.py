"""The hub: every table, and the one path a client frame takes through the bridge.

``Hub.receive`` is the whole request cycle: decode, check who is asking, apply to the
encounter, commit to the log, acknowledge, broadcast.  It knows nothing of WebSockets:
the server hands it frames and a clock reading, and so does replay, which is how a
recorded session replays exactly.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import engine
import protocol
from engine import SYSTEM, CommandRejected, Encounter, ExpirePrompt
from vtt_bridge.store import JoinToken, LogRow, Store, TableRow
from vtt_bridge.tables import Session, Table
from vtt_bridge.translate import (
    COMMAND_MESSAGES,
    command_from_plain,
    command_to_plain,
    event_to_plain,
    public_state,
    to_command,
)

SERVER_NAME = "vtt-bridge/0.1.0"
DEFAULT_PROMPT_TIMEOUT = 30.0
log = logging.getLogger("vtt_bridge")
T = TypeVar("T")
DeadlineFn = Callable[[str, str, int], None]


class StartupError(RuntimeError):
    """The log on disk cannot be replayed into the state it recorded."""


class Hub:
    """All tables of one server, over one :class:`Store`.

    ``on_deadline(table_id, prompt_id, deadline_ms)`` is called whenever a prompt opens;
    the server arms a timer that calls :meth:`expire`, replay does nothing (it feeds the
    recorded expiries instead).
    """

    def __init__(self, store: Store, on_deadline: DeadlineFn | None = None) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self._by_token: dict[str, Table] = {}
        self._on_deadline = on_deadline or (lambda table, prompt, deadline: None)
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vtt-db")
        self._load()

    def close(self) -> None:
        """Stop the database worker and close the store."""
        self._db.shutdown(wait=True)
        self.store.close()

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
    ) -> Table:
        """Create and store a table with a GM token and one token per player."""
        table_id = secrets.token_hex(4)
        row = TableRow(
            table_id,
            name,
            secrets.randbits(63) if seed is None else seed,
            prompt_timeout,
            now_ms,
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
        for log_row in log_rows:
            self.store.append(row.id, log_row)
        table = self._install(row, tokens)
        self._rebuild(table, log_rows)
        return table

    def table_by_name(self, name: str) -> Table | None:
        """The first table called ``name``."""
        return next((t for t in self.tables.values() if t.row.name == name), None)

    def _install(self, row: TableRow, tokens: list[JoinToken]) -> Table:
        table = Table(row=row, tokens={t.token: t for t in tokens})
        self.tables[row.id] = table
        for token in tokens:
            self._by_token[token.token] = table
        return table

    def _load(self) -> None:
        for row in self.store.tables():
            table = self._install(row, self.store.join_tokens(row.id))
            self._rebuild(table, self.store.log(row.id))

    def _rebuild(self, table: Table, rows: list[LogRow]) -> None:
        for log_row in rows:
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
                    f"table {table.id}: command {log_row.position} replays to other events "
                    "than the log holds; the engine is not deterministic for this log"
                )
            table.events.extend(events)
            table.positions += 1
            table.deadlines.update(log_row.meta.get("deadlines", {}))
        combat = table.encounter.state.combat
        open_prompts = {p.id for p in combat.prompts} if combat else set()
        table.deadlines = {p: d for p, d in table.deadlines.items() if p in open_prompts}
        for prompt, deadline in table.deadlines.items():
            self._on_deadline(table.id, prompt, deadline)

    # -- the request cycle ---------------------------------------------------------------

    async def receive(self, session: Session, frame: str | bytes, now_ms: int) -> None:
        """Handle one frame from ``session``'s connection."""
        try:
            message = protocol.decode_client(frame)
        except protocol.ProtocolError as exc:
            if session.table is not None and session.table.recorder is not None:
                session.table.recorder.frame_in(session.conn, frame, now_ms)
            session.send(
                protocol.ErrorMessage.from_protocol_error(exc, seq=session.next_seq()), now_ms
            )
            return
        if session.table is None:
            session.binary = isinstance(frame, bytes)
            await self._join(session, message, frame, now_ms)
            return
        if session.table.recorder is not None:
            session.table.recorder.frame_in(session.conn, frame, now_ms)
        if isinstance(message, protocol.Join):
            self._error(
                session, message.seq, "already_joined", "this connection has joined", None, now_ms
            )
        elif isinstance(message, protocol.Ping):
            session.send(protocol.Pong(seq=session.next_seq()), now_ms)
        elif isinstance(message, protocol.Resync):
            self._catch_up(session, message.after, now_ms)
        elif isinstance(message, COMMAND_MESSAGES):
            await self._command(session, message, now_ms)

    async def expire(self, table_id: str, prompt_id: str, now_ms: int) -> None:
        """A prompt's deadline passed: it counts as declined, unless already answered."""
        table = self.tables.get(table_id)
        if table is None or prompt_id not in table.deadlines:
            return
        if table.recorder is not None:
            table.recorder.expired(prompt_id, now_ms)
        await self._apply(table, None, None, ExpirePrompt(SYSTEM, prompt_id), now_ms)

    async def _join(
        self, session: Session, message: protocol.ClientMessage, frame: str | bytes, now_ms: int
    ) -> None:
        if not isinstance(message, protocol.Join):
            self._error(
                session, message.seq, "not_joined", "the first message must be a join", None, now_ms
            )
            return
        table = self._by_token.get(message.token)
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
        table.sessions.append(session)
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
            state = public_state(table.encounter.state)
            session.send(
                protocol.State(seq=session.next_seq(), last_event=table.last_event(), state=state),
                now_ms,
            )
            self._resend_prompts(session, now_ms)
        else:
            self._catch_up(session, message.last_event, now_ms)

    def leave(self, session: Session, now_ms: int) -> None:
        """The connection closed: stop sending it anything."""
        table = session.table
        if table is not None and session in table.sessions:
            table.sessions.remove(session)
            if table.recorder is not None:
                table.recorder.left(session.conn, now_ms)

    def _catch_up(self, session: Session, after: int, now_ms: int) -> None:
        table = session.table
        assert table is not None
        for index in range(max(after + 1, 0), len(table.events)):
            event = table.events[index]
            session.send(
                protocol.Event(
                    seq=session.next_seq(), index=index, kind=event["kind"], data=event["data"]
                ),
                now_ms,
            )
        self._resend_prompts(session, now_ms)

    def _resend_prompts(self, session: Session, now_ms: int) -> None:
        table = session.table
        assert table is not None
        combat = table.encounter.state.combat
        for prompt in combat.prompts if combat else ():
            if session.participant == prompt.controller:
                session.send(
                    self._prompt_message(session, prompt, table.deadlines.get(prompt.id, now_ms)),
                    now_ms,
                )

    async def _command(
        self, session: Session, message: protocol.ClientMessage, now_ms: int
    ) -> None:
        table = session.table
        assert table is not None
        if session.role == "spectator":
            self._error(session, message.seq, "spectator", "spectators only watch", None, now_ms)
            return
        command = to_command(message, actor=session.participant, seed=table.combat_seed())
        await self._apply(table, session, message.seq, command, now_ms)

    async def _apply(
        self,
        table: Table,
        sender: Session | None,
        ref: int | None,
        command: engine.Command,
        now_ms: int,
    ) -> None:
        async with table.lock:
            before = table.encounter.state
            try:
                events = table.encounter.apply(command)
            except CommandRejected as exc:
                if sender is not None:
                    self._error(sender, ref, exc.code, exc.message, None, now_ms)
                return
            plain = [event_to_plain(e) for e in events]
            first = len(table.events)
            opened = {
                e.prompt: now_ms + int(table.row.prompt_timeout * 1000)
                for e in events
                if isinstance(e, engine.events.PromptOpened)
            }
            row = LogRow(
                table.positions,
                first,
                command_to_plain(command),
                plain,
                {"deadlines": opened, "t": now_ms},
            )
            try:
                await self._in_db(self.store.append, table.id, row)
            except Exception:
                log.exception("commit failed on table %s; command dropped", table.id)
                table.encounter = Encounter(before)
                if sender is not None:
                    self._error(
                        sender, ref, "internal", "the command could not be stored", None, now_ms
                    )
                return
            table.events.extend(plain)
            table.positions += 1
            closed = {e.prompt for e in events if isinstance(e, engine.events.PromptClosed)}
            table.deadlines = {p: d for p, d in table.deadlines.items() if p not in closed} | opened
        if sender is not None and ref is not None:
            last = len(table.events) - 1 if plain else None
            sender.send(
                protocol.Ack(
                    seq=sender.next_seq(),
                    ref=ref,
                    first_event=first if plain else None,
                    last_event=last,
                ),
                now_ms,
            )
        self._broadcast(table, first, plain, now_ms)
        for prompt_id, deadline in opened.items():
            self._on_deadline(table.id, prompt_id, deadline)

    def _broadcast(
        self, table: Table, first: int, events: list[dict[str, Any]], now_ms: int
    ) -> None:
        # Each event is built (and its data checked) once, then renumbered per member.
        built = [
            protocol.Event(seq=0, index=first + offset, kind=event["kind"], data=event["data"])
            for offset, event in enumerate(events)
        ]
        opened = {e["data"]["prompt"] for e in events if e["kind"] == "prompt_opened"}
        combat = table.encounter.state.combat
        prompts = [p for p in combat.prompts if p.id in opened] if combat else []
        for session in list(table.sessions):
            for event in built:
                session.send(event.renumbered(session.next_seq()), now_ms)
            for prompt in prompts:
                if session.participant == prompt.controller:
                    deadline = table.deadlines[prompt.id]
                    session.send(self._prompt_message(session, prompt, deadline), now_ms)

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

    @staticmethod
    def _error(
        session: Session, ref: int | None, code: str, message: str, path: str | None, now_ms: int
    ) -> None:
        session.send(
            protocol.ErrorMessage(
                seq=session.next_seq(), ref=ref, code=code, message=message, path=path
            ),
            now_ms,
        )

    async def _in_db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, fn, *args)
