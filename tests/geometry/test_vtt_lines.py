"""The bridge's traced lines against reference versions of each VTT's rules.

The references below are written here from the VTTs' documentation and observed
behaviour, independently of ``geometry/lines.py`` (different algorithms, so a shared
mistake is unlikely):

* Foundry VTT v13 squares: ``BaseGrid#getDirectPath`` ("the direct path", API docs,
  ``GridMeasurePathResult``: one grid space per step) is Bresenham's line algorithm over
  Foundry's offsets ``{i: row, j: column}``, rows first: the integer all-octant form
  with an error term, as described on Wikipedia's "Bresenham's line algorithm" page
  ("All cases").  With ``CONST.GRID_DIAGONALS.ILLEGAL`` it is a four-connected walk
  (reference: the cells the line crosses in order, a corner crossed column first, as
  Foundry v13 records it: issue 26's (20, 20) -> (21, 23) goes through (21, 21)).
* Foundry hexes (``HexagonalGrid``, ``grid.type`` 2-5): the hex whose centre is nearest
  each of ``n`` points of the segment between the two hex centres in canvas pixels
  (``getCenterPoint``), the k-th a hair past ``k / n``; a segment along hex edges (its
  angle one of the three edge angles) is also pushed a hair perpendicular to itself, the
  way a table of screen angles gives by the edge angle and by whether the parity of one
  cube coordinate of the start matches the grid's even/odd setting.  The reference finds
  the nearest centre by brute force in pixels and classifies lines by their angle; the
  bridge rounds cube coordinates and classifies by cube offsets.  Foundry v13's own
  recorded paths (issue 26's table) pin the rule.
* Foundry costs (``CONST.GRID_DIAGONALS``, API docs): a straight step is one space; a
  diagonal is 1 (EQUIDISTANT), sqrt 2 (EXACT), 1.5 (APPROXIMATE), 2 (RECTILINEAR),
  alternately 1 and 2 starting at 1 (ALTERNATING_1) or at 2 (ALTERNATING_2), counted
  over the whole measured path.
* Owlbear Rodeo (SDK 3.x ``GridMeasurement``): its ruler draws the straight line and
  shows no cells, so the bridge's choice (``NEAREST``) is tested for what Owlbear does
  show: the number of cells the ruler counts for CHEBYSHEV / MANHATTAN, and symmetry.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import (
    DiagonalRule,
    LineRule,
    SquareGrid,
    direct_path,
    threatened_cells,
    trace_waypoints,
    validate_path,
)
from geometry.vtt_coords import FoundryHexScene

Cell = tuple[int, int]
FOUNDRY, NEAREST = LineRule.FOUNDRY, LineRule.NEAREST
WITHIN_8 = [(dx, dy) for dx in range(-8, 9) for dy in range(-8, 9) if (dx, dy) != (0, 0)]
STARTS = [(20, 20), (21, 20), (20, 21), (21, 21)]  # every row/column parity


# -- references ---------------------------------------------------------------------


def foundry_square_reference(a: Cell, b: Cell) -> list[Cell]:
    """Bresenham over (i = row, j = column), rows first (Wikipedia, "All cases")."""
    (j, i), (j1, i1) = a, b
    di, dj = abs(i1 - i), -abs(j1 - j)
    si, sj = (1 if i < i1 else -1), (1 if j < j1 else -1)
    err = di + dj
    out = []
    while (i, j) != (i1, j1):
        e2 = 2 * err
        if e2 >= dj and i != i1:
            err += dj
            i += si
        if e2 <= di and j != j1:
            err += di
            j += sj
        out.append((j, i))
    return out


def foundry_rectilinear_reference(a: Cell, b: Cell) -> list[Cell]:
    """The cells the centre-to-centre segment enters, in order; a corner column first."""
    (x0, y0), (x1, y1) = a, b
    events: list[tuple[Fraction, int]] = []  # (when, axis: 0 = column, 1 = row)
    for k in range(abs(x1 - x0)):
        events.append((Fraction(2 * k + 1, 2 * abs(x1 - x0)), 0))
    for k in range(abs(y1 - y0)):
        events.append((Fraction(2 * k + 1, 2 * abs(y1 - y0)), 1))
    x, y, out = x0, y0, []
    for _, axis in sorted(events):
        if axis == 0:
            x += 1 if x1 > x0 else -1
        else:
            y += 1 if y1 > y0 else -1
        out.append((x, y))
    return out


#: Lines along hex edges, by their angle on screen (degrees, y down, modulo 180): the
#: start's cube coordinate whose parity decides the push, and the push's screen angle
#: when that parity matches the grid's setting (even on an EVEN grid, odd on an ODD one);
#: the opposite way otherwise.  Rows: the vertical line keeps to the start's column.
_EDGE_PUSH = {
    "rows": {90: ("r", 180), 30: ("q+r", -60), 150: ("q", 60)},
    "columns": {0: ("q", -90), 60: ("q+r", 150), 120: ("r", 30)},
}


def _foundry_cube(scene: FoundryHexScene, cell: Cell) -> tuple[int, int]:
    # Offset to cube as Red Blob Games' "offset coordinates" section gives it.
    col, row = cell
    even = scene.grid_type in (3, 5)
    if scene.grid_type in (2, 3):
        return col - (row + (row & 1 if even else -(row & 1))) // 2, row
    return col, row - (col + (col & 1 if even else -(col & 1))) // 2


def foundry_hex_reference(scene: FoundryHexScene, a: Cell, b: Cell, towards: int = 1) -> list[Cell]:
    """Nearest hex centre (in Foundry's canvas pixels) to nudged points of the line.

    ``towards=-1`` pushes a line along edges the other way: it changes a cell of every
    such line of two steps or more.
    """
    (ax, ay), (bx, by) = scene.center_px(a), scene.center_px(b)
    n = scene.grid(1, 1).steps(a, b)
    hair = 1e-4 * scene.grid_size
    angle = round(math.degrees(math.atan2(by - ay, bx - ax)), 6) % 180
    layout = "rows" if scene.grid_type in (2, 3) else "columns"
    px = py = 0.0
    if angle in _EDGE_PUSH[layout]:
        by_coordinate, push = _EDGE_PUSH[layout][angle]
        q, r = _foundry_cube(scene, a)
        value = {"q": q, "r": r, "q+r": q + r}[by_coordinate]
        matches = (value % 2 == 0) == (scene.grid_type in (3, 5))
        way = towards * (1 if matches else -1)
        px = way * hair * math.cos(math.radians(push))
        py = way * hair * math.sin(math.radians(push))
    out = []
    for k in range(1, n + 1):
        t = (k + 1e-4) / n if k < n else 1.0
        out.append(_nearest_centre(scene, ax + (bx - ax) * t + px, ay + (by - ay) * t + py))
    return out


def _nearest_centre(scene: FoundryHexScene, x: float, y: float) -> Cell:
    # Brute force over the 5 x 5 offsets around a rough guess from the pixel spacing.
    long = scene.grid_size * 2 / math.sqrt(3)
    if scene.grid_type in (2, 3):
        guess = (round(x / scene.grid_size), round((y / long - 0.5) / 0.75))
    else:
        guess = (round((x / long - 0.5) / 0.75), round(y / scene.grid_size))
    near = [(guess[0] + i, guess[1] + j) for i in range(-2, 3) for j in range(-2, 3)]
    return min(near, key=lambda c: math.dist(scene.center_px(c), (x, y)))


def foundry_cost_reference(path: list[Cell], rule: str) -> float:
    """Spaces moved, a diagonal priced by Foundry's ``GRID_DIAGONALS`` rule."""
    straight = diagonals = 0
    for (x0, y0), (x1, y1) in pairwise(path):
        if x0 != x1 and y0 != y1:
            diagonals += 1
        else:
            straight += 1
    priced = {
        "EQUIDISTANT": diagonals,
        "EXACT": diagonals * math.sqrt(2),
        "APPROXIMATE": diagonals * 1.5,
        "RECTILINEAR": diagonals * 2,
        "ALTERNATING_1": diagonals + diagonals // 2,
        "ALTERNATING_2": diagonals + (diagonals + 1) // 2,
    }[rule]
    return straight + priced


FOUNDRY_RULES = {
    "EQUIDISTANT": DiagonalRule.ONE,
    "EXACT": DiagonalRule.EUCLIDEAN,
    "APPROXIMATE": DiagonalRule.APPROXIMATE,
    "RECTILINEAR": DiagonalRule.RECTILINEAR,
    "ALTERNATING_1": DiagonalRule.ALTERNATING,
    "ALTERNATING_2": DiagonalRule.ALTERNATING_2,
}


# -- squares ------------------------------------------------------------------------


def test_foundry_squares_match_bresenham_for_every_offset_within_8_cells() -> None:
    grid = SquareGrid(60, 60)
    differ = 0
    for start in STARTS:
        for dx, dy in WITHIN_8:
            end = (start[0] + dx, start[1] + dy)
            ours = direct_path(grid, start, end, FOUNDRY)
            assert ours == foundry_square_reference(start, end), (start, end)
            differ += ours != direct_path(grid, start, end, NEAREST)
    # The independent check's figure: 112 of the 288 offsets go through other cells.
    assert differ == 4 * 112


def test_the_issue_example_goes_through_6_6() -> None:
    assert direct_path(SquareGrid(12, 12), (5, 5), (7, 6), FOUNDRY) == [(6, 6), (7, 6)]
    assert direct_path(SquareGrid(12, 12), (5, 5), (7, 6), NEAREST) == [(6, 5), (7, 6)]


cells = st.tuples(st.integers(0, 39), st.integers(0, 39))


@settings(max_examples=200, deadline=None)
@given(st.lists(cells, min_size=2, max_size=6))
def test_foundry_waypoints_follow_bresenham_leg_by_leg(waypoints: list[Cell]) -> None:
    grid = SquareGrid(40, 40)
    expected = [waypoints[0]]
    for a, b in pairwise(waypoints):
        expected += foundry_square_reference(a, b)
    assert trace_waypoints(grid, waypoints, FOUNDRY) == expected


@settings(max_examples=200, deadline=None)
@given(cells, cells)
def test_the_two_rules_break_every_tie_opposite_ways(a: Cell, b: Cell) -> None:
    # Foundry rounds a tie towards the destination, NEAREST towards the start, so each
    # is the other one walked backwards.
    grid = SquareGrid(40, 40)
    forward = direct_path(grid, a, b, FOUNDRY)
    backward = direct_path(grid, b, a, NEAREST)
    assert forward[:-1] == list(reversed(backward))[1:] if a != b else forward == []


@settings(max_examples=200, deadline=None)
@given(cells, cells)
def test_foundry_illegal_diagonals_walk_four_connected(a: Cell, b: Cell) -> None:
    grid = SquareGrid(40, 40, diagonal=DiagonalRule.NONE)
    ours = direct_path(grid, a, b, FOUNDRY)
    assert ours == foundry_rectilinear_reference(a, b)
    assert len(ours) == abs(a[0] - b[0]) + abs(a[1] - b[1])


def test_foundry_illegal_diagonals_through_every_corner_within_8_cells() -> None:
    grid = SquareGrid(60, 60, diagonal=DiagonalRule.NONE)
    for dx, dy in WITHIN_8:
        end = (20 + dx, 20 + dy)
        assert direct_path(grid, (20, 20), end, FOUNDRY) == foundry_rectilinear_reference(
            (20, 20), end
        )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(cells, min_size=2, max_size=5),
    st.sampled_from(sorted(FOUNDRY_RULES)),
)
def test_foundry_costs_for_every_diagonal_rule(waypoints: list[Cell], rule: str) -> None:
    grid = SquareGrid(40, 40, 5.0, "ft", FOUNDRY_RULES[rule])
    path = trace_waypoints(grid, waypoints, FOUNDRY)
    if len(path) < 2:
        return
    expected = 5.0 * foundry_cost_reference(path, rule)
    assert math.isclose(validate_path(grid, path), expected)
    assert math.isclose(grid.path_cost(path), expected)


