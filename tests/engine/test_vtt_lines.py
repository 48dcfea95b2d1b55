"""A drag is resolved through the cells the scene's VTT moves the token through.

The issue's example: 5 ft squares, a token dragged from (5, 5) to (7, 6), an enemy at
(7, 4) with 5 ft reach.  Foundry's direct path (``BaseGrid#getDirectPath``, Bresenham
on squares) goes through (6, 6), outside the enemy's reach, so a Foundry table sees no
attack of opportunity; the straight line passes exactly through the corner between
(6, 5) and (6, 6), and the bridge's own nearest-cell rule (used for Owlbear, whose ruler
shows no cells) goes through (6, 5) instead.
"""

from __future__ import annotations

import pytest

from engine import (
    CommandRejected,
    Encounter,
    GridSpec,
    LoadScene,
    Move,
    MovePoints,
    Scene,
    StartCombat,
    VttSpec,
)
from engine.events import Event, MoveCompleted, MoveStarted
from geometry import trace_waypoints
from geometry.vtt_coords import FoundryHexScene, FoundryScene, OwlbearImageGrid, OwlbearScene
from tests.engine.helpers import token


def encounter(grid: GridSpec, *tokens_at: tuple[str, int, int, int]) -> Encounter:
    """A 5 ft scene with the hero (alice's, acting first) and an ogre with 5 ft reach."""
    tokens = [
        token(
            tid,
            x,
            y,
            owner="alice" if tid == "hero" else "gm",
            init=9 if tid == "hero" else 1,
            reach=5.0,
            movement=60.0,
            size=size,
        )
        for tid, x, y, size in tokens_at
    ]
    e = Encounter()
    e.apply(LoadScene("gm", Scene(grid, tuple(tokens))))
    e.apply(StartCombat("gm", "hero-supplement", 1))
    return e


