"""The encounter's state: a tree of frozen dataclasses, hashable and snapshot-able.

Nothing here holds a reference to anything mutable, so an ``EncounterState`` is a plain
value: two encounters that saw the same commands hold equal states with equal hashes
(:func:`engine.serial.state_hash`).  Collections are tuples, ordered where order matters
(initiative order) and sorted where it does not (stats), so equality never depends on
insertion history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar, Final, Literal, cast, get_args

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
from engine.params import AS_MAP, Id, Length, Range, Unique
from geometry import (
    Cell,
    DiagonalRule,
    Grid,
    HexGrid,
    HexOrientation,
    HexParity,
    HexShape,
    LineRule,
    SquareGrid,
)

StatValue = bool | int | float | str

#: The largest distance, size or pixel coordinate the wire carries, and its largest
#: integer (an int64).
MAX_MAGNITUDE: Final = 1_000_000_000
MAX_WIRE_INT: Final = 2**63 - 1
#: The most cells a side of a grid, tokens, walls and terrain regions a scene holds, and
#: the most vertices of a terrain polygon.
MAX_GRID_CELLS: Final = 10_000
MAX_TOKENS: Final = 2000
MAX_WALLS: Final = 4000
MAX_TERRAIN: Final = 512
MAX_VERTICES: Final = 256
#: A coordinate on the wire: a whole cell (an int64) on a grid, a point in the scene's
#: unit on a gridless scene.
Coordinate = (
    Annotated[int, Range(-MAX_WIRE_INT, MAX_WIRE_INT)]
    | Annotated[float, Range(-MAX_MAGNITUDE, MAX_MAGNITUDE)]
)
#: A point of a wall or a terrain polygon, in the scene's unit.
ScenePoint = tuple[
    Annotated[float, Range(-MAX_MAGNITUDE, MAX_MAGNITUDE)],
    Annotated[float, Range(-MAX_MAGNITUDE, MAX_MAGNITUDE)],
]
#: Field metadata: a field with an engine default the wire requires all the same
#: (``ON_THE_WIRE``), or one the wire has carried since version 1 (``SENT``: present in
#: every message, its default the wire's too).
ON_THE_WIRE: Final = {"required": True}
SENT: Final = {"later": False}

#: The words of a scene (the wire's choices).  ``gridless``: no cells to stand on;
#: positions are points in the scene's unit (the scene is still ``width`` x ``height``
#: cells of ``cell_size`` in size, as a Foundry gridless scene keeps its grid size and
#: distance).
GridKind = Literal["square", "hex_pointy", "hex_flat", "gridless"]
#: How a square grid prices a diagonal step: one square each (Cyberpunk RED, the Hero
#: supplement), alternating 1-2-1, the exact Euclidean length, or not at all; and the
#: rest of Foundry's ``CONST.GRID_DIAGONALS``: 1.5 squares ("approximate"), 2 squares
#: ("rectilinear"), alternating 2-1-2 ("alternating_2").
DiagonalName = Literal[
    "one", "alternating", "euclidean", "none", "approximate", "rectilinear", "alternating_2"
]
#: Which rows (pointy-top) or columns (flat-top) of a hex grid are shoved out.
HexOffset = Literal["odd", "even"]
DoorState = Literal["none", "open", "closed"]
TerrainKind = Literal["difficult", "water", "climbable", "gap", "impassable"]
VttKind = Literal["foundry", "owlbear"]
#: Shapes of hex tokens larger than one hex: the bridge's own ("hexagon") and Foundry's
#: ``CONST.TOKEN_SHAPES`` (geometry/hexshapes.py says which hexes each covers).
HexShapeName = Literal[
    "hexagon", "ellipse_1", "ellipse_2", "trapezoid_1", "trapezoid_2", "rectangle_1", "rectangle_2"
]
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
GRID_KINDS: tuple[str, ...] = get_args(GridKind)
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
    """How the client's VTT places things on this grid, so it can send its own pixels.

    ``foundry``: ``grid_size`` pixels per cell (the scene's ``grid.size``), and the scene
    padding ``scene_x``/``scene_y`` (``canvas.dimensions.sceneX/Y``); a token position is
    its document's top-left ``x``/``y``.  ``owlbear``: ``grid_size`` is the grid's dpi,
    no padding; a position is the item's centre.  Foundry hex grids count cells from
    the canvas origin, so there ``scene_x``/``scene_y`` are ignored.

    ``hex_shape`` is the shape of hex tokens larger than one hex (``HEX_SHAPES``); null
    means the VTT's default: Foundry's ``"rectangle_1"`` (its ``TOKEN_SHAPES``
    default), Owlbear's ``"hexagon"`` (the bridge's own, Owlbear has no shapes).

    The VTT also decides how a dragged line breaks ties (:meth:`line_rule`).
    """

    kind: VttKind
    grid_size: Annotated[float, Range(0, MAX_MAGNITUDE, above=True)]
    scene_x: Annotated[float, Range(-MAX_MAGNITUDE, MAX_MAGNITUDE)] = 0.0
    scene_y: Annotated[float, Range(-MAX_MAGNITUDE, MAX_MAGNITUDE)] = 0.0
    hex_shape: HexShapeName | None = None

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
    """The board: ``width`` x ``height`` cells of ``cell_size`` ``unit`` each (e.g. 5 ft).

    ``diagonal`` prices a diagonal step on a square grid (``one``, ``alternating``,
    ``euclidean``, ``none``, and Foundry's ``approximate``, ``rectilinear``,
    ``alternating_2``); ``offset`` says which rows or columns of a hex grid are shoved
    out (``odd`` or ``even``); ``vtt`` also sets the shape of large hex tokens.  A
    ``gridless`` scene is ``width`` x ``height`` cells in size but has no cells to stand
    on: it builds no grid (:attr:`gridless`; :mod:`engine.gridless_board`).  The wire
    names every field but the last three (``wire_order``: its order); the engine's
    defaults are for code that builds a grid itself.
    """

    #: The wire's shape checks what a field's bounds cannot (``protocol.shape_checks``).
    wire_base: ClassVar[str] = "GridChecks"
    wire_order: ClassVar[tuple[str, ...]] = (
        "kind", "cell_size", "unit", "width", "height", "diagonal", "offset", "vtt",
    )  # fmt: skip
    width: Annotated[int, Range(1, MAX_GRID_CELLS)]
    height: Annotated[int, Range(1, MAX_GRID_CELLS)]
    cell_size: Annotated[float, Range(0, MAX_MAGNITUDE, above=True)] = field(
        default=1.0, metadata=ON_THE_WIRE
    )
    unit: Annotated[str, Length(1, 16)] = field(default="m", metadata=ON_THE_WIRE)
    kind: GridKind = field(default="square", metadata=ON_THE_WIRE)
    diagonal: DiagonalName = "one"
    offset: HexOffset = "odd"
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
    """A wall segment from ``a`` to ``b``.  A window blocks movement but not sight; a door
    (``door`` "open" or "closed") blocks both while closed and neither while open.

    In the scene's distance unit; every field is on the wire since version 1."""

    wire_base: ClassVar[str] = "WallChecks"
    id: Id
    a: ScenePoint
    b: ScenePoint
    blocks_move: bool = field(default=True, metadata=SENT)
    blocks_sight: bool = field(default=True, metadata=SENT)
    door: DoorState = field(default="none", metadata=SENT)


