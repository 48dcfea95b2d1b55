"""Upgrading never strands a table: a database written by an older release starts here.

``tests/fixtures/db_v1.sqlite3`` was written by the release at commit 84cb153 (rules
version 1, wire version 1; ``tests/fixtures/make_db_v1.py``): a whole Hero fight with
snapshots and commands after the last one, a table waiting on an open prompt, one with
only a scene, an empty one.  ``db_v1.json`` is what that release held for each table.

Every later change of the rules or the wire keeps this test green: bump
``engine.versions.RULES_VERSION`` / ``protocol.versions.WIRE_VERSION`` and register the
upgrade steps the stored forms need, and the tables here carry forward.  A rule change
that makes one of the fixture's logged commands play differently declares it in
:data:`EXPECTED_DIVERGENCES` (the test then checks it is reported, never silent).  When
the stored forms change again, add the next fixture (``db_v2``) beside this one.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

import engine
import protocol
from engine.versions import RULES_VERSION, STATE_UPGRADES, upgrade_command, upgrade_state
from protocol.versions import WIRE_VERSION, fight_after, upgrade_events
from tests.bridge.conftest import token_of
from tests.wsclient import TableClient, wire_data
from vtt_bridge import Config, create_app
from vtt_bridge.app import HUB
from vtt_bridge.hub import Hub, StartupError
from vtt_bridge.store import Store, stored_hash
from vtt_bridge.translate import public_state

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: Logged commands of ``db_v1`` (table name: positions) that this release's rules play
#: differently from how they were logged.  Empty while no rule change touched them; a
#: change that does adds them here in the same commit, saying why.
EXPECTED_DIVERGENCES: dict[str, list[int]] = {}


def _fixture(tmp_path: Path, name: str = "db_v1") -> tuple[Path, dict[str, Any]]:
    db = tmp_path / f"{name}.sqlite3"
    shutil.copy(FIXTURES / f"{name}.sqlite3", db)
    expected = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return db, expected["tables"]


def _logged_events(db: Path, table_id: str) -> list[dict[str, Any]]:
    """The table's events as this release sends them, read from the file with plain
    SQL (not through the code under test), upgraded from the wire version logged."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT command, events FROM log WHERE table_id = ? ORDER BY position", (table_id,)
    ).fetchall()
    con.close()
    events: list[dict[str, Any]] = []
    fight = None
    for command_json, events_json in rows:
        command = json.loads(command_json)
        fight = fight_after(command, fight)  # the fight's ruleset says its clock's words
        events += upgrade_events(json.loads(events_json), command, 1, fight)
    return events


