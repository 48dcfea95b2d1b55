"""Golden playthroughs: every step's events and state hash match the recorded file."""

from __future__ import annotations

import json

import pytest

from engine import Encounter, event_data
from tests.engine.playthrough import GOLDEN, PLAYTHROUGHS, commands_in, play


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_file_matches_the_engine(name: str) -> None:
    path = GOLDEN / f"{name}.jsonl"
    recorded = [json.loads(line) for line in path.read_text().splitlines()]
    encounter = Encounter()
    for step, (line, command) in enumerate(zip(recorded, commands_in(path), strict=True)):
        events = encounter.apply(command)
        got = [{"kind": e.kind, "data": event_data(e)} for e in events]
        assert got == line["events"], f"{path.name} step {step}: {line['command']}"
        assert encounter.state_hash() == line["state_hash"], f"{path.name} step {step}"


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_file_is_what_the_script_writes(name: str) -> None:
    # The file is not hand-edited: the script that wrote it writes it again.
    path = GOLDEN / f"{name}.jsonl"
    lines = [json.dumps(line, sort_keys=True) for line in play(PLAYTHROUGHS[name]())]
    assert lines == path.read_text().splitlines()


def test_golden_playthrough_crosses_into_turn_2() -> None:
    path = GOLDEN / "hero_foundation.jsonl"
    kinds = [e for line in path.read_text().splitlines() for e in json.loads(line)["events"]]
    phases = [
        (e["data"]["clock"]["at"]["turn"], e["data"]["clock"]["at"]["phase"])
        for e in kinds
        if e["kind"] == "pass_started"
    ]
    assert phases[0] == (1, 0) and (1, 4) in phases and (2, 1) in phases
