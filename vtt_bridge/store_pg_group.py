"""A group commit of log rows alone in one PostgreSQL statement: fence, insert, commit.

Most groups are rows and nothing else (no snapshot, no settings, no admin answer).
Such a group is one statement sent on the connection's autocommit, so it is its own
transaction and costs one round trip to the server: it locks the ``owners`` rows of the
tables it writes (in the tables' order, as :func:`~vtt_bridge.store_pg_leases.fence`
does), inserts the rows only if every one of those tables is still this process's
under the epoch it holds (all or nothing), and returns the locked rows with how many
rows it inserted.  The caller then checks the locked rows with
:func:`~vtt_bridge.store_pg_leases.check_owners`, the same rule the statement applied,
so a lost table is said as :class:`~vtt_bridge.store_protocol.Fenced` and nothing of
the group was written.  The explicit transaction it replaces (``BEGIN``, the lock, the
rows, ``COMMIT``) cost this process three to four times the CPU of one statement, and
the server twice, most of it for a group of one command, the usual group at human pace.

The rows are a ``VALUES`` list of PostgreSQL's ``$n`` placeholders, padded with rows of
nulls (skipped) to a power of two: nine statement texts in all, each prepared by the
server once psycopg has run it five times.
"""

from __future__ import annotations

import functools
from typing import Any

import psycopg

from vtt_bridge.store_pg_leases import LIVE, check_owners
from vtt_bridge.store_protocol import Fenced

#: The most rows one statement carries (a larger group takes the transaction).
MOST_ROWS = 256
#: The log's columns in the order a row's values are given.
LOG_COLUMNS = (
    "table_id, position, first_event, command, events, meta, rules_version, wire_version, "
    "client, ref, participant, digest, event_count, epoch"
)
_TYPES = (
    "text", "bigint", "bigint", "text", "text", "text", "integer", "integer",
    "text", "bigint", "text", "text", "integer", "bigint",
)  # fmt: skip
#: Parameters before the rows: the tables, the epochs held for them, this process.
_LEADING = 3


def padded(rows: int) -> int:
    """The rows the statement for a group of ``rows`` carries (a power of two)."""
    return 1 << max(0, rows - 1).bit_length()


@functools.cache
def statement(rows: int) -> str:
    """The statement for ``rows`` rows (a power of two): ``$1`` the tables written
    (sorted, each once), ``$2`` the epochs this process holds them under (null for one
    it holds none of), ``$3`` this process (null for a tool's store, which may write
    only tables no live process owns), then each row's values."""
    width = len(_TYPES)
    values = ", ".join(
        "(" + ", ".join(f"${_LEADING + 1 + width * r + c}::{t}" for c, t in enumerate(_TYPES)) + ")"
        for r in range(rows)
    )
    # The owners rows are locked first: the insert's condition is an uncorrelated
    # subquery, worked out once before its first row goes in, and it reads them all.
    return (
        "WITH o AS MATERIALIZED (SELECT o.table_id, o.owner, o.epoch, "
        f"coalesce({LIVE}, false) AS live FROM owners o LEFT JOIN bridges b ON b.id = o.owner "
        "WHERE o.table_id = ANY($1::text[]) ORDER BY o.table_id FOR UPDATE OF o), "
        f"ins AS (INSERT INTO log ({LOG_COLUMNS}) SELECT * FROM (VALUES {values}) "
        f"AS v ({LOG_COLUMNS}) "
        "WHERE v.table_id IS NOT NULL AND CASE WHEN $3::text IS NULL "
        "THEN NOT EXISTS (SELECT 1 FROM o WHERE o.live) "
        "ELSE (SELECT count(*) FROM o WHERE o.owner = $3::text "
        "AND o.epoch = ($2::bigint[])[array_position($1::text[], o.table_id)]) "
        "= cardinality($1::text[]) END RETURNING 1) "
        "SELECT (SELECT count(*) FROM ins), o.table_id, o.owner, o.epoch, o.live "
        "FROM (SELECT 1) AS one LEFT JOIN o ON true"
    )


def commit_rows(
    db: psycopg.Connection[tuple[Any, ...]],
    bridge: str | None,
    epochs: dict[str, int],
    values: list[tuple[Any, ...]],
) -> None:
    """Commit the log rows ``values`` (each :data:`LOG_COLUMNS`' values, at most
    :data:`MOST_ROWS`) in one statement on ``db`` (in autocommit); raises
    :class:`Fenced`, having written nothing, unless this process (``bridge``) still owns
    every table written under the epoch it holds (``epochs``)."""
    assert 0 < len(values) <= MOST_ROWS and db.autocommit
    wanted = sorted({str(v[0]) for v in values})
    rows = padded(len(values))
    params: list[Any] = [wanted, [epochs.get(t) for t in wanted], bridge]
    for row in values:
        params.extend(row)
    params.extend([None] * (len(_TYPES) * (rows - len(values))))
    with psycopg.RawCursor(db) as cur:
        cur.execute(statement(rows), params)
        found = cur.fetchall()
    inserted = int(found[0][0])
    try:
        check_owners([r[1:] for r in found if r[1] is not None], bridge, epochs, wanted)
    except Fenced:
        if inserted:  # the statement's rule and check_owners' must agree
            raise RuntimeError(f"{inserted} rows written for lost tables") from None
        raise
    if inserted != len(values):
        raise RuntimeError(f"{inserted} of {len(values)} log rows written")
