"""A table in memory: its encounter, its members, its events, and who may join it."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgpack

import protocol
from engine import Encounter, EncounterState
from vtt_bridge.fanout import Shared
from vtt_bridge.store import JoinToken, TableRow


class Recorder(Protocol):
    """Where a table's traffic goes when it is being recorded (see ``vtt_bridge.recording``)."""

    def frame_in(
        self, conn: str, frame: str | bytes, now_ms: int, out_seq: int | None = None
    ) -> None:
        """A frame a member sent; a join carries ``out_seq``, the connection's outbound
        seq before it (what it was answered before joining)."""

    def frame_out(self, conn: str, message: protocol.ServerMessage, now_ms: int) -> None:
        """A message the bridge sent a member."""

    def token_added(self, grant: JoinToken, now_ms: int) -> None:
        """A join token issued by another process, first used to join."""

    def expired(self, prompt: str, now_ms: int) -> None:
        """A prompt's deadline passed."""

    def left(self, conn: str, now_ms: int) -> None:
        """A member's connection closed."""


class Session:
    """One connection's identity and its outbound side.

    ``deliver`` is the connection's non-blocking sink (a bounded queue in the server, a
    list in replay); ``send`` numbers each message with the connection's own counter.
    """

    def __init__(
        self,
        conn: str,
        deliver: DeliverFn,
        kick: KickFn | None = None,
        deliver_shared: SharedFn | None = None,
        room: RoomFn | None = None,
        charge: ChargeFn | None = None,
        close_after: KickFn | None = None,
    ) -> None:
        self.conn = conn
        self._deliver = deliver
        self._kick = kick
        self._close_after = close_after
        self._charge = charge
        self._deliver_shared = deliver_shared
        self._room = room
        self.binary = False
        #: The client joined with ``batch``: several messages may share one frame.
        self.batch = False
        #: Its commands queued for the group commit and not yet answered.
        self.in_flight = 0
        self.table: Table | None = None
        self.participant = ""
        self.role = ""
        self.token = ""
        self.left = False
        #: Whose retransmissions this connection's commands are: the join's ``client`` id
        #: if it gave one (stable across reconnects), else this connection alone.
        self.client = ""
        #: While catching up: broadcasts to send once caught up, in order (None: none held).
        self.held: list[Callable[[], None]] | None = None
        #: Runs a catch-up in a turn of the server's join gate (``resync``); None: at once.
        self.admission: Callable[[Awaitable[None]], Awaitable[None]] | None = None
        #: When its join frame was read, as :meth:`JoinTokens.arrival` counts (None: the
        #: join is looked up as of the moment it is answered).
        self.join_arrived: int | None = None
        self._out_seq = 0

    async def room(self) -> None:
        """Wait until the outbound queue can take a chunk of catch-up (replay: at once)."""
        if self._room is not None:
            await self._room()

    def kick(self, code: int, reason: str) -> None:
        """Close the connection (its join token was revoked); replay has nothing to close."""
        if self._kick is not None:
            self._kick(code, reason)

    def close_after_sent(self, code: int, reason: str) -> None:
        """Close the connection once everything queued for it is sent (a ``redirect``
        goes first); replay has nothing to close."""
        if self._close_after is not None:
            self._close_after(code, reason)

    def charge(self, cost: int, message: protocol.ClientMessage) -> bool:
        """Take ``cost`` more tokens from the connection's rate limit for ``message``;
        False when they are not there (the connection has then been told and is
        closing).  Replay has no rate limit: the recording holds only admitted frames."""
        return self._charge is None or self._charge(cost, message)

    def start_seq(self, base: int) -> None:
        """Continue numbering after ``base`` (replay: what the live connection had sent
        before it joined, which the recording does not hold)."""
        self._out_seq = base

    @property
    def out_seq(self) -> int:
        """The seq of the last message sent to this connection (0: none yet)."""
        return self._out_seq

    def next_seq(self) -> int:
        """The seq number for the next outbound message."""
        self._out_seq += 1
        return self._out_seq

    def send(self, message: protocol.ServerMessage, now_ms: int) -> None:
        """Queue ``message`` for this connection (and the table's recording, if any)."""
        if self.table is not None and self.table.recorder is not None:
            self.table.recorder.frame_out(self.conn, message, now_ms)
        self._deliver(message)

    def send_shared(self, shared: Shared, now_ms: int) -> None:
        """Queue a broadcast message under this connection's next seq."""
        # Once per member per event: the seq counted here, not by a call to next_seq.
        self._out_seq = seq = self._out_seq + 1
        table = self.table
        if table is not None and table.recorder is not None:
            table.recorder.frame_out(self.conn, shared.numbered(seq), now_ms)
        if self._deliver_shared is not None:
            self._deliver_shared(shared, seq)
        else:
            self._deliver(shared.numbered(seq))


class RoomFn(Protocol):
    """Waits until a connection's outbound queue has room for a chunk."""

    def __call__(self) -> Awaitable[None]:
        """Wait."""


