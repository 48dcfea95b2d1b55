"""Commands: what a participant asks the encounter to do.

Every command names its ``actor``, the participant id of whoever gave it: the bridge
fills it from the connection's join token, never from a message's payload.  ``"gm"``
is the table's GM; ``"system"`` is the bridge itself (a prompt's deadline passing).

A command a client sends is declared here once: the bridge derives its wire struct from
the dataclass (:mod:`vtt_bridge.derive`), so a field's ``Annotated`` bounds are the
wire's and its docstring is the one ``protocol/README.md`` shows.  ``Id`` is an id or a
word a command names (a token, a wall, a condition, an effect: one shape on the wire).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from engine.model import (
    MAX_TERRAIN,
    MAX_TOKENS,
    MAX_WALLS,
    MAX_WIRE_INT,
    Combatant,
    Scene,
    StatValue,
    TerrainSpec,
    WallSpec,
)
from engine.params import DICE, Id, Json, Length, OnePer, Range, TokenRef, Unique
from geometry import Point
from geometry.vtt_coords import OwlbearImageGrid

GM = "gm"
SYSTEM = "system"
#: The longest an effect may be set to last, in Turns (Rounds).
MAX_ROUNDS = 10_000
#: How deep a move's or an answer's ``maneuver`` map may nest.
MAX_OPTION_DEPTH = 3
#: How deep an ``act``'s params may nest (a list of cells is depth 2).
MAX_PARAMS_DEPTH = 6
#: The most dice a fight's start takes from the table, and the most shared groups.
MAX_START_ROLLS = 100
MAX_GROUPS = 256
#: The largest dice seed (an int64, as every integer on the wire).
MAX_SEED = 2**63 - 1
#: A die the table rolled itself, and the most one command carries.
Roll = Annotated[int, Range(1, 1000)]
MAX_ROLLS = 100
#: The most waypoints of a move (``protocol.threat.MAX_PATH``: a test compares) and
#: of a move in pixels.
MAX_PATH = 1000
MAX_POINTS = 1024
#: A waypoint: a whole cell on a grid, a point in the scene's unit on a gridless scene.
Waypoint = tuple[
    Annotated[int, Range(-MAX_WIRE_INT, MAX_WIRE_INT)] | float,
    Annotated[int, Range(-MAX_WIRE_INT, MAX_WIRE_INT)] | float,
]
#: Token ids, each at most once (the wire refuses a repeat).
TokenIds = Annotated[tuple[Id, ...], Length(0, MAX_TOKENS), Unique("token id")]


@dataclass(frozen=True, slots=True)
class LoadScene:
    """Replace the table's scene (grid and tokens) before or between combats.

    GM only, not during combat."""

    kind: ClassVar[str] = "load_scene"
    actor: str
    scene: Scene


@dataclass(frozen=True, slots=True)
class StartCombat:
    """Start combat under ``ruleset``. ``aware`` lists the combatants aware of their foes
    at the start (``None``: everyone is); ``seed`` seeds the dice (``None``: server picks).
    ``rolls`` (optional) are the table's own dice for the rolls starting a fight makes
    (initiative tie-breaks), in the order the ruleset makes them; ``[]`` says there are
    none to make.  Absent or ``None``: the server rolls.  ``groups`` (optional) lists
    sets of token ids that share one initiative roll and act at one count.

    GM only.  The engine's ``seed`` is always a number, logged with the command: a
    message's ``None`` is the table's seed, which the bridge fills in.  ``groups`` are
    a GM's minions, each a tuple of token ids.
    """

    kind: ClassVar[str] = "start_combat"
    #: The wire's field order since version 1 (the engine's puts the seed, which every
    #: command has, before the optional fields).
    wire_order: ClassVar[tuple[str, ...]] = ("ruleset", "aware", "seed", "rolls", "groups")
    actor: str
    ruleset: Annotated[str, Length(1, 64)]
    seed: Annotated[int, Range(0, MAX_SEED)] = field(metadata={"filled": True, "later": False})
    # On the wire since its first version: a client sends it, even null.
    aware: TokenIds | None = field(default=None, metadata={"later": False})
    rolls: Annotated[tuple[Roll, ...] | None, DICE, Length(0, MAX_START_ROLLS)] = None
    groups: Annotated[tuple[TokenIds, ...], Length(0, MAX_GROUPS)] = ()


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``token`` through ``path``: the cells ``(x, y)`` after its current position,
    in order (on a gridless scene, waypoints in the scene's unit, fractional allowed:
    the token's centre goes straight from one to the next). The engine decides whether
    the move is legal (a fractional cell on a grid is not); this only checks shape.
    ``mode`` (optional) is the kind of movement, a word of the fight's ruleset (null:
    its default); ``attack`` (optional) a target attacked at the end of the move, with
    that attack's ``maneuver`` map; ``rolls`` (optional) are the table's own dice for
    that attack.  ``elevations`` (optional) is the height of the token's base on each
    cell (gridless, at each waypoint), one per ``path`` entry: a flight or a climb,
    which the fight's ruleset must allow.

    Each step of a grid's path is adjacent to the one before, or stays on its cell at
    another height (a flight climbing in place).  ``mode`` is one of the ruleset's
    ``move_modes`` (None: its first); the target attacked at the end gets no attack of
    opportunity from this move, and the attack is part of the same action, where the
    ruleset allows it; without ``rolls`` the seed rolls.  A move that changes the
    elevation is a flight (:mod:`engine.grid_flight` on a grid), which the ruleset must
    allow (:meth:`engine.rulesets.base.Ruleset.check_flight`).
    """

    kind: ClassVar[str] = "move"
    #: Logged only when given: moves on the ground keep the plain form they had.
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("elevations",)
    #: The wire's field order since version 1 (the options every move shares first).
    wire_order: ClassVar[tuple[str, ...]] = (
        "token", "mode", "attack", "maneuver", "rolls", "path", "elevations",
    )  # fmt: skip
    actor: str
    token: Id
    path: Annotated[tuple[Waypoint, ...], Length(1, MAX_PATH)]
    mode: Id | None = None
    attack: Id | None = None
    maneuver: Annotated[dict[str, Any] | None, Json(MAX_OPTION_DEPTH)] = None
    rolls: Annotated[tuple[Roll, ...] | None, DICE, Length(1, MAX_ROLLS)] = None
    elevations: Annotated[
        tuple[float, ...] | None, Length(0, MAX_PATH), OnePer("path", "waypoints")
    ] = None


