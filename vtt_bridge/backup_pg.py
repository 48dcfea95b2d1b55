"""``vtt-bridge backup`` and ``restore`` of a PostgreSQL event log, with PostgreSQL's own
tools: ``pg_dump`` and ``pg_restore`` (Debian's ``postgresql-client``).

``backup`` opens a ``REPEATABLE READ`` transaction, exports its snapshot and has
``pg_dump --snapshot`` dump exactly that (custom format), so the dump is the database
as of one commit, with every acknowledged command up to it and nothing half-written,
while the bridge processes go on committing; the tables and their log lengths reported
are read in the same snapshot.  The processes' registrations (``bridges``) are left
out: in a restored database no process is live until one starts, so every table is
claimed afresh (``owners`` stays, so epochs only grow).  The dump is written beside
``DEST`` and renamed into place once ``pg_restore --list`` reads it back; a backup
never overwrites a file.

``restore`` refuses while a bridge process is live on the database (its heartbeat
younger than its lease, on the database's clock): a restore under running processes
would be mixed with their commits.  The dump must read back (``pg_restore --list``);
then it replaces the bridge's tables in one transaction (``--clean --single-transaction``:
whole, or not at all), and every table is loaded as a process loads it and its whole
log replayed from nothing, the two state hashes compared, as a SQLite restore checks.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import psycopg

from vtt_bridge.backup import BackupError, CopyReport, TableCheck
from vtt_bridge.loading import load, verify
from vtt_bridge.store_pg import PostgresStore
from vtt_bridge.store_pg_leases import LIVE
from vtt_bridge.tables import EventLog, Table

#: What the report says was checked of a dump.
READS_BACK = "pg_restore reads it back"


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: install PostgreSQL's client tools "
            "(apt-get install postgresql-client), of the server's version or newer"
        )
    return found


def _run(args: list[str], what: str) -> str:
    done = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise BackupError(f"{what} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout


def backup(url: str, dest: Path) -> CopyReport:
    """Dump the database at ``url`` (live or not) to ``dest`` as of one commit."""
    if dest.exists():
        raise BackupError(f"{dest} exists: a backup never overwrites a file; name another")
    pg_dump, pg_restore = _tool("pg_dump"), _tool("pg_restore")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    started = time.monotonic()
    try:
        db = psycopg.connect(url)
    except psycopg.Error as exc:
        raise BackupError(f"cannot reach the database: {exc}") from None
    try:
        with db.transaction():
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            row = db.execute("SELECT pg_export_snapshot()").fetchone()
            assert row is not None
            listed = _listed(db)
            # The transaction stays open while pg_dump reads its snapshot.
            _run(
                [pg_dump, "--format=custom", "--no-owner", f"--snapshot={row[0]}",
                 "--exclude-table-data=bridges", f"--file={partial}", f"--dbname={url}"],
                "pg_dump",
            )  # fmt: skip
    finally:
        db.close()
    try:
        _run([pg_restore, "--list", str(partial)], "reading the dump back")
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(dest)
    seconds = time.monotonic() - started
    return CopyReport(dest, dest.stat().st_size, seconds, listed, READS_BACK)


def _listed(db: psycopg.Connection[tuple[object, ...]]) -> tuple[TableCheck, ...]:
    rows = db.execute(
        "SELECT t.id, t.name, coalesce(max(l.position) + 1, 0) FROM tables t "
        "LEFT JOIN log l ON l.table_id = t.id WHERE NOT t.archived "
        "GROUP BY t.id ORDER BY t.name, t.id"
    ).fetchall()
    return tuple(TableCheck(str(i), str(n), int(str(p)), "", False) for i, n, p in rows)


def live_bridges(url: str) -> int:
    """How many bridge processes are live on the database at ``url`` now."""
    with psycopg.connect(url) as db:
        row = db.execute("SELECT to_regclass('bridges') IS NOT NULL").fetchone()
        if row is None or not row[0]:
            return 0
        (count,) = db.execute(f"SELECT count(*) FROM bridges b WHERE {LIVE}").fetchone() or (0,)
        return int(count)


def restore(source: Path, url: str) -> CopyReport:
    """Put the dump ``source`` in place of the bridge's tables at ``url``, then check
    every table (see the module).  Refuses while a process serves from the database."""
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    pg_restore = _tool("pg_restore")
    try:
        serving = live_bridges(url)
    except psycopg.Error as exc:
        raise BackupError(f"cannot reach the database: {exc}") from None
    if serving:
        raise BackupError(
            f"{serving} bridge process(es) serve from this database: stop them first "
            "(a restore under them would be mixed with their commits)"
        )
    started = time.monotonic()
    _run([pg_restore, "--list", str(source)], f"reading {source}")
    _run(
        [pg_restore, "--clean", "--if-exists", "--single-transaction", "--no-owner",
         f"--dbname={url}", str(source)],
        "pg_restore (nothing was changed)",
    )  # fmt: skip
    checked = check(url)
    return CopyReport(source, source.stat().st_size, time.monotonic() - started, checked)


def check(url: str) -> tuple[TableCheck, ...]:
    """Every table not archived, loaded as a process loads it (snapshot and tail) and its
    whole log replayed from nothing; raises :class:`BackupError` naming the tables where
    a log written under today's versions disagrees with its loaded state."""
    store = PostgresStore(url)  # a tool's store: it claims nothing
    try:
        found = []
        for row in store.tables():
            tokens = {t.token: t for t in store.join_tokens(row.id)}
            table = Table(row=row, tokens=tokens, events=EventLog())
            load(table, store, lambda *deadline: None)
            verified = verify(store, table)
            same = verified.full_hash == verified.loaded_hash and not verified.divergences
            found.append(
                TableCheck(
                    row.id,
                    row.name,
                    store.positions(row.id),
                    verified.loaded_hash,
                    same,
                    verified.current,
                )
            )
    finally:
        store.close()
    wrong = [t for t in found if t.current and not t.replayed]
    if wrong:
        names = ", ".join(f"{t.table} ({t.name})" for t in wrong)
        raise BackupError(
            f"restored, but replaying the whole log disagrees with the state for {names}"
        )
    return tuple(found)
