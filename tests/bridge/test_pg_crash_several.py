"""``bench.crash_several`` on CI: a few SIGKILLs of the owner among two bridges on
PostgreSQL; no acknowledged command lost, none applied twice, no position written twice
(the release run makes 200 kills: ``python -m bench.crash_several``)."""

from __future__ import annotations

from bench.crash_several import main
from bench.pgserver import PostgresServer


async def test_a_few_kills_lose_and_double_nothing(postgres: PostgresServer) -> None:
    # ``postgres``: skipped without PostgreSQL off CI; the bench starts its own server.
    found = await main(["--kills", "3"])
    assert found["acknowledged"] > 0
    assert (found["lost"], found["doubled"], found["logs_with_gaps"]) == (0, 0, 0)
