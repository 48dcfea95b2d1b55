"""Square grids: the kept API, each diagonal rule, distance and cost properties."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geometry import DiagonalRule, GeometryError, SquareGrid

RULES = list(DiagonalRule)
coords = st.integers(min_value=-30, max_value=30)
cells = st.tuples(coords, coords)


def test_defaults_keep_the_original_semantics() -> None:
    grid = SquareGrid(10, 8)
    assert (grid.cell_size, grid.unit, grid.diagonal) == (1.0, "m", DiagonalRule.ONE)
    assert grid.contains((9, 7)) and not grid.contains((10, 0))
    assert grid.center((2, 3)) == (2.5, 3.5)
    assert grid.cell_polygon((1, 1)).bounds == (1.0, 1.0, 2.0, 2.0)
    assert grid.step_cost((0, 0), (1, 1)) == 1.0
    assert grid.distance((0, 0), (3, 7)) == 7.0
    with pytest.raises(GeometryError, match=r"\(10, 0\)"):
        grid.require((10, 0))
    with pytest.raises(GeometryError, match="not between adjacent"):
        grid.step_cost((0, 0), (2, 0))


@pytest.mark.parametrize(
    ("rule", "offset", "expected"),
    [
        (DiagonalRule.ONE, (3, 2), 3),  # Cyberpunk RED: diagonals too, one square each
        (DiagonalRule.ALTERNATING, (2, 2), 3),  # 1 + 2
        (DiagonalRule.ALTERNATING, (3, 3), 4),  # 1 + 2 + 1
        (DiagonalRule.ALTERNATING, (5, 1), 5),  # one diagonal is a "1"
        (DiagonalRule.EUCLIDEAN, (3, 4), 5),  # straight line between centres
        (DiagonalRule.NONE, (3, 2), 5),  # Manhattan
    ],
)
def test_distance_under_each_rule(
    rule: DiagonalRule, offset: tuple[int, int], expected: float
) -> None:
    grid = SquareGrid(20, 20, 2.0, diagonal=rule)
    assert grid.distance((0, 0), offset) == pytest.approx(expected * 2.0)


def test_alternating_step_cost_depends_on_diagonals_before() -> None:
    grid = SquareGrid(10, 10, 5.0, "ft", DiagonalRule.ALTERNATING)
    path = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 3)]
    assert grid.path_cost(path) == 5 + 10 + 5 + 5
    assert grid.step_cost((0, 0), (1, 1), diagonals_before=1) == 10


def test_no_diagonal_rule_refuses_diagonal_steps() -> None:
    grid = SquareGrid(5, 5, diagonal=DiagonalRule.NONE)
    assert len(grid.neighbours((2, 2))) == 4
    with pytest.raises(GeometryError):
        grid.step_cost((0, 0), (1, 1))


def test_sizes_and_units_of_real_scenes() -> None:
    assert SquareGrid(10, 10, 2.0).distance((0, 0), (3, 1)) == 6.0  # CPR 2 m squares
    assert SquareGrid(10, 10, 5.0, "ft").center((1, 0)) == (7.5, 2.5)  # d20 5 ft
    with pytest.raises(GeometryError, match="cell_size"):
        SquareGrid(3, 3, 0.0)


@pytest.mark.parametrize("rule", RULES)
@given(a=cells, b=cells)
def test_distance_is_symmetric(rule: DiagonalRule, a: tuple[int, int], b: tuple[int, int]) -> None:
    grid = SquareGrid(5, 5, 1.5, diagonal=rule)
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)


@pytest.mark.parametrize("rule", RULES)
@given(a=cells, b=cells, c=cells)
def test_triangle_inequality_of_each_rule(
    rule: DiagonalRule, a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]
) -> None:
    grid = SquareGrid(5, 5, 1.0, diagonal=rule)
    # 1-2-1 rounds each leg's diagonals down, so it may exceed the sum by one square.
    slack = 1.0 if rule is DiagonalRule.ALTERNATING else 1e-9
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c) + slack


@st.composite
def walks(draw: st.DrawFn, diagonals: bool = True) -> list[tuple[int, int]]:
    steps = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    if diagonals:
        steps += [(1, 1), (-1, 1), (-1, -1), (1, -1)]
    path = [(draw(coords), draw(coords))]
    for d in draw(st.lists(st.sampled_from(steps), min_size=1, max_size=20)):
        path.append((path[-1][0] + d[0], path[-1][1] + d[1]))
    return path


@pytest.mark.parametrize("rule", RULES)
@given(data=st.data())
def test_path_cost_is_additive_over_sub_paths(rule: DiagonalRule, data: st.DataObject) -> None:
    grid = SquareGrid(5, 5, 2.0, diagonal=rule)
    path = data.draw(walks(diagonals=rule is not DiagonalRule.NONE))
    k = data.draw(st.integers(min_value=0, max_value=len(path) - 1))
    head, tail = path[: k + 1], path[k:]
    diagonals = sum(1 for a, b in pairwise(head) if a[0] != b[0] and a[1] != b[1])
    total = grid.path_cost(head) + grid.path_cost(tail, diagonals_before=diagonals)
    assert math.isclose(total, grid.path_cost(path))
    # and a path never costs less than the distance it covers
    assert grid.path_cost(path) >= grid.distance(path[0], path[-1]) - 1e-9
