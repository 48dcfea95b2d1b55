"""Server settings, with their defaults: everything ``vtt-bridge serve`` can be told."""

from __future__ import annotations

import math
import re
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from protocol.server_messages import MAX_URL, WS_URL_PATTERN

#: The prefix of every setting's environment variable (``VTT_BRIDGE_RATE_LIMIT``).
ENV_PREFIX: Final = "VTT_BRIDGE_"


class ConfigError(ValueError):
    """A setting outside what the server can run with; the message names the flag,
    its environment variable and what is allowed."""


@dataclass(frozen=True, slots=True)
class Bound:
    """The allowed range of a numeric setting (``lo <= value <= hi``, finite), and why
    its ends are where they are (shown in the error and the configuration docs)."""

    flag: str
    lo: float
    hi: float
    why: str = ""

    @property
    def env(self) -> str:
        """The setting's environment variable."""
        return ENV_PREFIX + self.flag.upper().replace("-", "_")

    def describe(self) -> str:
        """``lo..hi`` as the docs and the errors write it."""
        return f"{_number(self.lo)}..{_number(self.hi)}"


def _number(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


#: PostgreSQL connections a serving process commits through at once, by default: a few
#: tables' flushes overlap (docs/several-bridges.md measured it), without a session per
#: table on a server whose ``max_connections`` is 100 by default.
DEFAULT_DB_CONNECTIONS: Final = 4

#: Every numeric setting's allowed range: one table, read by ``Config`` itself (so the
#: command line, the environment and a program building a ``Config`` are all checked
#: alike) and by the configuration docs.
BOUNDS: Final[dict[str, Bound]] = {
    "port": Bound("port", 0, 65535, "0: any free port"),
    "prompt_timeout": Bound("prompt-timeout", 0.1, 1e9),
    "max_message_bytes": Bound(
        "max-message-bytes", 4096, 64 * 1024 * 1024, "a join or a move must fit"
    ),
    "outbound_queue": Bound(
        "outbound-queue", 16, 1_000_000, "a welcome, a state and its prompts must fit"
    ),
    "heartbeat": Bound("heartbeat", 1, 3600),
    "join_timeout": Bound("join-timeout", 0.1, 3600),
    "rate_limit": Bound("rate-limit", 0.001, 1e9, "0 would close everyone once the burst is spent"),
    "rate_burst": Bound("rate-burst", 1, 1e9, "0 would refuse every message"),
    "join_rate": Bound("join-rate", 0.1, 1e9),
    "join_burst": Bound("join-burst", 1, 1e9),
    "stall_timeout": Bound("stall-timeout", 0.1, 3600),
    "snapshot_every": Bound("snapshot-every", 0, 1e9, "0: never"),
    "revocation_poll": Bound("revocation-poll", 0, 3600, "0: never"),
    "handshake_timeout": Bound("handshake-timeout", 0.1, 3600),
    "max_connections": Bound("max-connections", 1, 1_000_000),
    "max_connections_per_token": Bound("max-connections-per-token", 0, 1_000_000, "0: no cap"),
    "events_kept_bytes": Bound("events-kept-bytes", 0, 2**40),
    "ops_port": Bound("ops-port", 1, 65535),
    "log_repeat_interval": Bound("log-repeat-interval", 0, 86400),
    "lease": Bound("lease", 1, 3600, "a heartbeat goes every third of it"),
    "db_connections": Bound(
        "db-connections", 1, 64, "PostgreSQL connections a process commits through at once"
    ),
}
#: The settings that take one of a few words.
CHOICES: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "synchronous": ("synchronous", ("FULL", "EXTRA", "NORMAL", "OFF")),
    "log_format": ("log-format", ("text", "json")),
    "event_loop": ("event-loop", ("asyncio", "uvloop", "auto")),
}


def _named(flag: str) -> str:
    return f"--{flag} (${ENV_PREFIX}{flag.upper().replace('-', '_')})"