def kinds(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def example(vtt: VttSpec | None, **grid: object) -> Encounter:
    spec = GridSpec(12, 12, cell_size=5.0, unit="ft", vtt=vtt, **grid)  # type: ignore[arg-type]
    return encounter(spec, ("hero", 5, 5, 1), ("ogre", 7, 4, 1))


def test_the_issue_example_does_not_provoke_on_a_foundry_scene() -> None:
    scene = FoundryScene(grid_size=100, grid_distance=5.0, scene_x=300, scene_y=200)
    e = example(VttSpec("foundry", 100, 300, 200))
    events = e.apply(MovePoints("alice", "hero", (scene.token_xy((7, 6)),)))
    started = events[0]
    assert isinstance(started, MoveStarted) and started.path == ((6, 6), (7, 6))
    assert "PromptOpened" not in kinds(events)
    assert isinstance(events[-1], MoveCompleted) and events[-1].at == (7, 6)


def test_the_same_cells_given_the_other_way_round_the_corner_do_provoke() -> None:
    # The control: the cells the old tie rule chose really are threatened.
    e = example(VttSpec("foundry", 100))
    events = e.apply(Move("alice", "hero", ((6, 5), (7, 6))))
    assert "PromptOpened" in kinds(events)


def test_owlbear_follows_the_documented_nearest_cell_choice() -> None:
    # Owlbear's ruler shows no cells; the bridge's choice breaks the tie towards the start.
    owlbear = OwlbearScene(dpi=150, cell_size=5.0)
    e = example(VttSpec("owlbear", 150))
    events = e.apply(MovePoints("alice", "hero", (owlbear.item_position((7, 6)),)))
    started = events[0]
    assert isinstance(started, MoveStarted) and started.path == ((6, 5), (7, 6))
    assert "PromptOpened" in kinds(events)


def test_foundry_diagonal_rules_price_the_drag() -> None:
    # (5,5) -> (7,6): one diagonal and one straight step on Foundry's path.
    for rule, cost in (
        ("approximate", 12.5),  # 5 * 1.5 + 5
        ("rectilinear", 15.0),  # 5 * 2 + 5
        ("alternating_2", 15.0),  # the first diagonal is a "10"
        ("alternating", 10.0),  # the first diagonal is a "5"
    ):
        e = example(VttSpec("foundry", 100), diagonal=rule)
        events = e.apply(MovePoints("alice", "hero", ((700.0, 600.0),)))
        assert isinstance(events[-1], MoveCompleted) and events[-1].cost == cost, rule


def test_a_large_foundry_token_moves_along_its_top_left_path() -> None:
    # A 2x2 token dragged by one diagonal-and-a-half: Bresenham of its top-left cells.
    spec = GridSpec(14, 14, cell_size=5.0, unit="ft", vtt=VttSpec("foundry", 100))
    e = encounter(spec, ("hero", 1, 1, 2), ("ogre", 12, 12, 1))
    events = e.apply(MovePoints("alice", "hero", ((300.0, 200.0),)))
    started = events[0]
    assert isinstance(started, MoveStarted) and started.path == ((2, 2), (3, 2))


def test_foundry_hex_cells_ignore_the_padding_and_large_tokens_use_their_shape() -> None:
    # Foundry hexOddR (type 2); the scene's padding plays no part in hex cells.
    hexes = FoundryHexScene(grid_type=2, grid_size=100, grid_distance=5.0)
    spec = GridSpec(
        14, 14, cell_size=5.0, unit="ft", kind="hex_pointy", vtt=VttSpec("foundry", 100, 350, 350)
    )
    e = encounter(spec, ("hero", 2, 2, 3), ("ogre", 12, 12, 1))
    # Foundry's default shape, RECTANGLE_1: a size-3 token covers 3 + 2 + 3 hexes.
    assert len(spec.build().footprint((2, 2), 3)) == 8
    x, y = hexes.token_xy((4, 2), 3)
    events = e.apply(MovePoints("alice", "hero", ((x, y),)))
    started = events[0]
    assert isinstance(started, MoveStarted) and started.path == ((3, 2), (4, 2))


def test_an_owlbear_item_is_placed_by_its_own_image_grid() -> None:
    # A 2-cell item built with the SDK's default offset (0, 0): its position is its
    # top-left corner, so reading it as the centre would put it one cell up and left.
    owlbear = OwlbearScene(dpi=150, cell_size=5.0)
    image = OwlbearImageGrid(offset_x=0, offset_y=0, dpi=300)
    spec = GridSpec(14, 14, cell_size=5.0, unit="ft", vtt=VttSpec("owlbear", 150))
    e = encounter(spec, ("hero", 2, 2, 2), ("ogre", 12, 12, 1))
    target = owlbear.item_position((4, 2), 2, image)
    assert target == (600.0, 300.0)
    assert owlbear.item_origin(*target, 2) == (3, 1)  # the centre reading: one cell off
    events = e.apply(MovePoints("alice", "hero", (target,), image=image))
    started = events[0]
    assert isinstance(started, MoveStarted) and started.path == ((3, 2), (4, 2))


def test_padding_moves_square_cells_but_not_hex_cells() -> None:
    def path(kind: str, pad: float, point: tuple[float, float]) -> tuple[tuple[int, int], ...]:
        spec = GridSpec(
            14, 14, cell_size=5.0, unit="ft", kind=kind, vtt=VttSpec("foundry", 100, pad, pad)
        )
        e = encounter(spec, ("hero", 2, 2, 1), ("ogre", 12, 12, 1))
        started = e.apply(MovePoints("alice", "hero", (point,)))[0]
        assert isinstance(started, MoveStarted)
        return started.path

    hexes = FoundryHexScene(grid_type=2, grid_size=100, grid_distance=5.0)
    target = hexes.token_xy((4, 2))
    assert path("hex_pointy", 0, target) == path("hex_pointy", 200, target) == ((3, 2), (4, 2))
    assert path("square", 0, (400.0, 200.0)) == ((3, 2), (4, 2))
    assert path("square", 200, (600.0, 400.0)) == ((3, 2), (4, 2))


def test_an_image_grid_outside_owlbear_squares_is_refused_and_changes_nothing() -> None:
    spec = GridSpec(14, 14, cell_size=5.0, unit="ft", vtt=VttSpec("foundry", 100))
    e = encounter(spec, ("hero", 2, 2, 1), ("ogre", 12, 12, 1))
    before = e.state
    with pytest.raises(CommandRejected) as refusal:
        e.apply(MovePoints("alice", "hero", ((400.0, 200.0),), image=OwlbearImageGrid(0, 0, 150)))
    assert refusal.value.code == "illegal_move" and "Owlbear" in refusal.value.message
    assert e.state == before


def test_a_drag_along_hex_edges_follows_foundrys_nudge() -> None:
    # hexOddR: from (5, 5), a pushed row, straight down two rows to (5, 7).  The line
    # runs along the edge between (5, 6) and (6, 6); Foundry keeps the offset column
    # and passes (5, 6), out of reach of the ogre at (7, 6), which threatens (6, 6).
    hexes = FoundryHexScene(grid_type=2, grid_size=100, grid_distance=5.0)
    foundry = GridSpec(
        14, 14, cell_size=5.0, unit="ft", kind="hex_pointy", vtt=VttSpec("foundry", 100)
    )
    e = encounter(foundry, ("hero", 5, 5, 1), ("ogre", 7, 6, 1))
    events = e.apply(MovePoints("alice", "hero", (hexes.token_xy((5, 7)),)))
    started = events[0]
    assert isinstance(started, MoveStarted) and started.path == ((5, 6), (5, 7))
    assert "PromptOpened" not in kinds(events)
    # The bridge's own rule (no VTT named) breaks the tie the other way and provokes.
    plain = GridSpec(14, 14, cell_size=5.0, unit="ft", kind="hex_pointy")
    e = encounter(plain, ("hero", 5, 5, 1), ("ogre", 7, 6, 1))
    path = tuple(trace_waypoints(plain.build(), [(5, 5), (5, 7)])[1:])
    assert path == ((6, 6), (5, 7))
    assert "PromptOpened" in kinds(e.apply(Move("alice", "hero", path)))
