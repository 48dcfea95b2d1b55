"""Walls and doors: segments that block movement, sight, or both.

The rule for "a segment is blocked" (a straight step between cell centres, a line of
sight, a reach line), for the walls that block in the mode asked:

1. it is blocked when its interior meets a wall's interior: it crosses the wall, or runs
   along it;
2. touching a wall only at the wall's end is grazing and does not block;
3. except where two or more walls end at the same point the segment passes through:
   if walls leave that point on both sides of the segment it goes through a corner
   (an L of two separate walls, two pillars touching at a corner) and is blocked.

On a square grid a diagonal step is further blocked when both of its orthogonal detours
are (it would squeeze between two blocking corners); :class:`StepBlocker` adds that.

Modes: ``MOVE`` counts walls that block movement, ``SIGHT`` those that block sight, and
``REACH`` those that block either (you cannot strike through a window or a curtain of
darkness).  A closed door blocks both; an open one neither.

Everything sits in one shapely ``STRtree`` built once; opening or closing a door only
flips a flag in the per-mode masks, so it never rebuilds the tree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Protocol

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely import STRtree
from shapely.geometry import LineString

from geometry.errors import GeometryError
from geometry.square import Point

_EPS = 1e-9


class BlockMode(Enum):
    """Which walls count: those blocking movement, sight, or either (for reach)."""

    MOVE = "move"
    SIGHT = "sight"
    REACH = "reach"


class Barrier(Protocol):
    """Anything with two end points that may block movement and sight."""

    @property
    def a(self) -> Point:
        """One end, in distance units."""
        ...

    @property
    def b(self) -> Point:
        """The other end."""
        ...

    @property
    def blocks_move(self) -> bool:
        """Whether it stops movement now."""
        ...

    @property
    def blocks_sight(self) -> bool:
        """Whether it stops sight now."""
        ...


def _check_ends(a: Point, b: Point) -> None:
    if a == b:
        raise GeometryError(f"a wall needs two distinct end points, got {a} twice")


@dataclass(frozen=True, slots=True)
class Wall:
    """A wall segment from ``a`` to ``b``; a window blocks movement but not sight."""

    a: Point
    b: Point
    blocks_move: bool = True
    blocks_sight: bool = True

    def __post_init__(self) -> None:
        _check_ends(self.a, self.b)


@dataclass(frozen=True, slots=True)
class Door:
    """A door from ``a`` to ``b``: closed it blocks movement and sight, open neither."""

    a: Point
    b: Point
    is_open: bool = False

    def __post_init__(self) -> None:
        _check_ends(self.a, self.b)

    @property
    def blocks_move(self) -> bool:
        """A closed door stops movement."""
        return not self.is_open

    @property
    def blocks_sight(self) -> bool:
        """A closed door stops sight."""
        return not self.is_open

    def opened(self) -> Door:
        """This door, open."""
        return replace(self, is_open=True)

    def closed(self) -> Door:
        """This door, closed."""
        return replace(self, is_open=False)


def _mask(barrier: Barrier, mode: BlockMode) -> bool:
    if mode is BlockMode.MOVE:
        return barrier.blocks_move
    if mode is BlockMode.SIGHT:
        return barrier.blocks_sight
    return barrier.blocks_move or barrier.blocks_sight


class WallSet:
    """A fixed set of walls and doors, indexed once; doors may open and close.

    ``walls`` maps an id (the VTT's wall document id) to a :class:`Wall` or :class:`Door`;
    a plain iterable is numbered ``"0"``, ``"1"`` ...
    """

    def __init__(self, walls: Mapping[str, Barrier] | Iterable[Barrier] = ()) -> None:
        items = (
            walls.items()
            if isinstance(walls, Mapping)
            else ((str(i), w) for i, w in enumerate(walls))
        )
        self._ids: list[str] = []
        self._barriers: list[Barrier] = []
        for wall_id, barrier in items:
            self._ids.append(wall_id)
            self._barriers.append(barrier)
        self._index = {wall_id: i for i, wall_id in enumerate(self._ids)}
        if len(self._index) != len(self._ids):
            raise GeometryError("wall ids must be unique")
        self._coords: NDArray[np.float64] = np.array(
            [[b.a, b.b] for b in self._barriers], dtype=float
        ).reshape(len(self._barriers), 2, 2)
        self.geoms: NDArray[np.object_] = (
            shapely.linestrings(self._coords) if len(self._barriers) else np.empty(0, dtype=object)
        )
        self.tree = STRtree(self.geoms)
        self._masks = {
            mode: np.array([_mask(b, mode) for b in self._barriers], dtype=bool)
            for mode in BlockMode
        }
        self.version = 0

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self) -> list[str]:
        """The wall ids, in index order."""
        return list(self._ids)

    def get(self, wall_id: str) -> Barrier:
        """The wall or door ``wall_id``."""
        try:
            return self._barriers[self._index[wall_id]]
        except KeyError:
            raise GeometryError(f"unknown wall {wall_id!r}") from None

    def set_door(self, wall_id: str, is_open: bool) -> Door:
        """Open or close the door ``wall_id`` in place; returns the new door value."""
        door = self.get(wall_id)
        if not isinstance(door, Door):
            raise GeometryError(f"wall {wall_id!r} is not a door")
        i = self._index[wall_id]
        new = replace(door, is_open=is_open)
        self._barriers[i] = new
        for mode in BlockMode:
            self._masks[mode][i] = _mask(new, mode)
        self.version += 1
        return new

    def mask(self, mode: BlockMode) -> NDArray[np.bool_]:
        """Per wall (index order), whether it blocks in ``mode`` right now."""
        return self._masks[mode]

    def bounds(self, wall_id: str) -> tuple[float, float, float, float]:
        """The bounding box of wall ``wall_id``."""
        (x0, y0), (x1, y1) = self._coords[self._index[wall_id]]
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    # -- the blocking rule ----------------------------------------------------------------

    def segment_blocked(self, p: Point, q: Point, mode: BlockMode) -> bool:
        """Whether the straight segment ``p``-``q`` is blocked (module docstring)."""
        if not len(self._ids) or p == q:
            return False
        seg = LineString([p, q])
        hits = self.tree.query(seg, predicate="intersects")
        if not len(hits):
            return False
        hits = hits[self._masks[mode][hits]]
        if not len(hits):
            return False
        if bool(np.any(shapely.relate_pattern(seg, self.geoms[hits], "T********"))):
            return True
        return self._through_junction(p, q, hits)

    def blocked_many(
        self, starts: NDArray[np.float64], ends: NDArray[np.float64], mode: BlockMode
    ) -> NDArray[np.bool_]:
        """:meth:`segment_blocked` for many segments at once (arrays of shape (n, 2))."""
        n = len(starts)
        out = np.zeros(n, dtype=bool)
        if not n or not len(self._ids):
            return out
        segs = shapely.linestrings(np.stack([starts, ends], axis=1))
        pairs = self.tree.query(segs, predicate="intersects")
        if not pairs.shape[1]:
            return out
        seg_i, wall_i = pairs[0], pairs[1]
        keep = self._masks[mode][wall_i]
        seg_i, wall_i = seg_i[keep], wall_i[keep]
        crossing = shapely.relate_pattern(segs[seg_i], self.geoms[wall_i], "T********")
        out[seg_i[crossing]] = True
        # Segments that only touch walls: apply the junction rule, one segment at a time
        # (rare: it needs a wall end exactly on the segment).
        touch_only = np.unique(seg_i[~crossing])
        for i in touch_only:
            if not out[i]:
                walls_here = wall_i[seg_i == i]
                p = (float(starts[i][0]), float(starts[i][1]))
                q = (float(ends[i][0]), float(ends[i][1]))
                out[i] = self._through_junction(p, q, walls_here)
        return out

    def _through_junction(self, p: Point, q: Point, walls: NDArray[np.intp]) -> bool:
        # Rule 3: group the wall ends lying inside the segment by point; walls leaving
        # one point on both sides of the segment make a corner the segment goes through.
        dx, dy = q[0] - p[0], q[1] - p[1]
        length2 = dx * dx + dy * dy
        sides: dict[tuple[float, float], set[int]] = {}
        for w in walls:
            ends = self._coords[w]
            for k in (0, 1):
                ex, ey = float(ends[k][0]), float(ends[k][1])
                t = ((ex - p[0]) * dx + (ey - p[1]) * dy) / length2
                if t <= _EPS or t >= 1 - _EPS:
                    continue
                if abs((ex - p[0]) * dy - (ey - p[1]) * dx) > _EPS * max(1.0, length2):
                    continue
                ox, oy = float(ends[1 - k][0]), float(ends[1 - k][1])
                cross = dx * (oy - ey) - dy * (ox - ex)
                if abs(cross) <= _EPS:
                    continue  # along the segment: rule 1 already decided it
                key = (round(ex, 9), round(ey, 9))
                sides.setdefault(key, set()).add(1 if cross > 0 else -1)
        return any(len(s) == 2 for s in sides.values())
