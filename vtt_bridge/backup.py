"""Backing up a live database and restoring a checked copy.

``vtt-bridge backup DEST`` copies the log while a server keeps committing to it: SQLite's
online backup (``sqlite3.Connection.backup``) in one step reads the whole database inside
one read transaction, so the copy is the database as of one commit, with every
acknowledged command up to that commit and nothing half-written. (WAL mode lets the
server's writer go on meanwhile: readers never block it.) The copy is then checked with
``PRAGMA integrity_check`` before the command says it is done.

``vtt-bridge restore SRC`` never takes a copy on trust. It copies SRC next to the
database, checks the copy (SQLite's ``integrity_check``, then every table loaded as the
server loads it and its whole log replayed from nothing, the two state hashes compared),
and only then moves it into place, keeping the database it replaces beside it. It
refuses while a server holds the database (:class:`ServerLock`): a restore under a
running server would be overwritten by its next commit, or worse, mixed with it.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from vtt_bridge.hub import Hub
from vtt_bridge.loading import StartupError
from vtt_bridge.store import Store

#: The files SQLite keeps beside a database in WAL mode.
SIDE_FILES = ("-wal", "-shm")


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


class ServerLock:
    """An exclusive advisory lock on ``<database>.lock``, held by a serving process for
    its whole life, so a restore (or a second server) on the same database can tell that
    a server is using it. The kernel drops the lock when the process dies, however it
    dies, so a crashed server never leaves a stale lock behind."""

    def __init__(self, database: Path) -> None:
        """A lock for ``database`` (not yet taken)."""
        self.path = database.with_name(database.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`BackupError` naming the holder's pid."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise BackupError(
                f"a server (pid {holder}) is using {self.path.name[:-5]}: stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        """Drop the lock (closing the file drops it)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ServerLock:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


@dataclass(frozen=True)
class TableCheck:
    """One table of a checked copy: its log's length and whether replaying the whole log
    from nothing reaches the state a server would load. A log written under older rules
    or wire versions may replay differently under today's (the server carries such a
    table forward from its snapshot, :mod:`vtt_bridge.loading`), so for it ``current``
    is false and the replay is reported, not required."""

    table: str
    name: str
    positions: int
    state_hash: str
    replayed: bool
    current: bool = True


@dataclass(frozen=True)
class CopyReport:
    """What a backup wrote, or what a restore checked."""

    path: Path
    bytes: int
    seconds: float
    tables: tuple[TableCheck, ...]
    #: What was checked of the file itself (a PostgreSQL dump: that it reads back).
    checked: str = "integrity ok"

    def describe(self) -> str:
        """Lines for a person: the file, its size, each table."""
        lines = [f"{self.path}: {self.bytes:,} bytes in {self.seconds:.2f} s, {self.checked}"]
        for t in self.tables:
            replayed = (
                f", replays to its state {t.state_hash[:12]}"
                if t.replayed
                else (", written under older versions: carried forward" if not t.current else "")
            )
            lines.append(f"  table {t.table} ({t.name}): {t.positions} logged commands{replayed}")
        return "\n".join(lines)


def backup(database: Path, dest: Path) -> CopyReport:
    """Copy ``database`` (live or not) to ``dest`` consistently, then check the copy.

    Refuses a ``dest`` that exists (a backup never overwrites one) and a ``database``
    that does not."""
    if not database.exists():
        raise BackupError(f"no database at {database}")
    if dest.exists():
        raise BackupError(f"{dest} exists: a backup never overwrites a file; name another")
    dest.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    target = sqlite3.connect(partial)
    try:
        # pages=-1: the whole database in one step, inside one read transaction, so the
        # copy is one commit's state however busy the writer is.
        source.backup(target, pages=-1)
        verdict = target.execute("PRAGMA integrity_check").fetchone()[0]
        # The copy is one self-contained file (no WAL beside it) whatever the source's
        # journal mode; a server opening it turns WAL back on.
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
        source.close()
    if verdict != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"the copy failed SQLite's integrity check: {verdict}")
    os.replace(partial, dest)
    return CopyReport(dest, dest.stat().st_size, time.monotonic() - started, _listed(dest))


