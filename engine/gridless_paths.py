"""``ask_path`` on a gridless scene: a visibility-graph plan around walls and enemies.

The graph's nodes are the start, the goal, and points just clear of every obstacle
near enough to matter: eight around each end of a wall that blocks movement (at the
mover's radius and a margin from it) and eight around each enemy (at the two radii and
the margin from its centre).  Two nodes are joined when the mover's disc can go
straight from one to the other (the move's own checks:
:meth:`engine.gridless_board.GridlessBoard.walkable` on the segment), and the cheapest
path is found by Dijkstra on segment cost (length, terrain included).  The answer is
then checked as a move would check it, so a plan is always a move that is accepted.

Its limits, by design: a shortest path hugs obstacles' corners, which eight points
around a corner approximate (the plan may be up to a few per cent longer than the
true shortest one); obstacles farther from the start than the budget are left out,
and at most :data:`MAX_NODES` nodes are used (the nearest), so a maze of many walls
may be answered "no open path" where a longer search would find one.  An ally is not
an obstacle (the mover may pass through), but the goal may not overlap anyone.
"""

from __future__ import annotations

import heapq
import math

from engine.gridless_board import GridlessBoard, centre
from engine.model import Combatant, Position
from geometry import Point

#: How far beyond touching the obstacle the nodes stand, in cells.
MARGIN_CELLS = 0.05
#: The most nodes a plan uses besides the start and the goal (the nearest ones).
MAX_NODES = 96
#: Points around each obstacle.
AROUND = 8


def plan(
    board: GridlessBoard,
    mover: Combatant,
    goal: Point,
    limit: float,
    enemies: list[Combatant],
) -> tuple[tuple[Position, ...], float] | None:
    """The cheapest waypoints after ``mover``'s centre to ``goal`` costing at most
    ``limit``, with their cost, or None (module docstring)."""
    start = centre(mover)
    radius = board.radius(mover)
    margin = MARGIN_CELLS * board.cell_size
    corners: list[tuple[Point, float]] = []
    for wall_id in board.walls.ids():
        wall = board.walls.get(wall_id)
        if wall.blocks_move:
            corners += [(wall.a, radius + margin), (wall.b, radius + margin)]
    corners += [(centre(e), radius + board.radius(e) + margin) for e in enemies]
    nodes: list[Point] = []
    for (x, y), out in corners:
        if math.dist(start, (x, y)) - out > limit:
            continue
        for k in range(AROUND):
            turn = 2 * math.pi * (k + 0.5) / AROUND
            p = (x + out * math.cos(turn), y + out * math.sin(turn))
            if board.plane.contains(p):
                nodes.append(p)
    nodes.sort(key=lambda p: math.dist(start, p))
    points = [start, goal, *nodes[:MAX_NODES]]
    best = _dijkstra(board, mover, points, limit)
    if best is None:
        return None
    found: tuple[Position, ...] = tuple(best[1:])
    problem, resolved = board.walkable(mover, (start, *found), areas=False)
    if problem is not None or resolved is None or resolved.cost > limit + 1e-9:
        return None
    return found, resolved.cost


def _dijkstra(
    board: GridlessBoard, mover: Combatant, points: list[Point], limit: float
) -> list[Point] | None:
    """The cheapest chain of ``points`` from the first to the second (the goal)."""
    cost = {0: 0.0}
    back: dict[int, int] = {}
    queue = [(0.0, 0)]
    done: set[int] = set()
    while queue:
        spent, i = heapq.heappop(queue)
        if i in done:
            continue
        done.add(i)
        if i == 1:
            chain = [1]
            while chain[-1] != 0:
                chain.append(back[chain[-1]])
            return [points[j] for j in reversed(chain)]
        for j in range(1, len(points)):
            if j in done:
                continue
            step = _segment_cost(board, mover, points[i], points[j])
            if step is None or spent + step > limit + 1e-9:
                continue
            if spent + step < cost.get(j, math.inf):
                cost[j] = spent + step
                back[j] = i
                heapq.heappush(queue, (spent + step, j))
    return None


def _segment_cost(board: GridlessBoard, mover: Combatant, p: Point, q: Point) -> float | None:
    """What going straight from ``p`` to ``q`` costs ``mover``, or None if it cannot."""
    if math.dist(p, q) < 1e-12:
        return None
    problem, resolved = board.walkable(mover, (p, q), areas=False)
    if problem is not None and not problem.startswith("the move ends on"):
        return None  # a waypoint may lie by an ally's side: only the goal is checked
    if resolved is None:  # refused only for where it ends: priced as the board prices it
        terrain = board.terrain
        return terrain.segment_cost(p, q) if terrain is not None else math.dist(p, q)
    return resolved.cost
