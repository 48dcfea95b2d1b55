"""Moving a token in combat: the path, its cost, and who may interrupt it.

A move is checked when it starts: the spatial index resolves the whole path (cost with
the grid's diagonal rule and the terrain under the whole footprint, walls, occupied
cells) and the ruleset checks the mode against the Phase's budget (seed 000, *Combat
Actions*).  The whole cost is charged then.

The move then walks, and stops where someone may interrupt it:

* an attack of opportunity where it moves out of a square an enemy threatens while that
  enemy still has one (seed 000, *Attacks of Opportunity*): the token stands on the
  square it is leaving;
* a readied action whose trigger is a token entering an area (*Ready*: "the action
  occurs just before the action that triggers it"): the token stands on the last square
  before the area.

Each creature is asked at most once per move.  On resuming, the rest of the path is
resolved again from where the token stands, because a readied move may have changed
the map meanwhile; a path that is no longer open ends the move there.

On a gridless scene the same walk runs over :class:`engine.gridless_board.GridlessBoard`
(the seam is :func:`_walkable` and the few checks that say ``gridless``): the path is
waypoints, the token pauses at the exact point where it leaves a threatener's reach (the
pending move's ``step`` is the segment it paused in; the walk resumes from where the
token stands along the rest of the waypoints: :func:`engine.move_paths.rest_of`), a
readied action's area trigger stops it at the point where its disc comes onto the
area (there is no square before: ``trigger_pause`` makes no difference), and a sight
trigger where it first comes into view (sampled, see
:meth:`GridlessBoard.first_seen`).  Heights need no second pass there: the board's
reach is a ball, measured in three dimensions from the start.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from engine.combat_state import PendingMove
from engine.copies import replace
from engine.errors import CommandRejected
from engine.events import MoveCompleted, MoveInterrupted, MoveStopped
from engine.grid_flight import cells_crossed, flight_exits, resolve_flight, tokens_in_the_way
from engine.gridless_board import GridlessExit, GridlessMove
from engine.model import GRIDLESS, Combatant, EncounterState, Position, Scene
from engine.move_paths import height_at, rest_heights, rest_of
from engine.prompts import open_prompt
from engine.rulesets.base import Context
from engine.spatial import SpatialCache, threat_against
from engine.tray import DiceTray
from engine.turns import Ruleset
from geometry import (
    AreaExit,
    BlockMode,
    Cell,
    GeometryError,
    MoveResolution,
    Point,
    ThreatIndex,
    first_exits,
)


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a move pauses: ``kind`` ``aoo`` or ``held`` (a trigger), for creature ``who``."""

    kind: str
    who: str
    step: int
    cell: Position
    point: Point
    elevation: float | None = None  # a flight's height there (gridless)


#: A resolved path: the grid index's, or a gridless board's.
Resolution = MoveResolution | GridlessMove


def resolve_path(
    spatial: SpatialCache,
    scene: Scene,
    mover: Combatant,
    path: tuple[Position, ...],
    *,
    areas: bool = True,
    heights: tuple[float, ...] = (),
) -> Resolution:
    """Resolve ``path`` (start first) for ``mover``; refuse it if it cannot be walked.
    ``areas=False`` leaves the exits out (and works out no threat): a move outside
    combat, which nobody may interrupt, needs only whether and at what cost it can go.
    ``heights``: a flight's elevation at each point (:mod:`engine.grid_flight` on a grid)."""
    problem, resolution = _walkable(spatial, scene, mover, path, areas, heights)
    if problem is not None or resolution is None:
        raise CommandRejected("illegal_move", f"move of {mover.id!r}: {problem}")
    return resolution


def _walkable(
    spatial: SpatialCache,
    scene: Scene,
    mover: Combatant,
    path: tuple[Position, ...],
    areas: bool = True,
    heights: tuple[float, ...] = (),
) -> tuple[str | None, Resolution | None]:
    if scene.grid.kind == GRIDLESS:
        return spatial.board(scene).walkable(mover, path, areas, heights)
    # A grid's path is cells (``path_on``); read as such with no call on the way (every
    # move comes here).
    cells: tuple[Cell, ...] = path  # type: ignore[assignment]
    index = spatial.index(scene)
    on_map = cells
    if heights:  # a flight may climb or sink on a cell: its walls are those it crosses
        problem, on_map = cells_crossed(cells, heights)
        if problem is not None:
            return problem, None
    if len(on_map) > 1:
        try:
            resolution = index.resolve_move(mover.id, on_map, crossings=False, areas=areas)
        except GeometryError as exc:
            return str(exc), None
        if resolution.blocked_step is not None:
            a, b = on_map[resolution.blocked_step], on_map[resolution.blocked_step + 1]
            return f"a wall blocks {a} -> {b}", None
    if heights:
        # The walk's exits say who threatens the cells; the flight measures them at its
        # heights (engine.grid_flight).
        walked = resolution.exits if len(on_map) > 1 else None
        up = spatial.elevations(scene)
        return resolve_flight(index, scene, mover, cells, heights, up, areas, walked)
    if math.isinf(resolution.cost):
        return "the path crosses impassable terrain", None
    problem = tokens_in_the_way(index, scene, mover, cells, (mover.elevation,) * len(cells))
    return problem, None if problem else resolution


