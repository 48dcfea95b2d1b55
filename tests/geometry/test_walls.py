"""The wall rule: crossing blocks, grazing an end does not, corners block, doors toggle."""

from __future__ import annotations

import numpy as np
import pytest

from geometry import (
    BlockMode,
    DiagonalRule,
    Door,
    GeometryError,
    SquareGrid,
    StepBlocker,
    Wall,
    WallSet,
)
from geometry.sight import creatures_see, line_of_sight


def pillar(x: int, y: int) -> list[Wall]:
    """Four walls around the 1 m cell (x, y)."""
    return [
        Wall((x, y), (x + 1, y)),
        Wall((x + 1, y), (x + 1, y + 1)),
        Wall((x + 1, y + 1), (x, y + 1)),
        Wall((x, y + 1), (x, y)),
    ]


@pytest.mark.parametrize(
    ("walls", "p", "q", "blocked"),
    [
        ([Wall((1, 0), (1, 2))], (0.5, 0.5), (1.5, 0.5), True),  # crosses a wall
        ([Wall((1, 0), (1, 2))], (0.5, 0.5), (0.5, 1.5), False),  # beside it
        ([Wall((1, 0.5), (1, 2))], (0.5, 0.5), (1.5, 0.5), False),  # grazes its end
        ([Wall((0, 0.5), (2, 0.5))], (0.5, 0.5), (1.5, 0.5), True),  # runs along it
        (pillar(1, 0), (0.5, 0.5), (1.5, 1.5), False),  # grazes one pillar's corner
        (pillar(1, 0) + pillar(0, 1), (0.5, 0.5), (1.5, 1.5), True),  # between two pillars
        # an L of two separate walls meeting at the corner the line goes through
        ([Wall((1, 1), (1, 5)), Wall((1, 1), (5, 1))], (0.5, 0.5), (1.5, 1.5), True),
        # two walls meeting at a point, both on the same side: still a graze
        ([Wall((1, 1), (1, 0)), Wall((1, 1), (2, 1))], (0.5, 0.5), (1.5, 1.5), False),
        ([Wall((1, 0), (1, 2), blocks_move=False)], (0.5, 0.5), (1.5, 0.5), False),  # curtain
    ],
)
def test_movement_segment_rule(
    walls: list[Wall], p: tuple[float, float], q: tuple[float, float], blocked: bool
) -> None:
    ws = WallSet(walls)
    assert ws.segment_blocked(p, q, BlockMode.MOVE) is blocked
    got = ws.blocked_many(np.array([p]), np.array([q]), BlockMode.MOVE)
    assert bool(got[0]) is blocked


def test_window_and_curtain_modes() -> None:
    window = WallSet([Wall((1, 0), (1, 2), blocks_sight=False)])
    assert window.segment_blocked((0.5, 0.5), (1.5, 0.5), BlockMode.MOVE)
    assert not window.segment_blocked((0.5, 0.5), (1.5, 0.5), BlockMode.SIGHT)
    assert window.segment_blocked((0.5, 0.5), (1.5, 0.5), BlockMode.REACH)
    assert line_of_sight(window, (0.5, 0.5), (1.5, 0.5))


def test_doors_open_and_close_without_rebuilding() -> None:
    grid = SquareGrid(4, 4)
    walls = WallSet({"door": Door((1, 0), (1, 1)), "w": Wall((1, 1), (1, 4))})
    blocker = StepBlocker(grid, walls)
    assert blocker.blocked((0, 0), (1, 0))
    tree = walls.tree
    walls.set_door("door", True)
    blocker.refresh(["door"])
    assert walls.tree is tree
    assert not blocker.blocked((0, 0), (1, 0))
    assert blocker.blocked((0, 1), (1, 1))
    assert line_of_sight(walls, (0.5, 0.5), (1.5, 0.5))
    walls.set_door("door", False)
    blocker.refresh(["door"])
    assert blocker.blocked((1, 0), (0, 0))
    with pytest.raises(GeometryError, match="'w' is not a door"):
        walls.set_door("w", True)
    with pytest.raises(GeometryError, match="unknown wall 'nope'"):
        walls.get("nope")


def test_step_blocker_squeeze_rule() -> None:
    grid = SquareGrid(5, 5)
    both = StepBlocker(grid, WallSet(pillar(1, 0) + pillar(0, 1)))
    assert both.blocked((0, 0), (1, 1))  # squeeze between two blocking corners
    # pillars one cell apart diagonally with a sliver of a gap: still a squeeze on a grid
    shrunk = [
        Wall((1.05, 0.05), (1.95, 0.05)),
        Wall((1.95, 0.05), (1.95, 0.95)),
        Wall((1.95, 0.95), (1.05, 0.95)),
        Wall((1.05, 0.95), (1.05, 0.05)),
        Wall((0.05, 1.05), (0.95, 1.05)),
        Wall((0.95, 1.05), (0.95, 1.95)),
        Wall((0.95, 1.95), (0.05, 1.95)),
        Wall((0.05, 1.95), (0.05, 1.05)),
    ]
    near = StepBlocker(grid, WallSet(shrunk))
    assert near.blocked((0, 0), (1, 1))
    assert not WallSet(shrunk).segment_blocked((0.5, 0.5), (1.5, 1.5), BlockMode.MOVE)
    one = StepBlocker(grid, WallSet(pillar(1, 0)))
    assert not one.blocked((0, 0), (1, 1))
    assert one.blocked((0, 0), (1, 0))


def test_step_blocker_matches_direct_rule_on_random_walls() -> None:
    rng = np.random.default_rng(5)
    grid = SquareGrid(12, 12, diagonal=DiagonalRule.ONE)
    walls = []
    for _ in range(40):
        x, y = (int(v) for v in rng.integers(0, 12, 2))
        end = (
            (x + int(rng.integers(1, 3)), y)
            if rng.random() < 0.5
            else (x, y + int(rng.integers(1, 3)))
        )
        walls.append(Wall((x, y), end))
    ws = WallSet(walls)
    blocker = StepBlocker(grid, ws)
    from geometry.path import step_blocked

    for cell in grid.cells():
        for n in grid.neighbours(cell):
            assert blocker.blocked(cell, n) == step_blocked(grid, ws, cell, n), (cell, n)


def test_creatures_see_past_a_pillar() -> None:
    grid = SquareGrid(10, 10)
    walls = WallSet(pillar(4, 4))
    assert not creatures_see(grid, walls, (2, 4), (6, 4))
    assert creatures_see(grid, walls, (2, 3), (6, 4), size_a=2)  # the top row looks over it
    assert creatures_see(grid, walls, (2, 2), (6, 2))


def test_wall_needs_two_points() -> None:
    with pytest.raises(GeometryError, match="distinct"):
        Wall((1, 1), (1, 1))
