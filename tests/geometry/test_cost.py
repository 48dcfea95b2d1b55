"""``geometry.cost.most_walls_near`` is an upper bound: no box of the side asked,
wherever it stands on the map, meets more walls than it says, on any grid kind; and a
box at the densest spot is not far under it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import HexGrid, SquareGrid
from geometry.cost import most_walls_near, reach_box_side, reach_span, threat_cost_ms
from geometry.grid import Grid

GRIDS: dict[str, Grid] = {
    "square": SquareGrid(60, 40, 1.5),
    "hex": HexGrid(30, 50, 2.0),
    "large": SquareGrid(1000, 700),  # blocks of several cells
}

POINT = st.tuples(st.floats(-5, 1600, allow_nan=False), st.floats(-5, 1100, allow_nan=False))
SHORT = st.tuples(POINT, st.floats(-20, 20), st.floats(-20, 20)).map(
    lambda w: (w[0], (w[0][0] + w[1], w[0][1] + w[2]))
)
WALLS = st.lists(st.tuples(POINT, POINT) | SHORT, max_size=40)


def meets(
    wall: tuple[tuple[float, float], tuple[float, float]], x: float, y: float, side: float
) -> bool:
    (ax, ay), (bx, by) = wall
    return (
        min(ax, bx) <= x + side
        and max(ax, bx) >= x
        and min(ay, by) <= y + side
        and max(ay, by) >= y
    )


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(sorted(GRIDS)),
    walls=WALLS,
    side=st.floats(0.5, 400),
    corner=st.tuples(st.floats(0, 1), st.floats(0, 1)),
)
def test_no_box_meets_more_walls_than_the_bound(
    kind: str,
    walls: list[tuple[tuple[float, float], tuple[float, float]]],
    side: float,
    corner: tuple[float, float],
) -> None:
    grid = GRIDS[kind]
    left, top, right, bottom = grid.bounds()
    bound = most_walls_near(grid, walls, [side])[side]
    # Boxes at a random spot and at every wall's corner (where counts peak).
    spots = [(left + corner[0] * (right - left), top + corner[1] * (bottom - top))]
    spots += [(min(a[0], b[0]), min(a[1], b[1])) for a, b in walls]
    spots += [(max(a[0], b[0]) - side, max(a[1], b[1]) - side) for a, b in walls]
    for x, y in spots:
        if left <= x <= right and top <= y <= bottom:
            assert sum(meets(w, x, y, side) for w in walls) <= bound
    assert bound <= len(walls)


def test_a_heap_of_walls_is_counted_whole_and_once() -> None:
    grid = SquareGrid(400, 400)
    heap = [((100 + 0.1 * i, 100.0), (100 + 0.1 * i + 0.05, 100.0)) for i in range(50)]
    far = [((300 + 0.1 * i, 300.0), (300 + 0.1 * i + 0.05, 300.0)) for i in range(20)]
    side = reach_box_side(grid, 1, 2.0)
    assert most_walls_near(grid, heap + far, [side]) == {side: 50}
    assert most_walls_near(grid, heap + far, [1000.0]) == {1000.0: 70}
    assert most_walls_near(grid, [], [side]) == {side: 0}


def test_the_price_grows_with_cells_and_walls() -> None:
    grid = SquareGrid(400, 400)
    span = reach_span(grid, 1, 10.0)
    assert span == 21 * 21
    assert threat_cost_ms(grid, span, 0) < threat_cost_ms(grid, span, 1)
    assert threat_cost_ms(grid, span, 10) < threat_cost_ms(grid, span, 20)
    assert threat_cost_ms(grid, 4 * span, 10) > 3 * threat_cost_ms(grid, span, 10)
    assert threat_cost_ms(HexGrid(40, 40), span, 0) > threat_cost_ms(grid, span, 0)
