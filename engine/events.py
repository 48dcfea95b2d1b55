"""Events: what happened, in order.  The VTT draws its screen from these.

Each event is a frozen dataclass with a wire ``kind``; ``to_plain`` gives its data.
Events are the engine's only output, and a log of them is enough to follow a fight.
An event that names a moment of the fight carries it as a ``clock``
(:class:`engine.timewords.Clock`): counted in the game's own units, with a label in its
words (``{"at": {"round": 2}, "label": "Round 2"}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.model import Combatant, Position, Scene, TerrainSpec, WallSpec
from engine.serial import to_plain
from engine.timewords import Clock, TimeWords


@dataclass(frozen=True, slots=True)
class SceneLoaded:
    """The scene was replaced; ``scene`` is the whole new scene."""

    kind: ClassVar[str] = "scene_loaded"
    scene: Scene


@dataclass(frozen=True, slots=True)
class CombatStarted:
    """A fight began under ``ruleset``; ``surprise`` says whether a surprise pass comes
    first; ``time`` is the game's units of time and their names (what a client labels
    the fight's moments and a combatant's action with).

    The dice seed is not here: events reach players, and a known seed predicts every
    roll.  It is logged with the ``StartCombat`` command on the server instead.
    """

    kind: ClassVar[str] = "combat_started"
    ruleset: str
    surprise: bool
    aware: tuple[str, ...]
    time: TimeWords


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """Dice were rolled for ``purpose``; ``source`` is ``"seeded"`` or ``"table"``."""

    kind: ClassVar[str] = "dice_rolled"
    purpose: str
    sides: int
    results: tuple[int, ...]
    source: str
    by: str


@dataclass(frozen=True, slots=True)
class InitiativeOrder:
    """The order combatants act in, highest first, with each one's score."""

    kind: ClassVar[str] = "initiative_order"
    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class PassStarted:
    """A new pass through the initiative order began at ``clock`` (a Cyberpunk RED or
    M&M Round, a Hero Phase); ``surprise``: it is the surprise pass."""

    kind: ClassVar[str] = "pass_started"
    clock: Clock
    surprise: bool


@dataclass(frozen=True, slots=True)
class CombatantActs:
    """It is now ``combatant``'s action; ``limited`` means one attack or one move only."""

    kind: ClassVar[str] = "combatant_acts"
    combatant: str
    clock: Clock
    limited: bool
    movement: float


@dataclass(frozen=True, slots=True)
class CombatantDone:
    """``combatant`` finished its action."""

    kind: ClassVar[str] = "combatant_done"
    combatant: str
    clock: Clock


@dataclass(frozen=True, slots=True)
class MoveStarted:
    """``token`` set out from ``start`` along ``path``, moving by ``mode`` (the
    ruleset's movement kind, e.g. ``combat``, ``step``, ``withdraw``, ``noncombat``), so
    every client can tell a withdraw, a 1 m step or a noncombat move apart; a flight's
    ``elevations`` at each waypoint (null otherwise)."""

    kind: ClassVar[str] = "move_started"
    #: Sent only for a flight (gridless): other moves keep their shape.
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("elevations",)
    token: str
    start: Position
    path: tuple[Position, ...]
    mode: str
    elevations: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class MoveInterrupted:
    """``token`` stopped on ``at``, about to cross ``exit_point``, because of ``by``
    (gridless: ``at`` is the point it stopped on, the exit point itself; a flight's
    ``elevation`` there)."""

    kind: ClassVar[str] = "move_interrupted"
    #: Sent only for a flight (gridless): other moves keep their shape.
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("elevation",)
    token: str
    at: Position
    exit_point: tuple[float, float]
    by: str
    elevation: float | None = None


@dataclass(frozen=True, slots=True)
class PromptOpened:
    """A prompt waits for ``controller``'s answer."""

    kind: ClassVar[str] = "prompt_opened"
    prompt: str
    prompt_kind: str
    controller: str
    attacker: str
    target: str
    at: Position
    exit_point: tuple[float, float]


@dataclass(frozen=True, slots=True)
class PromptClosed:
    """A prompt was answered: ``outcome`` is accepted, declined or expired."""

    kind: ClassVar[str] = "prompt_closed"
    prompt: str
    outcome: str
    by: str


@dataclass(frozen=True, slots=True)
class MoveCompleted:
    """``token`` arrived on ``at``; ``cost`` is the whole move's (terrain and diagonals
    included, charged when it started), ``movement_left`` what the Phase has left; a
    flight's ``elevation`` where it landed (null otherwise)."""

    kind: ClassVar[str] = "move_completed"
    #: Sent only for a flight (gridless): other moves keep their shape.
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("elevation",)
    token: str
    at: Position
    cost: float
    movement_left: float
    elevation: float | None = None


