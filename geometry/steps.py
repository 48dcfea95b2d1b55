"""Which single steps between adjacent cells walls block, precomputed per grid.

Checking a move against 2,000 walls with shapely on every request is what makes naive
tooling slow; the set of blocked steps only changes when a door opens or closes, so
:class:`StepBlocker` computes it once (vectorised over every step near a wall) and then
answers "is the step from ``a`` to ``b`` blocked?" with one set lookup.  A door toggle
recomputes only the steps around that door.

A step is blocked when the segment between the two cell centres is (the rule in
:mod:`geometry.walls`), or, for a square-grid diagonal, when both of its orthogonal
detours are: the step would squeeze between two blocking corners.

On square grids the work is array work: the steps near walls are found as shifted
boolean rasters, their segments checked in one vectorised call, and the detour rule
applied raster against raster; Python touches only the steps that end up blocked.  A
scene's walls cost in proportion to the cells around them, at array speed (a load of
long walls across a 1000 x 1000 map once took seconds of Python per wall).

On square grids the work is also done *lazily*, one :data:`TILE` x :data:`TILE` tile
of cells at a time, when a caller first asks about a step in it: a scene is loaded
(and reloaded) far more often than all of its walls are walked past, and building
every blocked step of a large map at once held the server's event loop for tens of
milliseconds per load.  :meth:`StepBlocker.blocked` prepares the tiles of the two cells
it is asked about; code reading :attr:`StepBlocker.blocked_set` directly (the hot
loops) first calls :meth:`StepBlocker.prepare` for the box of cells it will look at.
The answers are the same as an eager build's (a property test checks it).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from geometry.grid import Grid
from geometry.square import Cell, DiagonalRule, Point, SquareGrid
from geometry.walls import BlockMode, WallSet

Mask = np.ndarray
#: Square-grid steps stored at their first cell: every step is one of these from its
#: smaller end (tuple order), so each is stored once.
_FORWARD_ALL = ((1, -1), (1, 0), (1, 1), (0, 1))
_FORWARD_ORTHOGONAL = ((1, 0), (0, 1))

Step = tuple[Cell, Cell]

#: Side, in cells, of the tiles a square grid's blocked steps are worked out in.
TILE = 16
#: log2(:data:`TILE`): a cell's tile by shifting, the hot paths' cheapest operation.
TILE_SHIFT = 4


class StepBlocker:
    """The blocked steps of ``grid`` for the walls of ``walls`` that block in ``mode``."""

    def __init__(self, grid: Grid, walls: WallSet, mode: BlockMode = BlockMode.MOVE) -> None:
        self.grid = grid
        self.walls = walls
        self.mode = mode
        self._raw: set[Step] = set()
        self._blocked: set[Step] = set()
        self._version = walls.version
        active = [w for w, on in zip(walls.ids(), walls.mask(mode), strict=True) if on]
        self._square = isinstance(grid, SquareGrid)
        #: Square grids: the tiles whose steps are not worked out yet (none when eager).
        self._todo: set[tuple[int, int]] = set()
        self._lazy = False
        if self._square:
            assert isinstance(grid, SquareGrid)
            diagonal = grid.diagonal is not DiagonalRule.NONE
            self._forward = _FORWARD_ALL if diagonal else _FORWARD_ORTHOGONAL
            shape = (grid.width, grid.height)
            self._raw_at = {d: np.zeros(shape, dtype=bool) for d in _FORWARD_ALL}
            self._final_at = {d: np.zeros(shape, dtype=bool) for d in _FORWARD_ALL}
            #: Whether steps are worked out per tile (module docstring); a scene with
            #: no blocking wall yet has nothing to work out, and its doors go eagerly.
            self._lazy = bool(active)
            if active:
                # Only tiles with a step near a wall have anything to work out.
                bounds = [walls.bounds(w) for w in active]
                self._raw_near = _marks(grid, bounds, pad=1)
                self._final_near = _marks(grid, bounds, pad=2)
                self._todo = _tiles(grid, bounds, pad=2)
            return
        self._update(active)

    def blocked(self, a: Cell, b: Cell) -> bool:
        """Whether walls block the single step from ``a`` to the adjacent ``b``."""
        if self._todo:
            self.prepare(a[0], a[1], a[0], a[1])
            self.prepare(b[0], b[1], b[0], b[1])
        return (a, b) in self._blocked

    def prepare(self, x0: int, y0: int, x1: int, y1: int) -> None:
        """Work out every blocked step with an end in the cells ``x0..x1`` x ``y0..y1``
        (inclusive; clipped to the grid), so :attr:`blocked_set` answers for them."""
        todo = self._todo
        if not todo:
            return
        shift = TILE_SHIFT
        for tx in range(max(0, x0) >> shift, (max(0, x1) >> shift) + 1):
            for ty in range(max(0, y0) >> shift, (max(0, y1) >> shift) + 1):
                if (tx, ty) in todo:
                    todo.discard((tx, ty))
                    self._work_out_tile(tx, ty)

    def prepare_cells(self, cells: Iterable[Cell]) -> None:
        """:meth:`prepare` the tiles of ``cells``: enough for any step between two of them."""
        todo = self._todo
        if not todo:
            return
        shift = TILE_SHIFT
        for tx, ty in {(c[0] >> shift, c[1] >> shift) for c in cells}:
            if (tx, ty) in todo:
                todo.discard((tx, ty))
                self._work_out_tile(tx, ty)

    def prepare_tile_around(self, cell: Cell) -> None:
        """:meth:`prepare` the tile of ``cell`` and one cell around it: enough for every
        step from any cell of that tile (a search expanding there)."""
        if self._todo:
            x0, y0 = (cell[0] >> TILE_SHIFT) * TILE, (cell[1] >> TILE_SHIFT) * TILE
            self.prepare(x0 - 1, y0 - 1, x0 + TILE, y0 + TILE)

    @property
    def lazy(self) -> bool:
        """Whether some tiles are still to be worked out (so readers of
        :attr:`blocked_set` must :meth:`prepare` first)."""
        return bool(self._todo)

    @property
    def blocked_set(self) -> set[Step]:
        """The live set of blocked steps (both directions); read it, never change it."""
        return self._blocked

    def blocked_steps(self) -> frozenset[Step]:
        """Every blocked step, in both directions."""
        self.prepare(0, 0, self.grid.width - 1, self.grid.height - 1)
        return frozenset(self._blocked)

    def refresh(self, wall_ids: Iterable[str]) -> None:
        """Recompute the steps around ``wall_ids`` after doors among them opened or closed."""
        ids = list(wall_ids)
        if self._lazy:
            # Tiles not worked out yet will see the new state when they are; those that
            # are (or had no wall near them, so nothing to work out) are redone now.
            raw_cells, final_cells = self._near(ids, pad=1), self._near(ids, pad=2)
            self._raw_near |= raw_cells
            self._final_near |= final_cells
            xs, ys = np.nonzero(final_cells)
            shift = TILE_SHIFT
            tiles = set(zip((xs >> shift).tolist(), (ys >> shift).tolist(), strict=True))
            for tile in sorted(tiles - self._todo):
                self._work_out_tile(*tile)
        else:
            self._update(ids)
        self._version = self.walls.version

    # -- internals ------------------------------------------------------------------------

    def _work_out_tile(self, tx: int, ty: int) -> None:
        """The final blocked steps stored at the cells of tile ``(tx, ty)``: they read
        the raw steps of the cells up to one away, whose steps reach one further."""
        x0, y0 = tx * TILE, ty * TILE
        rx, ry = _window(self._raw_near, x0 - 2, y0 - 2, x0 + TILE + 2, y0 + TILE + 2)
        fx, fy = _window(self._final_near, x0, y0, x0 + TILE, y0 + TILE)
        self._recompute_square(self._raw_near, rx, ry, fx, fy)

    def _update(self, wall_ids: list[str]) -> None:
        if self._square:
            raw_cells, final_cells = self._near(wall_ids, pad=1), self._near(wall_ids, pad=2)
            rx, ry = np.nonzero(raw_cells)
            fx, fy = np.nonzero(final_cells)
            self._recompute_square(raw_cells, rx, ry, fx, fy)
        else:
            self._recompute(self._cells_near(wall_ids, pad=1), self._cells_near(wall_ids, pad=2))

    def _cells_near(self, wall_ids: list[str], pad: int) -> set[Cell]:
        if not wall_ids:
            return set()
        xs, ys = np.nonzero(self._near(wall_ids, pad))
        return {(int(x), int(y)) for x, y in zip(xs, ys, strict=True)}

    def _near(self, wall_ids: list[str], pad: int) -> Mask:
        return _marks(self.grid, [self.walls.bounds(w) for w in wall_ids], pad)

    def _recompute_square(
        self,
        raw_cells: Mask,
        rx: np.ndarray,
        ry: np.ndarray,
        fx: np.ndarray,
        fy: np.ndarray,
    ) -> None:
        """:meth:`_recompute` for square grids, over the cells ``rx``/``ry`` (raw steps
        from them to other cells marked in ``raw_cells``) and ``fx``/``fy`` (final steps):
        work in proportion to the cells near the walls (module docstring)."""
        s = self.grid.cell_size
        raw = self._raw_at
        for d in self._forward:
            xs, ys, bx, by = _steps_from(rx, ry, d, raw_cells.shape)
            keep = raw_cells[bx, by]
            xs, ys = xs[keep], ys[keep]
            raw[d][xs, ys] = False
            if not len(xs):
                continue
            starts = np.stack([(xs + 0.5) * s, (ys + 0.5) * s], axis=1)
            ends = np.stack([(xs + d[0] + 0.5) * s, (ys + d[1] + 0.5) * s], axis=1)
            hit = self.walls.blocked_many(starts, ends, self.mode)
            raw[d][xs[hit], ys[hit]] = True
        for d in self._forward:
            xs, ys, _, _ = _steps_from(fx, fy, d, raw_cells.shape)
            blocked = raw[d][xs, ys]
            if d[0] and d[1]:
                blocked |= _detours_blocked(raw, xs, ys, d[1])
            old = self._final_at[d][xs, ys]
            for x, y in zip(xs[old & ~blocked], ys[old & ~blocked], strict=True):
                a_cell, b_cell = (int(x), int(y)), (int(x) + d[0], int(y) + d[1])
                self._blocked.discard((a_cell, b_cell))
                self._blocked.discard((b_cell, a_cell))
            for x, y in zip(xs[blocked & ~old], ys[blocked & ~old], strict=True):
                a_cell, b_cell = (int(x), int(y)), (int(x) + d[0], int(y) + d[1])
                self._blocked.add((a_cell, b_cell))
                self._blocked.add((b_cell, a_cell))
            self._final_at[d][xs, ys] = blocked

    def _recompute(self, raw_cells: set[Cell], final_cells: set[Cell]) -> None:
        grid = self.grid
        steps = [(a, b) for a in raw_cells for b in grid.neighbours(a) if b > a and b in raw_cells]
        for a, b in steps:
            self._raw.discard((a, b))
            self._raw.discard((b, a))
        if steps:
            starts = np.array([grid.center(a) for a, _ in steps], dtype=float)
            ends = np.array([grid.center(b) for _, b in steps], dtype=float)
            hit = self.walls.blocked_many(starts, ends, self.mode)
            for (a, b), h in zip(steps, hit, strict=True):
                if h:
                    self._raw.add((a, b))
                    self._raw.add((b, a))
        raw = self._raw
        for a in final_cells:
            for b in grid.neighbours(a):
                if b < a:
                    continue
                blocked = (a, b) in raw
                sides = grid.detours(a, b)
                if not blocked and sides is not None:
                    s1, s2 = sides
                    blocked = ((a, s1) in raw or (s1, b) in raw) and (
                        (a, s2) in raw or (s2, b) in raw
                    )
                if blocked:
                    self._blocked.add((a, b))
                    self._blocked.add((b, a))
                else:
                    self._blocked.discard((a, b))
                    self._blocked.discard((b, a))


def _boxes(
    grid: Grid, bounds: list[tuple[float, float, float, float]], pad: int
) -> list[tuple[int, int, int, int]]:
    """The cell ranges ``x0 <= x < x1``, ``y0 <= y < y1`` near walls with these
    ``(minx, miny, maxx, maxy)`` bounds (empty ones left out)."""
    s = grid.cell_size
    out = []
    for minx, miny, maxx, maxy in bounds:
        # One cell of padding in space and ``pad`` in index keeps every step whose
        # centre line can touch the wall (hex offsets stagger by half a cell).
        c0 = grid.cell_at((minx - s, miny - s))
        c1 = grid.cell_at((maxx + s, maxy + s))
        x0, y0 = max(0, c0[0] - pad), max(0, c0[1] - pad)
        x1, y1 = min(grid.width, c1[0] + pad + 1), min(grid.height, c1[1] + pad + 1)
        if x0 < x1 and y0 < y1:
            out.append((x0, y0, x1, y1))
    return out


def _marks(grid: Grid, bounds: list[tuple[float, float, float, float]], pad: int) -> Mask:
    """The cells near walls with these ``(minx, miny, maxx, maxy)`` bounds."""
    marks = np.zeros((grid.width, grid.height), dtype=bool)
    for x0, y0, x1, y1 in _boxes(grid, bounds, pad):
        marks[x0:x1, y0:y1] = True
    return marks


def _tiles(grid: Grid, bounds: list[tuple[float, float, float, float]], pad: int) -> set[Cell]:
    """The tiles holding a cell :func:`_marks` marks (from the bounds: no raster scan)."""
    shift = TILE_SHIFT
    return {
        (tx, ty)
        for x0, y0, x1, y1 in _boxes(grid, bounds, pad)
        for tx in range(x0 >> shift, ((x1 - 1) >> shift) + 1)
        for ty in range(y0 >> shift, ((y1 - 1) >> shift) + 1)
    }


def _window(marks: Mask, x0: int, y0: int, x1: int, y1: int) -> tuple[np.ndarray, np.ndarray]:
    """The coordinates of the cells marked in ``marks`` within ``x0 <= x < x1``,
    ``y0 <= y < y1`` (clipped to the grid)."""
    x0, y0 = max(0, x0), max(0, y0)
    xs, ys = np.nonzero(marks[x0:x1, y0:y1])
    return xs + x0, ys + y0


def cells_near_walls(grid: Grid, segments: Iterable[tuple[Point, Point]]) -> int:
    """How many cells a :class:`StepBlocker` for walls along ``segments`` examines: its
    work and memory grow with this (each wall's padded bounding box, so a long diagonal
    wall counts its whole box), which a scene can be refused on before anything is built."""
    bounds = [
        (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])) for a, b in segments
    ]
    return int(_marks(grid, bounds, pad=2).sum())


def _steps_from(
    xs: np.ndarray, ys: np.ndarray, d: tuple[int, int], shape: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cells among ``xs``/``ys`` whose step ``d`` stays on the grid, and the cells
    that step leads to."""
    bx, by = xs + d[0], ys + d[1]
    on = (bx < shape[0]) & (by >= 0) & (by < shape[1])
    return xs[on], ys[on], bx[on], by[on]


def _detours_blocked(
    raw: dict[tuple[int, int], Mask], xs: np.ndarray, ys: np.ndarray, dy: int
) -> Mask:
    """For the diagonals ``a -> a + (1, dy)`` from the cells ``xs``/``ys`` (the step on
    the grid): both orthogonal detours, via ``s1 = a + (1, 0)`` and ``s2 = a + (0, dy)``,
    have a raw-blocked leg.  Orthogonal steps are stored at their smaller end."""
    east, south = raw[(1, 0)], raw[(0, 1)]
    low = ys if dy == 1 else ys - 1  # the smaller row of each vertical leg
    a_s1 = east[xs, ys]
    s1_b = south[xs + 1, low]
    a_s2 = south[xs, low]
    s2_b = east[xs, ys + dy]
    result: Mask = (a_s1 | s1_b) & (a_s2 | s2_b)
    return result
