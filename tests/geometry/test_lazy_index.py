"""The index works out threats and blocked steps lazily, a tile at a time, when first
asked (``geometry.index``, ``geometry.steps``): whatever is asked in whatever order,
it answers exactly as an index that worked everything out at once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry import (
    Door,
    GeometryError,
    HexGrid,
    SquareGrid,
    StepBlocker,
    ThreatIndex,
    Wall,
    WallSet,
)
from geometry.grid import Grid
from geometry.search import cheapest_path
from geometry.steps import TILE

SIDE = 2 * TILE + 8  # three tiles a side: most questions touch only some of them

GRIDS = {
    "square": lambda: SquareGrid(SIDE, SIDE),
    "hex": lambda: HexGrid(SIDE, SIDE),
}

WALLS = st.lists(
    st.tuples(
        st.integers(0, SIDE - 1),
        st.integers(0, SIDE - 1),
        st.integers(-6, 6),
        st.integers(-6, 6),
        st.sampled_from(["none", "open", "closed"]),
    ),
    max_size=12,
)
TOKENS = st.lists(
    st.tuples(
        st.integers(0, SIDE - 1),
        st.integers(0, SIDE - 1),
        st.sampled_from([0.0, 1.0, 2.0, 3.5]),
        st.integers(1, 2),
    ),
    min_size=1,
    max_size=30,
)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 29), st.integers(-20, 20), st.integers(-20, 20)),
        st.tuples(st.just("door"), st.integers(0, 11), st.booleans()),
        st.tuples(st.just("resolve"), st.integers(0, 29), st.integers(0, 5), st.integers(1, 14)),
        st.tuples(st.just("quiet"), st.integers(0, 29), st.integers(0, 5), st.integers(1, 14)),
        st.tuples(st.just("areas_at"), st.integers(0, SIDE - 1), st.integers(0, SIDE - 1)),
        st.tuples(st.just("path"), st.integers(0, 29), st.integers(-12, 12), st.integers(-12, 12)),
        st.tuples(st.just("threatened"), st.integers(0, 29)),
        st.tuples(st.just("remove"), st.integers(0, 29)),
    ),
    max_size=12,
)
#: Long runs of moves between questions, as a table outside combat makes them: the
#: moved tokens' stale cells pile up and must all come right on the first question.
WALKS = st.lists(
    st.one_of(
        st.tuples(st.just("move"), st.integers(0, 29), st.integers(-2, 2), st.integers(-2, 2)),
        st.tuples(st.just("quiet"), st.integers(0, 29), st.integers(0, 5), st.integers(1, 3)),
    ),
    max_size=20,
)


def build(
    grid: Grid, walls: list[Any], tokens: list[Any], *, eager: bool = False
) -> tuple[ThreatIndex, list[str]]:
    barriers: dict[str, Wall | Door] = {}
    for i, (x, y, dx, dy, door) in enumerate(walls):
        a = (float(x), float(y))
        b = (float(min(max(x + dx, 0), SIDE - 1)), float(min(max(y + dy, 0), SIDE - 1)))
        if a != b:
            barriers[f"w{i}"] = Wall(a, b) if door == "none" else Door(a, b, door == "open")
    index = ThreatIndex(grid, WallSet(barriers), eager=eager)
    placed = []
    for i, (x, y, reach, size) in enumerate(tokens):
        try:
            index.add_token(f"t{i}", (x, y), size=size, reach=reach)
        except GeometryError:
            continue  # off the grid or on another token: the scene leaves it out
        placed.append(f"t{i}")
    return index, placed


def answer(index: ThreatIndex, tokens: list[str], op: tuple[Any, ...]) -> object:
    """One question or change, and what it gave (an error's message counts too)."""
    grid = index.grid
    try:
        match op:
            case ("move", i, dx, dy):
                tok = index.token(tokens[i % len(tokens)])
                index.move_token(tok.token_id, (tok.origin[0] + dx, tok.origin[1] + dy))
                return None
            case ("door", i, is_open):
                doors = [w for w in index.walls.ids() if isinstance(index.walls.get(w), Door)]
                if doors:
                    index.set_door(doors[i % len(doors)], is_open)
                return None
            case ("resolve" | "quiet", i, direction, length):
                tok = index.token(tokens[i % len(tokens)])
                path = [tok.origin]
                step = grid.neighbours(tok.origin)
                if not step:
                    return None
                dx = step[direction % len(step)][0] - tok.origin[0]
                dy = step[direction % len(step)][1] - tok.origin[1]
                for _ in range(length):
                    nxt = (path[-1][0] + dx, path[-1][1] + dy)
                    if not grid.contains(nxt) or not grid.adjacent(path[-1], nxt):
                        break
                    path.append(nxt)
                if len(path) < 2:
                    return None
                # "quiet": a move outside combat, which asks for no areas at all.
                return index.resolve_move(tok.token_id, path, areas=op[0] == "resolve")
            case ("areas_at", x, y):
                return index.areas_at((x, y))
            case ("path", i, dx, dy):
                tok = index.token(tokens[i % len(tokens)])
                goal = (tok.origin[0] + dx, tok.origin[1] + dy)
                return cheapest_path(
                    grid,
                    tok.origin,
                    goal,
                    budget=12.0,
                    walls=index.blocker,
                    size=tok.size,
                    max_expansions=400,
                )
            case ("threatened", i):
                return index.threatened(tokens[i % len(tokens)])
            case ("remove", i):
                token_id = tokens[i % len(tokens)]
                index.remove_token(token_id)
                return None
    except GeometryError as exc:
        return ("error", str(exc))
    raise AssertionError(op)


def ask_both(lazy: Any, eager: Any, placed: list[Any], ops: list[tuple[Any, ...]]) -> bool:
    """Put every op to both indexes and check they answer alike; False once the last
    placed token is removed (nothing left to ask about)."""
    for op in ops:
        removed = placed[op[1] % len(placed)] if op[0] == "remove" else None
        assert answer(lazy, placed, op) == answer(eager, placed, op), op
        if removed is not None:
            placed.remove(removed)
            if not placed:
                return False
    return True


@pytest.mark.parametrize("kind", sorted(GRIDS))
@settings(max_examples=60, deadline=None)
@given(walls=WALLS, tokens=TOKENS, ops=OPS)
def test_a_lazy_index_answers_as_an_eager_one(
    kind: str, walls: list[Any], tokens: list[Any], ops: list[tuple[Any, ...]]
) -> None:
    lazy, placed = build(GRIDS[kind](), walls, tokens)
    eager, _ = build(GRIDS[kind](), walls, tokens, eager=True)
    eager.work_out_everything()
    assert eager.deferred == 0 and not eager.blocker.lazy
    if not placed:
        return
    if not ask_both(lazy, eager, placed, ops):
        return
    for token_id in placed:
        assert lazy.threatened(token_id) == eager.threatened(token_id)
    assert lazy.blocker.blocked_steps() == eager.blocker.blocked_steps()


@pytest.mark.parametrize("kind", sorted(GRIDS))
@settings(max_examples=60, deadline=None)
@given(walls=WALLS, tokens=TOKENS, rounds=st.lists(st.tuples(WALKS, OPS), max_size=4))
def test_moves_nobody_asks_about_answer_as_eager_ones_when_asked(
    kind: str, walls: list[Any], tokens: list[Any], rounds: list[tuple[Any, Any]]
) -> None:
    # Each token worked out first (a fight's questions), then runs of unasked moves
    # (a table outside combat) interleaved with every kind of question.
    lazy, placed = build(GRIDS[kind](), walls, tokens)
    eager, _ = build(GRIDS[kind](), walls, tokens, eager=True)
    lazy.work_out_everything()
    eager.work_out_everything()
    if not placed:
        return
    for walk, ops in rounds:
        if not ask_both(lazy, eager, placed, [*walk, *ops]):
            return
    for token_id in placed:
        assert lazy.threatened(token_id) == eager.threatened(token_id)
    assert lazy.deferred == 0 and eager.deferred == 0


def test_a_move_defers_the_threat_and_the_first_question_brings_it_back() -> None:
    index = ThreatIndex(SquareGrid(40, 40))
    index.add_token("a", (5, 5))
    index.add_token("b", (30, 30))
    index.work_out_everything()
    assert index.areas_at((6, 5)) == frozenset({"a"})
    index.move_token("a", (6, 5))  # asked since the last move (a fight): kept up to date
    assert index.deferred == 0
    for x in range(7, 26):  # into the next tile, nothing asked: nothing worked out
        index.move_token("a", (x, 5))
    assert index.deferred == 1
    # Asking about the old tile only (where the stale cells are) brings "a" up to date.
    assert index.areas_at((6, 5)) == frozenset()
    assert index.deferred == 0
    assert index.areas_at((26, 5)) == frozenset({"a"})
    assert index.resolve_move("b", [(30, 30), (29, 30)], areas=False).exits == ()


def test_loading_a_scene_works_out_nothing_until_asked() -> None:
    # The cost a scene load must not pay: every token's threat and every wall's steps.
    grid = SquareGrid(400, 400)
    walls = WallSet({f"w{i}": Wall((10.0 * i + 5, 5.0), (10.0 * i + 5, 395.0)) for i in range(30)})
    index = ThreatIndex(grid, walls)
    for i in range(200):
        index.add_token(f"t{i}", ((i * 37) % 400, (i * 91) % 400), reach=2.0)
    assert index.blocker.lazy
    assert index.deferred == 200
    index.resolve_move("t0", [(0, 0), (1, 0), (2, 0)])
    assert 200 - 20 < index.deferred < 200  # only the tokens near the path's tile
    assert index.blocker.lazy  # the far tiles are still to do


def test_a_door_closed_after_its_tile_was_worked_out_blocks() -> None:
    # A door open at load has nothing near it to work out; closing it later must count.
    grid = SquareGrid(64, 64)
    door = Door((5.0, 0.0), (5.0, 10.0), True)
    walls = WallSet({"d": door, "w": Wall((40.0, 40.0), (40.0, 50.0))})
    blocker = StepBlocker(grid, walls)
    assert not blocker.blocked((4, 2), (5, 2))
    walls.set_door("d", False)
    blocker.refresh(["d"])
    assert blocker.blocked((4, 2), (5, 2))
    walls.set_door("d", True)
    blocker.refresh(["d"])
    assert not blocker.blocked((4, 2), (5, 2))


@pytest.mark.parametrize(
    "path",
    [
        [(38, 40), (39, 40), (40, 40), (41, 40)],  # straight through the wall, mid-tile
        [(47, 31), (48, 32), (49, 33)],  # a diagonal squeezing past its end, across tiles
    ],
)
def test_the_first_move_on_a_fresh_index_sees_the_walls(path: list[tuple[int, int]]) -> None:
    grid = SquareGrid(64, 64)
    walls = WallSet({"w": Wall((40.0, 30.0), (40.0, 50.0)), "v": Wall((48.0, 20.0), (48.0, 33.0))})
    fresh = ThreatIndex(grid, walls)
    fresh.add_token("m", path[0])
    eager = ThreatIndex(grid, walls)
    eager.add_token("m", path[0])
    eager.blocker.blocked_steps()
    assert fresh.blocker.lazy
    assert fresh.resolve_move("m", path) == eager.resolve_move("m", path)
    assert fresh.resolve_move("m", path).blocked_step is not None
