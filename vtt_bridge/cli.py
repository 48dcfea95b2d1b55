"""The command line: ``vtt-bridge serve``, ``create-table``, ``issue-token``, ``revoke-token``,
``replay``, ``backup``, ``restore``.

Every ``serve`` option is a flag and an environment variable (``--rate-limit`` and
``VTT_BRIDGE_RATE_LIMIT``); the flag wins.  A token revoked here while the server runs
stops new joins at once (the server reads tokens from the database on join), and the
server closes the connections already joined with it (1008) within ``--revocation-poll``
seconds, as a revocation over the protocol does at once.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import socket
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aiohttp import web

import protocol
from vtt_bridge.app import DEMO_TABLE, HUB, create_app
from vtt_bridge.backup import BackupError, ServerLock, backup, restore
from vtt_bridge.config import ENV_PREFIX, Config, ConfigError, tls_context
from vtt_bridge.demo import DEMO_RULESET, load_demo_scene
from vtt_bridge.filelimit import raise_file_limit
from vtt_bridge.hub import RESERVED_PARTICIPANTS, Hub
from vtt_bridge.logthrottle import RepeatFilter
from vtt_bridge.recording import RecordingError, replay
from vtt_bridge.store import JoinToken, TableRow
from vtt_bridge.store_open import database_arg, is_postgres_url, open_store
from vtt_bridge.store_protocol import EventStore
from vtt_bridge.tables import new_join_token

__all__ = ["ENV_PREFIX", "SERVE_OPTIONS", "build_parser", "config_from_args", "main"]


def _env(name: str, default: Any, kind: Callable[[str], Any] = str) -> Any:
    """The default for flag ``--name``: ``$VTT_BRIDGE_NAME`` if set, else ``default``.

    A value that does not parse is refused naming the variable (argparse names a
    flag's own bad value); its range is checked with the flags' (``config.check``)."""
    env = ENV_PREFIX + name.upper().replace("-", "_")
    raw = os.environ.get(env)
    if raw is None:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(f"${env} (--{name}): {raw!r} is not a valid value") from None


def _flag(raw: str) -> bool:
    return raw.strip().lower() in ("1", "true", "yes", "on")


def _origins(raw: str) -> tuple[str, ...]:
    return tuple(o.strip() for o in raw.split(",") if o.strip())


#: ``serve`` options: flag, Config field, type, help.  Each also reads
#: ``VTT_BRIDGE_<FLAG>`` from the environment; a flag given on the command line wins.
SERVE_OPTIONS: list[tuple[str, str, Callable[[str], Any], str]] = [
    ("host", "host", str, "address to listen on"),
    ("port", "port", int, "TCP port"),
    ("db", "database", database_arg, "SQLite event log, or a postgresql:// URL"),
    ("public-url", "public_url", str, "with PostgreSQL: the ws:// URL redirects name"),
    ("lease", "lease", float, "with PostgreSQL: seconds before a silent process's tables move"),
    ("db-connections", "db_connections", int, "with PostgreSQL: connections committing at once"),
    ("record", "record_dir", Path, "record every table's traffic into this directory"),
    ("prompt-timeout", "prompt_timeout", float, "seconds a new table's prompts wait"),
    ("allowed-origins", "allowed_origins", _origins, "comma-separated Origin allowlist"),
    (
        "allowed-hosts",
        "allowed_hosts",
        _origins,
        "comma-separated Host names allowed (default: the listen address and localhost)",
    ),
    ("max-message-bytes", "max_message_bytes", int, "largest inbound frame (close 1009)"),
    ("outbound-queue", "outbound_queue", int, "messages queued per client (close 1013)"),
    ("heartbeat", "heartbeat", float, "seconds between WebSocket pings"),
    ("join-timeout", "join_timeout", float, "seconds to send a join (close 1008)"),
    ("rate-limit", "rate_limit", float, "message tokens per second per participant"),
    ("rate-burst", "rate_burst", int, "burst allowed above the rate (close 1008)"),
    ("join-rate", "join_rate", float, "WebSocket handshakes per second per address (then 429)"),
    ("join-burst", "join_burst", int, "handshakes at once per address above the rate"),
    ("stall-timeout", "stall_timeout", float, "seconds a send may stall (then abort)"),
    ("snapshot-every", "snapshot_every", int, "snapshot each table every N commands"),
    ("revocation-poll", "revocation_poll", float, "seconds between revoke-token checks (0: never)"),
    ("synchronous", "synchronous", str, "SQLite synchronous: FULL (default), EXTRA, NORMAL"),
    ("crash-at", "crash_at", str, "fault injection for crash tests: POINT[:N]"),
    ("log-format", "log_format", str, "text or json"),
    ("handshake-timeout", "handshake_timeout", float, "seconds to send the HTTP request"),
    ("max-connections", "max_connections", int, "WebSocket connections at once (then 503)"),
    (
        "max-connections-per-token",
        "max_connections_per_token",
        int,
        "connections joined with one join token (0: no cap)",
    ),
    ("events-kept-bytes", "events_kept_bytes", int, "bytes of recent events kept per table"),
    ("ops-token", "ops_token", str, "bearer token /healthz and /metrics require"),
    ("ops-host", "ops_host", str, "address of the operations listener (with --ops-port)"),
    ("ops-port", "ops_port", int, "serve /healthz and /metrics only on this port"),
    ("log-repeat-interval", "log_repeat_interval", float, "seconds between repeated log lines"),
    ("event-loop", "event_loop", str, "asyncio (default), uvloop, or auto: uvloop if installed"),
    ("tls-cert", "tls_cert", Path, "PEM certificate chain: serve https:// and wss://"),
    ("tls-key", "tls_key", Path, "PEM private key of --tls-cert"),
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="vtt-bridge", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the WebSocket server")
    for flag, name, kind, text in SERVE_OPTIONS:
        default = getattr(Config, name, None)
        env = ENV_PREFIX + flag.upper().replace("-", "_")
        serve.add_argument(
            f"--{flag}", type=kind, default=_env(flag, default, kind), help=f"{text} (${env})"
        )
    serve.add_argument(
        "--demo",
        action="store_true",
        default=_env("demo", False, _flag),
        help="create a demo table and print its tokens ($VTT_BRIDGE_DEMO)",
    )
    serve.add_argument(
        "--verify-log",
        action="store_true",
        default=_env("verify_log", False, _flag),
        help="on start-up also replay every log in full and compare ($VTT_BRIDGE_VERIFY_LOG)",
    )

    db_default = _env("db", Config.database, database_arg)
    create = sub.add_parser("create-table", help="create a table and print its join tokens")
    create.add_argument("name")
    create.add_argument("--player", action="append", default=[], help="a player id (repeatable)")
    create.add_argument("--spectators", type=int, default=0)
    create.add_argument("--db", type=database_arg, default=db_default)
    create.add_argument("--prompt-timeout", type=float, default=Config.prompt_timeout)
    create.add_argument(
        "--dice",
        choices=sorted(protocol.DICE_POLICIES),
        default="gm",
        help="server: the server rolls every die; gm: the GM's client may supply rolls; "
        "players: the GM's, and each player's for the tokens it controls",
    )

    archive = sub.add_parser(
        "archive-table", help="archive a table: its join tokens stop working, its log stays"
    )
    archive.add_argument("table", help="table id or name")
    archive.add_argument("--db", type=database_arg, default=db_default)
    for live in (create, archive):
        live.add_argument(
            "--server",
            default=_env("server", None),
            help="the running server's operations address (http://host:port): ask it, "
            "with --ops-token, instead of writing --db ($VTT_BRIDGE_SERVER)",
        )
        live.add_argument(
            "--ops-token",
            default=_env("ops_token", None),
            help="the server's --ops-token, with --server ($VTT_BRIDGE_OPS_TOKEN)",
        )

    issue = sub.add_parser("issue-token", help="issue a join token for a table")
    issue.add_argument("table", help="table id or name")
    issue.add_argument("participant")
    issue.add_argument("--role", choices=sorted(protocol.ISSUABLE_ROLES), default="player")
    issue.add_argument("--db", type=database_arg, default=db_default)

    revoke = sub.add_parser("revoke-token", help="revoke a join token")
    revoke.add_argument("token")
    revoke.add_argument("--db", type=database_arg, default=db_default)

    move = sub.add_parser(
        "migrate", help="copy a SQLite database's tables into PostgreSQL and check them"
    )
    move.add_argument("--db", type=Path, default=Path(Config.database), help="the SQLite file")
    move.add_argument("--to", required=True, help="the postgresql:// URL to copy into")
    rep = sub.add_parser("replay", help="replay recordings and compare what the bridge sends")
    rep.add_argument("files", nargs="+", type=Path)

    save = sub.add_parser("backup", help="copy the database consistently, live or not")
    save.add_argument("dest", type=Path, help="the copy's path (never overwritten)")
    save.add_argument("--db", type=database_arg, default=db_default)

    back = sub.add_parser("restore", help="check a backup and put it in place of the database")
    back.add_argument("source", type=Path, help="the backup to restore")
    back.add_argument("--db", type=database_arg, default=db_default)
    return parser


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and any ``extra`` fields."""

    _plain = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message"}

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in self._plain:
                entry[key] = (
                    value if isinstance(value, (int, float, bool, type(None))) else str(value)
                )
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, separators=(",", ":"))


