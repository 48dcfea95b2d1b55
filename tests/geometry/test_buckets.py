"""WallBuckets answers exactly what geometry.gridless.disc_blocked answers (hypothesis),
its walls near a point are those a scan of every wall finds, and the gridless bench's
baseline agrees with the index on a small scene."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import BlockMode, Door, GeometryError, Wall, WallSet
from geometry.buckets import WallBuckets, point_segment_distance, segment_distance
from geometry.gridless import disc_blocked

coord = st.floats(0, 20, allow_nan=False).map(lambda v: round(v, 2))
point = st.tuples(coord, coord)


@pytest.mark.parametrize(
    ("p", "q", "a", "b", "expected"),
    [
        ((0, 0), (4, 0), (2, -1), (2, 1), 0.0),  # crossing
        ((0, 0), (4, 0), (2, 1), (2, 3), 1.0),  # a wall end above the segment
        ((0, 0), (4, 0), (5, 0), (7, 0), 1.0),  # collinear, apart
        ((0, 0), (4, 0), (4, 0), (4, 5), 0.0),  # touching at an end
        ((0, 0), (0, 0), (3, 4), (3, 8), 5.0),  # a point
    ],
)
def test_segment_distance(
    p: tuple[float, float], q: tuple[float, float], a: tuple[float, float],
    b: tuple[float, float], expected: float,
) -> None:  # fmt: skip
    assert segment_distance(p, q, a, b) == pytest.approx(expected)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(point, point).filter(lambda w: w[0] != w[1]), min_size=1, max_size=25),
    point,
    point,
    st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5]),
    st.integers(0, 3),
)
def test_same_answer_as_disc_blocked(
    walls: list[tuple[tuple[float, float], tuple[float, float]]],
    p: tuple[float, float],
    q: tuple[float, float],
    radius: float,
    doors: int,
) -> None:
    barriers: list[Wall | Door] = [Wall(a, b) for a, b in walls]
    for i in range(min(doors, len(barriers))):
        barriers[i] = Door(walls[i][0], walls[i][1], is_open=i % 2 == 0)
    wall_set = WallSet(barriers)
    buckets = WallBuckets(wall_set)
    # Both compare distances with radius - 1e-9; a wall within rounding of that is
    # decided by the last bit of two different computations, so those are skipped.
    rims = [abs(segment_distance(p, q, a, b) - radius) < 1e-6 for a, b in walls]
    if any(rims):
        return
    assert buckets.disc_blocked(p, q, radius) == disc_blocked(wall_set, p, q, radius)
    if doors:
        wall_set.set_door("0", True)
    assert buckets.disc_blocked(p, q, radius, BlockMode.MOVE) == disc_blocked(
        wall_set, p, q, radius
    )


def _barrier(kind: int, a: tuple[float, float], b: tuple[float, float]) -> Wall | Door:
    """Kind 0 a wall, 1 a window (blocks movement only), 2 a curtain (sight only),
    3 a closed door, 4 an open one."""
    if kind >= 3:
        return Door(a, b, is_open=kind == 4)
    return Wall(a, b, blocks_move=kind != 2, blocks_sight=kind != 1)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(point, point, st.integers(0, 4)).filter(lambda w: w[0] != w[1]),
        min_size=0,
        max_size=30,
    ),
    point,
    st.sampled_from([0.0, 0.5, 1.0, 2.5, 7.0]),
    st.sampled_from(list(BlockMode)),
    st.sampled_from([0.5, 2.0, 3.0]),
)
def test_blocking_within_is_what_a_scan_finds(
    walls: list[tuple[tuple[float, float], tuple[float, float], int]],
    centre: tuple[float, float],
    distance: float,
    mode: BlockMode,
    cell: float,
) -> None:
    wall_set = WallSet([_barrier(kind, a, b) for a, b, kind in walls])
    buckets = WallBuckets(wall_set, cell=cell)

    def scan() -> list[tuple[tuple[float, float], tuple[float, float]]]:
        mask = wall_set.mask(mode)
        return [
            (wall.a, wall.b)
            for i, wall in enumerate(wall_set.get(w) for w in wall_set.ids())
            if mask[i] and point_segment_distance(centre, wall.a, wall.b) < distance
        ]

    assert buckets.blocking_within(centre, distance, mode) == scan()
    # A door that opens or closes changes the answer at once (the wall set's version).
    doors = [i for i, (_, _, kind) in enumerate(walls) if kind >= 3]
    if doors:
        wall_set.set_door(str(doors[0]), is_open=walls[doors[0]][2] == 3)  # toggled
        assert buckets.blocking_within(centre, distance, mode) == scan()


def test_blocking_within_edge_cases() -> None:
    buckets = WallBuckets(WallSet([Wall((0, 0), (4, 0)), Wall((0, 2), (4, 2), blocks_sight=False)]))
    # Exactly ``distance`` away is not closer: the wall at y = 2 is left out.
    assert buckets.blocking_within((2, 0), 2.0, BlockMode.REACH) == [((0, 0), (4, 0))]
    # Standing on a wall: distance 0, closer than any positive distance.
    assert buckets.blocking_within((1, 0), 1e-9, BlockMode.MOVE) == [((0, 0), (4, 0))]
    # A window does not block sight.
    assert buckets.blocking_within((2, 1), 5.0, BlockMode.SIGHT) == [((0, 0), (4, 0))]
    assert buckets.blocking_within((2, 1), 0.0, BlockMode.REACH) == []
    with pytest.raises(GeometryError, match="distance"):
        buckets.blocking_within((2, 1), -1.0, BlockMode.REACH)


def test_bad_radius_and_bucket() -> None:
    buckets = WallBuckets(WallSet([Wall((0, 0), (1, 1))]))
    with pytest.raises(GeometryError, match="radius"):
        buckets.disc_blocked((0, 0), (1, 0), math.inf)
    with pytest.raises(GeometryError, match="bucket size"):
        WallBuckets(WallSet(), cell=0)


def test_bench_baseline_agrees_on_a_small_scene() -> None:
    from bench.gridless import MOVER_RADIUS, baseline_resolve, build_scene

    scene = build_scene(60, 300, 40, seed=1)
    compared = 0
    for token_id, path, _ in scene.moves:
        cost, blocked, first = baseline_resolve(scene, token_id, path)
        res = scene.ground.resolve(path, radius=MOVER_RADIUS, ignore=token_id)
        assert res.cost == pytest.approx(cost)
        mine = {e.area_id: e for e in res.exits}
        assert set(mine) == set(first)
        for area_id, (step, point) in first.items():
            assert mine[area_id].step == step
            assert math.dist(mine[area_id].point, point) < 0.05
            compared += 1
        # The baseline stops at the first wall closer than the radius at all; the
        # index also lets a token step off a wall it stands on, so it may block later.
        if res.blocked_step is not None:
            assert blocked is not None and blocked <= res.blocked_step
    assert compared > 0
