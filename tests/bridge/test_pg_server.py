"""The tests' PostgreSQL: started by the tests, as a non-root user, with durable commits."""

from __future__ import annotations

from pathlib import Path

import psycopg

from bench.pgserver import PostgresServer


def test_the_server_commits_durably_and_not_as_root(postgres: PostgresServer) -> None:
    with psycopg.connect(postgres.dsn()) as conn:
        settings = {
            name: conn.execute(f"SHOW {name}").fetchone()
            for name in ("fsync", "synchronous_commit", "unix_socket_directories")
        }
        assert settings["fsync"] == ("on",) and settings["synchronous_commit"] == ("on",)
        assert settings["unix_socket_directories"] == (str(postgres.folder),)
        assert (postgres.folder / f".s.PGSQL.{postgres.port}").is_socket()
        # The server process is not root's (PostgreSQL refuses root; the tests may be root).
        pid = int((postgres.data / "postmaster.pid").read_text().split()[0])
        assert (postgres.data / "postmaster.pid").stat().st_uid != 0
        assert "Uid:\t0\t" not in Path(f"/proc/{pid}/status").read_text()


def test_each_test_gets_an_empty_database_of_its_own(pg_dsn: str) -> None:
    with psycopg.connect(pg_dsn) as conn:
        tables = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
        assert tables == (0,)