def check(config: Config) -> None:
    """Raise :class:`ConfigError` for the first setting outside its range."""
    for name, bound in BOUNDS.items():
        value = getattr(config, name)
        if value is None:
            continue
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or not bound.lo <= value <= bound.hi
        ):
            why = f" ({bound.why})" if bound.why else ""
            raise ConfigError(
                f"{_named(bound.flag)} must be a finite number in {bound.describe()}{why}, "
                f"got {value!r}"
            )
    for name, (flag, words) in CHOICES.items():
        if getattr(config, name) not in words:
            raise ConfigError(
                f"{_named(flag)} must be one of {', '.join(words)}, got {getattr(config, name)!r}"
            )
    if config.ops_token is not None and (
        not config.ops_token.strip() or config.ops_token != config.ops_token.strip()
    ):
        raise ConfigError(
            f"{_named('ops-token')} must be a non-empty token without surrounding spaces "
            "(an empty one would let anyone read /metrics); unset it to require none"
        )
    if config.ops_port is not None and config.ops_port == config.port and config.port != 0:
        raise ConfigError(f"{_named('ops-port')} must differ from --port ({config.port})")
    for origin in config.allowed_origins:
        parts = urlsplit(origin)
        if origin != "*" and (parts.scheme not in ("http", "https") or not parts.hostname):
            raise ConfigError(
                f"{_named('allowed-origins')}: {origin!r} is not an origin "
                "(scheme://host[:port], http or https) or *"
            )
    if (config.tls_cert is None) != (config.tls_key is None):
        raise ConfigError(
            f"{_named('tls-cert')} and {_named('tls-key')} go together: give both or neither"
        )
    # What a ``redirect`` may carry: the same pattern and bound as the wire's.
    if config.public_url and (
        len(config.public_url) > MAX_URL or not re.match(WS_URL_PATTERN, config.public_url)
    ):
        raise ConfigError(
            f"{_named('public-url')}: {config.public_url!r} is not a WebSocket URL "
            "(ws:// or wss://host[:port]/path)"
        )
    for host in config.allowed_hosts:
        if not host or any(c in host for c in "/ @,"):
            raise ConfigError(
                f"{_named('allowed-hosts')}: {host!r} is not a host name (host or host:port) or *"
            )
    from vtt_bridge.store_open import is_postgres_url  # imports the store: not at load

    if config.demo and is_postgres_url(config.database):
        # Each process would make a demo table of its own on every start: a shared
        # database's tables are made once, with create-table.
        raise ConfigError(
            f"{_named('demo')} is for one process on a SQLite file; on PostgreSQL make "
            "tables with vtt-bridge create-table --db postgresql://..."
        )


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
    #: The event log: a SQLite file, or a ``postgresql://`` URL (kept as text) that
    #: several bridge processes share (docs/several-bridges.md).
    database: Path | str = Path("data/vtt-bridge.sqlite3")
    #: With PostgreSQL: the WebSocket URL clients reach this process at, which a join
    #: for one of its tables through another process is redirected to ("": this
    #: process's ``ws://host:port/ws``).
    public_url: str = ""
    #: With PostgreSQL: seconds without a heartbeat after which this process's tables
    #: may be taken over by another (it renews it every third of that).
    lease: float = 5.0
    #: With PostgreSQL: connections this process commits through at once (a table's
    #: commits always through the same one, in order); SQLite's file has one writer.
    db_connections: int = DEFAULT_DB_CONNECTIONS
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
    #: ``Host`` names (``host`` or ``host:port``) a request may name; empty: the address
    #: the server listens on, ``localhost``, ``127.0.0.1`` and ``[::1]`` at its port.
    #: ``"*"`` allows any (behind a proxy that checks it).
    allowed_hosts: tuple[str, ...] = ()
    #: Inbound message tokens per second per participant (join token at a table, over
    #: all its connections), sustained, and the burst allowed (:mod:`vtt_bridge.limits`).
    rate_limit: float = 50.0
    rate_burst: int = 200
    #: WebSocket handshakes per second per remote address, and the burst allowed (then
    #: HTTP 429 with ``Retry-After``).
    join_rate: float = 20.0
    join_burst: int = 100
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
    #: A PEM certificate chain and its private key: with both, ``serve`` speaks
    #: ``https://`` and ``wss://`` on every listener (:func:`tls_context`).
    tls_cert: Path | None = None
    tls_key: Path | None = None
    clock: Callable[[], int] = field(default=wall_clock_ms)

    def __post_init__(self) -> None:
        check(self)


def tls_context(config: Config) -> ssl.SSLContext | None:
    """The server's TLS context from ``--tls-cert`` and ``--tls-key`` (None without
    them): TLS 1.2 or newer, Python's default ciphers. Raises :class:`ConfigError`
    naming the flag when a file is missing, unreadable, or the key does not match the
    certificate."""
    if config.tls_cert is None or config.tls_key is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(config.tls_cert, config.tls_key)
    except FileNotFoundError as exc:
        raise ConfigError(
            f"{_named('tls-cert')}/{_named('tls-key')}: no such file {exc.filename}"
        ) from None
    except (ssl.SSLError, OSError) as exc:
        raise ConfigError(
            f"{_named('tls-cert')} {config.tls_cert} and {_named('tls-key')} {config.tls_key} "
            f"cannot be used together: {exc}"
        ) from None
    return context
