"""The scene a table loads: grid, tokens and their stats (``load_scene``'s body)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, TypeAlias, get_args

from msgspec import Meta
from msgspec.structs import force_setattr

from protocol.errors import ProtocolError, join_path
from protocol.features import MAX_TERRAIN, MAX_WALLS, TerrainSpec, VttSpec, WallSpec
from protocol.text import CLEAN_PATTERN, check_text
from protocol.validate import INT_MAX, INT_MIN, key_segment, show
from protocol.wire import (
    MAX_MAGNITUDE,
    Coordinate,
    Float,
    Label,
    Length,
    Name,
    Positive,
    TokenId,
    Wire,
)

#: ``gridless``: no cells to stand on; positions are points in the scene's unit (the
#: scene is still ``width`` x ``height`` cells of ``cell_size`` in size, as a Foundry
#: gridless scene keeps its grid size and distance).
GridKind = Literal["square", "hex_pointy", "hex_flat", "gridless"]
#: How a square grid prices a diagonal step: one square each (Cyberpunk RED, the Hero
#: supplement), alternating 1-2-1, the exact Euclidean length, or not at all; and the
#: rest of Foundry's ``CONST.GRID_DIAGONALS``: 1.5 squares ("approximate"), 2 squares
#: ("rectilinear"), alternating 2-1-2 ("alternating_2").
Diagonal = Literal[
    "one", "alternating", "euclidean", "none", "approximate", "rectilinear", "alternating_2"
]
#: Which rows (pointy-top) or columns (flat-top) of a hex grid are shoved out.
HexOffset = Literal["odd", "even"]
GRID_KINDS: Final[frozenset[str]] = frozenset(get_args(GridKind))
DIAGONAL_RULES: Final[frozenset[str]] = frozenset(get_args(Diagonal))
HEX_OFFSETS: Final[frozenset[str]] = frozenset(get_args(HexOffset))
#: Foundry's ``CONST.GRID_DIAGONALS`` numbers (``grid.diagonals``) as diagonal rule names.
FOUNDRY_DIAGONALS: Final[dict[int, str]] = {
    0: "one",  # EQUIDISTANT
    1: "euclidean",  # EXACT
    2: "approximate",  # APPROXIMATE
    3: "rectilinear",  # RECTILINEAR
    4: "alternating",  # ALTERNATING_1
    5: "alternating_2",  # ALTERNATING_2
    6: "none",  # ILLEGAL
}
#: Most tokens in one scene.
MAX_TOKENS: Final = 2000
#: Most stats on one token (the msgpack map limit).
MAX_STATS: Final = 1024
MAX_GRID_CELLS: Final = 10_000
#: Most cells in one grid: every query and index is bounded by it.
MAX_GRID_AREA: Final = 1_000_000

#: A stat value: flags, counters, modifiers and short labels.
StatValue: TypeAlias = bool | int | float | str
GridCells = Annotated[int, Meta(ge=1, le=MAX_GRID_CELLS)]


class GridSpec(Wire, frozen=True, kw_only=True):
    """The board: ``width`` x ``height`` cells of ``cell_size`` ``unit`` each (e.g. 5 ft)."""

    LATER = ("diagonal", "offset", "vtt")
    kind: GridKind
    cell_size: Positive
    unit: Annotated[str, Meta(min_length=1, max_length=16, pattern=CLEAN_PATTERN)]
    width: GridCells
    height: GridCells
    diagonal: Diagonal = "one"
    offset: HexOffset = "odd"
    vtt: VttSpec | None = None

    def check(self) -> None:
        """At most :data:`MAX_GRID_AREA` cells; a gridless scene prices no diagonal,
        shoves no rows and draws no hex tokens, so ``diagonal``, ``offset`` and
        ``vtt.hex_shape`` keep their defaults there."""
        if self.kind == "gridless":
            if self.vtt is not None and self.vtt.hex_shape is not None:
                raise ProtocolError(
                    "bad_value",
                    "a gridless scene has no hexes: vtt.hex_shape means nothing there",
                    path="vtt.hex_shape",
                )
            for name, default in (("diagonal", "one"), ("offset", "odd")):
                if getattr(self, name) != default:
                    raise ProtocolError(
                        "bad_value",
                        f"a gridless scene has no cells to step between: {name} "
                        f"{getattr(self, name)!r} means nothing there (leave it out)",
                        path=name,
                    )
        if self.width * self.height > MAX_GRID_AREA:
            raise ProtocolError(
                "bad_value",
                f"a {self.width}x{self.height} grid has more than {MAX_GRID_AREA:,} cells",
                path="height",
            )


def _stat(value: object, path: str) -> StatValue:
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


class TokenSpec(Wire, frozen=True, kw_only=True):
    """One token on the board: who owns it, which side it fights for, where it stands
    (cell ``x``, ``y`` of its top-left corner; on a gridless scene the point of its
    centre in the scene's unit, fractional allowed), how big it is (``size`` cells a
    side; gridless, a disc ``size`` cells across),
    its ``reach`` and ``movement`` in grid units, and free-form ``stats``; ``elevation``
    is the height of its base above the ground in the scene's unit (Foundry's token
    elevation; negative below it), 0 when left out: reach measures in three dimensions.

    ``stats`` is a map sorted by name (so equal stats compare and print alike); in
    Python it may also be given as ``(name, value)`` pairs.  It is left out of ``hash``.
    """

    LATER = ("elevation",)
    UNHASHED = ("stats",)
    id: TokenId
    name: Label
    owner: Name
    side: Name
    x: Coordinate
    y: Coordinate
    size: Annotated[int, Meta(ge=1, le=16)]
    reach: Length
    movement: Length
    stats: dict[str, Any] = {}
    elevation: Float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.stats, Mapping):  # pairs, from Python only
            try:
                pairs = [(k, v) for k, v in self.stats]
            except (TypeError, ValueError):
                raise ProtocolError(
                    "bad_type", f"expected a map, got {show(self.stats)}", path="stats"
                ) from None
            if len(dict(pairs)) != len(pairs):
                raise ProtocolError("bad_value", "a stat is given twice", path="stats")
            force_setattr(self, "stats", dict(pairs))
        super().__post_init__()

    def check(self) -> None:
        """Stat names of 1..64 characters, values flags, numbers or short strings."""
        if len(self.stats) > MAX_STATS:
            raise ProtocolError("bad_value", f"more than {MAX_STATS} stats", path="stats")
        for name, value in self.stats.items():
            if not 1 <= len(name) <= 64:
                raise ProtocolError("bad_value", f"stat name {show(name)}: 1..64 characters")
            check_text(name, join_path("stats", key_segment(name)))
            _stat(value, join_path("stats", key_segment(name)))
        force_setattr(self, "stats", dict(sorted(self.stats.items())))


class SceneSpec(Wire, frozen=True, kw_only=True):
    """A grid and the tokens on it. Token ids are unique and every token's ``x``, ``y``
    lies on the grid (whole cells; gridless, a point on the scene); wall ids are unique
    and every point lies on the scene."""

    LATER = ("walls", "terrain")
    grid: GridSpec
    tokens: Annotated[tuple[TokenSpec, ...], Meta(max_length=MAX_TOKENS)] = ()
    walls: Annotated[tuple[WallSpec, ...], Meta(max_length=MAX_WALLS)] = ()
    terrain: Annotated[tuple[TerrainSpec, ...], Meta(max_length=MAX_TERRAIN)] = ()

    def check(self) -> None:
        """Unique ids; tokens on the grid; walls and terrain on the scene."""
        grid = self.grid
        check_unique([token.id for token in self.tokens], "token id", "tokens[{}].id")
        check_unique([wall.id for wall in self.walls], "wall id", "walls[{}].id")
        right, bottom = grid.width * grid.cell_size, grid.height * grid.cell_size
        for i, token in enumerate(self.tokens):
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
        for i, wall in enumerate(self.walls):
            points += [(f"walls[{i}].a", wall.a), (f"walls[{i}].b", wall.b)]
        for i, region in enumerate(self.terrain):
            points += [(f"terrain[{i}].polygon[{j}]", p) for j, p in enumerate(region.polygon)]
        for path, (x, y) in points:
            if not (0 <= x <= right and 0 <= y <= bottom):
                raise ProtocolError("bad_value", f"({x:g}, {y:g}) is off the scene", path=path)


def _check_point(token: TokenSpec, i: int, right: float, bottom: float, unit: str) -> None:
    """A gridless token's centre lies on the scene (its disc may hang over the edge, as
    a token at a map's edge does in the VTT)."""
    for axis, value, size in (("x", token.x, right), ("y", token.y, bottom)):
        if not 0 <= value <= size:
            raise ProtocolError(
                "bad_value",
                f"{axis}={value:g} is off the scene ({size:g} {unit})",
                path=f"tokens[{i}].{axis}",
            )


def check_unique(ids: list[str], what: str, path: str) -> None:
    """No id twice in ``ids``; ``path`` formats the index of the second (``"aware[{}]"``)."""
    seen: set[str] = set()
    for i, one in enumerate(ids):
        if one in seen:
            raise ProtocolError("bad_value", f"duplicate {what} {one!r}", path=path.format(i))
        seen.add(one)
