"""The commands declared once, as the engine's dataclasses: their wire structs.

Written by ``python -m tools.wiredocs --write`` (``tools/wirestructs.py``) from the
engine's declarations (``engine/commands.py``, the scene's shapes in ``engine/model.py``):
each class is the struct the server derives from the engine command of the same name
(``vtt_bridge.derive.wire_command``) or the shape it carries (``wire_shape``: a
``Combatant`` is a ``TokenSpec``), its fields, bounds and docstring the engine's, its
checks beyond them ``protocol/shape_checks.py``'s.  Do not edit: change the engine's
dataclass and run the tool (``tests/test_wiredocs.py`` fails until then).  The protocol
may not import the engine, so the structs are written out for ``import protocol`` alone
to decode every message.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta

from protocol.actions import ImageGrid
from protocol.shape_checks import GridChecks, SceneChecks, TokenChecks, WallChecks, check_unique
from protocol.text import CLEAN_PATTERN
from protocol.validate import check_one_each, json_safe
from protocol.wire import ClientWire, TokenId, Wire


class VttSpec(Wire, frozen=True, kw_only=True):
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

    LATER = ("scene_x", "scene_y", "hex_shape")
    kind: Literal["foundry", "owlbear"]
    grid_size: Annotated[float, Meta(gt=0, le=1000000000.0)]
    scene_x: Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)] = 0.0
    scene_y: Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)] = 0.0
    hex_shape: (
        Literal[
            "hexagon",
            "ellipse_1",
            "ellipse_2",
            "trapezoid_1",
            "trapezoid_2",
            "rectangle_1",
            "rectangle_2",
        ]
        | None
    ) = None


class GridSpec(GridChecks, frozen=True, kw_only=True):
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

    LATER = ("diagonal", "offset", "vtt")
    kind: Literal["square", "hex_pointy", "hex_flat", "gridless"]
    cell_size: Annotated[float, Meta(gt=0, le=1000000000.0)]
    unit: Annotated[str, Meta(min_length=1, max_length=16, pattern=CLEAN_PATTERN)]
    width: Annotated[int, Meta(ge=1, le=10000)]
    height: Annotated[int, Meta(ge=1, le=10000)]
    diagonal: Literal[
        "one", "alternating", "euclidean", "none", "approximate", "rectilinear", "alternating_2"
    ] = "one"
    offset: Literal["odd", "even"] = "odd"
    vtt: VttSpec | None = None


class TokenSpec(TokenChecks, frozen=True, kw_only=True):
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

    LATER = ("elevation",)
    UNHASHED = ("stats",)
    id: TokenId
    name: Annotated[str, Meta(max_length=128, pattern=CLEAN_PATTERN)]
    owner: Annotated[str, Meta(min_length=1, max_length=64, pattern=CLEAN_PATTERN)]
    side: Annotated[str, Meta(min_length=1, max_length=64, pattern=CLEAN_PATTERN)]
    x: (
        Annotated[int, Meta(ge=-9223372036854775807, le=9223372036854775807)]
        | Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)]
    )
    y: (
        Annotated[int, Meta(ge=-9223372036854775807, le=9223372036854775807)]
        | Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)]
    )
    size: Annotated[int, Meta(ge=1, le=16)]
    reach: Annotated[float, Meta(ge=0, le=1000000000.0)]
    movement: Annotated[float, Meta(ge=0, le=1000000000.0)]
    stats: dict[str, Any] = msgspec.field(default_factory=dict)
    elevation: Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)] = 0.0


class WallSpec(WallChecks, frozen=True, kw_only=True):
    """A wall segment from ``a`` to ``b``.  A window blocks movement but not sight; a door
    (``door`` "open" or "closed") blocks both while closed and neither while open.

    In the scene's distance unit; every field is on the wire since version 1."""

    id: TokenId
    a: tuple[
        Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
        Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
    ]
    b: tuple[
        Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
        Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
    ]
    blocks_move: bool = True
    blocks_sight: bool = True
    door: Literal["none", "open", "closed"] = "none"