@dataclass(frozen=True, slots=True)
class TerrainSpec:
    """A polygon of one terrain ``kind`` (3 to 256 vertices, not closed explicitly)."""

    kind: TerrainKind
    polygon: Annotated[tuple[ScenePoint, ...], Length(3, MAX_VERTICES)]


@dataclass(frozen=True, slots=True)
class Combatant:
    """One token on the board: who owns it, which side it fights for, where it stands
    (cell ``x``, ``y`` of its top-left corner; on a gridless scene the point of its
    centre in the scene's unit, fractional allowed), how big it is (``size`` cells a
    side; gridless, a disc ``size`` cells across),
    its ``reach`` and ``movement`` in grid units, and free-form ``stats``; ``elevation``
    is the height of its base above the ground in the scene's unit (Foundry's token
    elevation; negative below it), 0 when left out: reach measures in three dimensions.

    ``stats`` is a map sorted by name (so equal stats compare and print alike); in
    Python it may also be given as ``(name, value)`` pairs.  It is left out of ``hash``.

    ``owner`` is the participant id of the controller (``"gm"`` for the GM's
    creatures); ``side`` groups allies (only other sides are enemies).  In the engine
    ``stats`` are sorted ``(name, value)`` pairs (:mod:`geometry.elevation` measures
    the reach).  ``movement`` must be given, by keyword (the wire requires it too): a
    token that silently could not move would be a worse surprise than an error.  On
    the wire a token spec (``TokenSpec``).
    """

    wire_name: ClassVar[str] = "TokenSpec"
    wire_base: ClassVar[str] = "TokenChecks"
    id: Id
    name: Annotated[str, Length(0, 128)]
    owner: Annotated[str, Length(1, 64)]
    side: Annotated[str, Length(1, 64)]
    x: Coordinate
    y: Coordinate
    size: Annotated[int, Range(1, 16)] = field(default=1, metadata=ON_THE_WIRE)
    reach: Annotated[float, Range(0, MAX_MAGNITUDE)] = field(default=1.0, metadata=ON_THE_WIRE)
    movement: Annotated[float, Range(0, MAX_MAGNITUDE)] = field(kw_only=True)
    stats: Annotated[tuple[tuple[str, StatValue], ...], AS_MAP] = field(default=(), metadata=SENT)
    elevation: Annotated[float, Range(-MAX_MAGNITUDE, MAX_MAGNITUDE)] = 0.0

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
    """A grid and the tokens on it. Token ids are unique and every token's ``x``, ``y``
    lies on the grid (whole cells; gridless, a point on the scene); wall ids are unique
    and every point lies on the scene.

    The map and everything on it; on the wire a scene spec (``SceneSpec``)."""

    wire_name: ClassVar[str] = "SceneSpec"
    wire_base: ClassVar[str] = "SceneChecks"
    grid: GridSpec
    tokens: Annotated[
        tuple[Combatant, ...], Length(0, MAX_TOKENS), Unique("token id", key="id")
    ] = field(default=(), metadata=SENT)
    walls: Annotated[tuple[WallSpec, ...], Length(0, MAX_WALLS), Unique("wall id", key="id")] = ()
    terrain: Annotated[tuple[TerrainSpec, ...], Length(0, MAX_TERRAIN)] = ()

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
