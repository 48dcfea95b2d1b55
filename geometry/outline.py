"""The outline of a set of cells: the rings around them, for a client to draw.

Merging cell polygons with shapely (``union_all``, even ``coverage_union_all``) costs
about 25 us a cell, a tenth of a second for a few thousand, too slow to answer a query on
the server's one thread.  Cells of one grid meet edge to edge, so the outline needs no
polygon arithmetic: an edge is on the outline exactly when the cell across it is not in
the set.  Every cell lists its edges in the same rotational order, so the outline's
edges, followed end to start, close into rings: the outer ones one way round and the
holes the other, which is what an even-odd fill (SVG ``fill-rule="evenodd"``, a canvas
``"evenodd"``) wants.

Corners are named exactly rather than by their float coordinates, so two cells always
agree on a shared corner: a square corner by its lattice point, a hex corner by the
three hexes (axial coordinates) that meet there, its position their centres' mean.
Where only two diagonal squares touch at a corner, the ring may pass through it twice;
the fill is the same whichever way round it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from typing import cast

from geometry.grid import Grid
from geometry.hexgrid import HexGrid
from geometry.square import Cell, Point, SquareGrid

Ring = tuple[Point, ...]
#: Outline edges as corner -> the corners edges from it go to, and where a corner lies.
_Edges = tuple[dict[Hashable, list[Hashable]], Callable[[Hashable], Point]]

# Axial directions in rotational order: consecutive ones are neighbours of each other.
_HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def outline(grid: Grid, cells: Collection[Cell]) -> tuple[Ring, ...]:
    """The rings around ``cells`` (module docstring), in the grid's distance units, with
    no vertex where the outline runs straight on."""
    if not cells:
        return ()
    if isinstance(grid, SquareGrid):
        edges, where = _square_edges(grid, cells)
    elif isinstance(grid, HexGrid):
        edges, where = _hex_edges(grid, cells)
    else:  # pragma: no cover - every grid is one of the two
        raise TypeError(f"no outline for {type(grid).__name__}")
    return tuple(_straighten([where(c) for c in ring]) for ring in _rings(edges))


def _square_edges(grid: SquareGrid, cells: Collection[Cell]) -> _Edges:
    inside = set(cells)
    edges: dict[Hashable, list[Hashable]] = {}
    add = edges.setdefault
    for c, r in inside:
        # Clockwise on the page (y down): top, right, bottom, left; an edge is on the
        # outline when the cell across it is not in the set.
        if (c, r - 1) not in inside:
            add((c, r), []).append((c + 1, r))
        if (c + 1, r) not in inside:
            add((c + 1, r), []).append((c + 1, r + 1))
        if (c, r + 1) not in inside:
            add((c + 1, r + 1), []).append((c, r + 1))
        if (c - 1, r) not in inside:
            add((c, r + 1), []).append((c, r))
    s = grid.cell_size

    def where(corner: Hashable) -> Point:
        x, y = cast(tuple[int, int], corner)
        return (x * s, y * s)

    return edges, where


def _hex_edges(grid: HexGrid, cells: Collection[Cell]) -> _Edges:
    inside = {grid.to_cube(c)[:2] for c in cells}
    edges: dict[Hashable, list[Hashable]] = {}

    def corner(q: int, r: int, k: int) -> tuple[tuple[int, int], ...]:
        # The hexes meeting at the corner between directions k and k + 1.
        (aq, ar), (bq, br) = _HEX_DIRECTIONS[k % 6], _HEX_DIRECTIONS[(k + 1) % 6]
        return tuple(sorted(((q, r), (q + aq, r + ar), (q + bq, r + br))))

    steps = list(enumerate(_HEX_DIRECTIONS))
    for q, r in inside:
        for k, (dq, dr) in steps:
            if (q + dq, r + dr) not in inside:
                edges.setdefault(corner(q, r, k - 1), []).append(corner(q, r, k))

    # Hex centres are affine in axial coordinates: the centre of (0, 0) and the steps
    # one q and one r away give every centre, and a corner is the mean of its three.
    ox, oy = grid.center(grid.from_cube((0, 0, 0)))
    qx, qy = grid.center(grid.from_cube((1, 0, -1)))
    rx, ry = grid.center(grid.from_cube((0, 1, -1)))
    qx, qy, rx, ry = qx - ox, qy - oy, rx - ox, ry - oy

    def where(key: Hashable) -> Point:
        hexes = cast(tuple[tuple[int, int], ...], key)
        sq = sum(q for q, _ in hexes)
        sr = sum(r for _, r in hexes)
        return (ox + (sq * qx + sr * rx) / 3, oy + (sq * qy + sr * ry) / 3)

    return edges, where


def _rings(edges: dict[Hashable, list[Hashable]]) -> list[list[Hashable]]:
    """Follow every edge once, end to start, into closed rings of corners."""
    rings = []
    for start in sorted(edges, key=repr):  # a fixed order: the same answer every time
        while edges.get(start):
            ring = [start]
            here = edges[start].pop()
            while here != start:
                ring.append(here)
                here = edges[here].pop()
            rings.append(ring)
    return rings


def _straighten(points: list[Point]) -> Ring:
    """Drop the corners where the outline goes straight on."""
    kept = []
    n = len(points)
    for i, (x, y) in enumerate(points):
        px, py = points[i - 1]
        nx, ny = points[(i + 1) % n]
        cross = (x - px) * (ny - y) - (y - py) * (nx - x)
        if abs(cross) > 1e-9 * max(1.0, abs(x), abs(y)) ** 2:
            kept.append((x, y))
    return tuple(kept)
