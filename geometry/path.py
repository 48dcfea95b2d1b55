"""Paths of cells: validation, cost, and where a path moves out of an area.

A path is the mover's start cell followed by the cells it steps through, each adjacent
to the one before.  "Moving out of a square you threaten" (seed 000, Attacks of
Opportunity) happens at every step whose starting cell is in the threatened set; the
engine cares about the first such step per threatener, reported here in path order with
the exact point where the path crosses out of that cell.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from geometry.errors import GeometryError
from geometry.square import Cell, Point, SquareGrid


@dataclass(frozen=True, slots=True)
class AreaExit:
    """The first step at which a path moves out of a cell of the area ``area_id``.

    ``step`` is the index of the step (0 = from ``path[0]`` to ``path[1]``), ``cell`` the
    cell being left and ``point`` where the path's centre line crosses out of it.
    """

    area_id: str
    step: int
    cell: Cell
    point: Point


def validate_path(grid: SquareGrid, path: Sequence[Cell]) -> float:
    """Check every cell is on the grid and every step adjacent; return the total cost."""
    if len(path) < 2:
        raise GeometryError("a path needs a start cell and at least one step")
    for cell in path:
        grid.require(cell)
    return sum(grid.step_cost(a, b) for a, b in itertools.pairwise(path))


def exit_point(grid: SquareGrid, a: Cell, b: Cell) -> Point:
    """Where the straight step from the centre of ``a`` to the centre of ``b`` leaves ``a``."""
    segment = LineString([grid.center(a), grid.center(b)])
    crossing = segment.intersection(grid.cell_polygon(a).exterior)
    if isinstance(crossing, ShapelyPoint):
        return (crossing.x, crossing.y)
    # A step along a cell edge cannot happen between centres; keep a defined answer anyway.
    return grid.center(b)  # pragma: no cover


def first_exits(
    grid: SquareGrid, path: Sequence[Cell], areas: Mapping[str, frozenset[Cell]]
) -> list[AreaExit]:
    """For each area, the first step that moves out of one of its cells, in path order.

    Ties on the same step keep the order of ``areas``.  Areas the path never moves out of
    are absent.
    """
    if len(path) < 2:
        raise GeometryError("a path needs a start cell and at least one step")
    found: list[AreaExit] = []
    for area_id, cells in areas.items():
        for step, (a, b) in enumerate(itertools.pairwise(path)):
            if a in cells:
                found.append(AreaExit(area_id, step, a, exit_point(grid, a, b)))
                break
    found.sort(key=lambda e: e.step)
    return found
