"""The encounter's state: a tree of frozen dataclasses, hashable and snapshot-able.

Nothing here holds a reference to anything mutable, so an ``EncounterState`` is a plain
value: two encounters that saw the same commands hold equal states with equal hashes
(:func:`engine.serial.state_hash`).  Collections are tuples, ordered where order matters
(initiative order) and sorted where it does not (stats), so equality never depends on
insertion history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, cast

# The combat-time part of the state lives in its own module; re-exported here.
from engine.combat_state import (
    Combat,
    Effect,
    Interjection,
    PendingMove,
    Prompt,
    Trigger,
)
from engine.copies import copier, replace
from geometry import (
    Cell,
    DiagonalRule,
    Grid,
    HexGrid,
    HexOrientation,
    HexParity,
    HexShape,
    LineRule,
    Point,
    SquareGrid,
)

StatValue = bool | int | float | str
#: Where a token stands or a path goes: a cell ``(column, row)`` on a grid, a point in
#: the scene's unit on a gridless scene (ints stay ints, so a grid's logs and hashes
#: read as before).
Position = tuple[int | float, int | float]

__all__ = [
    "Combat",
    "Combatant",
    "Effect",
    "EncounterState",
    "GridSpec",
    "Interjection",
    "PendingMove",
    "Position",
    "Prompt",
    "Scene",
    "StatValue",
    "TerrainSpec",
    "Trigger",
    "VttSpec",
    "WallSpec",
]

#: The grid with no cells: tokens are discs at points (:mod:`engine.gridless_board`).
GRIDLESS = "gridless"
GRID_KINDS = ("square", "hex_pointy", "hex_flat", GRIDLESS)
DIAGONALS = {
    "one": DiagonalRule.ONE,
    "alternating": DiagonalRule.ALTERNATING,
    "euclidean": DiagonalRule.EUCLIDEAN,
    "none": DiagonalRule.NONE,
    "approximate": DiagonalRule.APPROXIMATE,
    "rectilinear": DiagonalRule.RECTILINEAR,
    "alternating_2": DiagonalRule.ALTERNATING_2,
}
#: The shape of large hex tokens when the VTT names none (geometry/hexshapes.py).
DEFAULT_HEX_SHAPES = {"foundry": HexShape.RECTANGLE_1, "owlbear": HexShape.HEXAGON}


@dataclass(frozen=True, slots=True)
class VttSpec:
    """The client VTT's pixel conventions for this grid (``foundry`` or ``owlbear``):
    ``grid_size`` pixels per cell (Owlbear: dpi), Foundry's scene padding, and the shape
    of large hex tokens (``None``: the VTT's default, ``DEFAULT_HEX_SHAPES``).  The VTT
    also decides how a dragged line breaks ties (:meth:`line_rule`)."""

    kind: str
    grid_size: float
    scene_x: float = 0.0
    scene_y: float = 0.0
    hex_shape: str | None = None

    def shape(self) -> HexShape:
        """The shape hex tokens larger than one hex cover on this VTT."""
        if self.hex_shape is None:
            return DEFAULT_HEX_SHAPES[self.kind]
        return HexShape(self.hex_shape)

    def line_rule(self) -> LineRule:
        """Foundry's direct path for Foundry; the nearest-cell line for Owlbear."""
        return LineRule.FOUNDRY if self.kind == "foundry" else LineRule.NEAREST


@dataclass(frozen=True, slots=True)
class GridSpec:
    """The scene's grid: kind, size in cells, and the side of a cell in distance units.

    ``diagonal`` prices a diagonal step on a square grid (``one``, ``alternating``,
    ``euclidean``, ``none``, and Foundry's ``approximate``, ``rectilinear``,
    ``alternating_2``); ``offset`` says which rows or columns of a hex grid are shoved
    out (``odd`` or ``even``); ``vtt`` also sets the shape of large hex tokens.  A
    ``gridless`` scene is ``width`` x ``height`` cells in size but has no cells to stand
    on: it builds no grid (:attr:`gridless`; :mod:`engine.gridless_board`).
    """

    width: int
    height: int
    cell_size: float = 1.0
    unit: str = "m"
    kind: str = "square"
    diagonal: str = "one"
    offset: str = "odd"
    vtt: VttSpec | None = None

    @property
    def gridless(self) -> bool:
        """Whether positions are points rather than cells."""
        return self.kind == GRIDLESS

    def build(self) -> Grid:
        """The geometry grid this spec describes (a gridless scene has none)."""
        if self.kind == GRIDLESS:
            raise ValueError("a gridless scene has no grid of cells")
        if self.kind == "square":
            return SquareGrid(
                self.width,
                self.height,
                self.cell_size,
                self.unit,
                diagonal=DIAGONALS[self.diagonal],
            )
        orientation = HexOrientation.POINTY if self.kind == "hex_pointy" else HexOrientation.FLAT
        parity = HexParity.ODD if self.offset == "odd" else HexParity.EVEN
        shape = HexShape.HEXAGON if self.vtt is None else self.vtt.shape()
        return HexGrid(
            self.width, self.height, self.cell_size, self.unit, orientation, parity, shape
        )


@dataclass(frozen=True, slots=True)
class WallSpec:
    """A wall segment in distance units; ``door`` is ``none``, ``open`` or ``closed``."""

    id: str
    a: Point
    b: Point
    blocks_move: bool = True
    blocks_sight: bool = True
    door: str = "none"


@dataclass(frozen=True, slots=True)
class TerrainSpec:
    """A polygon of terrain of one ``kind`` (difficult, water, climbable, gap, impassable)."""

    kind: str
    polygon: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Combatant:
    """A token on the scene: who controls it, where it is, and its ruleset statistics.

    ``owner`` is the participant id of the controller (``"gm"`` for the GM's creatures),
    ``side`` groups allies (only other sides are enemies), ``x``/``y`` are the top-left
    cell (on a gridless scene: the point of its centre, a disc ``size`` cells across),
    ``size`` the side of its square footprint in cells, ``reach`` and ``movement``
    are in the scene's distance unit.  ``stats`` are ruleset-specific, sorted by name.
    ``elevation`` is the height of its base above the ground in the scene's unit
    (Foundry's token elevation); reach measures in three dimensions
    (:mod:`geometry.elevation`).
    ``movement`` must be given, by keyword (the wire requires it too): a token that
    silently could not move would be a worse surprise than an error.
    """

    id: str
    name: str
    owner: str
    side: str
    x: int | float
    y: int | float
    size: int = 1
    reach: float = 1.0
    movement: float = field(kw_only=True)
    stats: tuple[tuple[str, StatValue], ...] = ()
    elevation: float = 0.0

    #: Written to logs and hashed only when not 0 (:mod:`engine.serial`): scenes on the
    #: ground keep the plain form they had before tokens had an elevation.
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("elevation",)

    @property
    def cell(self) -> Cell:
        """The top-left cell of the footprint (on a grid, where x and y are ints)."""
        return cast(Cell, (self.x, self.y))

    @property
    def position(self) -> Position:
        """Where it stands: its cell on a grid, its centre gridless."""
        return (self.x, self.y)

    def stat(self, name: str, default: StatValue | None = None) -> StatValue | None:
        """The statistic ``name`` or ``default`` when the token has none."""
        for key, value in self.stats:
            if key == name:
                return value
        return default

    def moved_to(self, cell: Position) -> Combatant:
        """This combatant standing on ``cell`` (gridless: centred on that point)."""
        # Every move makes one: a generated copy (engine.copies), not ``replace``.
        return _moved(self, cell[0], cell[1])


@dataclass(frozen=True, slots=True)
class Scene:
    """The map and everything on it."""

    grid: GridSpec
    tokens: tuple[Combatant, ...] = ()
    walls: tuple[WallSpec, ...] = ()
    terrain: tuple[TerrainSpec, ...] = ()

    def token(self, token_id: str) -> Combatant | None:
        """The token with ``token_id``, or None."""
        for token in self.tokens:
            if token.id == token_id:
                return token
        return None

    def wall(self, wall_id: str) -> WallSpec | None:
        """The wall with ``wall_id``, or None."""
        for wall in self.walls:
            if wall.id == wall_id:
                return wall
        return None

    def with_wall(self, wall: WallSpec) -> Scene:
        """This scene with ``wall`` replacing the wall of the same id."""
        return replace(self, walls=tuple(wall if w.id == wall.id else w for w in self.walls))

    def with_token(self, token: Combatant) -> Scene:
        """This scene with ``token`` replacing the token of the same id."""
        tokens = self.tokens
        token_id = token.id
        for i, t in enumerate(tokens):
            if t.id == token_id:  # ids are unique on a scene (engine.scene_checks)
                return _with_tokens(self, (*tokens[:i], token, *tokens[i + 1 :]))
        return self


@dataclass(frozen=True, slots=True)
class EncounterState:
    """Everything the encounter knows.  ``draws`` counts the dice drawn from ``seed``.
    ``initiative_dice`` are the dice participants rolled for their tokens' initiative
    before the fight (``roll_initiative``): ``(token, participant, dice)``, sorted by
    token; the next ``start_combat`` rolls with them and clears them."""

    scene: Scene | None = None
    seed: int = 0
    draws: int = 0
    next_prompt: int = 1
    combat: Combat | None = None
    initiative_dice: tuple[tuple[str, str, tuple[int, ...]], ...] = ()

    def with_scene(self, scene: Scene) -> EncounterState:
        """This state with ``scene`` in place of its own."""
        # Every move outside combat makes one: a generated copy, not ``replace``.
        return _with_scene(self, scene)


# The move path's copies (engine.copies), made once.
_moved = copier(Combatant, "x", "y")
_with_tokens = copier(Scene, "tokens")
_with_scene = copier(EncounterState, "scene")
