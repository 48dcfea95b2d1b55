"""ThreatIndex: incremental updates agree with recomputation; moves agree with the functions."""

from __future__ import annotations

import random

import pytest

from geometry import (
    Door,
    GeometryError,
    HexGrid,
    SquareGrid,
    ThreatIndex,
    Wall,
    WallSet,
    crossings,
    first_exits,
    threatened_cells,
    trace_waypoints,
    validate_path,
)
from geometry.path import step_blocked


def random_scene(seed: int, grid: SquareGrid | HexGrid) -> tuple[ThreatIndex, random.Random]:
    rng = random.Random(seed)
    walls = []
    for _ in range(30):
        x, y = rng.randrange(grid.width), rng.randrange(grid.height)
        walls.append(
            Wall((x, y), (x + rng.randint(1, 3), y))
            if rng.random() < 0.5
            else Wall((x, y), (x, y + rng.randint(1, 3)))
        )
    index = ThreatIndex(grid, WallSet(walls))
    placed = 0
    while placed < 12:
        size = rng.choice([1, 1, 2])
        origin = (rng.randrange(grid.width - 2), rng.randrange(grid.height - 2))
        try:
            index.add_token(f"t{placed}", origin, size=size, reach=rng.choice([1.0, 2.0]))
        except GeometryError:
            continue
        placed += 1
    return index, rng


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("grid", [SquareGrid(16, 16), HexGrid(16, 16)], ids=repr)
def test_resolve_move_agrees_with_the_plain_functions(
    seed: int, grid: SquareGrid | HexGrid
) -> None:
    index, rng = random_scene(seed, grid)
    for _ in range(10):
        tid = f"t{rng.randrange(12)}"
        tok = index.token(tid)
        path = [tok.origin]
        while len(path) < 9:
            nxt = rng.choice(grid.neighbours(path[-1]))
            if all(grid.contains(c) for c in grid.footprint(nxt, tok.size)):
                path.append(nxt)
        res = index.resolve_move(tid, path)
        areas = {a: index.area(a) for a in sorted(f"t{i}" for i in range(12)) if a != tid}
        assert list(res.crossings) == crossings(grid, path, areas, size=tok.size)
        expected_exits = first_exits(grid, path, areas, size=tok.size)
        got = sorted(res.exits, key=lambda e: (e.step, e.area_id))
        want = sorted(expected_exits, key=lambda e: (e.step, e.area_id))
        assert [(e.area_id, e.step, e.cell) for e in got] == [
            (e.area_id, e.step, e.cell) for e in want
        ]
        for e, w in zip(got, want, strict=True):
            assert e.point == pytest.approx(w.point)  # midpoint vs shapely's exit point
        try:
            cost = validate_path(grid, path, walls=index.walls, size=tok.size)
            assert res.blocked_step is None and res.cost == pytest.approx(cost)
        except GeometryError:
            assert res.blocked_step is not None


@pytest.mark.parametrize("seed", range(4))
def test_move_token_matches_a_rebuild(seed: int) -> None:
    grid = SquareGrid(14, 14)
    index, rng = random_scene(seed, grid)
    for _ in range(40):
        tid = f"t{rng.randrange(12)}"
        tok = index.token(tid)
        # Half steps (the move path, which re-indexes only what changed), half jumps.
        x, y = tok.origin
        step = (x + rng.choice([-1, 0, 1]), y + rng.choice([-1, 0, 1]))
        jump = (rng.randrange(grid.width - 2), rng.randrange(grid.height - 2))
        target = step if rng.random() < 0.5 else jump
        try:
            index.move_token(tid, target)
        except GeometryError:
            assert index.token(tid) == tok  # a refused move leaves the token where it was
            continue
    fresh = ThreatIndex(grid, index.walls)
    for i in range(12):
        tok = index.token(f"t{i}")
        expected = threatened_cells(grid, tok.origin, tok.size, tok.reach, walls=index.walls)
        assert index.threatened(tok.token_id) == expected
        fresh.add_token(tok.token_id, tok.origin, size=tok.size, reach=tok.reach)
    # Nothing stale anywhere: every cell's areas and occupant are what a rebuild has.
    for cell in ((x, y) for x in range(grid.width) for y in range(grid.height)):
        assert index.areas_at(cell) == fresh.areas_at(cell)
        assert index.occupant(cell) == fresh.occupant(cell)