class SharedFn(Protocol):
    """A connection's sink for a broadcast message and its seq; must not block."""

    def __call__(self, shared: Shared, seq: int) -> None:
        """Take one message for sending."""


class ChargeFn(Protocol):
    """Takes tokens from a connection's rate limit for a message; False when empty."""

    def __call__(self, cost: int, message: protocol.ClientMessage) -> bool:
        """Charge it."""


class KickFn(Protocol):
    """Closes a connection with a WebSocket close code."""

    def __call__(self, code: int, reason: str) -> None:
        """Close it."""


class DeliverFn(Protocol):
    """A connection's outbound sink; must not block."""

    def __call__(self, message: protocol.ServerMessage) -> None:
        """Take one message for sending."""


#: Events a table keeps in memory for catch-up (at least, up to twice as many).
EVENTS_KEPT = 4096
#: Bytes of those events kept (at least, up to twice as many), whichever bound is hit
#: first: a few big events (a 40 KB ``scene_loaded`` each) must not hold 4,096 of them.
EVENTS_KEPT_BYTES = 1024 * 1024


def event_size(event: dict[str, Any]) -> int:
    """What an event costs the window: the length of its msgpack encoding, what it
    costs on the wire and within a small factor of what it holds in memory.  msgpack,
    not JSON: it is measured for every event committed, and packing is four times
    cheaper than ``json.dumps``."""
    return len(_pack(event))


# One packer, reused: ``msgpack.packb`` builds one per call (the same bytes).
_pack: Callable[[Any], bytes] = msgpack.Packer().pack


class EventLog:
    """A table's committed events: how many there are, and the newest in memory.

    ``len()`` counts every event; indexes below ``base`` are only in the SQLite log.
    The window is bounded by count (``keep``) and by bytes (``keep_bytes``): once it
    holds twice either, the oldest are dropped until it holds at most both, so the
    dropping costs O(1) per event over time."""

    def __init__(self, keep: int = EVENTS_KEPT, keep_bytes: int = EVENTS_KEPT_BYTES) -> None:
        self.base = 0
        self.keep = keep
        self.keep_bytes = keep_bytes
        self._recent: list[dict[str, Any]] = []
        self._sizes: list[int] = []
        self._bytes = 0

    def __len__(self) -> int:
        return self.base + len(self._recent)

    @property
    def bytes(self) -> int:
        """The size of the events in the window (see :func:`event_size`)."""
        return self._bytes

    def extend(self, events: list[dict[str, Any]]) -> None:
        """Append committed events, forgetting the oldest beyond twice either bound."""
        sizes = [event_size(e) for e in events]
        self._recent.extend(events)
        self._sizes.extend(sizes)
        self._bytes += sum(sizes)
        if len(self._recent) > 2 * self.keep or self._bytes > 2 * self.keep_bytes:
            self._trim()

    def _trim(self) -> None:
        drop = max(0, len(self._recent) - self.keep)
        dropped = sum(self._sizes[:drop])
        while drop < len(self._recent) and self._bytes - dropped > self.keep_bytes:
            dropped += self._sizes[drop]
            drop += 1
        del self._recent[:drop]
        del self._sizes[:drop]
        self._bytes -= dropped
        self.base += drop

    def since(self, index: int) -> list[dict[str, Any]] | None:
        """The events from ``index`` on, or None when some of them are no longer here."""
        if index < self.base:
            return None
        return self._recent[index - self.base :]


#: A command's reply, kept for retransmissions: ``("ack", first, last)`` or
#: ``("error", code, message, path)``; an admin message's also ``("token_issued", token,
#: participant, role)`` or ``("token_revoked", token)``.
Reply = tuple[Any, ...]
#: A kept reply and the digest of the message it answered (None: not known, a log
#: written before digests were kept), so a different message under the same seq is told
#: apart from a retransmission.
Kept = tuple[Reply, str | None]
#: Replies remembered per client for retransmission (older ones are forgotten).
REPLIES_KEPT = 1024
#: Clients per participant whose replies are kept.
CLIENTS_KEPT = 256


class ReplyStore:
    """Remembered replies of one kind, per participant, per client, per command seq.

    Bounded per client (:data:`REPLIES_KEPT`) and per participant (:data:`CLIENTS_KEPT`
    clients, the least recently heard from go first), so no participant's clients can
    push out another participant's replies."""

    def __init__(self) -> None:
        self._by_participant: dict[str, OrderedDict[str, OrderedDict[int, Kept]]] = {}

    def put(self, participant: str, client: str, ref: int, reply: Kept) -> None:
        """Keep ``reply`` (and its message's digest) to ``client``'s command ``ref``."""
        clients = self._by_participant.setdefault(participant, OrderedDict())
        kept = clients.pop(client, None) or OrderedDict()
        clients[client] = kept
        kept[ref] = reply
        while len(kept) > REPLIES_KEPT:
            kept.popitem(last=False)
        while len(clients) > CLIENTS_KEPT:
            clients.popitem(last=False)

    def get(self, participant: str, client: str, ref: int) -> Kept | None:
        """The reply kept for ``client``'s command ``ref``, if any."""
        clients = self._by_participant.get(participant)
        kept = None if clients is None else clients.get(client)
        return None if kept is None else kept.get(ref)


