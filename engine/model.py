"""The encounter's state: a tree of frozen dataclasses, hashable and snapshot-able.

Nothing here holds a reference to anything mutable, so an ``EncounterState`` is a plain
value: two encounters that saw the same commands hold equal states with equal hashes
(:func:`engine.serial.state_hash`).  Collections are tuples, ordered where order matters
(initiative order) and sorted where it does not (stats), so equality never depends on
insertion history.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from geometry import Cell, SquareGrid

StatValue = bool | int | float | str


@dataclass(frozen=True, slots=True)
class GridSpec:
    """The scene's grid: kind, size in cells, and the side of a cell in distance units."""

    width: int
    height: int
    cell_size: float = 1.0
    unit: str = "m"
    kind: str = "square"

    def build(self) -> SquareGrid:
        """The geometry grid this spec describes."""
        return SquareGrid(self.width, self.height, self.cell_size, self.unit)


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

    def token(self, token_id: str) -> Combatant | None:
        """The token with ``token_id``, or None."""
        for token in self.tokens:
            if token.id == token_id:
                return token
        return None

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
class PendingMove:
    """A move paused by an interruption: the cells still to enter and what it cost so far."""

    token: str
    remaining: tuple[Cell, ...]
    cost: float
    resolved: tuple[str, ...] = ()


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