@settings(max_examples=200, deadline=None)
@given(cells, cells, st.sampled_from(sorted(set(FOUNDRY_RULES) - {"EXACT"})))
def test_distance_is_foundrys_measure_of_the_direct_path(a: Cell, b: Cell, rule: str) -> None:
    # Not EXACT: there the bridge's distance (used for reach) is the straight line
    # between centres, shorter than Foundry's measured path of sqrt 2 diagonals; a
    # move's cost is the same under both (test above).
    grid = SquareGrid(40, 40, 5.0, "ft", FOUNDRY_RULES[rule])
    path = [a, *direct_path(grid, a, b, FOUNDRY)]
    assert math.isclose(grid.distance(a, b), 5.0 * foundry_cost_reference(path, rule))


@pytest.mark.parametrize("size", [2, 3, 4])
def test_a_large_token_follows_the_path_of_its_centre_as_of_its_corner(size: int) -> None:
    # Foundry measures a token between its centre points; its top-left cell moves the
    # same way, because Bresenham does not care where the line starts.
    grid = SquareGrid(60, 60)
    shift = size // 2  # the cell under the centre (a vertex for even sizes rounds down-right)
    for dx, dy in WITHIN_8:
        start, end = (20, 20), (20 + dx, 20 + dy)
        corner = direct_path(grid, start, end, FOUNDRY)
        centre = foundry_square_reference(
            (20 + shift, 20 + shift), (end[0] + shift, end[1] + shift)
        )
        assert corner == [(x - shift, y - shift) for x, y in centre]