@dataclass
class Table:
    """One table: settings, join tokens, the encounter and its event history.

    Two views of the fight.  ``encounter`` is ahead: every accepted command is applied
    to it at once, so the next command is checked against it while the log commit is
    still in flight (group commit).  ``committed``, ``events``, ``positions`` and
    ``deadlines`` are what the log holds: what members are told, snapshots and catch-up
    are made from them.  ``next_position`` and ``next_event`` count what is applied.
    """

    row: TableRow
    tokens: dict[str, JoinToken]
    encounter: Encounter = field(default_factory=Encounter)
    committed: EncounterState = field(default_factory=EncounterState)
    events: EventLog = field(default_factory=lambda: EventLog())
    positions: int = 0
    next_position: int = 0
    next_event: int = 0
    generation: int = 0
    deadlines: dict[str, int] = field(default_factory=dict)
    sessions: list[Session] = field(default_factory=list)
    #: Commands and session messages submitted to the committer and not yet answered.
    unanswered: int = 0
    recorder: Recorder | None = None
    acks: ReplyStore = field(default_factory=ReplyStore)
    refusals: ReplyStore = field(default_factory=ReplyStore)
    snapshot_position: int = 0
    #: The log position from which start-up remembered acknowledgements (0: all of
    #: them); older ones are looked up in the log on a retransmission.
    acks_loaded_from: int = 0
    #: Per client key, the highest seq it has in the log (None: none), read once on
    #: its first command while older acknowledgements are only in the log.
    logged_refs: dict[str, int | None] = field(default_factory=dict)
    #: The settings the database holds; ``row`` is ahead of it while a
    #: ``configure_table`` waits for its commit (see :class:`vtt_bridge.committer.Pending`).
    stored_row: TableRow | None = None
    #: Another bridge process serves the table now (a shared database): what is still
    #: queued for it here is not answered, its members are sent to the new owner.
    moved: bool = False

    def __post_init__(self) -> None:
        if self.stored_row is None:
            self.stored_row = self.row

    def remember(
        self, participant: str, client: str, ref: int, reply: Reply, digest: str | None = None
    ) -> None:
        """Keep ``reply`` to ``participant``'s ``client``'s command ``ref`` (whose
        :func:`~vtt_bridge.replies.message_digest` is ``digest``) for a retransmission.

        Only clients that named themselves (``join.client``) can retransmit; a
        connection's own key (``conn:...``) is not kept.  Acknowledgements and
        refusals are kept apart, so refusals never push out an acknowledgement.
        """
        if client.startswith("conn:"):
            return
        store = self.refusals if reply[0] == "error" else self.acks
        store.put(participant, client, ref, (reply, digest))

    def kept(self, participant: str, client: str, ref: int) -> Kept | None:
        """The reply already given to ``participant``'s ``client``'s command ``ref``,
        with the digest of the message it answered."""
        found = self.acks.get(participant, client, ref)
        return found if found is not None else self.refusals.get(participant, client, ref)

    def reply_to(self, participant: str, client: str, ref: int) -> Reply | None:
        """The reply already given to ``participant``'s ``client``'s command ``ref``."""
        found = self.kept(participant, client, ref)
        return None if found is None else found[0]

    @property
    def id(self) -> str:
        """The table id."""
        return self.row.id

    def combat_seed(self) -> int:
        """The dice seed for a combat started now: derived from the table seed and the log.

        Deterministic, so a replay of the same messages rolls the same dice, and never
        sent to players.
        """
        digest = hashlib.blake2b(f"{self.row.seed}:{self.next_position}".encode(), digest_size=8)
        return int.from_bytes(digest.digest(), "big") >> 1

    def issue_token_value(self, participant: str, role: str) -> str:
        """A new join token, derived from the table's secret seed and how many it has.

        Derived rather than random so a replay issues the same token; unguessable to
        anyone without the seed, which never leaves the server.
        """
        key = self.row.seed.to_bytes(8, "big")
        count = len(self.tokens)
        while True:
            message = f"join:{count}:{role}:{participant}".encode()
            digest = hashlib.blake2b(message, key=key, digest_size=18).digest()
            value = base64.urlsafe_b64encode(digest).decode()
            if value not in self.tokens and not value.startswith("-"):
                return value
            count += 1

    def last_event(self) -> int:
        """The index of the newest event, -1 when there is none."""
        return len(self.events) - 1


def new_join_token() -> str:
    """A random join token; never one starting with ``-``, which a command line would
    take for an option (``vtt-bridge revoke-token -abc...``)."""
    while True:
        token = secrets.token_urlsafe(18)
        if not token.startswith("-"):
            return token