@dataclass(frozen=True, slots=True)
class TokenPlaced:
    """Outside combat, ``token`` was put on ``at`` (no budget, no provocation), at
    ``elevation`` when the move changed its height."""

    kind: ClassVar[str] = "token_placed"
    #: Sent only when the move changed the token's height (gridless).
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("elevation",)
    token: str
    at: Position
    elevation: float | None = None


@dataclass(frozen=True, slots=True)
class DoorChanged:
    """The door ``wall`` was opened (``open``) or closed."""

    kind: ClassVar[str] = "door_changed"
    wall: str
    open: bool


@dataclass(frozen=True, slots=True)
class CombatantSkipped:
    """``combatant``'s INIT came up but it does not act (``aborted`` or ``cannot act``)."""

    kind: ClassVar[str] = "combatant_skipped"
    combatant: str
    clock: Clock
    reason: str


@dataclass(frozen=True, slots=True)
class InterjectionEnded:
    """``combatant`` finished acting out of turn; the interrupted action goes on."""

    kind: ClassVar[str] = "interjection_ended"
    combatant: str


@dataclass(frozen=True, slots=True)
class ConditionChanged:
    """The GM set (``on``) or cleared ``condition`` on ``combatant``."""

    kind: ClassVar[str] = "condition_changed"
    combatant: str
    condition: str
    on: bool


@dataclass(frozen=True, slots=True)
class InitiativeRolled:
    """``by`` rolled ``token``'s initiative dice before the fight: ``rolls`` (empty: taken
    back); the fight's start rolls with them."""

    kind: ClassVar[str] = "initiative_rolled"
    token: str
    by: str
    rolls: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SceneEdited:
    """The GM replaced the scene's ``walls`` and/or ``terrain`` (None: kept as they
    were); the grid and the tokens stay."""

    kind: ClassVar[str] = "scene_edited"
    walls: tuple[WallSpec, ...] | None
    terrain: tuple[TerrainSpec, ...] | None


@dataclass(frozen=True, slots=True)
class StatsChanged:
    """The GM changed statistics of ``combatant`` mid-fight: ``stats`` are the new
    values (name, value) of those it changed; ``order_kept`` says the initiative order
    and scores stand (each ruleset's guide says why)."""

    kind: ClassVar[str] = "stats_changed"
    combatant: str
    stats: tuple[tuple[str, bool | int | float | str], ...]
    order_kept: bool = True


@dataclass(frozen=True, slots=True)
class MoveStopped:
    """``token``'s move ended early on ``at``: ``reason`` (the GM said it cannot go on,
    or the way ahead is no longer open)."""

    kind: ClassVar[str] = "move_stopped"
    token: str
    at: Position
    reason: str


@dataclass(frozen=True, slots=True)
class EffectStarted:
    """Effect ``effect`` (``name``) began on ``token`` (None: the scene), set by
    ``source``; it ends just before count ``count`` at the moment ``ends``, or when
    ended (``ends`` None)."""

    kind: ClassVar[str] = "effect_started"
    effect: str
    name: str
    token: str | None
    source: str
    count: int
    ends: Clock | None


@dataclass(frozen=True, slots=True)
class EffectEnded:
    """Effect ``effect`` (``name``) ended: ``reason`` ``expired`` (its time ran out),
    ``ended`` (the GM or a rule ended it) or ``left`` (its token left the fight)."""

    kind: ClassVar[str] = "effect_ended"
    effect: str
    name: str
    token: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class CombatantJoined:
    """``combatant`` joined the running fight at count ``score``; the new order follows
    in an ``initiative_order`` event.  ``token`` is the newcomer as placed on the scene
    (the same shape as a ``scene_loaded`` scene's tokens), so every client can draw it."""

    kind: ClassVar[str] = "combatant_joined"
    combatant: str
    score: int
    token: Combatant


@dataclass(frozen=True, slots=True)
class CombatantLeft:
    """``combatant`` left the fight (``removed``: off the scene too)."""

    kind: ClassVar[str] = "combatant_left"
    combatant: str
    removed: bool


@dataclass(frozen=True, slots=True)
class CombatEnded:
    """The GM ended the fight (``reason``: the table's words, or None); the table moves
    freely again."""

    kind: ClassVar[str] = "combat_ended"
    reason: str | None


Event = (
    SceneLoaded
    | DoorChanged
    | TokenPlaced
    | CombatStarted
    | DiceRolled
    | InitiativeOrder
    | PassStarted
    | CombatantActs
    | CombatantDone
    | MoveStarted
    | MoveInterrupted
    | PromptOpened
    | PromptClosed
    | MoveCompleted
    | CombatantSkipped
    | InterjectionEnded
    | ConditionChanged
    | StatsChanged
    | SceneEdited
    | InitiativeRolled
    | MoveStopped
    | EffectStarted
    | EffectEnded
    | CombatantJoined
    | CombatantLeft
    | CombatEnded
)


def event_data(event: Event) -> dict[str, Any]:
    """The event's fields as a JSON-safe map (the ``data`` of a wire ``event`` message)."""
    data = to_plain(event)
    assert isinstance(data, dict)
    return data
