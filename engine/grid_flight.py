"""A flight on a square or hex grid: a move whose ``elevations`` change the token's height.

A grid flight is a path of cells, each with the height of the token's base there
(``Move.elevations``, one per cell after the first): each step goes to an adjacent cell
or stays on its cell and climbs or sinks (a flier rising in place), never neither.
What changes from a walk on the ground, each choice the same as on a gridless scene
(:mod:`engine.gridless_board`) where a grid allows it:

* **Cost**: each step in three dimensions by the grid's diagonal rule, the vertical
  offset in whole cell layers, as Foundry VTT's ruler measures elevated waypoints
  (:func:`geometry.elevation.flight_step_costs`).  Terrain prices a step that ends on the
  ground (elevation 0 or below) as it prices a walk; a step that ends in the air flies
  over it.
* **Walls** reach the sky: a wall that blocks a walk blocks the flight at any height.
* **Tokens in the way**: every token is as tall as it is wide (``size`` cells); one the
  flier passes wholly above or below is no obstacle, an enemy it would overlap bars the
  way as on the ground, and it may not end overlapping anyone.
* **Attacks of opportunity**: a threatener's squares are measured against the flier's
  height on each cell (:func:`geometry.elevation.reaches_up`, Foundry's 3D reach).  The flier
  moves out of a threatened square when it leaves the cell, or stays on the cells it
  covers but changes layer (it leaves the square at that height); the exit is on the
  step it does so, standing where it was, as on the ground.
* **Readied actions** watch the cells of their area at any height, and their sight
  triggers see from the ground as before: the texts' areas are squares on the map.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from engine.gridless_board import heights_meet
from engine.model import Combatant, Scene
from geometry import AreaExit, Cell, HexGrid, MoveResolution, SquareGrid, ThreatIndex
from geometry.elevation import flight_step_costs, layer, reaches_up
from geometry.path import step_midpoint


def cells_crossed(
    cells: tuple[Cell, ...], heights: Sequence[float]
) -> tuple[str | None, tuple[Cell, ...]]:
    """The cells a flight crosses on the map, a climb in place counted once, or why a
    step of it goes nowhere (the same cell at the same height)."""
    crossed = [cells[0]]
    for i in range(1, len(cells)):
        if cells[i] != crossed[-1]:
            crossed.append(cells[i])
        elif heights[i] == heights[i - 1]:
            return f"step {i} stays on {cells[i]} at {heights[i]:g}: it goes nowhere", ()
    return None, tuple(crossed)


def resolve_flight(
    index: ThreatIndex,
    scene: Scene,
    mover: Combatant,
    cells: tuple[Cell, ...],
    heights: Sequence[float],
    elevation_of: Mapping[str, float],
    areas: bool = True,
    on_map: tuple[AreaExit, ...] | None = None,
) -> tuple[str | None, MoveResolution | None]:
    """Why ``mover`` cannot fly along ``cells`` (start first) at ``heights`` (one per
    cell), or its resolution: the cost in three dimensions and every threatener's first
    exit (module docstring); ``areas=False`` leaves the exits out.  The walls are the
    caller's to check first, as for any move on the grid (they reach the sky).
    ``on_map``: the exits of the same cells walked on the ground, when the caller has
    them (the index's one-pass scan): whoever threatens a cell the flight leaves is
    among them, so only they are measured at the flight's heights.  ``elevation_of``:
    the tokens' elevations off the ground, by id
    (:meth:`engine.spatial.SpatialCache.elevations`)."""
    cost = flight_cost(index, mover, cells, heights)
    if cost == float("inf"):
        return "the path crosses impassable terrain", None
    problem = tokens_in_the_way(index, scene, mover, cells, heights)
    if problem is not None:
        return problem, None
    exits: tuple[AreaExit, ...] = ()
    if areas:
        near = None
        # A wider flier may stay on cells it covers and leave them a layer up, which a
        # walk never does: it looks them all up.
        if on_map is not None and mover.size == 1:
            near = {e.area_id for e in on_map}
            if len(cells) > 1 and cells[-1] == cells[-2]:  # it ends climbing in place
                near |= index.areas_at(cells[-1])
        exits = flight_exits(index, elevation_of, mover, cells, heights, near=near)
    return None, MoveResolution(cost, None, False, (), exits)


def flight_cost(
    index: ThreatIndex, mover: Combatant, cells: Sequence[Cell], heights: Sequence[float]
) -> float:
    """The flight's whole cost: its steps in three dimensions, terrain pricing those that
    end on the ground."""
    grid, terrain = index.grid, index.terrain
    steps = flight_step_costs(grid, cells, heights)
    if terrain is None or not terrain.priced:
        return sum(steps)
    total = 0.0
    for i, step in enumerate(steps):
        if heights[i + 1] <= 0:
            cell = cells[i + 1]
            if mover.size == 1:
                step *= terrain.multiplier(cell)
            else:
                step *= terrain.footprint_multiplier(grid.footprint(cell, mover.size))
        total += step
    return total


def tokens_in_the_way(
    index: ThreatIndex,
    scene: Scene,
    mover: Combatant,
    cells: Sequence[Cell],
    heights: Sequence[float],
) -> str | None:
    """Why other tokens bar a move along ``cells`` at ``heights`` (a walk's: the
    mover's own elevation all along), or None: an enemy it overlaps in height on a cell
    it comes onto, or anyone where it ends; allies are passed through.  A token is as
    tall as it is wide: one wholly above or below the mover is no obstacle
    (:func:`engine.gridless_board.heights_meet`).  ``index`` must describe ``scene``:
    its occupancy says who stands where."""
    grid, size = index.grid, mover.size
    span = size * grid.cell_size
    last = len(cells) - 1
    occupants, me = index.occupants, (mover.id,)
    for step in range(1, last + 1):
        if size == 1:
            here = occupants(cells[step])
            if not here or here == me:  # most cells of most moves: nobody else there
                continue
            standing = [(cells[step], other_id) for other_id in here if other_id != mover.id]
        else:
            feet = grid.footprint(cells[step], size)
            standing = [(c, o) for c in feet for o in occupants(c) if o != mover.id]
        low = min(heights[step - 1], heights[step])
        high = max(heights[step - 1], heights[step]) + span
        for cell, other_id in standing:
            other = scene.token(other_id)
            assert other is not None  # the index holds exactly the scene's tokens
            if other.side != mover.side and heights_meet(low, high, other, grid.cell_size):
                return f"cell {cell} is occupied by enemy {other.id!r}"
            if step == last and heights_meet(
                heights[step], heights[step] + span, other, grid.cell_size
            ):
                return f"the move ends on {cell}, occupied by {other.id!r}"
    return None


def flight_exits(
    index: ThreatIndex,
    elevation_of: Mapping[str, float],
    mover: Combatant,
    cells: Sequence[Cell],
    heights: Sequence[float],
    only: str | None = None,
    first_step: int = 0,
    near: Collection[str] | None = None,
) -> tuple[AreaExit, ...]:
    """Every threatener's first exit along the flight, in path order (ties by id, as on
    the ground); ``only`` one threatener's, from ``first_step`` on (a move that begins
    in its reach without provoking provokes on the way out of a later square).  The
    exit's point is between the two cells' centres, as a move on the ground has it.
    ``near``: the areas that may threaten any cell the flier covers (None: looked up)."""
    grid, size = index.grid, mover.size
    assert isinstance(grid, SquareGrid | HexGrid)
    # Who threatens any cell the flier covers on the map: its reach up there is a part
    # of what it reaches on the map (geometry.elevation.threatened_at).
    if near is None:
        under = set(cells) if size == 1 else {c for p in cells for c in grid.footprint(p, size)}
        near = frozenset().union(*(index.areas_at(c) for c in under))
    near = set(near) - {mover.id}
    if not near:  # most flights: nobody's squares on the way
        return ()
    feet = [] if size == 1 else [grid.footprint(c, size) for c in cells]
    cell_size = grid.cell_size
    layers = [layer(h, cell_size) for h in heights]
    found: list[AreaExit] = []
    for area_id in sorted(near) if only is None else [only] if only in near else []:
        on_map = index.area(area_id)
        if not index.has_token(area_id):  # a readied action's area: the walk asks it
            continue
        below = elevation_of.get(area_id, 0.0)
        own = layer(below, cell_size)
        other = index.token(area_id)
        for step in range(first_step, len(cells) - 1):
            k = layers[step]
            if size == 1:  # a step leaves its square unless it climbs within its layer
                if cells[step] not in on_map or (
                    cells[step] == cells[step + 1] and layers[step + 1] == k
                ):
                    continue
                left: frozenset[Cell] = frozenset((cells[step],))
            else:
                stays = feet[step + 1] if layers[step + 1] == k else frozenset()
                left = (feet[step] - stays) & on_map
                if not left:
                    continue
            if own != k:  # another layer: what it reaches up there
                reacher = grid.footprint(other.origin, other.size)
                up = heights[step]
                left = frozenset(
                    c for c in left if reaches_up(grid, reacher, c, other.reach, below, up)
                )
                if not left:
                    continue
            point = step_midpoint(grid, cells[step], cells[step + 1], size)
            found.append(AreaExit(area_id, step, cells[step] if size == 1 else min(left), point))
            break
    found.sort(key=lambda e: (e.step, e.area_id))
    return tuple(found)
