"""SIGKILL under load, at random moments and at the named points; nothing acknowledged is lost.

The short version of ``python -m bench.crash`` (which a release runs: 200 random kills
and every named point five times).  See ``bench/crash.py`` for what each round checks.
"""

from __future__ import annotations

from pathlib import Path

from bench.crash import NAMED_POINTS, run


async def test_kills_at_random_and_named_points(tmp_path: Path) -> None:
    report = await run(random_kills=3, named_each=1, seed=5, workdir=tmp_path)
    assert report["rounds"] == 3 + len(NAMED_POINTS)
    assert report["kills"]["random"] == 3
    for point in NAMED_POINTS:  # each named point was reached (the server killed itself)
        assert report["kills"].get(point) == 1, report["kills"]
    assert report["last_check"]["acked"] > 0
