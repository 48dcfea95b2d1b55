"""Both event-log backends behind one fixture, so a store test runs against each.

``store_factory`` opens a store of the parametrised kind (``sqlite``: a file in the
test's folder; ``postgresql``: a fresh database on the session's server); every store it
opened is closed after the test.  ``postgresql`` is skipped without PostgreSQL off CI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from vtt_bridge.store_open import open_store
from vtt_bridge.store_protocol import EventStore

StoreFactory = Callable[..., EventStore]


@pytest.fixture(params=["sqlite", "postgresql"])
def store_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    """Opens stores on one database of the parametrised kind (each call a new store
    on the same database; keyword arguments go to ``open_store``)."""
    if request.param == "postgresql":
        database: Path | str = request.getfixturevalue("postgres").new_database()
    else:
        database = tmp_path / "db.sqlite3"
    opened: list[EventStore] = []

    def factory(**options: object) -> EventStore:
        store = open_store(database, **options)  # type: ignore[arg-type]
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()