# -- hexes --------------------------------------------------------------------------


@pytest.mark.parametrize("grid_type", [2, 3, 4, 5])
def test_foundry_hexes_match_the_reference_for_every_line_within_8(grid_type: int) -> None:
    scene = FoundryHexScene(grid_type, grid_size=100, grid_distance=5.0)
    grid = scene.grid(60, 60)
    ties = along_edges = 0
    for start in STARTS:
        for dx, dy in WITHIN_8:
            end = (start[0] + dx, start[1] + dy)
            ours = direct_path(grid, start, end, FOUNDRY)
            assert ours == foundry_hex_reference(scene, start, end), (start, end)
            # A line along edges of two steps or more has a tie: pushing the other way
            # changes a cell; no other line has one.
            ties += ours != foundry_hex_reference(scene, start, end, towards=-1)
            along_edges += _runs_along_edges(scene, start, end) and grid.steps(start, end) > 1
    assert ties == along_edges > 0


def _runs_along_edges(scene: FoundryHexScene, a: Cell, b: Cell) -> bool:
    (ax, ay), (bx, by) = scene.center_px(a), scene.center_px(b)
    angle = round(math.degrees(math.atan2(by - ay, bx - ax)), 6) % 180
    return angle in _EDGE_PUSH["rows" if scene.grid_type in (2, 3) else "columns"]