def begin_move(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    pending: PendingMove,
    tray: DiceTray,
    resolution: Resolution,
) -> tuple[EncounterState, list[Any]]:
    """Start walking ``pending`` (already checked and charged); ``resolution`` is its
    whole path's, from :func:`resolve_path` on the same scene (planning a move changes
    only the combat), so the walk does not resolve it a second time."""
    combat = state.combat
    assert combat is not None
    state = replace(state, combat=replace(combat, pending_move=pending))
    return continue_move(state, ruleset, spatial, tray, resolution)


def continue_move(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    tray: DiceTray,
    resolution: Resolution | None = None,
) -> tuple[EncounterState, list[Any]]:
    """Walk the pending move until it ends or someone may interrupt it.  A resumed walk
    (no ``resolution``) resolves the rest of its path again: the map may have changed."""
    scene, combat = state.scene, state.combat
    assert isinstance(scene, Scene) and combat is not None and combat.pending_move is not None
    pending = combat.pending_move
    mover = scene.token(pending.token)
    assert mover is not None
    rest = rest_of(scene, mover, pending)
    if len(rest) > 1:
        problem = None
        if resolution is None:
            problem, resolution = _walkable(
                spatial, scene, mover, rest, heights=rest_heights(mover, pending)
            )
        if problem is not None or resolution is None:
            stopped = replace(state, combat=replace(combat, pending_move=None))
            return stopped, [MoveStopped(mover.id, mover.cell, f"the way on is closed: {problem}")]
        stops = _stops(state, ruleset, spatial, mover, pending, rest, resolution)
        if stops:
            return _pause(state, spatial, mover, pending, stops[0])
    return _arrive(state, ruleset, spatial, mover, pending, tray)


def stops_along(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    mover: Combatant,
    pending: PendingMove,
    resolution: Resolution,
) -> list[Stop]:
    """Every place a move about to begin would stop, in path order, asking nobody: the
    very check a move runs (``_stops``), for a query to show before the move is sent."""
    return _stops(state, ruleset, spatial, mover, pending, pending.path, resolution)


def _stops(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    mover: Combatant,
    pending: PendingMove,
    rest: tuple[Position, ...],
    resolution: Resolution,
) -> list[Stop]:
    scene, combat = state.scene, state.combat
    assert isinstance(scene, Scene) and combat is not None
    stops: list[Stop] = []
    gridless = scene.grid.gridless
    if ruleset.provokes(combat, mover, pending.mode):
        starting = pending.step == 0
        for exit_ in resolution.exits:
            who = exit_.area_id
            if f"aoo:{who}" in pending.asked or who == pending.attack:
                continue
            if who in pending.exempt and starting:
                # Not threatened by it where the move begins; moving past it provokes.
                later: AreaExit | GridlessExit | None
                if isinstance(exit_, GridlessExit):
                    heights = rest_heights(mover, pending)
                    later = spatial.board(scene).later_exit(who, mover, rest, exit_, heights)
                elif pending.heights:
                    later = _later_flight_exit(spatial, scene, who, mover, pending, rest)
                else:
                    later = _later_exit(spatial, scene, who, mover, cast(tuple[Cell, ...], rest))
                if later is None:
                    continue
                exit_ = later
            threatener = scene.token(who)
            flying = bool(pending.heights)  # a flight's exits are measured at its heights
            if (
                not gridless
                and not flying
                and threatener is not None
                and threatener.elevation != mover.elevation
            ):
                # Another height: the exit is from what it threatens up (or down) there.
                cells = cast(tuple[Cell, ...], rest)
                up_there = _exit_at_height(
                    spatial, scene, threatener, mover, cells, cast(AreaExit, exit_)
                )
                if up_there is None:
                    continue
                exit_ = up_there
            if _may_attack(combat, ruleset, scene, who, mover):
                # A flight's height at the exit; other moves keep their elevation.
                up = None
                if isinstance(exit_, GridlessExit):
                    up = exit_.elevation if flying else None
                elif flying:
                    up = rest_heights(mover, pending)[exit_.step]
                stops.append(Stop("aoo", who, exit_.step, exit_.cell, exit_.point, up))
    if combat.interjection is None:
        stops += _trigger_stops(state, ruleset, spatial, mover, pending, rest)
    # In path order; a readied action goes first on the same step ("just before").
    stops.sort(key=lambda s: (s.step, s.kind != "held", s.who))
    return stops


