"""Walls cutting a gridless region's reach: where a move stops being threatened past them.

Nobody reaches through a wall (as on grids, :mod:`geometry.reach`): a point of a region
(a ball, :mod:`geometry.gridless_threat`) is threatened only when the straight line from
the region's centre to it crosses no wall that blocks reach (:attr:`BlockMode.REACH`;
walls reach the sky, so this is a plane question).  Each such wall coming inside the
region casts a shadow: the part of the plane past its line inside the wedge from the
centre through its ends.

:func:`first_dark` splits each segment's chord (its part inside the ball) at every
parameter where the answer may change (the rim's roots, the wall itself and the edges of
its shadow, for each wall whose shadow can reach the chord) and decides each piece at
its middle, so a move also leaves the threatened area where it steps into a shadow, at
the exact point the shadow's edge crosses the path.

What a wall contributes that does not depend on the move is worked out once per region
(:func:`shades`, kept with the region by its caller): its direction, its ends as seen
from the centre, and the two edges of its shadow as lines through the centre.  A chord
then skips, with a few products, every wall whose shadow it cannot meet: both of its
ends on the centre's side of the wall's line, or both outside the same edge of the
wedge.  That test keeps a margin far above rounding, so a wall it drops is one that
every piece's middle would find open; the answers are those of splitting at every wall.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple

from geometry.square import Point

#: Fractions of a segment this close to its end belong to the next segment.
T_TOLERANCE = 1e-9

#: How far past an edge of its shadow (relative to the figures' size) both ends of a
#: chord must lie for a wall to be skipped: far above any rounding of the products.
_MARGIN = 1e-9


class Shade(NamedTuple):
    """One wall that blocks reach inside a region, seen from the region's centre."""

    ax: float
    ay: float
    bx: float
    by: float
    #: b - a, the wall's direction
    wx: float
    wy: float
    #: the side of the wall's line the centre is on: (b - a) x (centre - a); 0 on it
    side: float
    #: a - centre and b - centre, along the edges of the shadow
    uax: float
    uay: float
    ubx: float
    uby: float
    #: normals of the shadow's edges (the lines from the centre through a and b),
    #: pointing into the wedge; zero when the wedge is too thin or too wide to tell
    nax: float
    nay: float
    nbx: float
    nby: float
    #: a chord's ends must be this far outside an edge (in those normals' measure)
    margin: float


def shades(centre: Point, radius: float, walls: Iterable[tuple[Point, Point]]) -> list[Shade]:
    """The :class:`Shade` of each wall (given by its ends) for a region of ``radius``
    around ``centre``, in the order given."""
    cx, cy = centre
    found = []
    for (ax, ay), (bx, by) in walls:
        wx, wy = bx - ax, by - ay
        uax, uay, ubx, uby = ax - cx, ay - cy, bx - cx, by - cy
        # The figures' size: the margins scale with it, and with the coordinates, whose
        # rounding the pieces' middles carry.
        size = abs(uax) + abs(uay) + abs(ubx) + abs(uby) + radius
        margin = _MARGIN * size * (size + abs(cx) + abs(cy))
        turn = uax * uby - uay * ubx
        sign = 1.0 if turn > margin else -1.0 if turn < -margin else 0.0
        found.append(
            Shade(
                ax, ay, bx, by, wx, wy,
                wx * (cy - ay) - wy * (cx - ax),
                uax, uay, ubx, uby,
                -sign * uay, sign * uax, sign * uby, -sign * ubx,
                margin,
            )
        )  # fmt: skip
    return found


def lit(cx: float, cy: float, x: float, y: float, walls: Sequence[Shade]) -> bool:
    """Whether the line from the centre (cx, cy) to (x, y) crosses none of ``walls``
    (:func:`geometry.buckets.segments_cross`, unrolled: the hot loop of the wall path)."""
    for ax, ay, _, _, wx, wy, side_c, uax, uay, ubx, uby, _, _, _, _, _ in walls:
        side = wx * (y - ay) - wy * (x - ax)
        if side == 0 or side_c == 0 or (side > 0) == (side_c > 0):
            continue
        ux, uy = x - cx, y - cy
        if (ux * uay - uy * uax) * (ux * uby - uy * ubx) < 0:
            return False
    return True


class Segment(NamedTuple):
    """One segment of a move, ``p + t d`` for t in [0, 1], with what every region asks
    of it worked out once per move."""

    px: float
    py: float
    pz: float
    dx: float
    dy: float
    dz: float
    #: |d|^2
    length2: float
    #: its bounding box in the plane, grown by far more than any rounding of where it
    #: meets a rim (and the tolerance on its ends): a disc missing it is never entered
    x0: float
    y0: float
    x1: float
    y1: float