# Foundry v13's recorded paths (issue 26): the cells between the two, the end excluded.
FOUNDRY_RECORDED_HEX = [
    (2, (20, 20), (16, 19), [(19, 20), (18, 20), (17, 19)]),
    (2, (20, 20), (16, 21), [(19, 20), (18, 20), (17, 21)]),
    (3, (20, 20), (16, 17), [(20, 19), (19, 19), (18, 18), (17, 18), (17, 17)]),
    (4, (20, 20), (16, 19), [(19, 19), (18, 19), (17, 19)]),
    (5, (20, 20), (17, 16), [(19, 20), (19, 19), (18, 18), (18, 17), (17, 17)]),
]


@pytest.mark.parametrize(("grid_type", "start", "end", "between"), FOUNDRY_RECORDED_HEX)
def test_foundrys_recorded_hex_paths(
    grid_type: int, start: Cell, end: Cell, between: list[Cell]
) -> None:
    grid = FoundryHexScene(grid_type, 100, 5.0).grid(60, 60)
    assert direct_path(grid, start, end, FOUNDRY) == [*between, end]


@pytest.mark.parametrize(
    ("start", "end", "between"),
    [
        ((20, 20), (12, 12), [(19, 20), (19, 19), (18, 19), (18, 18), (17, 18), (17, 17)]),
        ((20, 20), (21, 23), [(20, 21), (21, 21), (21, 22)]),
    ],
)
def test_foundrys_recorded_square_paths_without_diagonals(
    start: Cell, end: Cell, between: list[Cell]
) -> None:
    # Issue 26 gives the first four cells of the long drag; the walk goes on alike.
    path = direct_path(SquareGrid(60, 60, diagonal=DiagonalRule.NONE), start, end, FOUNDRY)
    assert path[: len(between)] == between and path[-1] == end


hex_types = st.sampled_from([2, 3, 4, 5])
hex_cells = st.tuples(st.integers(4, 40), st.integers(4, 40))


@settings(max_examples=200, deadline=None)
@given(hex_types, st.sampled_from([50.0, 100.0, 140.0]), hex_cells, hex_cells)
def test_foundry_hex_waypoints_follow_the_reference_far_apart(
    grid_type: int, size: float, a: Cell, b: Cell
) -> None:
    scene = FoundryHexScene(grid_type, size, 5.0)
    assert direct_path(scene.grid(50, 50), a, b, FOUNDRY) == foundry_hex_reference(scene, a, b)


