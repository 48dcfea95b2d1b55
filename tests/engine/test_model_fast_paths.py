"""The hand-written copies on the move path must equal ``dataclasses.replace``."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

from engine.model import Combatant, EncounterState, GridSpec, Scene, TerrainSpec, WallSpec


def test_moved_to_copies_every_field() -> None:
    token = Combatant(
        "t", "Tess", "p1", "heroes", 1, 2, size=2, reach=2.0, movement=6.0, stats=(("ocv", 5),),
        elevation=3.0,
    )  # fmt: skip
    # A new field must be added to Combatant.moved_to too; this list makes that visible.
    names = [
        "id", "name", "owner", "side", "x", "y", "size", "reach", "movement", "stats",
        "elevation",
    ]  # fmt: skip
    assert [f.name for f in fields(Combatant)] == names
    assert token.moved_to((7, 8)) == replace(token, x=7, y=8)


def test_with_token_copies_every_field() -> None:
    a = Combatant("a", "A", "gm", "x", 0, 0, movement=6.0)
    b = Combatant("b", "B", "gm", "y", 3, 3, movement=6.0)
    scene = Scene(
        GridSpec(width=10, height=10),
        (a, b),
        (WallSpec("w", (0.0, 5.0), (5.0, 5.0)),),
        (TerrainSpec("water", ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0))),),
    )
    assert [f.name for f in fields(Scene)] == ["grid", "tokens", "walls", "terrain"]
    moved = a.moved_to((1, 1))
    assert scene.with_token(moved) == replace(scene, tokens=(moved, b))


def test_with_scene_copies_every_field() -> None:
    state = EncounterState(
        Scene(GridSpec(width=4, height=4)),
        seed=9,
        draws=3,
        next_prompt=5,
        initiative_dice=(("hero", "alice", (7,)),),
    )
    names = ["scene", "seed", "draws", "next_prompt", "combat", "initiative_dice"]
    assert [f.name for f in fields(EncounterState)] == names
    other = Scene(GridSpec(width=6, height=6))
    assert state.with_scene(other) == replace(state, scene=other)


def test_the_copies_keep_a_subclass() -> None:
    class Monster(Combatant):
        __slots__ = ()

    ogre = Monster("o", "Ogre", "gm", "monsters", 0, 0, movement=6.0)
    scene = Scene(GridSpec(width=5, height=5), (ogre,))
    moved = ogre.moved_to((1, 1))
    assert type(moved) is Monster
    assert type(scene.with_token(moved)) is Scene


def test_a_combatant_without_movement_is_an_error_not_an_immobile_token() -> None:
    with pytest.raises(TypeError, match="movement"):
        Combatant("a", "A", "gm", "x", 0, 0)  # type: ignore[call-arg]
