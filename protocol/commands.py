"""The commands declared once, as the engine's dataclasses: their wire structs.

Written by ``python -m tools.wiredocs --write`` (``tools/wirestructs.py``) from the
engine's declarations (``engine/commands.py``): each class is the struct the server
derives from the engine command of the same name (``vtt_bridge.derive.wire_command``),
its fields, bounds and docstring the engine's.  Do not edit: change the engine's
dataclass and run the tool (``tests/test_wiredocs.py`` fails until then).  The protocol
may not import the engine, so the structs are written out for ``import protocol`` alone
to decode every message.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec
from msgspec import Meta

from protocol.actions import ImageGrid
from protocol.scene import TokenSpec, check_unique
from protocol.text import CLEAN_PATTERN
from protocol.validate import check_one_each, json_safe
from protocol.wire import ClientWire, TokenId


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
    that attack.  ``elevations`` (optional, gridless scenes only) is the height of the
    token's base at each waypoint, one per ``path`` entry: a flight or a climb, which
    the fight's ruleset must allow.

    Each step of a grid's path is adjacent to the one before.  ``mode`` is one of the
    ruleset's ``move_modes`` (None: its first); the target attacked at the end gets no
    attack of opportunity from this move, and the attack is part of the same action,
    where the ruleset allows it; without ``rolls`` the seed rolls.  A move that changes
    the elevation is a flight (:meth:`engine.rulesets.base.Ruleset.check_flight`).
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
    (``mode``, ``attack``, ``maneuver``, ``rolls``)."""

    TYPE = "move_points"
    LATER = ("mode", "attack", "maneuver", "rolls", "image")
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

    def check(self) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        if self.maneuver is not None:
            json_safe(self.maneuver, "maneuver", max_depth=3)


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
        | Annotated[str, Meta(min_length=0, max_length=1024, pattern=CLEAN_PATTERN)],
    ]


#: Every derived command's wire struct, in the order ``protocol/README.md`` lists them.
DERIVED: Final[tuple[type[ClientWire], ...]] = (
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
    SetEffect,
    EndEffect,
    EndCombat,
    RollInitiative,
    SetStats,
)
