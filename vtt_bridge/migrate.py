"""``vtt-bridge migrate``: move a SQLite database's tables into PostgreSQL, checked.

Every table that is not archived goes over whole, each in one transaction of its own:
its settings, every join token (revoked ones too), the stored answers to admin
messages, every log row as written (the versions it was written under included), and
its newest snapshot.  Then each table is checked: its log read back from PostgreSQL
equals SQLite's row for row, and replaying the whole log from nothing on either gives
the same state hash (:func:`vtt_bridge.loading.full_replay_hash`).  A table already in
PostgreSQL is not copied again, only checked, so a migration cut short is finished by
running it again.  The SQLite file is only read, under the server lock: no server may
be writing to it meanwhile.  Archived tables stay in the SQLite file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from vtt_bridge.backup import BackupError, ServerLock
from vtt_bridge.loading import full_replay_hash
from vtt_bridge.store import Store, TableRow
from vtt_bridge.store_pg import PostgresStore


class MigrationError(Exception):
    """A migration that cannot be done, or a table that did not arrive intact."""


@dataclass
class MigrationReport:
    """What a migration did: tables copied, tables found there already, and each
    table's commands and state hash (the same on both sides)."""

    copied: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    checked: dict[str, tuple[int, str]] = field(default_factory=dict)

    def describe(self) -> str:
        """One line for the command line."""
        commands = sum(n for n, _ in self.checked.values())
        return (
            f"{len(self.checked)} tables checked ({len(self.copied)} copied, "
            f"{len(self.present)} already there), {commands} commands; every table's "
            "log and full-replay state hash match"
        )


def migrate(source: Path, target: str) -> MigrationReport:
    """Copy ``source`` (a SQLite file) into ``target`` (a PostgreSQL URL) and check it."""
    if not source.is_file():
        raise MigrationError(f"no SQLite database at {source}")
    try:
        lock = ServerLock(source)
        lock.acquire()
    except BackupError as exc:
        raise MigrationError(str(exc)) from None
    sqlite = Store(source)
    pg = PostgresStore(target)
    report = MigrationReport()
    try:
        for row in sqlite.tables():
            there = pg.table(row.id)
            if there is None:
                _copy(sqlite, pg, row)
                report.copied.append(row.id)
            elif there != row:
                raise MigrationError(
                    f"table {row.id} ({row.name}) is in PostgreSQL with other settings"
                )
            else:
                report.present.append(row.id)
            report.checked[row.id] = _check(sqlite, pg, row)
    finally:
        pg.close()
        sqlite.close()
        lock.release()
    return report


def _copy(sqlite: Store, pg: PostgresStore, row: TableRow) -> None:
    pg.import_table(
        row,
        sqlite.join_tokens(row.id),
        sqlite.admin_replies(row.id),
        sqlite.log(row.id),
        sqlite.latest_snapshot(row.id),
    )


def _check(sqlite: Store, pg: PostgresStore, row: TableRow) -> tuple[int, str]:
    """The table's command count and state hash, the same on both sides, or raise."""
    where = f"table {row.id} ({row.name})"
    if pg.log(row.id) != sqlite.log(row.id):
        raise MigrationError(f"{where}: the log in PostgreSQL differs from SQLite's")
    if pg.join_tokens(row.id) != sqlite.join_tokens(row.id):
        raise MigrationError(f"{where}: the join tokens differ")
    if pg.latest_snapshot(row.id) != sqlite.latest_snapshot(row.id):
        raise MigrationError(f"{where}: the snapshot differs")
    want, got = full_replay_hash(sqlite, row.id), full_replay_hash(pg, row.id)
    if want != got:
        raise MigrationError(f"{where}: replayed, SQLite gives {want}, PostgreSQL {got}")
    return sqlite.positions(row.id), got
