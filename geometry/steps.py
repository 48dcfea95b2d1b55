"""Which single steps between adjacent cells walls block, precomputed per grid.

Checking a move against 2,000 walls with shapely on every request is what makes naive
tooling slow; the set of blocked steps only changes when a door opens or closes, so
:class:`StepBlocker` computes it once (vectorised over every step near a wall) and then
answers "is the step from ``a`` to ``b`` blocked?" with one set lookup.  A door toggle
recomputes only the steps around that door.

A step is blocked when the segment between the two cell centres is (the rule in
:mod:`geometry.walls`), or, for a square-grid diagonal, when both of its orthogonal
detours are: the step would squeeze between two blocking corners.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from geometry.grid import Grid
from geometry.square import Cell
from geometry.walls import BlockMode, WallSet

Step = tuple[Cell, Cell]


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
        self._recompute(self._cells_near(active, pad=1), self._cells_near(active, pad=2))

    def blocked(self, a: Cell, b: Cell) -> bool:
        """Whether walls block the single step from ``a`` to the adjacent ``b``."""
        return (a, b) in self._blocked

    @property
    def blocked_set(self) -> set[Step]:
        """The live set of blocked steps (both directions); read it, never change it."""
        return self._blocked

    def blocked_steps(self) -> frozenset[Step]:
        """Every blocked step, in both directions."""
        return frozenset(self._blocked)

    def refresh(self, wall_ids: Iterable[str]) -> None:
        """Recompute the steps around ``wall_ids`` after doors among them opened or closed."""
        ids = list(wall_ids)
        self._recompute(self._cells_near(ids, pad=1), self._cells_near(ids, pad=2))
        self._version = self.walls.version

    # -- internals ------------------------------------------------------------------------

    def _cells_near(self, wall_ids: list[str], pad: int) -> set[Cell]:
        grid = self.grid
        if not wall_ids:
            return set()
        marks = np.zeros((grid.width, grid.height), dtype=bool)
        s = grid.cell_size
        for wall_id in wall_ids:
            minx, miny, maxx, maxy = self.walls.bounds(wall_id)
            # One cell of padding in space and ``pad`` in index keeps every step whose
            # centre line can touch the wall (hex offsets stagger by half a cell).
            c0 = grid.cell_at((minx - s, miny - s))
            c1 = grid.cell_at((maxx + s, maxy + s))
            x0, y0 = max(0, c0[0] - pad), max(0, c0[1] - pad)
            x1, y1 = min(grid.width, c1[0] + pad + 1), min(grid.height, c1[1] + pad + 1)
            if x0 < x1 and y0 < y1:
                marks[x0:x1, y0:y1] = True
        xs, ys = np.nonzero(marks)
        return {(int(x), int(y)) for x, y in zip(xs, ys, strict=True)}

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