def setup_logging(log_format: str, repeat_interval: float = Config.log_repeat_interval) -> None:
    """Text logs for people, ``json`` logs (one object a line) for collectors; a failure
    that repeats is logged once per ``repeat_interval`` seconds, with a count."""
    handler = logging.StreamHandler()
    handler.addFilter(RepeatFilter(repeat_interval))
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    try:
        args = build_parser().parse_args(argv)
        config = config_from_args(args) if args.command == "serve" else None
    except ConfigError as exc:
        print(f"ERROR {exc}", file=sys.stderr)
        return 2
    setup_logging(
        getattr(args, "log_format", None) or "text",
        getattr(args, "log_repeat_interval", Config.log_repeat_interval),
    )
    if config is not None:
        return _serve(config)
    if args.command == "create-table":
        return _create_table(args)
    if args.command == "issue-token":
        return _issue_token(args)
    if args.command == "revoke-token":
        return _revoke_token(args)
    if args.command == "archive-table":
        return _archive_table(args)
    if args.command in ("backup", "restore"):
        return _backup_or_restore(args)
    if args.command == "migrate":
        return _migrate(args)
    return _replay(args.files)


def config_from_args(args: argparse.Namespace) -> Config:
    """The server's configuration from parsed ``serve`` arguments; every setting is
    checked against its range (:data:`vtt_bridge.config.BOUNDS`, :class:`ConfigError`)."""
    values = {name: getattr(args, flag.replace("-", "_")) for flag, name, _, _ in SERVE_OPTIONS}
    return Config(demo=args.demo, verify_log=args.verify_log, **values)


