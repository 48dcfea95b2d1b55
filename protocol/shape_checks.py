"""What the scene's shapes check beyond their fields' bounds.

The scene's shapes (grid, token, wall, scene) are declared once, as the engine's
dataclasses (``engine/model.py``); their wire structs are derived from them and written
into :mod:`protocol.commands`.  A check that spans fields (a token on the grid, a wall's
two ends) or reshapes a value (a token's stats given as pairs, sorted) is the wire's
own: it lives here, as a base class with no fields that the derived struct extends (the
engine's ``wire_base`` names it), and raises :class:`ProtocolError` with its path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from msgspec.structs import force_setattr

from protocol.errors import ProtocolError, join_path
from protocol.text import check_text, first_forbidden
from protocol.validate import INT_MAX, INT_MIN, key_segment, show
from protocol.wire import MAX_MAGNITUDE, Wire

#: Most stats on one token (the msgpack map limit).
MAX_STATS: Final = 1024
#: Most cells in one grid: every query and index is bounded by it.
MAX_GRID_AREA: Final = 1_000_000


def check_unique(ids: list[str], what: str, path: str) -> None:
    """No id twice in ``ids``; ``path`` formats the index of the second (``"aware[{}]"``)."""
    seen: set[str] = set()
    for i, one in enumerate(ids):
        if one in seen:
            raise ProtocolError("bad_value", f"duplicate {what} {one!r}", path=path.format(i))
        seen.add(one)


class GridChecks(Wire, frozen=True, kw_only=True):
    """A grid's checks (``GridSpec``)."""

    def check(self) -> None:
        """At most :data:`MAX_GRID_AREA` cells; a gridless scene prices no diagonal,
        shoves no rows and draws no hex tokens, so ``diagonal``, ``offset`` and
        ``vtt.hex_shape`` keep their defaults there."""
        super().check()
        _check_grid(self)


def _check_grid(grid: Any) -> None:
    if grid.kind == "gridless":
        if grid.vtt is not None and grid.vtt.hex_shape is not None:
            raise ProtocolError(
                "bad_value",
                "a gridless scene has no hexes: vtt.hex_shape means nothing there",
                path="vtt.hex_shape",
            )
        for name, default in (("diagonal", "one"), ("offset", "odd")):
            if getattr(grid, name) != default:
                raise ProtocolError(
                    "bad_value",
                    f"a gridless scene has no cells to step between: {name} "
                    f"{getattr(grid, name)!r} means nothing there (leave it out)",
                    path=name,
                )
    if grid.width * grid.height > MAX_GRID_AREA:
        raise ProtocolError(
            "bad_value",
            f"a {grid.width}x{grid.height} grid has more than {MAX_GRID_AREA:,} cells",
            path="height",
        )


class WallChecks(Wire, frozen=True, kw_only=True):
    """A wall's checks (``WallSpec``)."""

    def check(self) -> None:
        """A wall has two distinct ends."""
        super().check()
        a, b = getattr(self, "a"), getattr(self, "b")  # noqa: B009  (fields of the struct)
        if a == b:
            raise ProtocolError(
                "bad_value", f"a wall needs two distinct ends, got {a} twice", path="b"
            )


def _stat(value: object, path: str) -> object:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and INT_MIN <= value <= INT_MAX:
        return value
    if isinstance(value, float) and abs(value) <= MAX_MAGNITUDE:
        return value
    if isinstance(value, str) and len(value) <= 256:
        return check_text(value, path)
    kind = "bad_value" if isinstance(value, int | float | str) else "bad_type"
    raise ProtocolError(kind, f"expected a boolean, number or string, got {show(value)}", path=path)


