"""Moves given in the VTT's own pixels: Foundry token-document x/y, Owlbear item centres."""

from __future__ import annotations

import pytest

from engine import (
    CommandRejected,
    Encounter,
    GridSpec,
    LoadScene,
    MovePoints,
    Scene,
    StartCombat,
    VttSpec,
)
from engine.events import MoveCompleted, MoveStarted
from tests.engine.helpers import token


def encounter_with(vtt: VttSpec | None, size: int = 1) -> Encounter:
    encounter = Encounter()
    grid = GridSpec(20, 20, cell_size=5.0, unit="ft", vtt=vtt)
    hero = token("hero", 2, 2, owner="alice", init=9, movement=40.0, size=size)
    encounter.apply(LoadScene("gm", Scene(grid, (hero, token("ogre", 18, 18, init=1)))))
    encounter.apply(StartCombat("gm", "hero-supplement", 1))
    return encounter


@pytest.mark.parametrize(
    ("vtt", "points", "size", "path"),
    [
        # Foundry, 100 px cells, 250 px padding: x = 250 + 100 * column (top-left corner).
        (VttSpec("foundry", 100, 250, 250), ((650.0, 450.0),), 1, ((3, 2), (4, 2))),
        # A drop a little off the grid lines snaps to the nearest cell.
        (VttSpec("foundry", 100, 250, 250), ((560.0, 538.0),), 1, ((3, 3),)),
        # Waypoints: a ruler with a bend; each leg is walked in a straight line.
        (
            VttSpec("foundry", 100),
            ((200.0, 500.0), (400.0, 500.0)),
            1,
            ((2, 3), (2, 4), (2, 5), (3, 5), (4, 5)),
        ),
        # Owlbear, 150 dpi: an item's position is its centre, (column + 0.5) * 150.
        (VttSpec("owlbear", 150), ((675.0, 375.0),), 1, ((3, 2), (4, 2))),
        # A 2x2 Owlbear item's centre is on the corner between its four cells.
        (VttSpec("owlbear", 150), ((750.0, 450.0),), 2, ((3, 2), (4, 2))),
    ],
)
def test_points_become_the_path_a_move_takes(
    vtt: VttSpec,
    points: tuple[tuple[float, float], ...],
    size: int,
    path: tuple[tuple[int, int], ...],
) -> None:
    encounter = encounter_with(vtt, size)
    events = encounter.apply(MovePoints("alice", "hero", points))
    started = events[0]
    assert isinstance(started, MoveStarted) and started.path == path
    assert isinstance(events[-1], MoveCompleted) and events[-1].at == path[-1]


def test_a_scene_without_vtt_coordinates_refuses_points() -> None:
    encounter = encounter_with(None)
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(MovePoints("alice", "hero", ((650.0, 450.0),)))
    assert refusal.value.code == "illegal_move" and "grid.vtt" in refusal.value.message


def test_points_that_stay_on_the_same_cell_are_refused() -> None:
    encounter = encounter_with(VttSpec("foundry", 100))
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(MovePoints("alice", "hero", ((210.0, 190.0),)))
    assert refusal.value.code == "illegal_move"


def test_points_obey_the_same_rules_as_cells() -> None:
    encounter = encounter_with(VttSpec("foundry", 100))
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(MovePoints("bob", "hero", ((300.0, 300.0),)))
    assert refusal.value.code == "not_your_token"
    with pytest.raises(CommandRejected) as refusal:  # 20 squares of 5 ft: 100 ft > 80 ft
        encounter.apply(MovePoints("alice", "hero", ((200.0, 1900.0),)))
    assert refusal.value.code == "over_budget"


@pytest.mark.parametrize(
    ("kind", "offset", "vtt"),
    [
        ("hex_pointy", "odd", VttSpec("foundry", 100)),  # Foundry grid.type 2 (hexOddR)
        ("hex_pointy", "even", VttSpec("foundry", 100)),  # type 3 (hexEvenR)
        ("hex_flat", "odd", VttSpec("foundry", 100)),  # type 4 (hexOddQ)
        ("hex_flat", "even", VttSpec("foundry", 100)),  # type 5 (hexEvenQ)
        ("hex_pointy", "odd", VttSpec("owlbear", 150)),  # Owlbear HEX_VERTICAL
        ("hex_flat", "odd", VttSpec("owlbear", 150)),  # Owlbear HEX_HORIZONTAL
    ],
)
def test_points_on_hex_grids_land_where_the_vtt_drew_the_token(
    kind: str, offset: str, vtt: VttSpec
) -> None:
    from geometry.vtt_coords import FoundryHexScene, OwlbearHexScene

    encounter = Encounter()
    grid = GridSpec(20, 20, cell_size=5.0, unit="ft", kind=kind, offset=offset, vtt=vtt)
    hero = token("hero", 4, 4, owner="alice", init=9, movement=40.0)
    encounter.apply(LoadScene("gm", Scene(grid, (hero, token("ogre", 18, 18, init=1)))))
    encounter.apply(StartCombat("gm", "hero-supplement", 1))
    target = (7, 6)
    if vtt.kind == "foundry":
        types = {
            ("hex_pointy", "odd"): 2,
            ("hex_pointy", "even"): 3,
            ("hex_flat", "odd"): 4,
            ("hex_flat", "even"): 5,
        }
        x, y = FoundryHexScene(types[kind, offset], 100, 5.0).token_xy(target)
    else:
        x, y = OwlbearHexScene(150, 5.0, kind == "hex_flat").item_position(target)
    events = encounter.apply(MovePoints("alice", "hero", ((x + 3.0, y - 2.0),)))  # a sloppy drop
    assert isinstance(events[-1], MoveCompleted) and events[-1].at == target


@pytest.mark.parametrize("kind", ["hex_pointy", "hex_flat"])
@pytest.mark.parametrize("size", [2, 3])
def test_an_owlbear_item_larger_than_one_hex_lands_on_its_anchor(kind: str, size: int) -> None:
    # Owlbear draws an item centred on its position; the bridge's hexagon shape of that
    # size, centred there, has its anchor where the move ends (2: the corner of three).
    from geometry.vtt_coords import OwlbearHexScene

    encounter = Encounter()
    grid = GridSpec(20, 20, cell_size=5.0, unit="ft", kind=kind, vtt=VttSpec("owlbear", 150))
    ogre = token("ogre", 4, 4, owner="alice", init=9, movement=60.0, size=size)
    encounter.apply(LoadScene("gm", Scene(grid, (ogre, token("hero", 17, 17, init=1)))))
    encounter.apply(StartCombat("gm", "hero-supplement", 1))
    x, y = OwlbearHexScene(150, 5.0, kind == "hex_flat").item_position((8, 6), size)
    events = encounter.apply(MovePoints("alice", "ogre", ((x - 4.0, y + 3.0),)))  # a sloppy drop
    assert isinstance(events[-1], MoveCompleted) and events[-1].at == (8, 6)