def _trigger_stops(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    mover: Combatant,
    pending: PendingMove,
    rest: tuple[Position, ...],
) -> list[Stop]:
    """Where the move sets off a trigger: entering its area, or coming into its owner's
    sight (from a cell the owner cannot see into one it can).  The token stops on the
    cell before, so the held action happens just before; or, if the ruleset's
    ``trigger_pause`` is ``inside``, on the cell that sets it off."""
    scene, combat = state.scene, state.combat
    assert isinstance(scene, Scene) and combat is not None
    if scene.grid.gridless:
        return _gridless_trigger_stops(state, ruleset, spatial, mover, pending, rest)
    index = spatial.index(scene)
    grid = index.grid
    cells = cast(tuple[Cell, ...], rest)
    stops: list[Stop] = []
    for trigger in _waiting_triggers(state, ruleset, mover, pending):
        owner = scene.token(trigger.owner)
        assert owner is not None
        area = set(trigger.area)
        for step in range(len(cells) - 1):
            if trigger.on == "enter":
                here = grid.footprint(cells[step], mover.size)
                there = grid.footprint(cells[step + 1], mover.size)
                fires = not here & area and bool(there & area)
            else:
                fires = not _seen_at(index, owner, mover, cells[step]) and _seen_at(
                    index, owner, mover, cells[step + 1]
                )
            if fires:
                at = step + 1 if ruleset.trigger_pause == "inside" else step
                stops.append(Stop("held", owner.id, at, cells[at], grid.center(cells[at])))
                break
    return stops


def _waiting_triggers(
    state: EncounterState, ruleset: Ruleset, mover: Combatant, pending: PendingMove
) -> list[Any]:
    """The triggers this move may set off: an area's or a sight's, of someone else who
    can act, not asked yet on this move, waiting on anyone or on this mover."""
    scene, combat = state.scene, state.combat
    assert isinstance(scene, Scene) and combat is not None
    found = []
    for trigger in combat.triggers:
        if trigger.on not in ("enter", "sight") or trigger.owner == mover.id:
            continue
        if f"held:{trigger.owner}" in pending.asked or trigger.by not in (None, mover.id):
            continue
        owner = scene.token(trigger.owner)
        if owner is None or not ruleset.can_act(combat, owner.id):
            continue
        found.append(trigger)
    return found


def _gridless_trigger_stops(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    mover: Combatant,
    pending: PendingMove,
    rest: tuple[Position, ...],
) -> list[Stop]:
    """Triggers on a gridless scene: the move stops at the point where the mover's disc
    comes onto the area's squares (cells of the scene's size), or where it comes into
    its owner's sight (module docstring)."""
    scene = state.scene
    assert isinstance(scene, Scene)
    board = spatial.board(scene)
    stops: list[Stop] = []
    for trigger in _waiting_triggers(state, ruleset, mover, pending):
        owner = scene.token(trigger.owner)
        assert owner is not None
        if trigger.on == "enter":
            found = board.first_entry(mover, rest, trigger.area)
        else:
            found = board.first_seen(owner, mover, rest)
        if found is not None:
            step, point = found
            up = height_at(rest, rest_heights(mover, pending), step, point)
            stops.append(Stop("held", owner.id, step, point, point, up))
    return stops


def _seen_at(index: ThreatIndex, owner: Combatant, mover: Combatant, cell: Cell) -> bool:
    grid = index.grid
    a = grid.footprint_center(owner.cell, owner.size)
    b = grid.footprint_center(cell, mover.size)
    return not index.walls.segment_blocked(a, b, BlockMode.SIGHT)


def _exit_at_height(
    spatial: SpatialCache,
    scene: Scene,
    threatener: Combatant,
    mover: Combatant,
    rest: tuple[Cell, ...],
    level: AreaExit,
) -> AreaExit | None:
    """The first exit from ``threatener``'s threat measured at ``mover``'s elevation, no
    earlier than ``level`` (the exit at one height, whose set holds the one up there)."""
    index = spatial.index(scene)
    cells = threat_against(index, threatener, mover.elevation)
    if not cells:
        return None
    for found in first_exits(index.grid, rest, {threatener.id: cells}, size=mover.size):
        if found.step >= level.step:
            return found
    return None


