"""The squares of a move as :mod:`.movement` prices them, read from the scene.

A move's cells come from the core (``Context.path``, start first); for each square
stepped onto this gives its metres (the grid's cell size: on a 2 m grid with diagonals
counting one, every square is 2 m), what its ground costs under the mover's footprint
(the scene's terrain multipliers, as the core prices the path) and whether it is a gap
(a ``gap`` terrain polygon over its centre), which is what makes it part of a jump.

A gridless scene has no squares: each straight segment of the path is one "square" of
its own length (in three dimensions, a climb's height included) and of its terrain's
average price along it, so MOVE x 2 m of path is MOVE squares' worth and the mode's
price or the terrain's, whichever is dearer, applies metre by metre as on a grid.  A
``jump`` or ``standing_jump`` jumps over all but the last 2 m of its length in squares
rounded up (``steps``, :func:`engine.handlers.move_steps`), landing on the last (the
grid's rule for a jump with no gap drawn: the table says it is a jump).  Gap terrain
counts as the core prices it there (2 per 1), not as a jump.

A climb on a grid (a move with ``elevations``) keeps its squares, each of the metres it
takes in three dimensions (:func:`geometry.elevation.flight_step_costs`, Foundry's 3D
ruler), its ground's price counted only where the climber stands on the ground.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import cast

from shapely.geometry import Polygon

from engine.rulesets.base import Context
from engine.rulesets.cyberpunk_red import movement
from geometry import Cell
from geometry.elevation import flight_step_costs
from geometry.terrain import CostRule, TerrainKind, TerrainMap, TerrainRegion


def squares(ctx: Context, mode: str, cost: float, steps: int) -> list[movement.Square]:
    """The squares of the move being planned (``ctx.path``): each step's metres, its
    ground's price under the mover's footprint, and whether it is a gap.  Without a path
    (the trial move ``ask_options`` makes) ``steps`` squares at ``cost``, and for a jump
    the smallest there is: one square jumped over and the landing.  Gridless: module
    docstring."""
    cell_size = ctx.scene.grid.cell_size
    gridless = ctx.scene.grid.gridless
    if gridless and len(ctx.path) >= 2 and mode not in movement.JUMPS:
        return _segments(ctx)
    if len(ctx.path) < 2 or gridless:
        if mode in movement.JUMPS:
            jumped = max(1, steps - 1) if gridless else 1
            return [movement.Square(cell_size, gap=True)] * jumped + [movement.Square(cell_size)]
        terrain = cost / (steps * cell_size) if steps else 1.0
        return [movement.Square(cell_size, terrain) for _ in range(steps)]
    index = ctx.spatial.index(ctx.scene)
    grid, size = index.grid, ctx.token.size
    gaps = [t for t in ctx.scene.terrain if t.kind == TerrainKind.GAP.value]
    gap_map = (
        TerrainMap(
            [TerrainRegion(Polygon(t.polygon), TerrainKind.GAP) for t in gaps],
            CostRule({TerrainKind.GAP: 2.0}),
            grid,
        )
        if gaps
        else None
    )
    cells = cast(tuple[Cell, ...], ctx.path)
    # A climb on a grid: each square's metres in three dimensions, and the ground's
    # price only where the climber stands on it (engine.grid_flight).
    heights = ctx.heights
    metres = flight_step_costs(grid, cells, heights) if heights else None
    squares = []
    for i, cell in enumerate(cells[1:]):
        feet = grid.footprint(cell, size)
        terrain = index.terrain.footprint_multiplier(feet) if index.terrain is not None else 1.0
        gap = gap_map is not None and gap_map.footprint_multiplier(feet) > 1.0
        if metres is None:
            squares.append(movement.Square(cell_size, terrain, gap))
        else:
            grounded = heights[i + 1] <= 0
            squares.append(movement.Square(metres[i], terrain if grounded else 1.0, gap))
    return squares


def _segments(ctx: Context) -> list[movement.Square]:
    """A gridless move's "squares": one per segment (module docstring)."""
    terrain = ctx.spatial.board(ctx.scene).terrain
    heights = ctx.heights or (ctx.token.elevation,) * len(ctx.path)
    found = []
    for i, (p, q) in enumerate(pairwise(ctx.path)):
        a, b = (float(p[0]), float(p[1])), (float(q[0]), float(q[1]))
        ground = math.dist(a, b)
        price = 1.0
        if terrain is not None and ground > 0 and heights[i] <= 0 and heights[i + 1] <= 0:
            price = terrain.segment_cost(a, b) / ground  # in the air: over the terrain
        metres = math.hypot(ground, heights[i + 1] - heights[i])
        found.append(movement.Square(metres, price))
    return found
