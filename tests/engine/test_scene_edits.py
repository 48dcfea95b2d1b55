"""``edit_scene`` in a running fight: the GM's new walls and terrain count from the next
command (the geometry the engine derived from the old ones is not used again), and an
edit waits for what the old map priced (an open prompt, a move under way)."""

from __future__ import annotations

from engine import (
    AnswerPrompt,
    Encounter,
    GridSpec,
    LoadScene,
    Move,
    Scene,
    StartCombat,
    TerrainSpec,
    WallSpec,
)
from engine.commands import EditScene
from engine.events import MoveCompleted, PromptOpened
from engine.scene_checks import MAX_THREAT_MS
from tests.engine.helpers import kinds, refused, token
from tests.engine.test_threat_budget import lattice, ms_in

OGRE = token("ogre", 5, 5, init=1)
HERO = token("hero", 4, 5, owner="alice", init=9, movement=6.0)
#: Between the ogre at (5,5) and the hero at (4,5).
WALL = WallSpec("w1", (5.0, 3.0), (5.0, 8.0))


def moved(encounter: Encounter, *path: tuple[int, int]) -> list[str]:
    """The kinds of the events the hero's move along ``path`` makes."""
    return kinds(list[object](encounter.apply(Move("alice", "hero", path))))


def fight_on(scene: Scene) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", scene))
    encounter.apply(StartCombat("gm", "hero-supplement", 3))
    return encounter


def test_a_wall_raised_mid_fight_stops_the_threat_through_it_at_once() -> None:
    encounter = fight_on(Scene(GridSpec(12, 12), (OGRE, HERO)))
    # The threat is worked out (and cached) before the edit: the ogre threatens the hero.
    assert (4, 5) in encounter.threat("ogre").cells and "hero" in encounter.threat("ogre").foes
    events = encounter.apply(EditScene("gm", walls=(WALL,)))
    assert [e.kind for e in events] == ["scene_edited"]
    scene = encounter.state.scene
    assert scene is not None and scene.walls == (WALL,)
    assert encounter.state.combat is not None  # the fight goes on
    assert (4, 5) not in encounter.threat("ogre").cells
    assert moved(encounter, (4, 4), (4, 3)) == ["move_started", "move_completed"]


def test_a_wall_taken_down_mid_fight_lets_the_threat_through() -> None:
    encounter = fight_on(Scene(GridSpec(12, 12), (OGRE, HERO), walls=(WALL,)))
    encounter.apply(EditScene("gm", walls=()))
    assert "prompt_opened" in moved(encounter, (4, 4), (4, 3))


def test_terrain_laid_mid_fight_is_priced_by_the_next_move() -> None:
    hero = token("hero", 0, 6, owner="alice", init=9, movement=3.0)
    encounter = fight_on(Scene(GridSpec(12, 12), (hero, token("ogre", 11, 11, init=1))))
    mud = TerrainSpec("difficult", ((0.0, 0.0), (12.0, 0.0), (12.0, 4.0), (0.0, 4.0)))
    encounter.apply(EditScene("gm", terrain=(mud,)))
    # Rows 4 and 5 dry, row 3 mud: 1 + 1 + 2 = 4 m, as in a scene loaded with the mud.
    done = encounter.apply(Move("alice", "hero", ((0, 5), (0, 4), (0, 3))))[-1]
    assert isinstance(done, MoveCompleted) and (done.cost, done.movement_left) == (4.0, 2.0)


def test_no_edit_while_a_prompt_is_open_or_a_move_waits_and_none_that_breaks_the_scene() -> None:
    encounter = fight_on(Scene(GridSpec(12, 12), (OGRE, HERO)))
    events = encounter.apply(Move("alice", "hero", ((4, 4), (4, 3))))
    (prompt,) = [e for e in events if isinstance(e, PromptOpened)]
    refused(encounter, EditScene("gm", walls=(WALL,)), "prompt_pending")
    encounter.apply(AnswerPrompt("gm", prompt.prompt, False))  # the move goes on
    off_map = WallSpec("w2", (5.0, 3.0), (50.0, 3.0))
    refused(encounter, EditScene("gm", walls=(off_map,)), "bad_scene")
    refused(encounter, EditScene("gm"), "bad_scene")
    refused(encounter, EditScene("alice", walls=(WALL,)), "gm_only")


def test_an_edit_is_priced_as_a_load_and_refused_past_the_threat_budget() -> None:
    # Reach 9 m among the lattice's walls is past MAX_THREAT_MS at a load
    # (test_threat_budget); raised mid-fight, the same walls are refused the same way.
    tower = token("tower", 200, 200, reach=9.0, init=5)
    scout = token("scout", 150, 150, owner="alice", init=3)
    encounter = fight_on(Scene(GridSpec(400, 400), (tower, scout)))
    message = refused(encounter, EditScene("gm", walls=lattice(600, 4)), "bad_scene")
    assert message.startswith("token 'tower': working out its reach of 9 m (361 cells")
    assert ms_in(message) > MAX_THREAT_MS


def test_between_fights_the_gm_edits_the_scene_too() -> None:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(12, 12), (OGRE, HERO), walls=(WALL,))))
    encounter.apply(EditScene("gm", walls=()))
    scene = encounter.state.scene
    assert scene is not None and scene.walls == () and scene.tokens == (OGRE, HERO)
