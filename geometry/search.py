"""Cheapest paths within a movement budget (A* / Dijkstra over grid positions).

A state is a footprint origin plus, under the 1-2-1 diagonal rule, the parity of the
diagonals taken so far (the next diagonal's price depends on it).  A step is allowed when
every cell of the footprint after it is on the grid and not ``impassable`` (cells held
by enemies) and no wall blocks any footprint cell's step (the rule of
:mod:`geometry.steps`); it costs the grid's step cost times the most expensive terrain
under the footprint stepped into.  The end may not overlap ``occupied`` (allies: pass
through, do not stop).  The heuristic is the grid's consistent lower bound, so the first
time the goal is popped its cost is the cheapest.

The work is bounded by the budget, never by the map: a goal whose lower bound already
exceeds the budget is refused before anything is expanded, and a position is only
pushed when its cost so far plus its lower bound to the goal fits in the budget, so a
search for a far or walled-off goal explores at most the positions within ``budget``
of both ends (an ellipse around start and goal), however large the grid.
``max_expansions`` caps even that, for budgets a caller cannot trust.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.path import step_blocked, translate
from geometry.square import DiagonalRule, SquareGrid, diagonal_costs
from geometry.steps import TILE_SHIFT, StepBlocker
from geometry.terrain import TerrainMap
from geometry.walls import WallSet

State = tuple[tuple[int, int], int]


@dataclass(slots=True)
class SearchStats:
    """What one search did: ``expanded`` positions (the measure of its work)."""

    expanded: int = 0


def _parity_matters(grid: Grid) -> bool:
    # Only the 1-2-1 and 2-1-2 rules price a diagonal by how many came before it.
    return isinstance(grid, SquareGrid) and grid.diagonal in (
        DiagonalRule.ALTERNATING,
        DiagonalRule.ALTERNATING_2,
    )


def _moves(
    grid: Grid,
    origin: tuple[int, int],
    parity: int,
    size: int,
    walls: WallSet | StepBlocker | None,
    terrain: TerrainMap | None,
    impassable: frozenset[tuple[int, int]],
) -> Iterator[tuple[tuple[int, int], int, float]]:
    feet = grid.footprint(origin, size)
    for n in grid.neighbours(origin):
        nxt_feet = grid.footprint(n, size)
        if nxt_feet & impassable or not all(grid.contains(c) for c in nxt_feet):
            continue
        if walls is not None and any(
            step_blocked(grid, walls, f, g) for f, g in translate(grid, feet, origin, n).items()
        ):
            continue
        cost = grid.step_cost(origin, n, diagonals_before=parity)
        if terrain is not None:
            cost *= terrain.footprint_multiplier(nxt_feet)
        if math.isinf(cost):
            continue
        diagonal = grid.detours(origin, n) is not None
        yield n, (parity + 1) % 2 if diagonal else parity, cost


Moves = Callable[[tuple[int, int], int], Iterable[tuple[tuple[int, int], int, float]]]


def _stepper(
    grid: Grid,
    size: int,
    walls: WallSet | StepBlocker | None,
    terrain: TerrainMap | None,
    impassable: frozenset[tuple[int, int]],
) -> Moves:
    """The legal steps from a position: :func:`_moves`, or for the common case (a
    one-cell token on a square grid, walls as a :class:`StepBlocker`) the same steps in
    the same order at the same prices, worked out with set lookups and no footprints.
    The search's cost per position is what bounds an untrusted query, so it pays."""
    if not (
        size == 1
        and isinstance(grid, SquareGrid)
        and (walls is None or isinstance(walls, StepBlocker))
    ):
        return lambda origin, parity: _moves(grid, origin, parity, size, walls, terrain, impassable)
    width, height, cell = grid.width, grid.height, grid.cell_size
    blocked = walls.blocked_set if walls is not None else None
    priced = terrain.multiplier if terrain is not None and terrain.priced else None
    steps = []
    for dx, dy in grid.directions():
        diagonal = dx != 0 and dy != 0
        steps.append((dx, dy, diagonal, grid.step_cost((0, 0), (dx, dy)) if diagonal else cell))
    # Under the alternating rules a diagonal's price depends on the parity so far.
    alternating = _parity_matters(grid)
    after_even, after_odd = (cell * c for c in diagonal_costs(grid.diagonal))

    lazy = walls is not None and walls.lazy
    prepared: set[tuple[int, int]] = set()

    def moves(origin: tuple[int, int], parity: int) -> list[tuple[tuple[int, int], int, float]]:
        x, y = origin
        if lazy:
            # The blocker works out its steps a tile at a time, as the search gets there.
            tile = (x >> TILE_SHIFT, y >> TILE_SHIFT)
            if tile not in prepared:
                prepared.add(tile)
                assert walls is not None
                walls.prepare_tile_around(origin)
        out = []
        for dx, dy, diagonal, price in steps:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < width and 0 <= ny < height):
                continue
            n = (nx, ny)
            if n in impassable or (blocked is not None and (origin, n) in blocked):
                continue
            cost = price
            if diagonal and alternating:
                cost = after_odd if parity % 2 else after_even
            if priced is not None:
                cost *= priced(n)
                if math.isinf(cost):
                    continue
            out.append((n, (parity + 1) % 2 if diagonal else parity, cost))
        return out

    return moves