class TerrainSpec(Wire, frozen=True, kw_only=True):
    """A polygon of one terrain ``kind`` (3 to 256 vertices, not closed explicitly)."""

    kind: Literal["difficult", "water", "climbable", "gap", "impassable"]
    polygon: Annotated[
        tuple[
            tuple[
                Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
                Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
            ],
            ...,
        ],
        Meta(min_length=3, max_length=256),
    ]


class SceneSpec(SceneChecks, frozen=True, kw_only=True):
    """A grid and the tokens on it. Token ids are unique and every token's ``x``, ``y``
    lies on the grid (whole cells; gridless, a point on the scene); wall ids are unique
    and every point lies on the scene.

    The map and everything on it; on the wire a scene spec (``SceneSpec``)."""

    LATER = ("walls", "terrain")
    grid: GridSpec
    tokens: Annotated[tuple[TokenSpec, ...], Meta(max_length=2000)] = ()
    walls: Annotated[tuple[WallSpec, ...], Meta(max_length=4000)] = ()
    terrain: Annotated[tuple[TerrainSpec, ...], Meta(max_length=512)] = ()

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        check_unique([item.id for item in self.tokens or ()], "token id", "tokens[{}].id")
        check_unique([item.id for item in self.walls or ()], "wall id", "walls[{}].id")
        super().check()  # the shape's own checks, after its fields'


class LoadScene(ClientWire, frozen=True, kw_only=True):
    """Replace the table's scene (grid and tokens) before or between combats.

    GM only, not during combat."""

    TYPE = "load_scene"
    scene: SceneSpec


class StartCombat(ClientWire, frozen=True, kw_only=True):
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

    TYPE = "start_combat"
    LATER = ("rolls", "groups")
    ruleset: Annotated[str, Meta(min_length=1, max_length=64, pattern=CLEAN_PATTERN)]
    aware: Annotated[tuple[TokenId, ...], Meta(max_length=2000)] | None = None
    seed: Annotated[int, Meta(ge=0, le=9223372036854775807)] | None = None
    rolls: (
        Annotated[tuple[Annotated[int, Meta(ge=1, le=1000)], ...], Meta(max_length=100)] | None
    ) = None
    groups: Annotated[
        tuple[Annotated[tuple[TokenId, ...], Meta(max_length=2000)], ...], Meta(max_length=256)
    ] = ()

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        check_unique(list(self.aware or ()), "token id", "aware[{}]")
        for i, items in enumerate(self.groups or ()):
            check_unique(list(items), "token id", f"groups[{i}][{{}}]")


class Move(ClientWire, frozen=True, kw_only=True):
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

    TYPE = "move"
    LATER = ("mode", "attack", "maneuver", "rolls", "elevations")
    UNHASHED = ("maneuver",)
    token: TokenId
    mode: TokenId | None = None
    attack: TokenId | None = None
    maneuver: dict[str, Any] | None = None
    rolls: (
        Annotated[
            tuple[Annotated[int, Meta(ge=1, le=1000)], ...], Meta(min_length=1, max_length=100)
        ]
        | None
    ) = None
    path: Annotated[
        tuple[
            tuple[
                Annotated[int, Meta(ge=-9223372036854775807, le=9223372036854775807)]
                | Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
                Annotated[int, Meta(ge=-9223372036854775807, le=9223372036854775807)]
                | Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
            ],
            ...,
        ],
        Meta(min_length=1, max_length=1000),
    ]
    elevations: (
        Annotated[
            tuple[Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)], ...],
            Meta(max_length=1000),
        ]
        | None
    ) = None

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        if self.maneuver is not None:
            json_safe(self.maneuver, "maneuver", max_depth=3)
        check_one_each(self.elevations, "elevations", self.path, "waypoints")


class AnswerPrompt(ClientWire, frozen=True, kw_only=True):
    """Answer the server's ``prompt`` (e.g. "take the attack of opportunity?").
    ``rolls`` are dice the table rolled itself; ``None`` lets the server roll.
    ``maneuver`` (optional) is the ruleset's manoeuvre map for the attack."""

    TYPE = "answer_prompt"
    LATER = ("maneuver",)
    UNHASHED = ("maneuver",)
    prompt: Annotated[str, Meta(min_length=1, max_length=64, pattern=CLEAN_PATTERN)]
    accept: bool
    rolls: (
        Annotated[
            tuple[Annotated[int, Meta(ge=1, le=1000)], ...], Meta(min_length=1, max_length=100)
        ]
        | None
    ) = None
    maneuver: dict[str, Any] | None = None

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        if self.maneuver is not None:
            json_safe(self.maneuver, "maneuver", max_depth=3)


