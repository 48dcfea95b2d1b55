"""The encounter's state: a tree of frozen dataclasses, hashable and snapshot-able.

Nothing here holds a reference to anything mutable, so an ``EncounterState`` is a plain
value: two encounters that saw the same commands hold equal states with equal hashes
(:func:`engine.serial.state_hash`).  Collections are tuples, ordered where order matters
(initiative order) and sorted where it does not (stats), so equality never depends on
insertion history.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from geometry import (
    Cell,
    DiagonalRule,
    Grid,
    HexGrid,
    HexOrientation,
    HexParity,
    Point,
    SquareGrid,
)

StatValue = bool | int | float | str

GRID_KINDS = ("square", "hex_pointy", "hex_flat")
DIAGONALS = {
    "one": DiagonalRule.ONE,
    "alternating": DiagonalRule.ALTERNATING,
    "euclidean": DiagonalRule.EUCLIDEAN,
    "none": DiagonalRule.NONE,
}


@dataclass(frozen=True, slots=True)
class GridSpec:
    """The scene's grid: kind, size in cells, and the side of a cell in distance units.

    ``diagonal`` prices a diagonal step on a square grid (``one``, ``alternating``,
    ``euclidean``, ``none``); ``offset`` says which rows or columns of a hex grid are
    shoved out (``odd`` or ``even``).
    """

    width: int
    height: int
    cell_size: float = 1.0
    unit: str = "m"
    kind: str = "square"
    diagonal: str = "one"
    offset: str = "odd"

    def build(self) -> Grid:
        """The geometry grid this spec describes."""
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
        return HexGrid(self.width, self.height, self.cell_size, self.unit, orientation, parity)


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
    cell, ``size`` the side of its square footprint in cells, ``reach`` and ``movement``
    are in the scene's distance unit.  ``stats`` are ruleset-specific, sorted by name.
    """

    id: str
    name: str
    owner: str
    side: str
    x: int
    y: int
    size: int = 1
    reach: float = 1.0
    movement: float = 0.0
    stats: tuple[tuple[str, StatValue], ...] = ()

    @property
    def cell(self) -> Cell:
        """The top-left cell of the footprint."""
        return (self.x, self.y)

    def stat(self, name: str, default: StatValue | None = None) -> StatValue | None:
        """The statistic ``name`` or ``default`` when the token has none."""
        for key, value in self.stats:
            if key == name:
                return value
        return default

    def moved_to(self, cell: Cell) -> Combatant:
        """This combatant standing on ``cell``."""
        return replace(self, x=cell[0], y=cell[1])


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
        return replace(self, tokens=tuple(token if t.id == token.id else t for t in self.tokens))


@dataclass(frozen=True, slots=True)
class PhaseUsage:
    """What the acting combatant has spent of its Phase so far."""

    moved: float = 0.0
    attacks: int = 0


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question the encounter waits on, addressed to ``controller``.

    For an attack of opportunity: ``attacker`` may attack ``target``, who is paused on
    cell ``at`` and about to cross ``exit_point`` out of it.
    """

    id: str
    kind: str
    controller: str
    attacker: str
    target: str
    at: Cell
    exit_point: tuple[float, float]


@dataclass(frozen=True, slots=True)
class PendingExit:
    """Where a move leaves a square ``threatener`` threatens: step, square and point."""

    threatener: str
    step: int
    cell: Cell
    point: Point


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A move under way: its whole path (start first), the step it has reached, its cost,
    and the exits from threatened squares still ahead (in path order)."""

    token: str
    path: tuple[Cell, ...]
    step: int
    cost: float
    exits: tuple[PendingExit, ...] = ()


@dataclass(frozen=True, slots=True)
class Combat:
    """A running fight: initiative order, where in time we are, and who is acting.

    ``turn``/``phase`` are the ruleset's time coordinates (for the Hero supplement a Turn
    of 4 Phases; phase 0 is the Surprise Phase).  ``acting`` indexes ``order``.
    """

    ruleset: str
    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    aware: tuple[str, ...]
    turn: int = 1
    phase: int = 1
    acting: int = 0
    usage: PhaseUsage = field(default_factory=PhaseUsage)
    opportunity_attacks: tuple[tuple[str, str], ...] = ()
    prompts: tuple[Prompt, ...] = ()
    pending_move: PendingMove | None = None

    @property
    def surprise(self) -> bool:
        """Whether this is the Surprise Phase."""
        return self.phase == 0

    @property
    def actor(self) -> str:
        """The id of the combatant whose action it is."""
        return self.order[self.acting]

    def prompt(self, prompt_id: str) -> Prompt | None:
        """The open prompt ``prompt_id``, or None."""
        for prompt in self.prompts:
            if prompt.id == prompt_id:
                return prompt
        return None


@dataclass(frozen=True, slots=True)
class EncounterState:
    """Everything the encounter knows.  ``draws`` counts the dice drawn from ``seed``."""

    scene: Scene | None = None
    seed: int = 0
    draws: int = 0
    next_prompt: int = 1
    combat: Combat | None = None
