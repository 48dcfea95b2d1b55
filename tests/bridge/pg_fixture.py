"""Pytest fixtures for a real PostgreSQL: one server per test session, a database per test.

A test module that needs it imports the fixtures
(``from tests.bridge.pg_fixture import pg_dsn, postgres  # noqa: F401``); the server
starts on first use only, so a run of SQLite tests never pays for it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.pgserver import PostgresServer, missing_reason, on_ci


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (skipped without one, failed on CI)."""
    reason = missing_reason()
    if reason is not None:
        if on_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_dsn(postgres: PostgresServer) -> str:
    """The URL of a fresh, empty database of its own for one test."""
    return postgres.new_database()
