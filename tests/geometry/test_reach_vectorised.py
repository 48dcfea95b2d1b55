"""The square grid's reach-through-walls test in numpy (``geometry.reach._unblocked_square``)
answers exactly as the line-by-line test every grid kind uses (``_unblocked_lines``):
random small scenes of walls, windows, doors, corners and pillars, tokens of every size
and reach, every diagonal rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import Door, SquareGrid, Wall, WallSet
from geometry.reach import _unblocked_lines, _unblocked_square, reach_pairs
from geometry.square import DiagonalRule

SIDE = 14

#: Walls on the grid lines and the cell centres' half-lines, so that reach lines graze
#: wall ends and pass through junctions (rules 2 and 3), not only cross walls.
ENDS = st.tuples(st.integers(0, 2 * SIDE), st.integers(0, 2 * SIDE)).map(
    lambda p: (p[0] / 2, p[1] / 2)
)
BARRIERS = st.lists(
    st.tuples(ENDS, ENDS, st.sampled_from(["wall", "window", "veil", "open", "closed"])).filter(
        lambda w: w[0] != w[1]
    ),
    max_size=12,
)


def wall_set(barriers: list[tuple[tuple[float, float], tuple[float, float], str]]) -> WallSet:
    out: dict[str, Wall | Door] = {}
    for i, (a, b, kind) in enumerate(barriers):
        if kind in ("open", "closed"):
            out[f"w{i}"] = Door(a, b, kind == "open")
        else:
            out[f"w{i}"] = Wall(a, b, kind != "veil", kind != "window")
    return WallSet(out)


@settings(max_examples=300, deadline=None)
@given(
    barriers=BARRIERS,
    x=st.integers(0, SIDE - 1),
    y=st.integers(0, SIDE - 1),
    size=st.integers(1, 3),
    reach=st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0, 5.0]),
    diagonal=st.sampled_from(list(DiagonalRule)),
    cell_size=st.sampled_from([1.0, 1.5]),
)
def test_the_vectorised_wall_test_answers_as_the_line_by_line_one(
    barriers: list[tuple[tuple[float, float], tuple[float, float], str]],
    x: int,
    y: int,
    size: int,
    reach: float,
    diagonal: DiagonalRule,
    cell_size: float,
) -> None:
    grid = SquareGrid(SIDE, SIDE, cell_size, diagonal=diagonal)
    walls = wall_set(
        [
            ((a[0] * cell_size, a[1] * cell_size), (b[0] * cell_size, b[1] * cell_size), k)
            for a, b, k in barriers
        ]
    )
    pairs = reach_pairs(grid, (x, y), size, reach * cell_size)
    if not pairs:
        return
    expected = _unblocked_lines(grid, walls, pairs)
    assert _unblocked_square(grid, walls, pairs) == expected


def test_a_wall_cuts_the_reach_alike_both_ways() -> None:
    # A wall along x = 7, from y = 0 to 10, beside a token at (5, 5) with 3 m of reach:
    # the columns beyond it (7, 8) are out of reach, the nearer ones all within it.
    grid = SquareGrid(SIDE, SIDE)
    walls = WallSet([Wall((7.0, 0.0), (7.0, 10.0))])
    pairs = reach_pairs(grid, (5, 5), 1, 3.0)
    cut = _unblocked_square(grid, walls, pairs)
    assert cut == _unblocked_lines(grid, walls, pairs)
    assert {c for c in pairs if c[0] >= 7} - cut == {c for c in pairs if c[0] >= 7}
    assert {c for c in pairs if c[0] < 7} <= cut