def check(copy: Path) -> tuple[TableCheck, ...]:
    """Check a database file as a restore does: SQLite's integrity check, then every
    table loaded as a server loads it and its whole log replayed from nothing, the two
    state hashes compared. Raises :class:`BackupError` on the first failure. The check
    opens the file as a server would, so it may bring an older file's schema up to date
    and carry old tables forward: run it on a copy (``restore`` does)."""
    db = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{copy} is not a vtt-bridge database: {exc}") from None
    finally:
        db.close()
    if verdict != "ok":
        raise BackupError(f"{copy} failed SQLite's integrity check: {verdict}")
    checked = _replayed(copy)
    wrong = [t for t in checked if t.current and not t.replayed]
    if wrong:
        names = ", ".join(f"{t.table} ({t.name})" for t in wrong)
        raise BackupError(f"{copy}: replaying the whole log disagrees with the state for {names}")
    return checked


def restore(source: Path, database: Path) -> tuple[CopyReport, Path | None]:
    """Check a copy of ``source`` and put it in place of ``database``.

    Returns the report and where the replaced database was kept (``None`` when there was
    none). Refuses while a server holds ``database``; changes nothing when the copy
    fails its checks."""
    if not source.exists():
        raise BackupError(f"no backup at {source}")
    started = time.monotonic()
    with ServerLock(database):
        staged = database.with_name(database.name + ".restoring")
        database.parent.mkdir(parents=True, exist_ok=True)
        try:
            tables = _stage(source, staged)
        except BackupError:
            _remove(staged)  # a refused restore leaves nothing behind
            raise
        kept = None
        if database.exists():
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            kept = database.with_name(f"{database.name}.replaced-{stamp}")
            os.replace(database, kept)
            for side in SIDE_FILES:
                if Path(f"{database}{side}").exists():
                    os.replace(f"{database}{side}", f"{kept}{side}")
        os.replace(staged, database)
    report = CopyReport(database, database.stat().st_size, time.monotonic() - started, tables)
    return report, kept


def _stage(source: Path, staged: Path) -> tuple[TableCheck, ...]:
    """Copy ``source`` to ``staged`` (one self-contained file) and check the copy."""
    _remove(staged)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(staged)
    try:
        src.backup(dst, pages=-1)
        dst.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source} is not a database SQLite can read: {exc}") from None
    finally:
        dst.close()
        src.close()
    return check(staged)


def _remove(path: Path) -> None:
    """Delete a database file and the files SQLite keeps beside it."""
    for each in (path, *(Path(f"{path}{side}") for side in SIDE_FILES)):
        each.unlink(missing_ok=True)


def _listed(path: Path) -> tuple[TableCheck, ...]:
    """Every table of the database at ``path`` and its log's length, read only (a
    backup's report; nothing is replayed, nothing written)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT t.id, t.name, coalesce(max(l.position) + 1, 0) FROM tables t "
            "LEFT JOIN log l ON l.table_id = t.id GROUP BY t.id ORDER BY t.name, t.id"
        ).fetchall()
    finally:
        db.close()
    return tuple(TableCheck(id, name, positions, "", False) for id, name, positions in rows)


def _replayed(path: Path) -> tuple[TableCheck, ...]:
    """Every table of the database at ``path``, loaded as a server loads it (snapshot and
    tail) and its whole log replayed from nothing (``--verify-log``'s check)."""
    try:
        hub = Hub(Store(path), verify_log=True)
    except StartupError as exc:
        raise BackupError(f"{path}: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a vtt-bridge database: {exc}") from None
    try:
        found = []
        for row in hub.store.tables():
            verified = hub.verified[row.id]
            found.append(
                TableCheck(
                    row.id,
                    row.name,
                    hub.store.positions(row.id),
                    verified.loaded_hash,
                    verified.full_hash == verified.loaded_hash,
                    verified.current,
                )
            )
        return tuple(found)
    finally:
        hub.close()
