"""``ask_threat`` -> ``threat``: which cells does a token threaten, and how far does it
reach?  ``ask_exits`` -> ``exits``: where would a move along this path be stopped?
Queries like ``ask_options``: they change nothing, and any member (spectators too) may
ask about any token, because the answers follow from what every member already holds
(the scene and the fight's events).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from msgspec import Meta

from protocol.validate import MAX_ARRAY_LEN
from protocol.wire import (
    Cell,
    ClientWire,
    Float,
    Length,
    Point,
    Prose,
    Seq,
    ServerWire,
    TokenId,
    Waypoint,
    Wire,
)

#: Rings in one outline (a reach area split by walls has a few; holes add more).
MAX_RINGS: Final = 256
#: The most steps a path may have (a ``move``'s, an ``ask_exits``').
MAX_PATH: Final = 1000

Ids = Annotated[tuple[TokenId, ...], Meta(max_length=MAX_ARRAY_LEN)]
#: What stops a move there: the prompt it opens.
ExitKind = Literal["attack_of_opportunity", "readied_action"]
Ring = Annotated[tuple[Point, ...], Meta(min_length=3, max_length=MAX_ARRAY_LEN)]


class AskThreat(ClientWire, frozen=True, kw_only=True):
    """Ask which cells ``token`` threatens and its reach area; answered with ``threat``
    (``ref`` = this seq)."""

    TYPE = "ask_threat"
    token: TokenId


class ThreatRegion(Wire, frozen=True, kw_only=True):
    """What a token reaches on a gridless scene: the ball of ``radius`` around ``center``
    (scene units) at ``elevation``; a token whose centre comes inside is within reach."""

    center: Point
    radius: Length
    elevation: Float


class Threat(ServerWire, frozen=True, kw_only=True):
    """The answer to ``ask_threat`` ``ref``: the ``cells`` ``token`` threatens now (sorted
    ``[column, row]``; empty when the rules say it threatens nobody, then ``reason``
    says why), the ``foes`` it threatens under the fight's ruleset and those it still
    has an attack of opportunity against (``attacks``), and the ``outline`` of its reach
    area (its footprint and every cell within melee reach, walls respected) as rings of
    ``[x, y]`` points in the scene's distance units, the units of walls, terrain and
    exit points (fill them even-odd: a ring inside another is a hole).  On a gridless
    scene ``cells`` is empty and ``region`` says what it reaches (null on grids); the
    outline is then that region's disc on the ground."""

    TYPE = "threat"
    LATER = ("region",)
    ref: Seq
    token: TokenId
    cells: Annotated[tuple[Cell, ...], Meta(max_length=MAX_ARRAY_LEN)]
    outline: Annotated[tuple[Ring, ...], Meta(max_length=MAX_RINGS)]
    foes: Ids
    attacks: Ids
    reason: Prose | None
    region: ThreatRegion | None = None


class AskExits(ClientWire, frozen=True, kw_only=True):
    """Ask where a move of ``token`` along ``path`` (the cells after its own, or the
    waypoints on a gridless scene, as a ``move`` sends them) in ``mode`` (null: the
    ruleset's first) would be stopped, ``elevations`` a gridless flight's as a ``move``
    sends them; answered with ``exits``."""

    TYPE = "ask_exits"
    LATER = ("mode", "elevations")
    token: TokenId
    path: Annotated[tuple[Waypoint, ...], Meta(min_length=1, max_length=MAX_PATH)]
    mode: TokenId | None = None
    elevations: Annotated[tuple[Float, ...], Meta(max_length=MAX_PATH)] | None = None


class PathExit(Wire, frozen=True, kw_only=True):
    """One place a move would be stopped: the prompt ``kind`` it opens, ``by`` whom, at
    ``step`` (0: the first), standing on ``at`` (gridless: the point it pauses on, also
    ``point``), about to cross ``point``."""

    kind: ExitKind
    by: TokenId
    step: Annotated[int, Meta(ge=0, le=MAX_PATH)]
    at: Waypoint
    point: Point


class Exits(ServerWire, frozen=True, kw_only=True):
    """The answer to ``ask_exits`` ``ref``: every place the move would be stopped, in
    path order (``exits``; each creature once), and ``reason`` when none can be (no
    fight).  ``point`` is in scene units, where the path leaves the threatened square
    (``move_interrupted``'s ``exit_point`` when the move is made)."""

    TYPE = "exits"
    ref: Seq
    token: TokenId
    exits: Annotated[tuple[PathExit, ...], Meta(max_length=MAX_ARRAY_LEN)]
    reason: Prose | None