def test_door_toggle_updates_steps_and_threats() -> None:
    grid = SquareGrid(6, 6)
    index = ThreatIndex(grid, WallSet({"d": Door((3, 0), (3, 6))}))
    index.add_token("guard", (3, 2))
    index.add_token("thief", (1, 2))
    assert (2, 2) not in index.threatened("guard")
    assert index.resolve_move("thief", [(1, 2), (2, 2)]).crossings == ()
    index.set_door("d", True)
    assert (2, 2) in index.threatened("guard")
    res = index.resolve_move("thief", [(1, 2), (2, 2), (1, 2)])
    assert [(c.area_id, c.kind.value, c.step) for c in res.crossings] == [
        ("guard", "enter", 0),
        ("guard", "leave", 1),
    ]
    assert [(e.area_id, e.step) for e in res.exits] == [("guard", 1)]
    index.set_door("d", False)
    assert index.resolve_move("thief", [(1, 2), (2, 2), (3, 2)]).blocked_step == 1


def test_trigger_areas_and_occupancy() -> None:
    grid = SquareGrid(8, 8)
    index = ThreatIndex(grid)
    index.add_token("a", (0, 0))
    index.add_token("b", (4, 0))
    index.add_area("readied:door", [(2, 0), (2, 1)])
    res = index.resolve_move("a", trace_waypoints(grid, [(0, 0), (4, 0)]))
    kinds = [(c.area_id, c.kind.value) for c in res.crossings]
    # b's own cell is not in its threatened area, so stepping onto it leaves the area;
    # on one step a leave is listed before an enter
    assert kinds == [
        ("readied:door", "enter"),
        ("readied:door", "leave"),
        ("b", "enter"),
        ("b", "leave"),
    ]
    assert res.end_occupied and not res.legal
    index.remove_area("readied:door")
    with pytest.raises(GeometryError, match="already"):
        index.add_token("a", (6, 6))
    with pytest.raises(GeometryError, match="overlaps"):
        index.add_token("c", (4, 0))
    with pytest.raises(GeometryError, match="starts at"):
        index.resolve_move("a", [(1, 1), (2, 2)])
    index.remove_token("b")
    assert index.occupant((4, 0)) is None


def test_index_blocker_matches_direct_wall_rule() -> None:
    grid = SquareGrid(16, 16)
    index, _ = random_scene(11, grid)
    for cell in grid.cells():
        for n in grid.neighbours(cell):
            assert index.blocker.blocked(cell, n) == step_blocked(grid, index.walls, cell, n)


def test_bench_baseline_agrees_on_a_small_scene() -> None:
    from bench.geometry import baseline_resolve, build_scene

    scene = build_scene(60, 0, 40, seed=1)
    for tid, path in scene.moves:
        cost, _, events, exits = baseline_resolve(scene, tid, path)
        res = scene.index.resolve_move(tid, path)
        assert res.cost == cost
        assert [(c.area_id, c.kind.value, c.step) for c in res.crossings] == events
        assert sorted(((e.area_id, e.step) for e in res.exits), key=lambda e: (e[1], e[0])) == exits


def test_only_a_shared_token_stands_where_another_does() -> None:
    index = ThreatIndex(SquareGrid(6, 6))
    index.add_token("ally", (2, 2))
    with pytest.raises(GeometryError, match="overlaps 'ally'"):
        index.add_token("mover", (2, 2))
    index.add_token("mover", (1, 1))
    with pytest.raises(GeometryError, match="overlaps 'ally'"):
        index.move_token("mover", (2, 2))
    assert index.token("mover").origin == (1, 1)  # refused: nothing changed

    index.move_token("mover", (2, 2), shared=True)  # paused in the ally's square
    assert index.occupants((2, 2)) == ("ally", "mover") and index.occupant((2, 2)) == "ally"
    assert index.occupants((1, 1)) == ()
    assert index.resolve_move("mover", [(2, 2), (3, 2)]).legal  # it may move on
    assert index.resolve_move("ally", [(2, 2), (2, 3)]).legal  # and so may the ally
    assert not index.resolve_move("ally", [(2, 2), (3, 3), (2, 2)]).legal  # not back on it

    index.move_token("ally", (2, 3))  # the first to leave: the other stays
    assert index.occupants((2, 2)) == ("mover",) and index.occupant((2, 3)) == "ally"
    index.remove_token("mover")
    assert index.occupants((2, 2)) == ()


def test_who_shares_a_cell_does_not_depend_on_who_came_first() -> None:
    grid = SquareGrid(6, 6)
    one, two = ThreatIndex(grid), ThreatIndex(grid)
    for index, order in ((one, ["b", "a", "c"]), (two, ["c", "b", "a"])):
        for token_id in order:
            index.add_token(token_id, (2, 2), shared=True)
    assert one.occupants((2, 2)) == two.occupants((2, 2)) == ("a", "b", "c")
    assert one.occupant((2, 2)) == "a"
    one.remove_token("a")
    assert one.occupants((2, 2)) == ("b", "c") and one.occupant((2, 2)) == "b"