def cheapest_path(
    grid: Grid,
    start: tuple[int, int],
    goal: tuple[int, int],
    *,
    budget: float = math.inf,
    walls: WallSet | StepBlocker | None = None,
    terrain: TerrainMap | None = None,
    size: int = 1,
    impassable: frozenset[tuple[int, int]] = frozenset(),
    occupied: frozenset[tuple[int, int]] = frozenset(),
    max_expansions: int | None = None,
    stats: SearchStats | None = None,
) -> tuple[list[tuple[int, int]], float] | None:
    """The cheapest path (positions, ``start`` first) and its cost, or None beyond ``budget``.

    ``max_expansions`` caps the positions the search may expand (then it gives up with
    None), so a caller answering untrusted queries bounds the work of each; ``stats``,
    if given, is told how many it expanded."""
    stats = stats if stats is not None else SearchStats()
    for cell in grid.footprint(start, size) | grid.footprint(goal, size):
        grid.require(cell)
    if grid.footprint(goal, size) & (occupied | impassable):
        return None
    eps = 1e-9
    if grid.heuristic(start, goal) > budget + eps:
        return None  # farther than the budget even in the open: nothing to search
    parity_matters = _parity_matters(grid)
    open_heap: list[tuple[float, float, int, State]] = []
    best: dict[State, float] = {(start, 0): 0.0}
    parent: dict[State, State | None] = {(start, 0): None}
    counter = 0
    heapq.heappush(open_heap, (grid.heuristic(start, goal), 0.0, counter, (start, 0)))
    moves = _stepper(grid, size, walls, terrain, impassable)
    expanded = 0
    while open_heap:
        if max_expansions is not None and expanded >= max_expansions:
            return None
        expanded += 1
        stats.expanded = expanded
        _, g, _, state = heapq.heappop(open_heap)
        if g > best.get(state, math.inf) + eps:
            continue
        origin, parity = state
        if origin == goal:
            path = []
            cur: State | None = state
            while cur is not None:
                path.append(cur[0])
                cur = parent[cur]
            return path[::-1], g
        for n, p2, cost in moves(origin, parity):
            g2 = g + cost
            nstate = (n, p2 if parity_matters else 0)
            if g2 < best.get(nstate, math.inf) - eps:
                # A position from which even the open-ground bound to the goal overruns
                # the budget can lie on no path within it: never pushed, never expanded.
                f2 = g2 + grid.heuristic(n, goal)
                if f2 > budget + eps:
                    continue
                best[nstate] = g2
                parent[nstate] = state
                counter += 1
                heapq.heappush(open_heap, (f2, g2, counter, nstate))
    return None


def reachable(
    grid: Grid,
    start: tuple[int, int],
    budget: float,
    *,
    walls: WallSet | StepBlocker | None = None,
    terrain: TerrainMap | None = None,
    size: int = 1,
    impassable: frozenset[tuple[int, int]] = frozenset(),
) -> dict[tuple[int, int], float]:
    """Every position reachable from ``start`` within ``budget``, with its cheapest cost."""
    if budget < 0:
        raise GeometryError(f"budget must not be negative, got {budget!r}")
    parity_matters = _parity_matters(grid)
    best: dict[State, float] = {(start, 0): 0.0}
    heap: list[tuple[float, int, State]] = [(0.0, 0, (start, 0))]
    counter = 0
    out: dict[tuple[int, int], float] = {}
    moves = _stepper(grid, size, walls, terrain, impassable)
    while heap:
        g, _, state = heapq.heappop(heap)
        if g > best.get(state, math.inf):
            continue
        origin, parity = state
        out[origin] = min(g, out.get(origin, math.inf))
        for n, p2, cost in moves(origin, parity):
            g2 = g + cost
            nstate = (n, p2 if parity_matters else 0)
            if g2 <= budget + 1e-9 and g2 < best.get(nstate, math.inf) - 1e-9:
                best[nstate] = g2
                counter += 1
                heapq.heappush(heap, (g2, counter, nstate))
    return out
