"""A move's path as a scene plays it: a grid's cells or a gridless scene's waypoints,
and a flight's heights; read by :mod:`engine.handlers` (the move commands),
:mod:`engine.movement` (the walk) and the queries (:mod:`engine.threat`,
:mod:`engine.options`)."""

from __future__ import annotations

import math
from itertools import pairwise

from engine.combat_state import PendingMove
from engine.commands import MovePoints
from engine.errors import CommandRejected
from engine.model import GRIDLESS, Combatant, Position, Scene, VttSpec
from geometry import Cell, Grid, LineRule, Point, trace_waypoints
from geometry.vtt_coords import FoundryScene


def path_on(scene: Scene, token: str, path: tuple[Position, ...]) -> tuple[Position, ...]:
    """``path`` as ``scene`` plays it: gridless, the waypoints as they are; on a grid,
    cells, a whole number sent as ``3.0`` read as cell 3 and a fractional one refused."""
    if scene.grid.kind == GRIDLESS:
        return path
    for x, y in path:  # every move comes here: a plain loop, the cheapest check
        if type(x) is not int or type(y) is not int:
            break
    else:
        return path
    cells = []
    for x, y in path:
        if not (float(x).is_integer() and float(y).is_integer()):
            raise CommandRejected(
                "illegal_move",
                f"move of {token!r}: ({x:g}, {y:g}) is not a cell of this "
                f"{scene.grid.kind} grid (waypoints in scene units are for gridless scenes)",
            )
        cells.append((int(x), int(y)))
    return tuple(cells)


def flight_heights(
    scene: Scene,
    token: Combatant,
    steps: tuple[Position, ...],
    elevations: tuple[float, ...] | None,
) -> tuple[float, ...]:
    """A move's heights, start first, from its ``elevations`` (one per step: a
    waypoint gridless, a cell on a grid), or ``()`` when it sends none or stays level
    all along."""
    if elevations is None:
        return ()
    if len(elevations) != len(steps):
        raise CommandRejected(
            "illegal_move",
            f"move of {token.id!r}: {len(elevations)} elevations for {len(steps)} "
            f"{'waypoints' if scene.grid.gridless else 'cells'}: one each",
        )
    heights = (token.elevation, *elevations)
    return () if all(h == token.elevation for h in heights) else heights


def rise_of(heights: tuple[float, ...]) -> float:
    """How far a flight climbs and sinks in all."""
    return sum(abs(b - a) for a, b in pairwise(heights))


def move_steps(scene: Scene, path: tuple[Position, ...], cost: float) -> int:
    """The steps a ruleset is told a move takes: its cells after the first on a grid;
    gridless, its length in cells of the scene's size, rounded up (a move of at most one
    cell's length is one step: the 1 m step, a crawl), at least 1."""
    if not scene.grid.gridless:
        return len(path) - 1
    return max(1, math.ceil(cost / scene.grid.cell_size - 1e-9))


def gridless_points(
    scene: Scene, vtt: VttSpec, token: Combatant, command: MovePoints
) -> tuple[Position, ...]:
    """``command``'s pixels as waypoints of a gridless scene, in its unit, unsnapped: a
    Foundry token document's ``x``/``y`` is its top-left corner, so half the token's
    width goes on; an Owlbear item's position is its centre."""
    if command.image is not None:
        raise CommandRejected(
            "illegal_move", "an image grid places items on Owlbear square grids only"
        )
    grid = scene.grid
    if vtt.kind == "foundry":
        foundry = FoundryScene(vtt.grid_size, grid.cell_size, vtt.scene_x, vtt.scene_y)
        half = token.size * grid.cell_size / 2
        corners = [foundry.to_point(x, y) for x, y in command.points]
        return tuple((x + half, y + half) for x, y in corners)
    per_pixel = grid.cell_size / vtt.grid_size
    return tuple((x * per_pixel, y * per_pixel) for x, y in command.points)


def rest_of(scene: Scene, mover: Combatant, pending: PendingMove) -> tuple[Position, ...]:
    """What is left of ``pending``'s path, from where ``mover`` stands: on a grid the
    cells from its step on; gridless, its point (a pause may leave it between two
    waypoints, in segment ``step``) then the waypoints after that segment."""
    if scene.grid.kind != GRIDLESS:
        return pending.path[pending.step :]
    return (mover.position, *pending.path[pending.step + 1 :])


def rest_heights(mover: Combatant, pending: PendingMove) -> tuple[float, ...]:
    """A flight's heights along :func:`rest_of` (empty: not a flight); a pause left the
    mover at the height it had reached, on a grid that of the cell it stands on."""
    if not pending.heights:
        return ()
    return (mover.elevation, *pending.heights[pending.step + 1 :])


def height_at(
    rest: tuple[Position, ...], heights: tuple[float, ...], step: int, point: Point
) -> float | None:
    """A flight's elevation at ``point`` of segment ``step`` (None: not a flight)."""
    if not heights:
        return None
    a, b = rest[step], rest[step + 1]
    whole = math.dist(a, b)
    t = math.dist(a, point) / whole if whole else 0.0
    return heights[step] + (heights[step + 1] - heights[step]) * t


def traced_flight(
    grid: Grid, waypoints: list[Cell], levels: list[float], line: LineRule
) -> tuple[tuple[Cell, ...], tuple[float, ...]]:
    """The cells after the first of a flight through ``waypoints`` at ``levels`` (one
    each, the first where the token stands) and each cell's height, in step with its
    place along its segment; a waypoint on the cell before it is a climb in place."""
    cells: list[Cell] = []
    heights: list[float] = []
    for (a, b), (low, high) in zip(pairwise(waypoints), pairwise(levels), strict=True):
        segment = trace_waypoints(grid, [a, b], line)[1:] or [b]
        for k, cell in enumerate(segment, start=1):
            cells.append(cell)
            heights.append(high if k == len(segment) else low + (high - low) * k / len(segment))
    return tuple(cells), tuple(heights)
