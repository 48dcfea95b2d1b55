"""Terrain: polygons with a kind, and the cost rule that prices moving through them.

A cost rule maps each :class:`TerrainKind` to a multiplier of the distance moved.
Cyberpunk RED (seed 001): walking or running costs 1 m per 1 m; swimming, climbing and a
running jump 2 m per 1 m; "a standing jump goes half as far as a running one", which as a
movement cost means the same metres buy half the distance: 4 m per 1 m
(:func:`jump_cost`).  ``DIFFICULT`` terrain costs double, the d20 convention, unless a
rule says otherwise.

On a grid a cell has the terrain whose polygon contains its centre (the most expensive
one where polygons overlap), and a step costs the grid's step cost times the most
expensive multiplier under the mover's whole footprint at the cell it steps into: a large
creature with one leg in the river swims.  Gridless, a segment costs the length of each
piece of it times the multiplier of the terrain that piece lies in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.square import Cell, Point


class TerrainKind(Enum):
    """What a patch of ground is, for pricing movement through it."""

    NORMAL = "normal"
    DIFFICULT = "difficult"
    WATER = "water"
    CLIMBABLE = "climbable"
    GAP = "gap"
    IMPASSABLE = "impassable"


_DEFAULT_MULTIPLIERS: dict[TerrainKind, float] = {
    TerrainKind.NORMAL: 1.0,
    TerrainKind.DIFFICULT: 2.0,
    TerrainKind.WATER: 2.0,
    TerrainKind.CLIMBABLE: 2.0,
    TerrainKind.GAP: 2.0,
    TerrainKind.IMPASSABLE: math.inf,
}


@dataclass(frozen=True, slots=True)
class CostRule:
    """Multipliers of distance moved per terrain kind; kinds not listed cost 1."""

    multipliers: Mapping[TerrainKind, float] = field(
        default_factory=lambda: dict(_DEFAULT_MULTIPLIERS)
    )

    def __post_init__(self) -> None:
        for kind, m in self.multipliers.items():
            if not m >= 1:
                raise GeometryError(f"cost multiplier for {kind.value} must be >= 1, got {m!r}")

    def multiplier(self, kind: TerrainKind) -> float:
        """The multiplier for ``kind``."""
        return self.multipliers.get(kind, 1.0)

    @classmethod
    def cyberpunk_red(cls, *, standing_jump: bool = False) -> CostRule:
        """Seed 001's table: swim, climb, running jump 2 m per 1 m; standing jump 4 m per 1 m.

        ``standing_jump`` prices ``GAP`` cells as a standing jump instead of a running one.
        """
        rules = dict(_DEFAULT_MULTIPLIERS)
        rules[TerrainKind.GAP] = jump_cost(1.0, running=not standing_jump)
        return cls(rules)


def jump_cost(distance: float, *, running: bool = True) -> float:
    """Movement spent to jump ``distance`` in Cyberpunk RED (seed 001).

    A running jump costs 2 m per 1 m.  A standing jump covers half the distance a running
    jump would for the same movement, so it costs twice as much: 4 m per 1 m.
    """
    if distance < 0:
        raise GeometryError(f"jump distance must not be negative, got {distance!r}")
    return distance * (2.0 if running else 4.0)


@dataclass(frozen=True, slots=True)
class TerrainRegion:
    """A polygon of terrain of one ``kind``."""

    polygon: Polygon
    kind: TerrainKind

    def __post_init__(self) -> None:
        if not isinstance(self.polygon, Polygon) or self.polygon.is_empty:
            raise GeometryError(f"terrain needs a non-empty Polygon, got {self.polygon!r}")


class TerrainMap:
    """Terrain of a scene, priced by ``rule``; on a grid, per-cell multipliers precomputed."""

    def __init__(
        self,
        regions: Iterable[TerrainRegion],
        rule: CostRule | None = None,
        grid: Grid | None = None,
    ) -> None:
        self.regions = tuple(regions)
        self.rule = rule or CostRule()
        self.grid = grid
        self._cells: dict[Cell, float] = {}
        if grid is not None:
            self._rasterise(grid)

    def _rasterise(self, grid: Grid) -> None:
        for region in self.regions:
            m = self.rule.multiplier(region.kind)
            if m == 1.0:
                continue
            minx, miny, maxx, maxy = region.polygon.bounds
            c0, c1 = grid.cell_at((minx, miny)), grid.cell_at((maxx, maxy))
            cand = [
                (x, y)
                for x in range(max(0, c0[0] - 1), min(grid.width, c1[0] + 2))
                for y in range(max(0, c0[1] - 1), min(grid.height, c1[1] + 2))
            ]
            if not cand:
                continue
            centres = np.array([grid.center(c) for c in cand], dtype=float)
            inside = shapely.contains_xy(region.polygon, centres[:, 0], centres[:, 1])
            for cell, hit in zip(cand, inside, strict=True):
                if hit and m > self._cells.get(cell, 1.0):
                    self._cells[cell] = m

    @property
    def priced(self) -> bool:
        """Whether any grid cell costs more than normal ground."""
        return bool(self._cells)

    def multiplier(self, cell: Cell) -> float:
        """The cost multiplier of ``cell`` (needs a grid)."""
        return self._cells.get(cell, 1.0)

    def footprint_multiplier(self, cells: Iterable[Cell]) -> float:
        """The most expensive multiplier under a footprint."""
        table = self._cells
        if not table:
            return 1.0
        return max((table.get(c, 1.0) for c in cells), default=1.0)

    def segment_cost(self, p: Point, q: Point) -> float:
        """Gridless cost of the straight move ``p`` to ``q``: each piece's length x multiplier."""
        length = math.dist(p, q)
        if length == 0 or not self.regions:
            return length
        line = LineString([p, q])
        # Cut the segment at every terrain boundary and price each piece by its midpoint.
        ts = {0.0, 1.0}
        for region in self.regions:
            hit: BaseGeometry = line.intersection(region.polygon.boundary)
            for pt in shapely.get_coordinates(hit):
                ts.add(float(line.project(shapely.Point(pt), normalized=True)))
        cuts = sorted(ts)
        total = 0.0
        for t0, t1 in pairwise(cuts):
            if t1 - t0 <= 0:
                continue
            mid = line.interpolate((t0 + t1) / 2, normalized=True)
            m = max(
                (self.rule.multiplier(r.kind) for r in self.regions if r.polygon.contains(mid)),
                default=1.0,
            )
            total += (t1 - t0) * length * m
        return total
