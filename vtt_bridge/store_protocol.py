"""What the bridge asks of its event log, whichever database holds it.

:class:`EventStore` is the interface the hub, the committer and start-up's loading
use; :class:`vtt_bridge.store.Store` (one SQLite file, the default) and
:class:`vtt_bridge.store_pg.PostgresStore` (a PostgreSQL database several bridge
processes share) both provide it, with the same guarantee: a call that returns has
committed, durably, and a failed one changed nothing.  Every call blocks; the bridge
makes them on its database thread (:meth:`vtt_bridge.committer.Committer.in_db`), and
commits on :attr:`EventStore.commit_lanes` threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from vtt_bridge.store import (
    AdminReply,
    JoinToken,
    LogRow,
    Snapshot,
    StoredAck,
    TableRow,
    VersionRun,
)


class Fenced(Exception):
    """A commit refused, writing nothing: this process no longer owns one of the tables
    it writes (a shared store's; another process has claimed them since)."""

    def __init__(self, table_ids: list[str]) -> None:
        """``table_ids``: the tables lost."""
        super().__init__(f"this process no longer owns table(s) {', '.join(table_ids)}")
        self.table_ids = table_ids


class EventStore(Protocol):
    """Tables, join tokens, admin answers, snapshots and the log of accepted commands.

    The methods' meanings are :class:`vtt_bridge.store.Store`'s, which documents each."""

    #: Whether several processes share the database (PostgreSQL): then a table loads
    #: when this process claims it, not at start-up.
    shared: bool
    #: How many threads the committer may commit on at once, a connection each (one
    #: table's commits always on the same one, in order).
    commit_lanes: int

    def close(self) -> None:
        """Close the database (pending work is already committed)."""

    def create_table(self, row: TableRow, tokens: list[JoinToken]) -> None:
        """Store a new table and its join tokens in one transaction."""

    def add_token(self, token: JoinToken, reply: AdminReply | None = None) -> None:
        """Store one more join token (and the answer to the message that issued it)."""

    def revoke_token(self, token: str, reply: AdminReply | None = None) -> None:
        """Mark a join token revoked (and store the answer to the message that did)."""

    def admin_replies(self, table_id: str) -> list[AdminReply]:
        """The stored answers to a table's admin messages, oldest first."""

    def tables(self) -> list[TableRow]:
        """Every table not archived, oldest first."""

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, unless there is none or it is archived."""

    def any_table(self, table_id: str) -> tuple[TableRow, bool] | None:
        """The table ``table_id`` archived or not, and whether it is archived; None if
        there is none."""

    def archive_table(self, table_id: str) -> None:
        """Archive a table and revoke every join token of it."""

    def join_tokens(self, table_id: str) -> list[JoinToken]:
        """The join tokens of one table, revoked ones included."""

    def join_token(self, token: str) -> JoinToken | None:
        """One join token, if any table has it."""

    def revoked_tokens(self) -> list[str]:
        """Every revoked join token."""

    def data_version(self) -> int:
        """A number that changes when tokens or tables may have changed elsewhere."""

    def append(self, table_id: str, row: LogRow) -> None:
        """Commit one accepted command; raises if ``position`` is not the next one."""

    def append_many(
        self,
        rows: list[tuple[str, LogRow]],
        snapshots: Sequence[tuple[str, Snapshot]] = (),
        settings: Sequence[TableRow] = (),
        replies: Sequence[AdminReply] = (),
    ) -> float:
        """Commit a group of commands, snapshots, settings and admin answers at once;
        returns the milliseconds the transaction took."""

    def write_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        """Store a snapshot; older ones of the table are dropped in the same transaction."""

    def latest_snapshot(self, table_id: str) -> Snapshot | None:
        """The newest snapshot of a table, if it has one."""

    def log(self, table_id: str, since: int = 0) -> list[LogRow]:
        """The accepted commands of a table from position ``since`` on, in order."""

    def positions(self, table_id: str) -> int:
        """How many commands a table's log holds (its next position)."""

    def deadlines_before(self, table_id: str, prompts: set[str], position: int) -> dict[str, int]:
        """The deadlines the log gave ``prompts`` when they opened, before ``position``."""

    def highest_ref(self, table_id: str, client: str) -> int | None:
        """The highest seq ``client`` has acknowledged commands under at the table."""

    def find_ack(self, table_id: str, client: str, ref: int) -> StoredAck | None:
        """The newest logged command ``client`` sent with seq ``ref``, if any."""

    def versions(self, table_id: str) -> list[VersionRun]:
        """Which positions of a table's log were written under which versions."""

    def events_between(self, table_id: str, start: int, end: int) -> list[dict[str, Any]]:
        """The events with index ``start`` <= i < ``end`` of a table, upgraded."""
