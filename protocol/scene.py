"""The scene a table loads: grid, tokens and their stats (``load_scene``'s body).

Each class checks itself when built and reads itself from wire data with
``from_wire``; ``to_wire`` gives back the JSON-safe form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from protocol.errors import ProtocolError, join_path
from protocol.features import (
    MAX_TERRAIN,
    MAX_WALLS,
    TerrainSpec,
    VttSpec,
    WallSpec,
    read_list,
)
from protocol.validate import (
    MAX_MAGNITUDE,
    at,
    check_choice,
    check_float,
    check_id,
    check_int,
    check_keys,
    check_map,
    check_str,
    check_tuple,
    index_segment,
    key_segment,
    show,
)

__all__ = [
    "DIAGONAL_RULES",
    "FOUNDRY_DIAGONALS",
    "GRID_KINDS",
    "MAX_TOKENS",
    "GridSpec",
    "SceneSpec",
    "StatValue",
    "TokenSpec",
]

#: Grid kinds this protocol version accepts. "hex_pointy", "hex_flat" and "gridless"
#: will join here; every check reads this one constant.
GRID_KINDS: Final[frozenset[str]] = frozenset({"square", "hex_pointy", "hex_flat"})
#: How a square grid prices a diagonal step: one square each (Cyberpunk RED, the Hero
#: supplement), alternating 1-2-1, the exact Euclidean length, or not at all; and the
#: rest of Foundry's ``CONST.GRID_DIAGONALS``: 1.5 squares ("approximate"), 2 squares
#: ("rectilinear"), alternating 2-1-2 ("alternating_2").
DIAGONAL_RULES: Final[frozenset[str]] = frozenset(
    {"one", "alternating", "euclidean", "none", "approximate", "rectilinear", "alternating_2"}
)
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
#: Which rows (pointy-top) or columns (flat-top) of a hex grid are shoved out.
HEX_OFFSETS: Final[frozenset[str]] = frozenset({"odd", "even"})
#: Most tokens in one scene.
MAX_TOKENS: Final = 2000
#: Most stats on one token (the msgpack map limit).
MAX_STATS: Final = 1024
MAX_GRID_CELLS: Final = 10_000
#: Most cells in one grid: every query and index is bounded by it.
MAX_GRID_AREA: Final = 1_000_000

#: A stat value: flags, counters, modifiers and short labels.
StatValue: TypeAlias = bool | int | float | str


def _set(obj: object, name: str, value: object) -> None:
    # Frozen dataclasses normalise their own fields (list -> tuple, int -> float) here.
    object.__setattr__(obj, name, value)


@dataclass(frozen=True, slots=True, kw_only=True)
class GridSpec:
    """The board: ``width`` x ``height`` cells of ``cell_size`` ``unit`` each (e.g. 5 ft)."""

    kind: str
    cell_size: float
    unit: str
    width: int
    height: int
    diagonal: str = "one"
    offset: str = "odd"
    vtt: VttSpec | None = None

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", GRID_KINDS)
        check_choice(self.diagonal, "diagonal", DIAGONAL_RULES)
        check_choice(self.offset, "offset", HEX_OFFSETS)
        if self.vtt is not None and not isinstance(self.vtt, VttSpec):
            raise ProtocolError("bad_type", f"expected a VttSpec, got {show(self.vtt)}", path="vtt")
        _set(self, "cell_size", check_float(self.cell_size, "cell_size", minimum=0, exclusive=True))
        check_str(self.unit, "unit", min_len=1, max_len=16)
        check_int(self.width, "width", lo=1, hi=MAX_GRID_CELLS)
        check_int(self.height, "height", lo=1, hi=MAX_GRID_CELLS)
        if self.width * self.height > MAX_GRID_AREA:
            raise ProtocolError(
                "bad_value",
                f"a {self.width}x{self.height} grid has more than {MAX_GRID_AREA:,} cells",
                path="height",
            )

    @classmethod
    def from_wire(cls, value: object) -> GridSpec:
        """Read a grid map; errors carry paths relative to it."""
        obj = dict(
            check_keys(
                value,
                ("kind", "cell_size", "unit", "width", "height"),
                ("diagonal", "offset", "vtt"),
            )
        )
        if obj.get("vtt") is not None:
            with at("vtt"):
                obj["vtt"] = VttSpec.from_wire(obj["vtt"])
        return cls(**obj)

    def to_wire(self) -> dict[str, Any]:
        """The grid as a JSON-safe map."""
        return {
            "kind": self.kind,
            "cell_size": self.cell_size,
            "unit": self.unit,
            "width": self.width,
            "height": self.height,
            "diagonal": self.diagonal,
            "offset": self.offset,
            "vtt": None if self.vtt is None else self.vtt.to_wire(),
        }


def _check_stats(value: object) -> tuple[tuple[str, StatValue], ...]:
    # Accept a mapping or pairs; store sorted pairs so equal stats compare and hash equal.
    pairs = list(check_map(value, "stats").items()) if isinstance(value, Mapping) else None
    if pairs is None:
        pairs = []
        for i, pair in enumerate(check_tuple(value, "stats", max_items=MAX_STATS)):
            item = check_tuple(pair, f"stats{index_segment(i)}", min_items=2, max_items=2)
            pairs.append((item[0], item[1]))
    if len(pairs) > MAX_STATS:
        raise ProtocolError(
            "bad_value", f"expected 0..{MAX_STATS} stats, got {len(pairs)}", path="stats"
        )
    seen: set[str] = set()
    out: list[tuple[str, StatValue]] = []
    for key, stat in pairs:
        name = check_str(key, "stats", min_len=1, max_len=64)
        path = join_path("stats", key_segment(name))
        if name in seen:
            raise ProtocolError("bad_value", f"duplicate stat {show(name)}", path=path)
        seen.add(name)
        out.append((name, _check_stat_value(stat, path)))
    out.sort(key=lambda pair: pair[0])
    return tuple(out)


def _check_stat_value(value: object, path: str) -> StatValue:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return check_int(value, path)
    if isinstance(value, float):
        return check_float(value, path, minimum=-MAX_MAGNITUDE)
    if isinstance(value, str):
        return check_str(value, path, max_len=256)
    raise ProtocolError(
        "bad_type", f"expected a boolean, number or string, got {show(value)}", path=path
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenSpec:
    """One token on the board: who owns it, which side it fights for, where it stands
    (cell ``x``, ``y`` of its top-left corner), how big it is (``size`` cells a side),
    its ``reach`` and ``movement`` in grid units, and free-form ``stats``.

    ``stats`` is stored as key-sorted ``(name, value)`` pairs so the token is
    hashable; a ``dict`` or any pairs passed in are normalised to that.
    Use :meth:`stats_dict` for look-ups.
    """

    id: str
    name: str
    owner: str
    side: str
    x: int
    y: int
    size: int
    reach: float
    movement: float
    stats: tuple[tuple[str, StatValue], ...] = ()

    def __post_init__(self) -> None:
        check_id(self.id, "id")
        check_str(self.name, "name", max_len=128)
        check_str(self.owner, "owner", min_len=1, max_len=64)
        check_str(self.side, "side", min_len=1, max_len=64)
        # x, y are checked against the grid by SceneSpec; here only for int-ness.
        check_int(self.x, "x")
        check_int(self.y, "y")
        check_int(self.size, "size", lo=1, hi=16)
        _set(self, "reach", check_float(self.reach, "reach", minimum=0))
        _set(self, "movement", check_float(self.movement, "movement", minimum=0))
        _set(self, "stats", _check_stats(self.stats))

    def stats_dict(self) -> dict[str, StatValue]:
        """The stats as a fresh ``dict``."""
        return dict(self.stats)

    @classmethod
    def from_wire(cls, value: object) -> TokenSpec:
        """Read a token map; errors carry paths relative to it."""
        obj = check_keys(
            value,
            ("id", "name", "owner", "side", "x", "y", "size", "reach", "movement", "stats"),
        )
        # The wire form of stats is a map only, never pairs.
        check_map(obj["stats"], "stats")
        return cls(**obj)

    def to_wire(self) -> dict[str, Any]:
        """The token as a JSON-safe map."""
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "side": self.side,
            "x": self.x,
            "y": self.y,
            "size": self.size,
            "reach": self.reach,
            "movement": self.movement,
            "stats": dict(self.stats),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class SceneSpec:
    """A grid and the tokens on it. Token ids are unique and every token's ``x``, ``y``
    lies on the grid."""

    grid: GridSpec
    tokens: tuple[TokenSpec, ...] = ()
    walls: tuple[WallSpec, ...] = ()
    terrain: tuple[TerrainSpec, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.grid, GridSpec):
            raise ProtocolError(
                "bad_type", f"expected a GridSpec, got {show(self.grid)}", path="grid"
            )
        tokens = check_tuple(self.tokens, "tokens", max_items=MAX_TOKENS)
        seen: set[str] = set()
        for i, token in enumerate(tokens):
            path = f"tokens{index_segment(i)}"
            if not isinstance(token, TokenSpec):
                raise ProtocolError(
                    "bad_type", f"expected a TokenSpec, got {show(token)}", path=path
                )
            if token.id in seen:
                raise ProtocolError(
                    "bad_value", f"duplicate token id {token.id!r}", path=f"{path}.id"
                )
            seen.add(token.id)
            if not 0 <= token.x < self.grid.width:
                raise ProtocolError(
                    "bad_value",
                    f"x={token.x} is off the grid (width {self.grid.width})",
                    path=f"{path}.x",
                )
            if not 0 <= token.y < self.grid.height:
                raise ProtocolError(
                    "bad_value",
                    f"y={token.y} is off the grid (height {self.grid.height})",
                    path=f"{path}.y",
                )
        _set(self, "tokens", tokens)
        self._check_features()

    def _check_features(self) -> None:
        walls = check_tuple(self.walls, "walls", max_items=MAX_WALLS)
        terrain = check_tuple(self.terrain, "terrain", max_items=MAX_TERRAIN)
        # Points may lie on the grid's edge; the bounds are cells times cell size.
        right = self.grid.width * self.grid.cell_size
        bottom = self.grid.height * self.grid.cell_size
        ids: set[str] = set()
        for i, wall in enumerate(walls):
            path = f"walls{index_segment(i)}"
            if not isinstance(wall, WallSpec):
                raise ProtocolError("bad_type", f"expected a WallSpec, got {show(wall)}", path=path)
            if wall.id in ids:
                raise ProtocolError(
                    "bad_value", f"duplicate wall id {wall.id!r}", path=f"{path}.id"
                )
            ids.add(wall.id)
            for end in ("a", "b"):
                x, y = getattr(wall, end)
                if not (0 <= x <= right and 0 <= y <= bottom):
                    raise ProtocolError(
                        "bad_value", f"({x:g}, {y:g}) is off the scene", path=f"{path}.{end}"
                    )
        for i, region in enumerate(terrain):
            path = f"terrain{index_segment(i)}"
            if not isinstance(region, TerrainSpec):
                raise ProtocolError(
                    "bad_type", f"expected a TerrainSpec, got {show(region)}", path=path
                )
            for j, (x, y) in enumerate(region.polygon):
                if not (0 <= x <= right and 0 <= y <= bottom):
                    raise ProtocolError(
                        "bad_value", f"({x:g}, {y:g}) is off the scene", path=f"{path}.polygon[{j}]"
                    )
        _set(self, "walls", walls)
        _set(self, "terrain", terrain)

    @classmethod
    def from_wire(cls, value: object) -> SceneSpec:
        """Read a scene map; errors carry paths relative to it."""
        obj = check_keys(value, ("grid", "tokens"), ("walls", "terrain"))
        with at("grid"):
            grid = GridSpec.from_wire(obj["grid"])
        return cls(
            grid=grid,
            tokens=read_list(obj["tokens"], "tokens", MAX_TOKENS, TokenSpec.from_wire),
            walls=read_list(obj.get("walls", ()), "walls", MAX_WALLS, WallSpec.from_wire),
            terrain=read_list(
                obj.get("terrain", ()), "terrain", MAX_TERRAIN, TerrainSpec.from_wire
            ),
        )

    def to_wire(self) -> dict[str, Any]:
        """The scene as a JSON-safe map."""
        return {
            "grid": self.grid.to_wire(),
            "tokens": [t.to_wire() for t in self.tokens],
            "walls": [w.to_wire() for w in self.walls],
            "terrain": [t.to_wire() for t in self.terrain],
        }
