"""The threat index follows moves lazily (``geometry.index``: a moved token's threat is
worked out again when first asked about; a move outside combat asks about none), and
the engine must not be able to tell: random commands, before and during a fight, with
``threat`` and ``path_exits`` questions between them, give exactly the events, states,
refusals and answers of an index kept up to date at every move (``eager``), and the
index a cache ends with describes the last scene exactly."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import AnswerPrompt, CommandRejected, EndPhase, LoadScene, Move, StartCombat
from engine.handlers import HANDLERS
from engine.model import EncounterState, GridSpec, Scene
from engine.spatial import SpatialCache, build_index
from engine.threat import path_exits, threat
from tests.engine.helpers import token
from tests.engine.test_engine_fuzz import COMMANDS, IDS, STEP

#: Moves outside combat: the GM or an owner walks a token a few steps.
WALK = st.builds(
    lambda a, t, s: ("walk", a, t, s),
    st.sampled_from(["gm", "alice"]),
    IDS,
    st.lists(STEP, min_size=1, max_size=3),
)
#: A move by whoever's action it is (the GM moves it), so that plenty of moves in the
#: fight are legal and walk past the other tokens' threats.
TURN = st.one_of(
    st.builds(lambda s: ("turn", s), st.lists(STEP, min_size=1, max_size=4)),
    st.builds(lambda accept: ("answer", accept), st.booleans()),  # the first open prompt
    st.just(("end",)),  # the acting token's Phase
)
ASK = st.one_of(
    st.builds(lambda t: ("threat", t), IDS),
    st.builds(lambda t, s: ("exits", t, s), IDS, st.lists(STEP, min_size=1, max_size=4)),
)

#: What happens in the fight: mostly moves, answers and Phase ends by whoever acts (so
#: that moves get made and walk past threats), then questions, then anything at all
#: (st.one_of would flatten the fuzz's many kinds and drown the first).
FIGHT = st.tuples(st.integers(0, 9), TURN, ASK, COMMANDS).map(
    lambda t: t[1] if t[0] < 6 else t[2] if t[0] < 8 else t[3]
)


def _path(state: EncounterState, tid: str, steps: list[tuple[int, int]]) -> tuple[Any, ...]:
    scene = state.scene
    assert scene is not None
    found = scene.token(tid)
    here = found.cell if found is not None else (0, 0)
    path = []
    for dx, dy in steps:
        here = (here[0] + dx, here[1] + dy)
        path.append(here)
    return tuple(path)


def _step(state: EncounterState, spatial: SpatialCache, op: Any) -> tuple[Any, EncounterState]:
    """Apply or ask ``op`` in ``state`` with ``spatial``: what it gave, and the state after."""
    try:
        if isinstance(op, tuple) and op[0] == "threat":
            return threat(state, spatial, op[1]), state
        if isinstance(op, tuple) and op[0] == "exits":
            return path_exits(state, spatial, op[1], _path(state, op[1], op[2])), state
        if isinstance(op, tuple) and op[0] == "walk":
            op = Move(op[1], op[2], _path(state, op[2], op[3]))
        if isinstance(op, tuple) and op[0] in ("turn", "answer", "end"):
            combat = state.combat
            assert combat is not None
            actor = combat.actor or "hero"
            prompt = combat.prompts[0].id if combat.prompts else "p1"
            op = {
                "turn": lambda: Move("gm", actor, _path(state, actor, op[1])),
                "answer": lambda: AnswerPrompt("gm", prompt, op[1]),
                "end": lambda: EndPhase("gm", actor),
            }[op[0]]()
        after, events = HANDLERS[type(op)](state, op, spatial)
        return events, after
    except CommandRejected as exc:
        return (exc.code, exc.message), state


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=st.lists(st.one_of(WALK, WALK, ASK), max_size=20),
    during=st.lists(FIGHT, max_size=30),
)
def test_lazy_threat_upkeep_answers_as_eager_upkeep(before: list[Any], during: list[Any]) -> None:
    scene = Scene(
        GridSpec(9, 9),
        (
            token("hero", 2, 2, owner="alice", init=14, extra={"end": 20, "stun": 20, "rec": 4}),
            token("elf", 2, 4, owner="bob", init=12, movement=1.0),
            token("ogre", 3, 3, init=12, reach=2.0, reflexes=True),
            token("wolf", 6, 6, init=8, extra={"end": 10, "stun": 10, "rec": 2}),
        ),
    )
    ops = [
        LoadScene("gm", scene),
        *(("threat", t.id) for t in scene.tokens),  # every threat worked out: moves go stale
        *before,
        StartCombat("gm", "hero-supplement", 7),
        *during,
    ]
    lazy, eager = SpatialCache(), SpatialCache(eager=True)
    lazy_state = eager_state = EncounterState()
    for op in ops:
        lazy_gave, lazy_state = _step(lazy_state, lazy, op)
        eager_gave, eager_state = _step(eager_state, eager, op)
        assert lazy_gave == eager_gave, op
        assert lazy_state == eager_state, op
    # The index each cache followed the moves with (SpatialCache.moved, or comparing
    # scenes) describes the last scene exactly as one built afresh from it.
    scene_now = lazy_state.scene
    assert scene_now is not None
    fresh = build_index(scene_now)
    for cache in (lazy, eager):
        index = cache.index(scene_now)
        for t in scene_now.tokens:
            assert index.threatened(t.id) == fresh.threatened(t.id)
            assert index.token(t.id) == fresh.token(t.id)
            assert index.occupants(t.cell) == fresh.occupants(t.cell)


def test_a_cache_follows_a_move_it_is_told_of_and_ignores_one_it_does_not_hold() -> None:
    scene = Scene(GridSpec(9, 9), (token("hero", 2, 2, owner="alice"), token("ogre", 6, 6)))
    cache = SpatialCache()
    index = cache.index(scene)
    hero = scene.tokens[0].moved_to((3, 2))
    after = scene.with_token(hero)
    cache.moved(scene, after, hero)
    assert cache.index(after) is index  # followed in place: no comparison, no rebuild
    assert index.token("hero").origin == (3, 2) and index.occupant((3, 2)) == "hero"
    elsewhere = after.with_token(after.tokens[1].moved_to((5, 5)))
    cache.moved(scene, elsewhere, elsewhere.tokens[1])  # not the scene it describes
    assert index.token("ogre").origin == (6, 6)
    assert cache.index(elsewhere).token("ogre").origin == (5, 5)  # compared as usual
