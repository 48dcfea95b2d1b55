"""A scene's index made elsewhere (the bridge builds a loaded scene's in pieces)
is taken only for the very scene it was made from and only of the kind the encounter
keeps; a scene's check answers the same the second time, from memory."""

from __future__ import annotations

import pytest

from engine import CommandRejected, Encounter, GridSpec, LoadScene, Scene
from engine.scene_checks import check_scene
from engine.spatial import SpatialCache, build_board, build_index
from tests.engine.helpers import token

GRID = GridSpec(20, 20)
SCENE = Scene(GRID, (token("ogre", 5, 5), token("hero", 4, 5, owner="alice")))


def loaded(scene: Scene) -> Encounter:
    encounter = Encounter()
    encounter.apply(LoadScene("gm", scene))
    return encounter


def test_an_index_made_from_the_current_scene_is_taken_and_answers_the_same() -> None:
    encounter, reference = loaded(SCENE), loaded(SCENE)
    built = build_index(encounter.state.scene)
    assert encounter.adopt_index(encounter.state.scene, built)
    assert encounter.threat("ogre") == reference.threat("ogre")
    assert encounter.plan_path("hero", (9, 9)) == reference.plan_path("hero", (9, 9))


def test_an_index_of_another_scene_or_kind_is_not_taken() -> None:
    encounter = loaded(SCENE)
    equal_but_not_the_same = Scene(GRID, SCENE.tokens)
    assert not encounter.adopt_index(equal_but_not_the_same, build_index(SCENE))
    # An eager index in a lazy cache, a board on a grid, an index on a gridless scene.
    assert not SpatialCache().adopt(SCENE, build_index(SCENE, eager=True))
    gridless = Scene(GridSpec(20, 20, kind="gridless"), ())
    assert not SpatialCache().adopt(SCENE, build_board(gridless))
    assert not SpatialCache().adopt(gridless, build_index(SCENE))
    assert SpatialCache().adopt(gridless, build_board(gridless))


def test_a_scene_checked_twice_is_answered_the_same_from_memory() -> None:
    overlapping = Scene(GRID, (token("ogre", 5, 5), token("hero", 5, 5, owner="alice")))
    answers = []
    for _ in range(2):
        with pytest.raises(CommandRejected) as refused:
            check_scene(overlapping)
        answers.append((refused.value.code, refused.value.message))
    assert answers[0] == answers[1] and "overlap" in answers[0][1]
    check_scene(SCENE)
    check_scene(SCENE)  # remembered as playable: no error either time