class EndPhase(ClientWire, frozen=True, kw_only=True):
    """``token`` is done with its current phase (turn segment)."""

    TYPE = "end_phase"
    token: TokenId


class MovePoints(ClientWire, frozen=True, kw_only=True):
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

    TYPE = "move_points"
    LATER = ("mode", "attack", "maneuver", "rolls", "image", "elevations")
    UNHASHED = ("maneuver",)
    token: TokenId
    mode: TokenId | None = None
    attack: TokenId | None = None
    maneuver: dict[str, Any] | None = None
    rolls: (
        Annotated[
            tuple[Annotated[int, Meta(ge=1, le=1000)], ...], Meta(min_length=1, max_length=100)
        ]
        | None
    ) = None
    points: Annotated[
        tuple[
            tuple[
                Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
                Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)],
            ],
            ...,
        ],
        Meta(min_length=1, max_length=1024),
    ]
    image: ImageGrid | None = None
    elevations: (
        Annotated[
            tuple[Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)], ...],
            Meta(max_length=1024),
        ]
        | None
    ) = None

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        if self.maneuver is not None:
            json_safe(self.maneuver, "maneuver", max_depth=3)
        check_one_each(self.elevations, "elevations", self.points, "points")


class SetDoor(ClientWire, frozen=True, kw_only=True):
    """Open or close the door ``wall`` (a wall of the scene whose ``door`` is not "none")."""

    TYPE = "set_door"
    wall: TokenId
    open: bool


class SetCondition(ClientWire, frozen=True, kw_only=True):
    """GM only: set or clear a ``condition`` on ``token`` (a word of the fight's ruleset;
    the engine refuses one it does not know)."""

    TYPE = "set_condition"
    token: TokenId
    condition: TokenId
    on: bool


class Act(ClientWire, frozen=True, kw_only=True):
    """``token`` takes the ruleset action ``action`` with ``params`` (a map; its fields
    are the action's, listed per game in the README; may be left out: none).

    ``params`` is the plain map of the action's declared params (the ruleset's
    :class:`~engine.rulesets.base.ActionSpec`); the engine decodes it with that
    declaration, and the bridge has validated it against the same one already.
    """

    TYPE = "act"
    LATER = ("params",)
    UNHASHED = ("params",)
    token: TokenId
    action: TokenId
    params: dict[str, Any] = msgspec.field(default_factory=dict)

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        if self.params is not None:
            json_safe(self.params, "params", max_depth=6)


class JoinCombat(ClientWire, frozen=True, kw_only=True):
    """GM only: bring a new ``token`` (a scene token spec) into the running fight; it is
    placed on the scene and rolls its place in the order (at a count already taken, by
    the game's tie rule).  ``rolls`` (optional) are the table's own dice for those rolls,
    in the order they are made (its initiative first, then any tie-breaks); absent or
    ``None``: the server rolls.

    The token is placed on a free cell.  ``ties``: ``game``, the ruleset's tie rule;
    ``after``, after everyone already at its score, rolling nothing (how a join was
    placed before rules version 7: a logged join keeps it, see :mod:`engine.versions`;
    not on the wire)."""

    TYPE = "join_combat"
    LATER = ("rolls",)
    token: TokenSpec
    rolls: (
        Annotated[
            tuple[Annotated[int, Meta(ge=1, le=1000)], ...], Meta(min_length=1, max_length=100)
        ]
        | None
    ) = None


class LeaveCombat(ClientWire, frozen=True, kw_only=True):
    """GM only: take ``token`` out of the running fight (``remove``: off the scene too;
    else it stays there as scenery, acting no more)."""

    TYPE = "leave_combat"
    LATER = ("remove",)
    token: TokenId
    remove: bool = False


