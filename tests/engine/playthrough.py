"""Engine golden playthroughs: commands, the events each caused, and the state hash after.

Like OpenSpiel's playthrough files, a golden file is compared line by line.  Rewrite
them after an intended rules change with ``python -m tests.engine.playthrough``, and
read the diff before committing it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine import (
    AnswerPrompt,
    Command,
    Encounter,
    EndPhase,
    ExpirePrompt,
    GridSpec,
    LoadScene,
    Move,
    Scene,
    StartCombat,
    event_data,
    to_plain,
)
from tests.engine.helpers import token
from vtt_bridge.translate import command_from_plain, command_to_plain

GOLDEN = Path(__file__).resolve().parent / "golden"


def hero_foundation() -> list[Command]:
    """Surprise Phase, provoked moves (accepted, declined, expired), a whole Turn and more."""
    scene = Scene(
        GridSpec(16, 16),
        (
            token("ogre", 8, 8, init=11, ocv=6, dcv=4),
            token("wolf", 10, 8, init=12, ocv=4, dcv=5, reflexes=True),
            token("hero", 9, 9, owner="alice", init=14, ocv=7, dcv=5),
            token("elf", 7, 7, owner="bob", init=9, ocv=5, dcv=6, movement=8.0),
        ),
    )
    commands: list[Command] = [
        LoadScene("gm", scene),
        StartCombat("gm", "hero-supplement", 20261129, ("wolf", "elf", "ogre")),
        # Surprise Phase: the aware wolf, ogre and elf act, one action each; the
        # unaware hero makes no attack of opportunity as the wolf steps away.
        Move("gm", "wolf", ((11, 8),)),
        EndPhase("gm", "wolf"),
        EndPhase("gm", "ogre"),
        Move("bob", "elf", ((6, 6), (5, 5))),  # leaves the ogre's reach
        AnswerPrompt("gm", "p1", True),
        EndPhase("bob", "elf"),
        # Turn 1 Phase 1: hero, wolf, ogre, elf.
        Move("alice", "hero", ((9, 10), (9, 11))),
        AnswerPrompt("gm", "p2", False),
        EndPhase("alice", "hero"),
    ]
    return commands


def play(commands: list[Command]) -> list[dict[str, Any]]:
    """The golden lines for ``commands``, finishing the current Phase with EndPhase calls."""
    encounter = Encounter()
    lines = []
    for command in commands:
        events = encounter.apply(command)
        lines.append(_line(command, events, encounter))
    # Run the clock through a whole Turn so the cycle is in the golden file too.
    for _ in range(16):
        combat = encounter.state.combat
        assert combat is not None
        if combat.prompts:
            command: Command = ExpirePrompt("system", combat.prompts[0].id)
        else:
            command = EndPhase("gm", combat.actor)
        events = encounter.apply(command)
        lines.append(_line(command, events, encounter))
    return lines


def _line(command: Command, events: list[Any], encounter: Encounter) -> dict[str, Any]:
    return {
        "command": command_to_plain(command),
        "events": [{"kind": e.kind, "data": event_data(e)} for e in events],
        "state_hash": encounter.state_hash(),
    }


PLAYTHROUGHS = {"hero_foundation": hero_foundation}


def write_all() -> None:
    """Rewrite every golden file from the current engine."""
    for name, build in PLAYTHROUGHS.items():
        path = GOLDEN / f"{name}.jsonl"
        lines = play(build())
        path.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines))
        print(f"wrote {path} ({len(lines)} steps)", file=sys.stderr)


def commands_in(path: Path) -> list[Command]:
    """The commands of a golden file."""
    return [
        command_from_plain(json.loads(line)["command"]) for line in path.read_text().splitlines()
    ]


if __name__ == "__main__":
    write_all()
    assert to_plain  # re-exported for readers of golden files
