"""Which cells does this token threaten, and how far does it reach?  Asked without
changing anything, so a VTT can shade a creature's threatened squares before anyone
moves.

Two answers, kept apart because the rules and the geometry say different things:

* the *reach area*: the token's footprint and every cell within its melee reach
  (:func:`geometry.reach.threatened_cells`, walls respected), which is the same on
  every game and whether or not a fight is on;
* the *threatened cells*: those of the reach area (footprint excluded) where it could
  make an attack of opportunity now.  That is the ruleset's say, through the very hooks
  a move's interruption asks (:meth:`~engine.rulesets.base.Ruleset.threatens` and
  :meth:`~engine.rulesets.base.Ruleset.opportunity_available`, as
  :mod:`engine.movement` does): a token threatens its cells when the ruleset says it
  threatens at least one other combatant in the fight (its foes: every game here
  threatens only the other sides).  Outside combat, or under a game with no
  attacks of opportunity (the hooks' default), it threatens nothing, and ``reason``
  says why.

And for a path a token might take, where it would be stopped (:func:`path_exits`):
the exact points where it leaves a square someone threatens and may attack it from, or
trips a readied action, found by the very check a move runs
(:func:`engine.movement.stops_along`), so the answer and the move cannot disagree.

On a gridless scene there are no cells: the answer is the token's ``region``, the ball
a one-cell token's centre must come into to be within its reach
(:func:`engine.gridless_board.reach_radius`: a larger token's comes in as much farther
as it is wider), and the outline its disc on the ground; exits are points.

Everything here follows from the scene and the fight's events, which every member of
a table already holds, so spectators and players may ask about any token.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.checks import scene_of
from engine.combat_state import PendingMove
from engine.commands import GM
from engine.errors import CommandRejected
from engine.gridless_board import centre, reach_radius
from engine.handlers import move_mode
from engine.model import Combatant, EncounterState, Position
from engine.move_paths import flight_heights, path_on, rise_of
from engine.movement import resolve_path, stops_along
from engine.rulesets import Context, find_ruleset
from engine.spatial import SpatialCache
from engine.tray import DiceTray
from geometry import Cell, Point
from geometry.outline import outline as cells_outline

#: The most cells one answer covers: a reach larger than that (some 15 cells all round,
#: far beyond any melee reach of these games) is answered without its cells or outline,
#: so that a query stays within a few milliseconds of the server's one thread
#: (:mod:`geometry.outline` takes about 10 us a cell) and within the wire's lists.
MAX_LISTED_CELLS = 1024
#: The most rings, and points in one ring, an outline may have (the wire's limits).
MAX_RINGS = 256
#: A closed ring of points, in the scene's distance units (first point not repeated).
Ring = tuple[Point, ...]
#: Ring coordinates are rounded to this many decimals: hex corners carry float noise
#: (1e-15) that would make equal answers differ on the wire.
DECIMALS = 9


@dataclass(frozen=True, slots=True)
class Threat:
    """What ``token`` threatens now: ``cells`` (sorted ``(column, row)``), the ``foes``
    it threatens under the fight's ruleset and the subset it still has an attack of
    opportunity against (``attacks``), the ``outline`` of its reach area as rings, and
    ``reason`` when ``cells`` is empty for a reason other than geometry.  Gridless,
    ``region`` is ``(centre, radius, elevation)`` of the ball it reaches (``cells``
    empty)."""

    token: str
    cells: tuple[Cell, ...]
    outline: tuple[Ring, ...]
    foes: tuple[str, ...]
    attacks: tuple[str, ...]
    reason: str | None
    region: tuple[Point, float, float] | None = None


#: Points on the ring a gridless reach outline is drawn with.
RING_POINTS = 64


def threat(state: EncounterState, spatial: SpatialCache, token_id: str) -> Threat:
    """What ``token_id`` threatens in ``state`` (see the module docstring).

    Raises :class:`~engine.errors.CommandRejected` (``no_scene``, ``unknown_token``)
    when there is no scene or no such token on it, as a command naming it would."""
    scene = scene_of(state)
    token = scene.token(token_id)
    if token is None:
        raise CommandRejected("unknown_token", f"no token {token_id!r} on the scene")
    region = None
    outline: tuple[Ring, ...]
    if scene.grid.gridless:
        region = (centre(token), reach_radius(token, 1, scene.grid.cell_size), token.elevation)
        # The disc less the shadows of the walls that cut it (nobody reaches through one).
        drawn = spatial.board(scene).threats(1).outline(token.id, RING_POINTS)
        outline = _rounded(tuple(tuple(ring) for ring in drawn))
        reach = frozenset[Cell]()
    else:
        index = spatial.index(scene)
        grid = index.grid
        reach = index.threatened(token.id)
        own = grid.footprint(token.cell, token.size)
        if len(own | reach) > MAX_LISTED_CELLS:
            why = f"its reach covers {len(own | reach):,} cells, more than an answer lists"
            return Threat(token.id, (), (), (), (), f"{why} ({MAX_LISTED_CELLS:,})")
        outline = _rounded(cells_outline(grid, own | reach))
        if len(outline) > MAX_RINGS:
            outline = ()  # walls cutting a reach into many pieces: the cells still say it
    foes, attacks, reason = _foes(state, token)
    cells = tuple(sorted(reach)) if foes else ()
    return Threat(token.id, cells, outline, foes, attacks, reason, region)


def _foes(
    state: EncounterState, token: Combatant
) -> tuple[tuple[str, ...], tuple[str, ...], str | None]:
    """Whom ``token`` threatens under the fight's ruleset, whom it still has an attack of
    opportunity against, and why it threatens nobody (None when it does)."""
    scene = scene_of(state)
    foes: list[str] = []
    attacks: list[str] = []
    combat = state.combat
    reason: str | None = None
    if combat is None:
        reason = "no combat: nobody threatens anyone"
    elif token.id not in combat.order:
        reason = f"{token.id!r} is not in the fight"
    else:
        ruleset = find_ruleset(combat.ruleset)
        for other in scene.tokens:
            if other.id == token.id or other.id not in combat.order:
                continue
            if not ruleset.threatens(combat, token, other):  # sides included: its say
                continue
            foes.append(other.id)
            if ruleset.opportunity_available(combat, token, other):
                attacks.append(other.id)
        if not foes:
            reason = f"under {ruleset.title}, {token.id!r} threatens none of its foes now"
    return tuple(foes), tuple(attacks), reason


def _rounded(rings: tuple[Ring, ...]) -> tuple[Ring, ...]:
    # + 0.0 turns -0.0 into 0.0, which would print differently.
    return tuple(
        tuple((round(x, DECIMALS) + 0.0, round(y, DECIMALS) + 0.0) for x, y in ring)
        for ring in rings
    )


@dataclass(frozen=True, slots=True)
class PathExit:
    """Where a move along a path would stop: ``kind`` (``attack_of_opportunity`` or
    ``readied_action``, the prompt it would open), ``by`` whom, at ``step`` (0: the first
    step), standing on ``at``, about to cross ``point`` (scene units; gridless, ``at`` is
    that point too)."""

    kind: str
    by: str
    step: int
    at: Position
    point: Point


#: The prompt each kind of stop opens (:func:`engine.movement._pause`).
_STOP_KINDS = {"aoo": "attack_of_opportunity", "held": "readied_action"}


def path_exits(
    state: EncounterState,
    spatial: SpatialCache,
    token_id: str,
    path: tuple[Position, ...],
    mode: str | None = None,
    actor: str = GM,
    elevations: tuple[float, ...] | None = None,
) -> tuple[tuple[PathExit, ...], str | None]:
    """Where ``token_id`` moving along ``path`` (the cells after its own, as a ``move``
    sends them; a gridless flight's ``elevations``) in ``mode`` would be stopped, in
    path order, and why there are none when no fight is on.  Asks nobody and changes
    nothing; the whole path is checked, though a real move would pause at the first
    stop and re-check the rest from there.

    Raises :class:`~engine.errors.CommandRejected` for what a ``move`` would refuse the
    path for (``unknown_token``, ``illegal_move``), never for whose action it is."""
    scene = scene_of(state)
    token = scene.token(token_id)
    if token is None:
        raise CommandRejected("unknown_token", f"no token {token_id!r} on the scene")
    if not path:
        raise CommandRejected("illegal_move", "a path needs at least one step")
    steps = path_on(scene, token.id, path)
    heights = flight_heights(scene, token, steps, elevations)
    full = (token.position, *steps)
    combat = state.combat
    resolution = resolve_path(
        spatial, scene, token, full, areas=combat is not None, heights=heights
    )
    if combat is None:
        return (), "no combat: a move outside combat is never interrupted"
    ruleset = find_ruleset(combat.ruleset)
    chosen = move_mode(ruleset, mode)
    # An empty supply of dice: a query never draws on the table's secret seeded dice
    # (the hooks asked roll none; one that did would be refused, not answered).
    tray = DiceTray(state.seed, state.draws, actor, supply=())
    ctx = Context(state, ruleset, spatial, tray, actor, token, heights=heights)
    if heights:
        ruleset.check_flight(ctx, chosen, rise_of(heights))
    # The pending move a ``move`` would begin (engine.handlers.move), before any step.
    pending = PendingMove(
        token=token.id,
        path=full,
        step=0,
        cost=resolution.cost,
        mode=chosen,
        asked=tuple(f"aoo:{who}" for who in ruleset.spared(ctx)),
        exempt=ruleset.move_exempt(ctx, chosen),
        heights=heights,
    )
    stops = stops_along(state, ruleset, spatial, token, pending, resolution)
    found = tuple(
        PathExit(_STOP_KINDS[s.kind], s.who, s.step, s.cell, (s.point[0] + 0.0, s.point[1] + 0.0))
        for s in stops
    )
    return found, None