@dataclass(frozen=True, slots=True)
class MovePoints:
    """Move ``token`` through waypoints given in the VTT's own pixels (the scene's
    ``grid.vtt``): Foundry token-document ``x``/``y``, or Owlbear item positions (the
    item's centre, or where its ``image`` grid's offset lies when ``image`` is given).
    The server snaps each to a cell and walks the straight line between as the VTT does
    (Foundry's direct path on a Foundry scene); on a gridless scene it snaps nothing:
    each becomes a waypoint in scene units (a Foundry document's corner plus half the
    token's width; an Owlbear position as it is).  Then it is a ``move`` like any other
    (``mode``, ``attack``, ``maneuver``, ``rolls``).  ``elevations`` (optional) is the
    height of the token's base at each point (Foundry's waypoint elevations): a flight,
    as ``move``'s is; on a grid each cell traced between two points gets its height in
    step along the line, and a point on the cell before it at another height is a climb
    in place."""

    kind: ClassVar[str] = "move_points"
    #: Logged only when given: moves on the ground keep the plain form they had.
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("elevations",)
    #: The wire's field order since version 1 (the options every move shares first).
    wire_order: ClassVar[tuple[str, ...]] = (
        "token", "mode", "attack", "maneuver", "rolls", "points", "image", "elevations",
    )  # fmt: skip
    actor: str
    token: Id
    points: Annotated[tuple[Point, ...], Length(1, MAX_POINTS)]
    mode: Id | None = None
    attack: Id | None = None
    maneuver: Annotated[dict[str, Any] | None, Json(MAX_OPTION_DEPTH)] = None
    rolls: Annotated[tuple[Roll, ...] | None, DICE, Length(1, MAX_ROLLS)] = None
    image: OwlbearImageGrid | None = None
    elevations: Annotated[
        tuple[float, ...] | None, Length(0, MAX_POINTS), OnePer("points", "points")
    ] = None


