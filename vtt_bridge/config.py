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
    #: Seconds a new connection has to send its join before it is closed (1008).
    join_timeout: float = 10.0
    #: Browser origins allowed to open a WebSocket besides the server's own (the table
    #: view it serves); ``"*"`` allows any.  A request without an ``Origin`` header (not
    #: a browser) is allowed.
    allowed_origins: tuple[str, ...] = ()
    #: Inbound messages per second per connection (sustained), and the burst allowed.
    rate_limit: float = 50.0
    rate_burst: int = 200
    #: Seconds one outbound send may stall before the client is disconnected.
    stall_timeout: float = 10.0
    #: A snapshot of each table every this many commands (0: never).
    snapshot_every: int = 500
    #: Seconds between checks for join tokens revoked in the database by another
    #: process (``vtt-bridge revoke-token``), whose connections are then closed (0: never).
    revocation_poll: float = 1.0
    #: SQLite ``synchronous`` setting; FULL makes an acknowledgement survive power loss.
    synchronous: str = "FULL"
    #: On start-up, also replay each table's whole log and check the state hash.
    verify_log: bool = False
    #: Fault injection for the crash test: ``POINT`` or ``POINT:N`` kills the process
    #: with SIGKILL the Nth time (default 1st) the server reaches ``POINT``.
    crash_at: str | None = None
    log_format: str = "text"
    #: Seconds a new TCP connection has to send its whole HTTP request (the WebSocket
    #: handshake) or an idle keep-alive connection is held before it is dropped.
    handshake_timeout: float = 10.0
    #: WebSocket connections open at once; more are refused with HTTP 503 before the
    #: upgrade.  Keep it under the process's file limit (``ulimit -n``).
    max_connections: int = 900
    #: Connections joined with one join token at once (0: no cap); a join beyond it is
    #: refused (``too_many_connections``) and closed (1013).
    max_connections_per_token: int = 8
    #: Bytes of recent events a table keeps in memory for catch-up (besides the count
    #: bound); a client asking for older ones gets the full state.
    events_kept_bytes: int = 1024 * 1024
    #: A bearer token ``/healthz`` and ``/metrics`` require (None: none required).
    ops_token: str | None = None
    #: A second address serving only ``/healthz`` and ``/metrics`` (None: they are
    #: served on the main address).  ``ops_host`` defaults to 127.0.0.1.
    ops_host: str = "127.0.0.1"
    ops_port: int | None = None
    #: Seconds between two log lines of one repeated failure (a refused connection, an
    #: accept error): the rest are counted and reported with the next line.
    log_repeat_interval: float = 10.0
    #: The event loop ``serve`` runs on: ``asyncio`` (its own), ``uvloop`` (the ``fast``
    #: extra; ``bench.bridge`` measured it cheaper and quicker) or ``auto`` (uvloop when
    #: installed).  Not uvloop by default: a uvloop server that runs out of file
    #: descriptors drops connections without a word (libuv handles ``EMFILE`` itself),
    #: where asyncio's logs each failed ``accept()`` (``tests/bridge/test_connection_flood.py``).
    event_loop: str = "asyncio"
    clock: Callable[[], int] = field(default=wall_clock_ms)