def _oldest_resendable(db: Path, table_id: str) -> tuple[str, str, str, int] | None:
    """The table's oldest logged command a client sent that is simple to send again
    (no scene, no combat start): its participant, client name, wire frame and seq."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT command, meta FROM log WHERE table_id = ? ORDER BY position", (table_id,)
    ).fetchall()
    con.close()
    for command_json, meta_json in rows:
        # As the client would send it today (a changed command reads through its step).
        command, meta = upgrade_command(json.loads(command_json), 1), json.loads(meta_json)
        if "client" not in meta or command["type"] in ("load_scene", "start_combat"):
            continue
        body = {k: v for k, v in command.items() if k not in ("type", "actor") and v is not None}
        frame = json.dumps({"v": 1, "type": command["type"], "seq": meta["ref"], "body": body})
        participant, client_name = meta["client"].split("/", 1)
        return participant, client_name, frame, meta["ref"]
    return None


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


async def _join(
    http: aiohttp.ClientSession, url: str, token: str, last_event: int | None, client: str
) -> TableClient:
    member = await TableClient.connect(http, url)
    await member.send(protocol.Join, token=token, last_event=last_event, client=client)
    await member.wait_for(protocol.Welcome)
    return member


async def test_a_release_1_database_starts_with_every_table_as_it_was(tmp_path: Path) -> None:
    db, tables = _fixture(tmp_path)
    fight_id = next(t for t, e in tables.items() if e["name"] == "hero-fight")
    app = create_app(Config(database=db))
    async with TestServer(app) as server, aiohttp.ClientSession() as http:
        hub = app[HUB]
        url = str(server.make_url("/ws"))
        assert set(hub.tables) == set(tables)
        resent_at: list[str] = []
        for table_id, want in tables.items():
            table, report = hub.tables[table_id], hub.load_reports[table_id]
            diverged = [d.position for d in report.divergences]
            assert diverged == EXPECTED_DIVERGENCES.get(want["name"], []), report.divergences
            assert table.positions == want["positions"]
            assert len(table.events) == len(want["events"])
            # Carried forward, not re-judged: the state release 1 held, as this
            # release's classes read it (upgrade steps applied, new fields defaulted).
            old = engine.from_plain(engine.EncounterState, upgrade_state(want["state"], 1))
            if not diverged:
                assert engine.to_plain(table.committed) == engine.to_plain(old)
            assert table.deadlines == want["deadlines"]
            combat = table.committed.combat
            assert ([p.id for p in combat.prompts] if combat else []) == want["open_prompts"]
            if want["snapshot_position"] is not None and RULES_VERSION == 1:
                assert report.snapshot == want["snapshot_position"]
                assert report.replayed == want["positions"] - want["snapshot_position"]

            # A rejoining client catches up on every event, as this release sends them.
            logged = _logged_events(db, table_id)
            assert len(logged) == len(want["events"])
            gm = await _join(http, url, want["tokens"]["gm"], -1, "gm-vtt")
            caught_up = [await gm.wait_for(protocol.Event) for _ in logged]
            assert [(e.index, e.kind, _plain(wire_data(e))) for e in caught_up] == [
                (i, e["kind"], _plain(e["data"])) for i, e in enumerate(logged)
            ]
            for prompt_id in want["open_prompts"]:  # and the prompt it must answer
                prompt = await gm.wait_for(protocol.Prompt)
                assert (prompt.prompt, prompt.deadline_ms) == (
                    prompt_id,
                    want["deadlines"][prompt_id],
                )
            # A client joining without last_event gets the state as it was.
            player = next(p for p in want["tokens"] if p != "gm")
            fresh = await _join(http, url, want["tokens"][player], None, "phone")
            state = await fresh.wait_for(protocol.State)
            assert state.last_event == len(logged) - 1
            if not diverged:
                assert _plain(state.state) == _plain(public_state(old))

            # A client sends its oldest command again (exactly as it did: the same
            # command under the same seq) and gets the original acknowledgement.
            resent = _oldest_resendable(db, table_id)
            if resent is not None:
                participant, client_name, frame, ref = resent
                again = await _join(http, url, want["tokens"][participant], None, client_name)
                await again.send_raw(frame)
                reply = await again.reply_to(ref)
                assert isinstance(reply, protocol.Ack), reply
                original = next(
                    a
                    for a in want["acks"]
                    if a["client"] == f"{participant}/{client_name}" and a["ref"] == ref
                )
                assert (reply.first_event, reply.last_event) == (
                    original["first_event"],
                    original["last_event"],
                )
                assert table.positions == want["positions"]  # not applied twice
                resent_at.append(want["name"])
                await again.close()
            await gm.close()
            await fresh.close()

        assert sorted(resent_at) == ["hero-fight", "waiting"]

        # The fight goes on under this release.
        fight = hub.tables[fight_id]
        gm = await _join(http, url, token_of(fight, "gm"), None, "gm-after")
        seq = await gm.send(
            protocol.Act, token="hero", action="set_vitals", params={"end": 20, "stun": 15}
        )
        reply = await gm.reply_to(seq)
        assert isinstance(reply, protocol.Ack) and reply.first_event == len(
            tables[fight_id]["events"]
        )
        after = fight.encounter.state_hash()
        await gm.close()

    # Restarted with --verify-log: it says which positions each version wrote, and
    # the fight is where the upgraded server left it.
    hub = Hub(Store(db), verify_log=True)
    try:
        verified = hub.verified[fight_id]
        old, new = verified.versions[0], verified.versions[-1]
        assert (old.first, old.rules_version, old.wire_version) == (0, 1, 1)
        assert old.last >= tables[fight_id]["positions"] - 1
        assert (new.last, new.rules_version, new.wire_version) == (
            tables[fight_id]["positions"],
            RULES_VERSION,
            WIRE_VERSION,
        )
        assert f"0-{old.last} rules 1 wire 1" in verified.describe()
        assert hub.tables[fight_id].encounter.state_hash() == after
        assert not hub.load_reports[fight_id].divergences
    finally:
        hub.close()


def _write(db: Path, sql: str, *args: Any) -> None:
    con = sqlite3.connect(db)
    con.execute(sql, args)
    con.commit()
    con.close()


def test_an_older_version_is_carried_forward_once_and_a_difference_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Pretend the fixture was written under rules version 0, whose snapshots named a
    # field differently (an upgrade step renames it back), and one of whose tail
    # commands logged other events than today's rules give it.
    db, tables = _fixture(tmp_path)
    fight_id = next(t for t, e in tables.items() if e["name"] == "hero-fight")
    want = tables[fight_id]
    Store(db).close()  # gives the file this release's columns
    con = sqlite3.connect(db)
    state_json, snap_at = con.execute(
        "SELECT state, position FROM snapshots WHERE table_id = ?", (fight_id,)
    ).fetchone()
    old_state = json.loads(state_json)
    old_state["prompt_counter"] = old_state.pop("next_prompt")
    con.execute(
        "UPDATE snapshots SET state = ?, hash = ?, rules_version = 0 WHERE table_id = ?",
        (json.dumps(old_state), stored_hash(old_state), fight_id),
    )
    con.execute("UPDATE log SET rules_version = 0")
    events_json = con.execute(
        "SELECT events FROM log WHERE table_id = ? AND position = ?", (fight_id, snap_at + 1)
    ).fetchone()[0]
    con.execute(
        "UPDATE log SET events = ? WHERE table_id = ? AND position = ?",
        (json.dumps(json.loads(events_json)[:-1]), fight_id, snap_at + 1),
    )
    con.commit()
    con.close()

    def rename_back(plain: dict[str, Any]) -> dict[str, Any]:
        plain = dict(plain)
        plain["next_prompt"] = plain.pop("prompt_counter")
        return plain

    monkeypatch.setitem(STATE_UPGRADES, 0, rename_back)
    hub = Hub(Store(db))
    try:
        report = hub.load_reports[fight_id]
        assert report.snapshot == snap_at and report.snapshot_rules_version == 0
        assert report.carried_forward
        assert [d.position for d in report.divergences] == [snap_at + 1]
        assert "other events" in report.divergences[0].why
        assert hub.metrics.counts["replay_divergences"] == 1
        assert f"logged command {snap_at + 1}" in caplog.text
        # Today's result for the tail, from the version-0 snapshot carried forward.
        # (compared as this release's classes read the upgraded form: fields added with
        # defaults since, like Hero's power_options, need no upgrade step)
        upgraded = engine.from_plain(engine.EncounterState, upgrade_state(want["state"], 1))
        assert engine.to_plain(hub.tables[fight_id].committed) == engine.to_plain(upgraded)
        carried = hub.tables[fight_id].encounter.state_hash()
    finally:
        hub.close()

    # Once: the next start-up begins at the snapshot written under this release.
    hub = Hub(Store(db), verify_log=True)
    try:
        report = hub.load_reports[fight_id]
        assert report.snapshot == want["positions"] and report.replayed == 0
        assert not report.divergences and not report.carried_forward
        assert hub.tables[fight_id].encounter.state_hash() == carried
        assert "rules 0 wire 1" in hub.verified[fight_id].describe()
        assert not hub.verified[fight_id].current
    finally:
        hub.close()


def test_a_database_from_a_newer_release_is_refused_with_the_reason(tmp_path: Path) -> None:
    db, _ = _fixture(tmp_path)
    Store(db).close()
    _write(db, "UPDATE log SET rules_version = ?", RULES_VERSION + 1)
    with pytest.raises(StartupError, match="newer release"):
        Hub(Store(db))
