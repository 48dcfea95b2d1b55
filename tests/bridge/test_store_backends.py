"""Every call of the event log's interface answers the same in SQLite and in PostgreSQL."""

from __future__ import annotations

import pytest

from tests.bridge.stores import StoreFactory
from vtt_bridge.store import (
    AdminReply,
    JoinToken,
    LogRow,
    Snapshot,
    StoredAck,
    TableRow,
    VersionRun,
)
from vtt_bridge.store_protocol import EventStore

TABLE = TableRow("t1", "Keep", 2**62 + 5, 30.0, 1_000, "server")


def _row(position: int, first: int, events: int, **meta: object) -> LogRow:
    return LogRow(
        position,
        first,
        {"type": "end_turn", "n": position},
        [{"kind": "turn", "data": {"i": first + i}} for i in range(events)],
        {"t": position, "deadlines": {}, **meta},
    )


def _with_table(open_store: StoreFactory) -> EventStore:
    store = open_store()
    store.create_table(
        TABLE,
        [JoinToken("gm-tok", "t1", "gm", "gm"), JoinToken("p-tok", "t1", "p1", "player")],
    )
    return store


def test_tables_and_tokens_read_back_and_archive(store_factory: StoreFactory) -> None:
    store = _with_table(store_factory)
    store.create_table(TableRow("t0", "Older", 1, 10.0, 500), [])
    assert [t.id for t in store.tables()] == ["t0", "t1"]  # oldest first
    assert store.table("t1") == TABLE
    assert store.table("nope") is None
    store.add_token(JoinToken("s-tok", "t1", "spectator-1", "spectator"))
    assert [t.token for t in store.join_tokens("t1")] == ["gm-tok", "p-tok", "s-tok"]
    store.revoke_token("p-tok")
    assert store.join_token("p-tok") == JoinToken("p-tok", "t1", "p1", "player", True)
    assert store.revoked_tokens() == ["p-tok"]
    store.archive_table("t1")
    assert store.table("t1") is None and [t.id for t in store.tables()] == ["t0"]
    assert sorted(store.revoked_tokens()) == ["gm-tok", "p-tok", "s-tok"]


def test_a_revocation_by_another_connection_moves_the_data_version(
    store_factory: StoreFactory,
) -> None:
    store = _with_table(store_factory)
    before = store.data_version()
    assert store.data_version() == before  # nothing happened: it stays
    other = store_factory()
    other.revoke_token("p-tok")
    assert store.data_version() != before
    assert store.revoked_tokens() == ["p-tok"]


def test_an_admin_reply_stored_again_replaces_the_first_and_goes_last(
    store_factory: StoreFactory,
) -> None:
    store = _with_table(store_factory)
    first = AdminReply("t1", "gm", "gm/vtt", 1, "d1", ["ack", None, None])
    second = AdminReply("t1", "gm", "gm/vtt", 2, "d2", ["ack", None, None])
    again = AdminReply("t1", "gm", "gm/vtt", 1, "d3", ["error", "x", "y", None])
    store.add_token(JoinToken("n1", "t1", "p2", "player"), first)
    store.revoke_token("n1", second)
    store.append_many([], replies=[again])
    assert store.admin_replies("t1") == [second, again]


def test_settings_change_with_a_group_commit(store_factory: StoreFactory) -> None:
    store = _with_table(store_factory)
    changed = TableRow("t1", "Keep", TABLE.seed, 5.0, 1_000, "gm")
    store.append_many([("t1", _row(0, 0, 1))], settings=[changed])
    assert store.table("t1") == changed


def test_a_position_taken_refuses_the_whole_batch(store_factory: StoreFactory) -> None:
    store = _with_table(store_factory)
    store.append("t1", _row(0, 0, 2))
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        store.append_many([("t1", _row(1, 2, 1)), ("t1", _row(0, 3, 1))])
    assert store.positions("t1") == 1
    assert store.log("t1") == [_row(0, 0, 2)]


def test_snapshots_replace_older_ones(store_factory: StoreFactory) -> None:
    store = _with_table(store_factory)
    assert store.latest_snapshot("t1") is None
    store.append_many([("t1", _row(i, i, 1)) for i in range(4)])
    store.write_snapshot("t1", Snapshot(2, 2, {"a": 1}, "h2", {"p": 9}))
    newer = Snapshot(4, 4, {"a": [1.5, None]}, "h4", None, 3)
    store.append_many([], snapshots=[("t1", newer)])
    assert store.latest_snapshot("t1") == newer
    assert store.log("t1", since=3) == [_row(3, 3, 1)]


def test_retransmission_lookups(store_factory: StoreFactory) -> None:
    store = _with_table(store_factory)
    store.append_many(
        [
            ("t1", _row(0, 0, 2, client="p1/vtt", ref=7, participant="p1", digest="a")),
            ("t1", _row(1, 2, 3, client="p1/vtt", ref=9, participant="p1", digest="b")),
            ("t1", _row(2, 5, 1, client="p1/vtt", ref=7, participant="p1", digest="c")),
            ("t1", _row(3, 6, 1, client="old/vtt", ref=4)),  # an old log: no participant
        ]
    )
    assert store.find_ack("t1", "p1/vtt", 7) == StoredAck(2, 5, 1, "p1", "c")  # the newest
    assert store.find_ack("t1", "old/vtt", 4) == StoredAck(3, 6, 1, "old", None)
    assert store.find_ack("t1", "p1/vtt", 8) is None
    assert store.highest_ref("t1", "p1/vtt") == 9
    assert store.highest_ref("t1", "nobody/vtt") is None


def test_versions_events_and_deadlines(store_factory: StoreFactory) -> None:
    store = _with_table(store_factory)
    rows = [_row(i, 2 * i, 2) for i in range(5)]
    rows[1] = LogRow(1, 2, rows[1].command, rows[1].events, {"deadlines": {"q": 50}}, 2, 7)
    rows[3] = LogRow(3, 6, rows[3].command, rows[3].events, {"deadlines": {"q": 90, "r": 1}})
    store.append_many([("t1", r) for r in rows])
    last = rows[0].rules_version, rows[0].wire_version
    assert store.versions("t1") == [
        VersionRun(0, 0, *last),
        VersionRun(1, 1, 2, 7),
        VersionRun(2, 4, *last),
    ]
    events = store.events_between("t1", 5, 9)
    assert [e["data"]["i"] for e in events] == [5, 6, 7, 8]
    assert store.deadlines_before("t1", {"q", "r"}, 5) == {"q": 90, "r": 1}
    assert store.deadlines_before("t1", {"q"}, 3) == {"q": 50}
    assert store.deadlines_before("t1", {"z"}, 5) == {}