def segments(xs: Sequence[float], ys: Sequence[float], zs: Sequence[float]) -> list[Segment]:
    """The segments of the path through the waypoints (xs, ys) at elevations zs."""
    found = []
    # One pad for the whole move: its coordinates' size bounds every segment's.
    pad = 6e-6 * (1 + max(max(xs), -min(xs), max(ys), -min(ys)))
    for step in range(len(xs) - 1):
        px, py, pz = xs[step], ys[step], zs[step]
        dx, dy, dz = xs[step + 1] - px, ys[step + 1] - py, zs[step + 1] - pz
        x0, x1 = (px, px + dx) if dx >= 0 else (px + dx, px)
        y0, y1 = (py, py + dy) if dy >= 0 else (py + dy, py)
        found.append(
            Segment(px, py, pz, dx, dy, dz, dx * dx + dy * dy + dz * dz,
                    x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        )  # fmt: skip
    return found


def first_dark(
    region: tuple[float, float, float, float], path: Sequence[Segment], walls: Sequence[Shade]
) -> tuple[int, Point, float, float] | None:
    """The first point where the path stops being threatened by ``region`` (x, y,
    elevation, radius) past ``walls`` (module docstring), as its segment, point,
    elevation and fraction ``t`` of the segment, or None.  Only the part of each segment
    inside the ball is split: outside it nothing is threatened."""
    cx, cy, cz, r = region
    # At the first waypoint the mover stands where it starts (the rim included).
    x, y, z = path[0][:3]
    state = (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2 <= (r + 1e-9) ** 2 and lit(
        cx, cy, x, y, walls
    )
    r2 = r * r
    for step, (px, py, pz, dx, dy, dz, a, x0, y0, x1, y1) in enumerate(path):
        if dx == 0 and dy == 0 and dz == 0:
            continue
        if not (x0 - r <= cx <= x1 + r and y0 - r <= cy <= y1 + r):
            t_in, t_out = 1.0, 0.0  # far from the ball
        else:
            # Where the segment meets the rim: |p + t d - c|^2 = r^2, t within [0, 1].
            ox, oy, oz = px - cx, py - cy, pz - cz
            b = dx * ox + dy * oy + dz * oz
            disc = b * b - a * (ox * ox + oy * oy + oz * oz - r2)
            if a == 0 or disc <= 0:
                t_in, t_out = 1.0, 0.0
            else:
                half = math.sqrt(disc) / a
                t_in, t_out = max(-b / a - half, 0.0), min(-b / a + half, 1.0)
        if t_out - t_in <= T_TOLERANCE or (state and t_in > T_TOLERANCE):
            # Misses the ball or only touches it, or leaves it before coming back in.
            if state:
                return step, (px, py), pz, 0.0
            continue
        near = _near_chord(cx, cy, px + dx * t_in, py + dy * t_in, px + dx * t_out,
                           py + dy * t_out, walls)  # fmt: skip
        if not near:
            state = True  # the whole chord is one open piece
        else:
            for t0, t1 in pairwise(_cuts(cx, cy, px, py, dx, dy, t_in, t_out, near)):
                if t1 - t0 <= T_TOLERANCE:
                    continue
                mid = (t0 + t1) / 2
                now = lit(cx, cy, px + dx * mid, py + dy * mid, near)
                if state and not now:
                    return step, (px + dx * t0, py + dy * t0), pz + dz * t0, t0
                state = now
        if t_out < 1 - T_TOLERANCE:
            if state:  # leaves the ball lit
                return step, (px + dx * t_out, py + dy * t_out), pz + dz * t_out, t_out
            state = False
    return None


def _near_chord(
    cx: float, cy: float, x0: float, y0: float, x1: float, y1: float, walls: Sequence[Shade]
) -> list[Shade]:
    """The walls whose shadow may reach the chord (x0, y0)-(x1, y1): a part of it past
    the wall's line, not wholly outside one edge of the wedge (module docstring)."""
    near = []
    u0x, u0y, u1x, u1y = x0 - cx, y0 - cy, x1 - cx, y1 - cy
    for w in walls:
        ax, ay, _, _, wx, wy, side_c, _, _, _, _, nax, nay, nbx, nby, margin = w
        if side_c == 0:
            continue  # the centre is on the wall's line: it shadows nothing
        s0 = wx * (y0 - ay) - wy * (x0 - ax)
        s1 = wx * (y1 - ay) - wy * (x1 - ax)
        if side_c > 0:
            if s0 >= 0 and s1 >= 0:
                continue  # the chord is on the centre's side
        elif s0 <= 0 and s1 <= 0:
            continue
        if nax * u0x + nay * u0y < -margin and nax * u1x + nay * u1y < -margin:
            continue  # outside the edge through a
        if nbx * u0x + nby * u0y < -margin and nbx * u1x + nby * u1y < -margin:
            continue  # outside the edge through b
        near.append(w)
    return near


def _cuts(
    cx: float, cy: float, px: float, py: float, dx: float, dy: float,
    t_in: float, t_out: float, walls: Sequence[Shade],
) -> list[float]:  # fmt: skip
    """The chord's split points, in order: its ends, where it crosses each wall and each
    edge of its shadow (the ray from the centre through the wall's end)."""
    cuts = {t_in, t_out}
    ox, oy = cx - px, cy - py
    toward = ox * dy - oy * dx  # over a denominator: how far along an edge it meets
    for ax, ay, _, _, wx, wy, _, uax, uay, ubx, uby, _, _, _, _, _ in walls:
        # The wall: p + t d = a + u (b - a), 0 <= u <= 1.
        denom = dx * wy - dy * wx
        if denom != 0:
            qx, qy = ax - px, ay - py
            u = (qx * dy - qy * dx) / denom
            if 0.0 <= u <= 1.0:
                t = (qx * wy - qy * wx) / denom
                if t_in <= t <= t_out:
                    cuts.add(t)
        # The shadow's edges: p + t d = centre + u (end - centre), u >= 0.
        denom = dx * uay - dy * uax
        if denom != 0 and toward / denom >= 0.0:
            t = (ox * uay - oy * uax) / denom
            if t_in <= t <= t_out:
                cuts.add(t)
        denom = dx * uby - dy * ubx
        if denom != 0 and toward / denom >= 0.0:
            t = (ox * uby - oy * ubx) / denom
            if t_in <= t <= t_out:
                cuts.add(t)
    return sorted(cuts)