class TokenChecks(Wire, frozen=True, kw_only=True):
    """A token's checks (``TokenSpec``): its ``stats`` given as pairs in Python become a
    map, sorted by name."""

    def __post_init__(self) -> None:
        stats = getattr(self, "stats")  # noqa: B009  (a field of the struct)
        if not isinstance(stats, Mapping):  # pairs, from Python only
            try:
                pairs = [(k, v) for k, v in stats]
            except (TypeError, ValueError):
                raise ProtocolError(
                    "bad_type", f"expected a map, got {show(stats)}", path="stats"
                ) from None
            if len(dict(pairs)) != len(pairs):
                raise ProtocolError("bad_value", "a stat is given twice", path="stats")
            force_setattr(self, "stats", dict(pairs))
        super().__post_init__()

    def check(self) -> None:
        """Stat names of 1..64 characters, values flags, numbers or short strings."""
        super().check()
        stats: dict[str, Any] = getattr(self, "stats")  # noqa: B009
        if len(stats) > MAX_STATS:
            raise ProtocolError("bad_value", f"more than {MAX_STATS} stats", path="stats")
        # A scene checks thousands of stats: the common ones are judged inline, and a
        # stat's path is built only for a refusal (by the checks that name it).
        for name, value in stats.items():
            if not 1 <= len(name) <= 64:
                raise ProtocolError("bad_value", f"stat name {show(name)}: 1..64 characters")
            kind = type(value)
            if kind is bool or (kind is int and INT_MIN <= value <= INT_MAX):
                continue
            if kind is float and abs(value) <= MAX_MAGNITUDE:
                continue
            if kind is str and len(value) <= 256 and first_forbidden(value) is None:
                continue
            _stat(value, join_path("stats", key_segment(name)))
        names = list(stats)
        if first_forbidden("".join(names)) is not None:
            for name in names:
                check_text(name, join_path("stats", key_segment(name)))
        if names != sorted(names):
            force_setattr(self, "stats", dict(sorted(stats.items())))


class SceneChecks(Wire, frozen=True, kw_only=True):
    """A scene's checks (``SceneSpec``), after its ids' (unique, by the fields' marks)."""

    def check(self) -> None:
        """Tokens on the grid; walls and terrain on the scene."""
        super().check()
        _check_scene(self)


def _check_scene(scene: Any) -> None:
    grid = scene.grid
    right, bottom = grid.width * grid.cell_size, grid.height * grid.cell_size
    for i, token in enumerate(scene.tokens):
        if grid.kind == "gridless":
            _check_point(token, i, right, bottom, grid.unit)
            continue
        for axis, value, size in (("x", token.x, grid.width), ("y", token.y, grid.height)):
            if isinstance(value, float):
                if not value.is_integer():
                    raise ProtocolError(
                        "bad_value",
                        f"{axis}={value:g} is not a cell: a {grid.kind} grid places "
                        "tokens on whole cells (fractional positions are for gridless "
                        "scenes)",
                        path=f"tokens[{i}].{axis}",
                    )
                force_setattr(token, axis, int(value))  # 3.0 from a JSON writer: cell 3
            if not 0 <= value < size:
                raise ProtocolError(
                    "bad_value", f"{axis}={value:g} is off the grid ({size} cells)",
                    path=f"tokens[{i}].{axis}",
                )  # fmt: skip
    points: list[tuple[str, tuple[float, float]]] = []
    for i, wall in enumerate(scene.walls):
        points += [(f"walls[{i}].a", wall.a), (f"walls[{i}].b", wall.b)]
    for i, region in enumerate(scene.terrain):
        points += [(f"terrain[{i}].polygon[{j}]", p) for j, p in enumerate(region.polygon)]
    for path, (x, y) in points:
        if not (0 <= x <= right and 0 <= y <= bottom):
            raise ProtocolError("bad_value", f"({x:g}, {y:g}) is off the scene", path=path)


def _check_point(token: Any, i: int, right: float, bottom: float, unit: str) -> None:
    """A gridless token's centre lies on the scene (its disc may hang over the edge, as
    a token at a map's edge does in the VTT)."""
    for axis, value, size in (("x", token.x, right), ("y", token.y, bottom)):
        if not 0 <= value <= size:
            raise ProtocolError(
                "bad_value",
                f"{axis}={value:g} is off the scene ({size:g} {unit})",
                path=f"tokens[{i}].{axis}",
            )