@settings(max_examples=200, deadline=None)
@given(hex_types, hex_cells, hex_cells)
def test_a_foundry_hex_path_is_a_chain_of_neighbours(grid_type: int, a: Cell, b: Cell) -> None:
    grid = FoundryHexScene(grid_type, 100, 5.0).grid(50, 50)
    path = [a, *direct_path(grid, a, b, FOUNDRY)]
    assert path[-1] == b and len(path) == grid.steps(a, b) + 1
    assert all(grid.adjacent(p, q) for p, q in pairwise(path))


@settings(max_examples=200, deadline=None)
@given(hex_types, hex_cells, st.integers(1, 8), st.booleans())
def test_a_drag_across_the_staggered_lines_keeps_to_the_start_s_own(
    grid_type: int, start: Cell, rows: int, backwards: bool
) -> None:
    # Foundry: a line straight across the staggered rows (columns) does not leave the
    # start's column (row): two rows (columns) further on is the same column (row).
    grid = FoundryHexScene(grid_type, 100, 5.0).grid(60, 60)
    step = -2 * rows if backwards else 2 * rows
    pointy = grid_type in (2, 3)
    end = (start[0], start[1] + step) if pointy else (start[0] + step, start[1])
    path = direct_path(grid, start, end, FOUNDRY)
    assert {cell[0] if pointy else cell[1] for cell in path} == {start[0] if pointy else start[1]}


@settings(max_examples=200, deadline=None)
@given(hex_types, st.integers(6, 14), st.integers(6, 14), st.integers(1, 6), st.booleans())
def test_edge_lines_from_an_all_even_hex_are_turned_copies(
    grid_type: int, q2: int, r2: int, length: int, backwards: bool
) -> None:
    # Foundry: the slanting edge lines are the one across the staggered axis turned by
    # 120 degrees about a start whose cube coordinates are all even (so the parities
    # that decide the three pushes agree).
    grid = FoundryHexScene(grid_type, 100, 5.0).grid(60, 60)
    q0, r0 = 2 * q2, 2 * r2
    start = grid.from_cube((q0, r0, -q0 - r0))

    def turn(dq: int, dr: int) -> tuple[int, int]:
        return (-dq - dr, dq)  # cube (q, r, s) -> (s, q, r) about the start

    def walk(dq: int, dr: int) -> list[tuple[int, int]]:
        end = grid.from_cube((q0 + dq, r0 + dr, -q0 - r0 - dq - dr))
        cubes = [grid.to_cube(cell) for cell in direct_path(grid, start, end, FOUNDRY)]
        return [(q - q0, r - r0) for q, r, _ in cubes]

    sign = -length if backwards else length
    line = (sign, -2 * sign)
    for _ in range(3):
        assert walk(*turn(*line)) == [turn(*cell) for cell in walk(*line)]
        line = turn(*line)


@settings(max_examples=200, deadline=None)
@given(hex_types, hex_cells, hex_cells, st.integers(-3, 3), st.integers(-3, 3))
def test_a_foundry_hex_path_moves_with_its_ends(
    grid_type: int, a: Cell, b: Cell, half_q: int, half_r: int
) -> None:
    # Moved by a cube offset with even q and r, every parity the push reads is kept, so
    # the path moves with its ends.
    grid = FoundryHexScene(grid_type, 100, 5.0).grid(60, 60)
    dq, dr = 2 * half_q, 2 * half_r

    def moved(cell: Cell) -> Cell:
        q, r, s = grid.to_cube(cell)
        return grid.from_cube((q + dq, r + dr, s - dq - dr))

    path = direct_path(grid, a, b, FOUNDRY)
    assert direct_path(grid, moved(a), moved(b), FOUNDRY) == [moved(c) for c in path]


@pytest.mark.parametrize(
    ("rule", "reached"),
    [
        (DiagonalRule.ONE, 8),
        (DiagonalRule.ALTERNATING, 8),
        (DiagonalRule.EUCLIDEAN, 8),
        # A diagonal neighbour is 1.5 / 2 / 2 squares away: beyond a one-square reach.
        (DiagonalRule.APPROXIMATE, 4),
        (DiagonalRule.RECTILINEAR, 4),
        (DiagonalRule.ALTERNATING_2, 4),
        (DiagonalRule.NONE, 4),
    ],
)
def test_a_one_square_reach_under_each_foundry_rule(rule: DiagonalRule, reached: int) -> None:
    grid = SquareGrid(9, 9, 5.0, "ft", rule)
    assert len(threatened_cells(grid, (4, 4), 1, 5.0)) == reached