class EditScene(ClientWire, frozen=True, kw_only=True):
    """GM only: replace the scene's ``walls`` and/or its ``terrain`` (absent or null:
    kept), during a fight or between fights; the grid and the tokens stay.  Walls are
    as ``load_scene``'s (unique ids), each point on the scene.  Refused while a prompt is
    open or a move is under way (priced through the old walls)."""

    TYPE = "edit_scene"
    LATER = ("walls", "terrain")
    walls: Annotated[tuple[WallSpec, ...], Meta(max_length=4000)] | None = None
    terrain: Annotated[tuple[TerrainSpec, ...], Meta(max_length=512)] | None = None

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        check_unique([item.id for item in self.walls or ()], "wall id", "walls[{}].id")


class SetEffect(ClientWire, frozen=True, kw_only=True):
    """GM only: start an effect ``name`` on ``token`` (null: the scene) lasting
    ``rounds`` Turns (null: until ended); it ends just before the current initiative
    count comes up that many Turns later."""

    TYPE = "set_effect"
    LATER = ("token", "rounds")
    name: Annotated[str, Meta(min_length=1, max_length=64, pattern=CLEAN_PATTERN)]
    token: TokenId | None = None
    rounds: Annotated[int, Meta(ge=1, le=10000)] | None = None


class EndEffect(ClientWire, frozen=True, kw_only=True):
    """GM only: end the effect ``effect`` (its id, ``e<n>``) now."""

    TYPE = "end_effect"
    effect: TokenId


class EndCombat(ClientWire, frozen=True, kw_only=True):
    """The GM ends the fight (``reason``: the table's words, or None).

    Every open prompt closes, the ruleset's held, readied and delayed actions and every
    timed effect end, each with its event, then ``combat_ended``; the table moves freely
    again, the scene may be loaded anew and a new fight started.
    """

    TYPE = "end_combat"
    LATER = ("reason",)
    reason: Annotated[str, Meta(min_length=1, max_length=200, pattern=CLEAN_PATTERN)] | None = None


class RollInitiative(ClientWire, frozen=True, kw_only=True):
    """Before a fight, whoever controls ``token`` rolls its initiative dice itself:
    ``rolls``, used in order by the next ``start_combat`` for that token's rolls (its
    initiative, then any tie-breaks), in the roller's name; None takes them back."""

    TYPE = "roll_initiative"
    token: TokenId
    rolls: Annotated[tuple[Annotated[int, Meta(ge=1, le=1000)], ...], Meta(max_length=1024)] | None


class SetStats(ClientWire, frozen=True, kw_only=True):
    """The GM changes statistics of ``token`` during the fight: each name in ``stats``
    (one the ruleset plays, see its ``changeable_stats``) takes its value.  The fight
    goes on; what the change does to the order is the ruleset's, said in its guide."""

    TYPE = "set_stats"
    UNHASHED = ("stats",)
    token: TokenId
    stats: dict[
        Annotated[str, Meta(min_length=1, max_length=64, pattern=CLEAN_PATTERN)],
        bool
        | Annotated[int, Meta(ge=-1000000000, le=1000000000)]
        | Annotated[float, Meta(ge=-1000000000.0, le=1000000000.0)]
        | Annotated[str, Meta(max_length=1024, pattern=CLEAN_PATTERN)],
    ]


#: Every derived shape, each after the shapes it holds.
SHAPES: Final[tuple[type[Wire], ...]] = (
    VttSpec,
    GridSpec,
    TokenSpec,
    WallSpec,
    TerrainSpec,
    SceneSpec,
)

#: Every derived command's wire struct, in the order ``protocol/README.md`` lists them.
DERIVED: Final[tuple[type[ClientWire], ...]] = (
    LoadScene,
    StartCombat,
    Move,
    AnswerPrompt,
    EndPhase,
    MovePoints,
    SetDoor,
    SetCondition,
    Act,
    JoinCombat,
    LeaveCombat,
    EditScene,
    SetEffect,
    EndEffect,
    EndCombat,
    RollInitiative,
    SetStats,
)