#: Allocations between young-generation collections: CPython's default of 700 runs one
#: every few commands; this many keeps them short and rare (``bench.bridge`` measured).
GC_THRESHOLD = (20_000, 20, 20)


async def _settle_heap(app: web.Application) -> None:
    """Once every table is loaded, move that heap out of the collector's way.

    A server's garbage is young: message dicts, events, futures.  The tables loaded at
    start live as long as the process, so ``gc.freeze()`` stops every collection from
    scanning them again, and a higher threshold makes collections rarer."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


#: The event loops ``serve`` runs on (``--event-loop``).
EVENT_LOOPS = ("auto", "uvloop", "asyncio")


def event_loop(kind: str) -> asyncio.AbstractEventLoop:
    """A new event loop for the server: uvloop's when ``kind`` is ``uvloop``, or
    ``auto`` and uvloop is installed (the ``fast`` extra); else asyncio's own.  Raises
    :class:`ValueError` for another ``kind`` and :class:`ImportError` for ``uvloop``
    when it is not installed."""
    if kind not in EVENT_LOOPS:
        raise ValueError(f"unknown event loop {kind!r}; one of {', '.join(EVENT_LOOPS)}")
    if kind != "asyncio":
        try:
            import uvloop
        except ImportError:
            if kind == "uvloop":
                raise
        else:
            # Typed here: without the optional extra installed, mypy sees uvloop as Any.
            fast: asyncio.AbstractEventLoop = uvloop.new_event_loop()
            return fast
    return asyncio.new_event_loop()


def _serve(config: Config) -> int:
    try:
        loop = event_loop(config.event_loop)
    except (ValueError, ImportError) as exc:
        print(f"ERROR --event-loop: {exc}", file=sys.stderr)
        return 2
    try:
        tls = tls_context(config)
    except ConfigError as exc:
        print(f"ERROR {exc}", file=sys.stderr)
        return 2
    # One scheme for every listener: with TLS the ops port speaks https too.
    ws, web_scheme = ("wss", "https") if tls is not None else ("ws", "http")
    ops_sockets = []
    if config.ops_port is not None:
        # Its own listening socket: the app tells the two apart by the local port.
        ops_sockets.append(socket.create_server((config.ops_host, config.ops_port)))
    # Held for the server's life: a restore, or a second server, on this database refuses.
    # (A PostgreSQL database is shared by design: its tables' leases are the guard.)
    if str(config.database) != ":memory:" and not is_postgres_url(config.database):
        try:
            ServerLock(Path(config.database)).acquire()
        except BackupError as exc:
            print(f"ERROR {exc}", file=sys.stderr)
            return 2
    raise_file_limit()  # before create_app, which checks --max-connections against it
    app = create_app(config)

    async def announce(app: web.Application) -> None:
        hub = app[HUB]
        print(
            f"vtt-bridge listening on {ws}://{config.host}:{config.port}/ws "
            f"(log: {config.database})"
        )
        if config.ops_port is not None:
            ops = f"{web_scheme}://{config.ops_host}:{config.ops_port}"
            print(f"operations on {ops}/healthz, /metrics")
        table = hub.table_by_name(DEMO_TABLE) if config.demo else None
        if table is not None:
            if await load_demo_scene(hub, table, config.clock()):
                print(f"demo scene loaded: start combat ({DEMO_RULESET}) from the GM's page")
            print(f"demo table {table.id}:")
            grants = sorted(table.tokens.values(), key=lambda g: (g.role != "gm", g.participant))
            for grant in grants:
                print(f"  {grant.role:9} {grant.participant:12} join token {grant.token}")
            # The table view at /: the token rides in the fragment, never sent to the server.
            print("open the table view in a browser:")
            for grant in grants:
                print(
                    f"  {grant.participant:12} {web_scheme}://{config.host}:{config.port}"
                    f"/#token={grant.token}"
                )
        sys.stdout.flush()

    app.on_startup.append(announce)
    app.on_startup.append(_settle_heap)
    web.run_app(
        app,
        host=config.host,
        port=config.port,
        sock=ops_sockets or None,
        print=None,
        shutdown_timeout=15,
        ssl_context=tls,
        loop=loop,
    )
    return 0


def _create_table(args: argparse.Namespace) -> int:
    if args.server is not None:
        body = {
            "name": args.name,
            "players": args.player,
            "spectators": args.spectators,
            "dice": args.dice,
            "prompt_timeout_ms": round(args.prompt_timeout * 1000),
        }
        answer = ask_server(args.server, args.ops_token, "create_table", body)
        if answer is None:
            return 1
        print(f"table {answer['table']} ({answer['name']}):")
        for grant in answer["tokens"]:
            print(f"  {grant['role']:9} {grant['participant']:12} join token {grant['token']}")
        return 0
    hub = Hub(open_store(args.db))
    try:
        table = hub.create_table(
            args.name,
            args.player,
            spectators=args.spectators,
            prompt_timeout=args.prompt_timeout,
            dice=args.dice,
        )
        print(f"table {table.id} ({table.row.name}):")
        for grant in table.tokens.values():
            print(f"  {grant.role:9} {grant.participant:12} join token {grant.token}")
    finally:
        hub.close()
    return 0


def ask_server(
    server: str, ops_token: str | None, kind: str, body: dict[str, Any]
) -> dict[str, Any] | None:
    """Send the operator request ``kind`` to the running server at ``server`` (its
    operations address); its answer, or None with the refusal said on stderr."""
    request = urllib.request.Request(
        f"{server.rstrip('/')}/admin/{kind}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Bearer {ops_token}"} if ops_token else {})},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as exc:
        try:
            refusal = json.loads(exc.read())
            print(f"ERROR {refusal['code']}: {refusal['message']}", file=sys.stderr)
        except (ValueError, KeyError):
            print(f"ERROR {server} answered HTTP {exc.code}", file=sys.stderr)
    except (urllib.error.URLError, OSError) as exc:
        print(f"ERROR cannot reach {server}: {exc}", file=sys.stderr)
    return None


def _one_table(store: EventStore, name: str) -> TableRow | None:
    """The one live table whose id or name is ``name``; None (said on stderr) otherwise."""
    found = [t for t in store.tables() if name in (t.id, t.name)]
    if len(found) != 1:
        print(f"ERROR no single table is called {name!r}", file=sys.stderr)
        return None
    return found[0]


def _issue_token(args: argparse.Namespace) -> int:
    store = open_store(args.db)
    try:
        table = _one_table(store, args.table)
        if table is None:
            return 1
        if args.participant in RESERVED_PARTICIPANTS:
            print(f"ERROR participant id {args.participant!r} is reserved", file=sys.stderr)
            return 1
        grant = JoinToken(new_join_token(), table.id, args.participant, args.role)
        store.add_token(grant)
        print(f"  {grant.role:9} {grant.participant:12} join token {grant.token}")
    finally:
        store.close()
    return 0


def _revoke_token(args: argparse.Namespace) -> int:
    store = open_store(args.db)
    try:
        grant = store.join_token(args.token)
        if grant is None or grant.revoked or grant.role == "gm":
            print("ERROR no such player or spectator token", file=sys.stderr)
            return 1
        store.revoke_token(grant.token)
        print(f"revoked {grant.role} {grant.participant} of table {grant.table_id}")
    finally:
        store.close()
    return 0


def _archive_table(args: argparse.Namespace) -> int:
    if args.server is not None:
        answer = ask_server(args.server, args.ops_token, "archive_table", {"table": args.table})
        if answer is None:
            return 1
        print(f"archived table {answer['table']} ({answer['name']}): "
              f"{answer['closed']} connections closed")  # fmt: skip
        return 0
    store = open_store(args.db)
    try:
        table = _one_table(store, args.table)
        if table is None:
            return 1
        store.archive_table(table.id)
        print(f"archived table {table.id} ({table.name}): its join tokens are revoked")
    finally:
        store.close()
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from vtt_bridge.migrate import MigrationError, migrate  # psycopg: only for this

    if not is_postgres_url(args.to):
        print(f"ERROR --to must be a postgresql:// URL, got {args.to!r}", file=sys.stderr)
        return 2
    try:
        report = migrate(args.db, args.to)
    except MigrationError as exc:
        print(f"ERROR {exc}", file=sys.stderr)
        return 1
    print(f"migrated {args.db}: {report.describe()}")
    return 0


def _backup_or_restore(args: argparse.Namespace) -> int:
    if is_postgres_url(args.db):
        return _backup_or_restore_pg(args)
    try:
        if args.command == "backup":
            print(backup(args.db, args.dest).describe())
            return 0
        report, kept = restore(args.source, args.db)
    except BackupError as exc:
        print(f"ERROR {exc}", file=sys.stderr)
        return 1
    print(f"restored {args.source} to " + report.describe())
    if kept is not None:
        print(f"the database it replaced is kept at {kept}")
    return 0


def _backup_or_restore_pg(args: argparse.Namespace) -> int:
    from vtt_bridge import backup_pg  # psycopg: only for PostgreSQL

    try:
        if args.command == "backup":
            print(backup_pg.backup(args.db, args.dest).describe())
            return 0
        report = backup_pg.restore(args.source, args.db)
    except BackupError as exc:
        print(f"ERROR {exc}", file=sys.stderr)
        return 1
    print("restored " + report.describe())
    return 0


def _replay(files: list[Path]) -> int:
    failed = 0
    for path in files:
        try:
            result = asyncio.run(replay(path))
        except RecordingError as exc:
            print(f"ERROR {exc}")
            failed += 1
            continue
        if result.ok:
            print(f"ok    {path}: {result.compared} messages identical")
        elif result.other_versions:
            failed += 1
            print(f"VERSION {path}: {result.explain()}")
        else:
            failed += 1
            print(f"DIFF  {path}:")
            print("\n".join(result.diff))
    return 1 if failed else 0
