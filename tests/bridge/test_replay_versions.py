"""A recording says the versions it was recorded under; a replay under others explains."""

from __future__ import annotations

import json
from pathlib import Path

from aiohttp.test_utils import TestServer

from engine.versions import RULES_VERSION
from protocol.versions import WIRE_VERSION
from tests.bridge.test_replay_cli import RECORDINGS, run_replay
from vtt_bridge import Config, create_app
from vtt_bridge.hub import Hub
from vtt_bridge.store import Store


async def test_a_recording_names_the_versions_it_was_recorded_under(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    hub = Hub(Store(db))
    hub.create_table("t", ["alice"])
    hub.close()
    async with TestServer(create_app(Config(database=db, record_dir=tmp_path / "rec"))):
        pass
    (recording,) = (tmp_path / "rec").glob("*.jsonl")
    header = json.loads(recording.read_text().splitlines()[0])
    assert (header["rules_version"], header["wire_version"]) == (RULES_VERSION, WIRE_VERSION)


def test_a_replay_under_other_versions_explains_instead_of_a_whole_diff(tmp_path: Path) -> None:
    hero = next(r for r in RECORDINGS if r.name.startswith("hero_"))  # has attack_rolled
    records = [json.loads(line) for line in hero.read_text().splitlines()]
    records[0]["rules_version"] = 0  # recorded, say, before a rule change
    rolled = next(
        r
        for r in records
        if r.get("message", {}).get("type") == "event"
        and r["message"]["body"]["kind"] == "attack_rolled"
    )
    rolled["message"]["body"]["data"]["total"] += 1  # and the rule change shows here
    older = tmp_path / "older.jsonl"
    older.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = run_replay(older)
    assert result.returncode == 1
    out = result.stdout
    wire = records[0].get("wire_version", 1)
    assert out.startswith(f"VERSION {older}: recorded under rules version 0, wire version {wire}")
    assert f"this release is rules version {RULES_VERSION}" in out
    assert "1 of " in out and "recorded messages differ" in out
    assert "first difference" in out and "attack_rolled" in out
    assert "+++" not in out and "---" not in out  # no diff of every message
