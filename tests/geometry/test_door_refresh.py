"""A door opening or closing re-tests only the cells whose reach lines may meet it
(``geometry.door_refresh``): whatever the grid, walls, tokens and doors toggled, every
threat is then exactly what ``threatened_cells`` works out afresh, as it was before."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from geometry import DiagonalRule, Door, HexGrid, SquareGrid, ThreatIndex, Wall, WallSet
from geometry.door_refresh import rethreatened_many
from geometry.grid import Grid
from geometry.reach import threatened_cells

SIDE = 14

point = st.tuples(st.integers(0, SIDE), st.integers(0, SIDE))
barrier = st.tuples(
    point, st.integers(-4, 4), st.integers(-4, 4), st.sampled_from(["wall", "window", "door"])
)
token = st.tuples(
    st.integers(0, SIDE - 2),
    st.integers(0, SIDE - 2),
    st.integers(1, 2),
    st.sampled_from([1.0, 1.5, 2.0, 3.0, 5.0]),
)
GRIDS = ["square", "square-none", "square-euclidean", "hex"]


def _grid(kind: str) -> Grid:
    if kind == "hex":
        return HexGrid(SIDE, SIDE, 1.0)
    rule = {"square": DiagonalRule.ONE, "square-none": DiagonalRule.NONE}.get(
        kind, DiagonalRule.EUCLIDEAN
    )
    return SquareGrid(SIDE, SIDE, diagonal=rule)


def _walls(
    specs: list[tuple[tuple[int, int], int, int, str]], half: bool
) -> tuple[WallSet, list[str]]:
    walls: dict[str, Wall | Door] = {}
    doors = []
    for i, ((x, y), dx, dy, kind) in enumerate(specs):
        # Half-cell ends too: walls through centres, along lines, grazing corners.
        a = (float(x), float(y))
        b = (
            min(max(x + dx / (2 if half else 1), 0.0), SIDE),
            min(max(y + dy / (2 if half else 1), 0.0), SIDE),
        )
        if a == b:
            continue
        if kind == "door":
            walls[f"d{i}"] = Door(a, b, is_open=i % 2 == 0)
            doors.append(f"d{i}")
        else:
            walls[f"w{i}"] = Wall(a, b, blocks_sight=kind == "wall")
    return WallSet(walls), doors


@settings(max_examples=80, deadline=None)
@given(
    kind=st.sampled_from(GRIDS),
    specs=st.lists(barrier, min_size=1, max_size=10),
    half=st.booleans(),
    tokens=st.lists(token, min_size=1, max_size=6),
    toggles=st.lists(st.integers(0, 9), min_size=1, max_size=4),
)
def test_a_door_toggled_leaves_every_threat_as_worked_out_afresh(
    kind: str,
    specs: list[tuple[tuple[int, int], int, int, str]],
    half: bool,
    tokens: list[tuple[int, int, int, float]],
    toggles: list[int],
) -> None:
    grid = _grid(kind)
    walls, doors = _walls(specs, half)
    index = ThreatIndex(grid, walls, eager=True)  # every threat worked out: refreshed by doors
    placed = []
    for i, (x, y, size, reach) in enumerate(tokens):
        try:
            index.add_token(f"t{i}", (x, y), size=size, reach=reach)
        except ValueError:
            continue  # overlaps another
        placed.append((f"t{i}", (x, y), size, reach))
    for pick in toggles:
        if not doors:
            break
        door = doors[pick % len(doors)]
        barrier_now = walls.get(door)
        assert isinstance(barrier_now, Door)
        index.set_door(door, not barrier_now.is_open)
        for tid, origin, size, reach in placed:
            assert index.threatened(tid) == threatened_cells(grid, origin, size, reach, walls=walls)
            for c in index.threatened(tid):
                assert tid in index.areas_at(c)


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(GRIDS),
    specs=st.lists(barrier, min_size=1, max_size=10),
    tokens=st.lists(token, min_size=1, max_size=6),
)
def test_the_refresh_of_many_threats_at_once_is_each_ones_alone(
    kind: str,
    specs: list[tuple[tuple[int, int], int, int, str]],
    tokens: list[tuple[int, int, int, float]],
) -> None:
    grid = _grid(kind)
    walls, doors = _walls(specs, half=True)
    assume(doors)
    threats = [
        ((x, y), size, reach, threatened_cells(grid, (x, y), size, reach, walls=walls))
        for x, y, size, reach in tokens
    ]
    barrier_now = walls.get(doors[0])
    assert isinstance(barrier_now, Door)
    walls.set_door(doors[0], not barrier_now.is_open)
    together = rethreatened_many(grid, walls, walls.bounds(doors[0]), threats)
    alone = [rethreatened_many(grid, walls, walls.bounds(doors[0]), [t])[0] for t in threats]
    fresh = [
        threatened_cells(grid, origin, size, reach, walls=walls)
        for origin, size, reach, _ in threats
    ]
    assert together == alone == fresh
