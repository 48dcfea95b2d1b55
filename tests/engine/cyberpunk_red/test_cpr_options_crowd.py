"""``ask_options`` on a crowded Cyberpunk RED scene: the attack offered is still the
attack's own check (issue 22), found from the tokens within reach or in sight instead of
every token; the arena the refusals read is the one each combatant's state makes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Encounter, GridSpec, LoadScene, Move, Scene, StartCombat
from engine.commands import Act
from engine.errors import CommandRejected
from engine.model import WallSpec
from engine.rulesets.cyberpunk_red.ruleset import arena_of, fighter_in
from tests.engine.cyberpunk_red.helpers import cpr, world_of
from tests.engine.cyberpunk_red.test_cpr_engine import SEED

spots = st.tuples(st.integers(0, 11), st.integers(0, 11))
walls = st.lists(st.tuples(spots, st.booleans(), st.integers(1, 4)), max_size=6)


def _walls(specs: list[tuple[tuple[int, int], bool, int]]) -> tuple[WallSpec, ...]:
    out = []
    for i, ((x, y), across, n) in enumerate(specs):
        a = (2.0 * x, 2.0 * y)
        b = (2.0 * (x + n), 2.0 * y) if across else (2.0 * x, 2.0 * (y + n))
        out.append(WallSpec(f"w{i}", a, (min(b[0], 24.0), min(b[1], 24.0))))
    return tuple(w for w in out if w.a != w.b)


@settings(max_examples=40, deadline=None)
@given(places=st.lists(spots, min_size=2, max_size=12, unique=True), specs=walls)
def test_who_is_within_reach_and_in_sight_is_who_in_reach_and_sees_says(
    places: list[tuple[int, int]], specs: list[tuple[tuple[int, int], bool, int]]
) -> None:
    tokens = tuple(cpr(f"t{i}", x, y) for i, (x, y) in enumerate(places))
    world = world_of(Scene(GridSpec(12, 12, cell_size=2.0), tokens, _walls(specs)))
    for a in world.tokens():
        others = [b for b in world.tokens() if b != a]
        assert world.within_reach(a) == {b for b in others if world.in_reach(a, b)}
        assert world.seen_by(a) == {b for b in others if world.sees(a, b)}


def _crowd(walled: bool) -> Encounter:
    # Rex with a rifle at (1, 1), 299 others from row 4 on: boxed in, he sees nobody.
    tokens = [cpr("rex", 1, 1, ref=20, weapon__rifle=1, weapon__knife=2, melee__knife=True,
                  hand__right="rifle")]  # fmt: skip
    tokens += [cpr(f"t{k:03d}", 2 * (k % 30), 4 + k // 30, ref=1) for k in range(299)]
    box = (
        WallSpec("n", (0.0, 0.0), (8.0, 0.0)),
        WallSpec("s", (0.0, 6.0), (8.0, 6.0)),
        WallSpec("w", (0.0, 0.0), (0.0, 6.0)),
        WallSpec("e", (8.0, 0.0), (8.0, 6.0)),
    )
    encounter = Encounter()
    scene = Scene(GridSpec(60, 20, cell_size=2.0), tuple(tokens), box if walled else ())
    encounter.apply(LoadScene("gm", scene))
    encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    return encounter


def _some_attack_taken(encounter: Encounter) -> bool:
    scene = encounter.state.scene
    assert scene is not None
    for token in scene.tokens[1:]:
        for weapon in ("rifle", "unarmed"):
            try:
                encounter.apply(Act("gm", "rex", "attack", {"target": token.id, "weapon": weapon}))
            except CommandRejected:
                continue
            return True
    return False


def test_on_300_tokens_attack_is_offered_exactly_when_one_is_taken() -> None:
    for walled in (True, False):
        encounter = _crowd(walled)
        assert encounter.state.combat is not None
        assert encounter.state.combat.actor == "rex"  # REF 20: first
        options = encounter.options("rex")
        assert ("attack" in options.available) is (not walled)
        if walled:
            assert "nothing to attack" in dict(options.refused)["attack"]
        assert ("attack" in options.available) is _some_attack_taken(encounter)


def test_the_arena_holds_each_combatants_fighter_as_fighter_in_reads_it() -> None:
    encounter = _crowd(walled=False)
    combat = encounter.state.combat
    assert combat is not None
    expected = [f for cid, _ in combat.per_combatant if (f := fighter_in(combat, cid))]
    assert list(arena_of(encounter.state).fighters) == expected


def test_options_of_an_older_state_answer_for_that_state_not_the_index_moved_on() -> None:
    # The bridge asks about its committed state between commands it has applied ahead:
    # the same state asked about twice, the spatial index moved to another in between.
    from engine.options import options

    tokens = (
        cpr("rex", 0, 0, ref=20, weapon__knife=2, melee__knife=True, hand__right="knife"),
        cpr("goon", 1, 0, ref=1),
    )
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 8, cell_size=2.0), tokens)))
    encounter.apply(StartCombat("gm", "cyberpunk-red", SEED))
    spatial = encounter._spatial
    beside = encounter.state
    assert "attack" in options(beside, "rex", "gm", spatial).available  # the goon in reach
    encounter.apply(Move("gm", "rex", ((0, 1), (0, 2), (0, 3))))  # out of reach
    assert "attack" in options(beside, "rex", "gm", spatial).available
    assert "attack" not in encounter.options("rex").available
    assert "attack" in options(beside, "rex", "gm", spatial).available
