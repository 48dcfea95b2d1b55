"""A group commit's rows go in as one statement per chunk and read back as written
(in SQLite and in PostgreSQL)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tests.bridge.stores import StoreFactory
from vtt_bridge.store import INSERT_CHUNK, LogRow, TableRow
from vtt_bridge.store_protocol import EventStore


def _store(open_store: StoreFactory, tables: list[str]) -> EventStore:
    store = open_store(synchronous="OFF")
    for table in tables:
        store.create_table(TableRow(table, table, 1, 30.0, 0), [])
    return store


def test_a_batch_longer_than_a_chunk_reads_back_in_order(store_factory: StoreFactory) -> None:
    tables = ["a", "b", "c"]
    store = _store(store_factory, tables)
    count = 2 * INSERT_CHUNK + 7  # three statements, the last a short one
    rows = [
        (
            tables[i % 3],
            LogRow(
                i // 3,
                i // 3,
                {"type": "move", "actor": "p", "path": [[i, 1]]},
                [{"kind": "token_placed", "data": {"at": [i, 1], "cost": i / 2}}],
                {"t": i, "deadlines": {}},
            ),
        )
        for i in range(count)
    ]
    store.append_many(rows)
    for table in tables:
        assert store.log(table) == [row for t, row in rows if t == table]


def test_batches_of_every_size_read_back_in_order(store_factory: StoreFactory) -> None:
    # PostgreSQL cuts a batch into statements of a power of two rows each, prepared
    # once a text has run five times: sizes 1 to 40 and 300 (256 + 32 + 8 + 4), each
    # committed several times, cover every cut and prepared statements' reuse.
    tables = ["a", "b"]
    store = _store(store_factory, tables)
    written: dict[str, list[LogRow]] = {t: [] for t in tables}
    for size in [*range(1, 41), *range(1, 41), 300, 300]:
        rows = []
        for i in range(size):
            table = tables[i % 2]
            at = len(written[table])
            row = LogRow(at, 2 * at, {"type": "move", "n": at}, [{"kind": "k"}], {"ref": at})
            written[table].append(row)
            rows.append((table, row))
        store.append_many(rows)
    for table in tables:
        assert store.log(table) == written[table]


VALUES: list[Any] = [
    {"name": "Ögre — 鬼 🐉", "quote": 'a "b" \\ c\n'},  # non-ASCII and escapes
    {"big": 2**70, "small": -(2**63), "float": 1e16, "tiny": 5e-324, "zero": -0.0},
    {"pair": (1, 2), "nested": [{"x": None, "y": True}]},  # a tuple reads back a list
    {"z": 1, "a": {"y": 2, "b": 3}},
]


@pytest.mark.parametrize("value", VALUES, ids=["unicode", "numbers", "tuple", "order"])
def test_each_column_reads_back_as_json_dumps_wrote_it(
    store_factory: StoreFactory, value: Any
) -> None:
    store = _store(store_factory, ["t"])
    store.append_many([("t", LogRow(0, 0, value, [value], value))])
    (row,) = store.log("t")
    expected = json.loads(json.dumps(value))
    assert row.command == expected and row.events == [expected] and row.meta == expected


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_non_finite_number_refuses_the_whole_batch(
    store_factory: StoreFactory, bad: float
) -> None:
    store = _store(store_factory, ["t"])
    good = LogRow(0, 0, {"type": "move"}, [], {"t": 1})
    worse = LogRow(1, 0, {"type": "move"}, [{"kind": "x", "data": {"cost": bad}}], {"t": 2})
    with pytest.raises(ValueError):
        store.append_many([("t", good), ("t", worse)])
    assert store.log("t") == []