def _later_exit(
    spatial: SpatialCache, scene: Scene, who: str, mover: Combatant, rest: tuple[Cell, ...]
) -> AreaExit | None:
    index = spatial.index(scene)
    threatener = scene.token(who)
    assert threatener is not None
    cells = threat_against(index, threatener, mover.elevation)
    grid = index.grid
    for step in range(1, len(rest) - 1):
        if grid.footprint(rest[step], mover.size) & cells:
            a, b = grid.center(rest[step]), grid.center(rest[step + 1])
            return AreaExit(who, step, rest[step], ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    return None


def _later_flight_exit(
    spatial: SpatialCache,
    scene: Scene,
    who: str,
    mover: Combatant,
    pending: PendingMove,
    rest: tuple[Position, ...],
) -> AreaExit | None:
    heights = rest_heights(mover, pending)
    cells = cast(tuple[Cell, ...], rest)
    index = spatial.index(scene)
    up = spatial.elevations(scene)
    found = flight_exits(index, up, mover, cells, heights, only=who, first_step=1)
    return found[0] if found else None


def _may_attack(combat: Any, ruleset: Ruleset, scene: Scene, who: str, mover: Combatant) -> bool:
    threatener = scene.token(who)
    if threatener is None or threatener.id not in combat.order:
        return False
    return bool(
        ruleset.threatens(combat, threatener, mover)
        and ruleset.opportunity_available(combat, threatener, mover)
    )


def _pause(
    state: EncounterState, spatial: SpatialCache, mover: Combatant, pending: PendingMove, stop: Stop
) -> tuple[EncounterState, list[Any]]:
    scene, combat = state.scene, state.combat
    assert isinstance(scene, Scene) and combat is not None
    who = scene.token(stop.who)
    assert who is not None
    kind = "attack_of_opportunity" if stop.kind == "aoo" else "readied_action"
    asked = (*pending.asked, f"{stop.kind}:{who.id}")
    # Gridless, ``step`` is the segment it paused in, between waypoints maybe: the walk
    # resumes from where the token stands (``_rest``).
    moved_on = replace(pending, step=pending.step + stop.step, asked=asked)
    paused = mover.moved_to(stop.cell)
    if stop.elevation is not None:
        paused = replace(paused, elevation=stop.elevation)
    moved = scene.with_token(paused)
    spatial.moved(scene, moved, paused)
    state = replace(state, scene=moved, combat=replace(combat, pending_move=moved_on))
    state, opened = open_prompt(state, kind, who.owner, who.id, mover.id, stop.cell, stop.point)
    interrupted = MoveInterrupted(mover.id, stop.cell, stop.point, who.id, stop.elevation)
    return state, [interrupted, opened]


def _arrive(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    mover: Combatant,
    pending: PendingMove,
    tray: DiceTray,
) -> tuple[EncounterState, list[Any]]:
    scene, combat = state.scene, state.combat
    assert isinstance(scene, Scene) and combat is not None
    arrived = mover.moved_to(pending.path[-1])
    up = None
    if pending.heights:
        up = pending.heights[-1]
        arrived = replace(arrived, elevation=up)
    before, scene = scene, scene.with_token(arrived)
    spatial.moved(before, scene, arrived)
    combat = replace(combat, pending_move=None)
    left = ruleset.movement_left(combat, arrived)
    events: list[Any] = [MoveCompleted(mover.id, arrived.position, pending.cost, left, up)]
    state = replace(state, scene=scene, combat=combat)
    if pending.attack is not None:
        target = scene.token(pending.attack)
        if target is not None and in_reach(spatial, scene, arrived, target):
            ctx = Context(state, ruleset, spatial, tray, tray.by, arrived)
            state, attacked = ruleset.move_attack(ctx, target, pending.maneuver, pending.rolls)
            events += attacked
            tray.events.clear()
            combat = state.combat
            assert combat is not None
        else:
            events.append(
                MoveStopped(
                    arrived.id, arrived.cell, f"{pending.attack!r} is out of reach: no attack"
                )
            )
    return replace(state, scene=scene, combat=combat, draws=tray.draws), events


def in_reach(spatial: SpatialCache, scene: Scene, attacker: Combatant, target: Combatant) -> bool:
    """Whether ``target`` stands in a square ``attacker`` threatens (melee reach), in
    three dimensions when they stand at different elevations."""
    if scene.grid.gridless:
        return spatial.board(scene).in_reach(attacker, target)
    index = spatial.index(scene)
    cells = threat_against(index, attacker, target.elevation)
    return bool(cells & index.grid.footprint(target.cell, target.size))