@dataclass(frozen=True, slots=True)
class AnswerPrompt:
    """Answer the server's ``prompt`` (e.g. "take the attack of opportunity?").
    ``rolls`` are dice the table rolled itself; ``None`` lets the server roll.
    ``maneuver`` (optional) is the ruleset's manoeuvre map for the attack."""

    kind: ClassVar[str] = "answer_prompt"
    actor: str
    prompt: Annotated[str, Length(1, 64)]
    accept: bool
    # On the wire since its first version: a client sends it, even null.
    rolls: Annotated[tuple[Annotated[int, Range(1, 1000)], ...] | None, DICE, Length(1, 100)] = (
        field(default=None, metadata={"later": False})
    )
    maneuver: Annotated[dict[str, Any] | None, Json(MAX_OPTION_DEPTH)] = None


@dataclass(frozen=True, slots=True)
class ExpirePrompt:
    """A prompt's deadline passed unanswered: it counts as declined."""

    kind: ClassVar[str] = "expire_prompt"
    actor: str
    prompt: str


@dataclass(frozen=True, slots=True)
class EndPhase:
    """``token`` is done with its current phase (turn segment)."""

    kind: ClassVar[str] = "end_phase"
    actor: str
    token: Id


@dataclass(frozen=True, slots=True)
class SetDoor:
    """Open or close the door ``wall`` (a wall of the scene whose ``door`` is not "none")."""

    kind: ClassVar[str] = "set_door"
    actor: str
    wall: Id
    open: bool


@dataclass(frozen=True, slots=True)
class RollInitiative:
    """Before a fight, whoever controls ``token`` rolls its initiative dice itself:
    ``rolls``, used in order by the next ``start_combat`` for that token's rolls (its
    initiative, then any tie-breaks), in the roller's name; None takes them back."""

    kind: ClassVar[str] = "roll_initiative"
    actor: str
    token: TokenRef
    rolls: Annotated[tuple[Annotated[int, Range(1, 1000)], ...] | None, DICE]


@dataclass(frozen=True, slots=True)
class EditScene:
    """GM only: replace the scene's ``walls`` and/or its ``terrain`` (absent or null:
    kept), during a fight or between fights; the grid and the tokens stay.  Walls are
    as ``load_scene``'s (unique ids), each point on the scene.  Refused while a prompt is
    open or a move is under way (priced through the old walls)."""

    kind: ClassVar[str] = "edit_scene"
    actor: str
    walls: Annotated[
        tuple[WallSpec, ...] | None, Length(0, MAX_WALLS), Unique("wall id", key="id")
    ] = None
    terrain: Annotated[tuple[TerrainSpec, ...] | None, Length(0, MAX_TERRAIN)] = None


@dataclass(frozen=True, slots=True)
class SetCondition:
    """GM only: set or clear a ``condition`` on ``token`` (a word of the fight's ruleset;
    the engine refuses one it does not know)."""

    kind: ClassVar[str] = "set_condition"
    actor: str
    token: Id
    condition: Id
    on: bool


@dataclass(frozen=True, slots=True)
class SetStats:
    """The GM changes statistics of ``token`` during the fight: each name in ``stats``
    (one the ruleset plays, see its ``changeable_stats``) takes its value.  The fight
    goes on; what the change does to the order is the ruleset's, said in its guide."""

    kind: ClassVar[str] = "set_stats"
    actor: str
    token: TokenRef
    stats: dict[Annotated[str, Length(1, 64)], StatValue]


