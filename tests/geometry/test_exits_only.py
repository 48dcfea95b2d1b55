"""``resolve_move(..., crossings=False)`` reports exactly the exits, cost and walls of the
full resolution, only without the enter/leave crossings."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import SquareGrid, ThreatIndex, Wall, WallSet

STEPS = st.lists(
    st.sampled_from([(-1, 0), (1, 0), (0, -1), (0, 1), (1, 1), (-1, -1)]), min_size=1, max_size=12
)


@settings(max_examples=80, deadline=None)
@given(
    others=st.lists(
        st.tuples(
            st.integers(0, 19), st.integers(0, 19), st.sampled_from([1.0, 2.0]), st.integers(1, 2)
        ),
        max_size=25,
    ),
    steps=STEPS,
    wall_x=st.integers(1, 19),
)
def test_exits_only_matches_the_full_resolution(
    others: list[tuple[int, int, float, int]], steps: list[tuple[int, int]], wall_x: int
) -> None:
    grid = SquareGrid(20, 20)
    index = ThreatIndex(grid, WallSet({"w": Wall((float(wall_x), 0.0), (float(wall_x), 7.0))}))
    index.add_token("mover", (10, 10))
    taken = {(10, 10)}
    for i, (x, y, reach, size) in enumerate(others):
        cells = grid.footprint((x, y), size)
        if any(not grid.contains(c) for c in cells) or cells & taken:
            continue
        taken |= cells
        index.add_token(f"t{i}", (x, y), size=size, reach=reach)
    path = [(10, 10)]
    for dx, dy in steps:
        nxt = (path[-1][0] + dx, path[-1][1] + dy)
        if grid.contains(nxt):
            path.append(nxt)
    if len(path) < 2:
        return
    full = index.resolve_move("mover", path)
    lean = index.resolve_move("mover", path, crossings=False)
    assert lean.exits == full.exits
    assert (lean.cost, lean.blocked_step, lean.end_occupied) == (
        full.cost,
        full.blocked_step,
        full.end_occupied,
    )
    assert lean.crossings == ()
