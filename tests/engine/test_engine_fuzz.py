"""Random command sequences: every command is applied or refused cleanly, never a crash.

A refusal is ``CommandRejected`` and leaves the state exactly as it was; after every
command the state still hashes, no two tokens share a cell, and the initiative order is
a permutation of the combatants.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    AnswerPrompt,
    CommandRejected,
    EndPhase,
    ExpirePrompt,
    Move,
    SetCondition,
)
from engine.rulesets.hero import CONDITIONS, MOVE_MODES
from engine.rulesets.hero.commands import (
    Abort,
    Attack,
    Delay,
    Ready,
    SetVitals,
    TakeAction,
    TakeDelayed,
)
from engine.rulesets.hero.state import Maneuver
from tests.engine.helpers import fight, token

IDS = st.sampled_from(["hero", "elf", "ogre", "wolf", "ghost"])
ACTORS = st.sampled_from(["gm", "alice", "bob", "system"])
CELL = st.tuples(st.integers(-1, 9), st.integers(-1, 9))
STEP = st.sampled_from([(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)])
MANEUVER = st.builds(
    Maneuver,
    st.sampled_from(["strike", "dodge", "haymaker"]),
    st.integers(-3, 3),
    st.integers(-3, 3),
)
PROMPTS = st.sampled_from(["p1", "p2", "p3", "p4", "p5", "p6"])

COMMANDS = st.one_of(
    st.builds(
        Move,
        ACTORS,
        IDS,
        st.lists(CELL, min_size=1, max_size=4).map(tuple),
        st.sampled_from(MOVE_MODES),
        st.none() | IDS,
    ),
    st.builds(
        lambda a, t, s: ("walk", a, t, s), ACTORS, IDS, st.lists(STEP, min_size=1, max_size=4)
    ),
    st.builds(
        AnswerPrompt,
        ACTORS,
        PROMPTS,
        st.booleans(),
        st.none() | st.tuples(st.integers(0, 7), st.integers(1, 6), st.integers(1, 6)),
        st.none() | MANEUVER,
    ),
    st.builds(ExpirePrompt, ACTORS, PROMPTS),
    st.builds(EndPhase, ACTORS, IDS),
    st.builds(
        Attack,
        ACTORS,
        IDS,
        IDS,
        st.booleans(),
        st.floats(0, 20),
        st.none() | MANEUVER,
        st.integers(-2, 2),
    ),
    st.builds(
        TakeAction,
        ACTORS,
        IDS,
        st.sampled_from(
            [
                "draw_focus",
                "stand_up",
                "drop_prone",
                "start_full_phase",
                "complete_full_phase",
                "full_phase",
                "defend",
                "juggle",
            ]
        ),
        st.none() | st.sampled_from(["bandage", "withdraw"]),
        st.none() | MANEUVER,
    ),
    st.builds(Delay, ACTORS, IDS, st.none() | IDS),
    st.builds(TakeDelayed, ACTORS, IDS),
    st.builds(
        Ready,
        ACTORS,
        IDS,
        st.sampled_from(["attack", "move", "free", "dance"]),
        st.none() | IDS,
        st.lists(CELL, max_size=3).map(tuple),
    ),
    st.builds(Abort, ACTORS, IDS, MANEUVER),
    st.builds(Abort, ACTORS, IDS, st.none(), st.just("move")),
    st.builds(SetCondition, ACTORS, IDS, st.sampled_from([*CONDITIONS, "sleepy"]), st.booleans()),
    st.builds(SetVitals, ACTORS, IDS, st.integers(-5, 40), st.integers(-40, 40)),
)


def _concrete(encounter, command):  # type: ignore[no-untyped-def]
    # "walk" commands turn relative steps into a path from where the token stands, so
    # plenty of moves are legal enough to get deep into the rules.
    if isinstance(command, tuple):
        _, actor, tid, steps = command
        scene = encounter.state.scene
        here = scene.token(tid).cell if scene.token(tid) else (0, 0)
        path = []
        for dx, dy in steps:
            here = (here[0] + dx, here[1] + dy)
            path.append(here)
        return Move(actor, tid, tuple(path))
    return command


#: Sequences per run: CI's 150; a release runs more (``ENGINE_FUZZ_EXAMPLES=2000``).
EXAMPLES = int(os.environ.get("ENGINE_FUZZ_EXAMPLES", "150"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    commands=st.lists(COMMANDS, min_size=1, max_size=30),
    aware=st.sampled_from([None, ("hero", "ogre")]),
)
def test_random_commands_apply_or_are_refused_cleanly(
    commands: list[object], aware: tuple[str, ...] | None
) -> None:
    encounter = fight(
        token("hero", 2, 2, owner="alice", init=14, extra={"end": 20, "stun": 20, "rec": 4}),
        token("elf", 2, 4, owner="bob", init=12, movement=1.0),
        token("ogre", 3, 3, init=12, reach=2.0, reflexes=True),
        token("wolf", 6, 6, init=8, extra={"end": 10, "stun": 10, "rec": 2}),
        aware=aware,
        size=9,
    )
    for raw in commands:
        command = _concrete(encounter, raw)
        before = encounter.state
        try:
            encounter.apply(command)  # type: ignore[arg-type]
        except CommandRejected:
            assert encounter.state == before
        state = encounter.state
        hash(state)
        assert state.scene is not None and state.combat is not None
        cells = [t.cell for t in state.scene.tokens]
        if len(cells) != len(set(cells)):
            # Only a mover paused while passing through an ally's square shares it.
            pending = state.combat.pending_move
            assert pending is not None, cells
            mover = state.scene.token(pending.token)
            assert mover is not None and cells.count(mover.cell) == 2
            (other,) = [t for t in state.scene.tokens if t.cell == mover.cell and t is not mover]
            assert other.side == mover.side
            assert len(set(cells)) == len(cells) - 1
        assert sorted(state.combat.order) == sorted(t.id for t in state.scene.tokens)
        assert dict(state.combat.scores).keys() == set(state.combat.order)