@dataclass(frozen=True, slots=True)
class Act:
    """``token`` takes the ruleset action ``action`` with ``params`` (a map; its fields
    are the action's, listed per game in the README; may be left out: none).

    ``params`` is the plain map of the action's declared params (the ruleset's
    :class:`~engine.rulesets.base.ActionSpec`); the engine decodes it with that
    declaration, and the bridge has validated it against the same one already.
    """

    kind: ClassVar[str] = "act"
    actor: str
    token: Id
    action: Id
    params: Annotated[dict[str, Any], Json(MAX_PARAMS_DEPTH)] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class JoinCombat:
    """GM only: bring a new ``token`` (a scene token spec) into the running fight; it is
    placed on the scene and rolls its place in the order (at a count already taken, by
    the game's tie rule).  ``rolls`` (optional) are the table's own dice for those rolls,
    in the order they are made (its initiative first, then any tie-breaks); absent or
    ``None``: the server rolls.

    The token is placed on a free cell.  ``ties``: ``game``, the ruleset's tie rule;
    ``after``, after everyone already at its score, rolling nothing (how a join was
    placed before rules version 7: a logged join keeps it, see :mod:`engine.versions`;
    not on the wire)."""

    kind: ClassVar[str] = "join_combat"
    actor: str
    token: Combatant
    rolls: Annotated[tuple[Roll, ...] | None, DICE, Length(1, 100)] = None
    ties: Literal["game", "after"] = field(default="game", metadata={"wire": False})


@dataclass(frozen=True, slots=True)
class LeaveCombat:
    """GM only: take ``token`` out of the running fight (``remove``: off the scene too;
    else it stays there as scenery, acting no more)."""

    kind: ClassVar[str] = "leave_combat"
    actor: str
    token: Id
    remove: bool = False


@dataclass(frozen=True, slots=True)
class SetEffect:
    """GM only: start an effect ``name`` on ``token`` (null: the scene) lasting
    ``rounds`` Turns (null: until ended); it ends just before the current initiative
    count comes up that many Turns later."""

    kind: ClassVar[str] = "set_effect"
    actor: str
    name: Annotated[str, Length(1, 64)]
    token: Id | None = None
    rounds: Annotated[int, Range(1, MAX_ROUNDS)] | None = None


@dataclass(frozen=True, slots=True)
class EndEffect:
    """GM only: end the effect ``effect`` (its id, ``e<n>``) now."""

    kind: ClassVar[str] = "end_effect"
    actor: str
    effect: Id


@dataclass(frozen=True, slots=True)
class EndCombat:
    """The GM ends the fight (``reason``: the table's words, or None).

    Every open prompt closes, the ruleset's held, readied and delayed actions and every
    timed effect end, each with its event, then ``combat_ended``; the table moves freely
    again, the scene may be loaded anew and a new fight started.
    """

    kind: ClassVar[str] = "end_combat"
    actor: str
    reason: Annotated[str, Length(1, 200)] | None = None


Command = (
    LoadScene
    | StartCombat
    | Move
    | MovePoints
    | AnswerPrompt
    | ExpirePrompt
    | EndPhase
    | SetDoor
    | EditScene
    | RollInitiative
    | SetCondition
    | SetStats
    | Act
    | JoinCombat
    | LeaveCombat
    | SetEffect
    | EndEffect
    | EndCombat
)

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.kind: cls
    for cls in (
        LoadScene,
        StartCombat,
        Move,
        MovePoints,
        AnswerPrompt,
        ExpirePrompt,
        EndPhase,
        SetDoor,
        EditScene,
        RollInitiative,
        SetCondition,
        SetStats,
        Act,
        JoinCombat,
        LeaveCombat,
        SetEffect,
        EndEffect,
        EndCombat,
    )
}
