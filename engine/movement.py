"""Moving a token in combat: the path, its cost, and the attacks of opportunity it provokes.

A move is resolved once, when it starts: the spatial index gives its cost (grid
diagonal rule and terrain under the whole footprint), whether a wall blocks a step, and
the first step at which it moves out of each creature's threatened squares.  Nothing
else moves while a move is paused, so these stay true for the whole move.

The move then runs until it moves out of a square an enemy threatens while that enemy
still has an attack of opportunity (seed 000, *Attacks of Opportunity*).  There it
pauses: the token stands on the square it is leaving, a prompt goes to the
threatener's controller, and :class:`engine.model.PendingMove` keeps the rest.  Each
threatener is asked at most once per move ("moving out of more than one square that you
threaten doesn't count as more than one opportunity to attack").
"""

from __future__ import annotations

import math
from dataclasses import replace

from engine.errors import CommandRejected
from engine.events import MoveCompleted, MoveInterrupted, PromptOpened
from engine.model import Combatant, EncounterState, PendingExit, PendingMove, Prompt, Scene
from engine.rulesets.base import Ruleset
from engine.spatial import SpatialCache
from engine.turns import limited
from geometry import Cell, GeometryError, Grid, MoveResolution

MoveEvent = MoveInterrupted | PromptOpened | MoveCompleted


def resolve_path(
    spatial: SpatialCache, scene: Scene, mover: Combatant, path: tuple[Cell, ...]
) -> MoveResolution:
    """Resolve ``path`` (start first) for ``mover``; refuse it if it cannot be walked."""
    index = spatial.index(scene)
    try:
        resolution = index.resolve_move(mover.id, path)
    except GeometryError as exc:
        raise CommandRejected("illegal_move", f"move of {mover.id!r}: {exc}") from None
    if resolution.blocked_step is not None:
        a, b = path[resolution.blocked_step], path[resolution.blocked_step + 1]
        raise CommandRejected("illegal_move", f"move of {mover.id!r}: a wall blocks {a} -> {b}")
    if math.isinf(resolution.cost):
        raise CommandRejected("illegal_move", f"move of {mover.id!r} crosses impassable terrain")
    problem = blocking_problem(index.grid, scene, mover, path)
    if problem is not None:
        raise CommandRejected("illegal_move", f"move of {mover.id!r}: {problem}")
    return resolution


def blocking_problem(
    grid: Grid, scene: Scene, mover: Combatant, path: tuple[Cell, ...]
) -> str | None:
    """Why ``path`` cannot be walked past other tokens, or None.

    A mover passes through allies but not enemies, and never ends on another token.
    """
    occupied: dict[Cell, Combatant] = {}
    for token in scene.tokens:
        if token.id != mover.id:
            for cell in grid.footprint(token.cell, token.size):
                occupied[cell] = token
    for index, origin in enumerate(path[1:], start=1):
        for cell in grid.footprint(origin, mover.size):
            other = occupied.get(cell)
            if other is None:
                continue
            if other.side != mover.side:
                return f"cell {cell} is occupied by enemy {other.id!r}"
            if index == len(path) - 1:
                return f"the move ends on {cell}, occupied by {other.id!r}"
    return None


def begin_move(
    state: EncounterState,
    ruleset: Ruleset,
    mover: Combatant,
    path: tuple[Cell, ...],
    cost: float,
    resolution: MoveResolution,
) -> tuple[EncounterState, list[MoveEvent]]:
    """Charge the whole move to the Phase's budget and walk it."""
    combat = state.combat
    assert combat is not None
    exits = tuple(PendingExit(e.area_id, e.step, e.cell, e.point) for e in resolution.exits)
    pending = PendingMove(token=mover.id, path=path, step=0, cost=cost, exits=exits)
    usage = replace(combat.usage, moved=combat.usage.moved + cost)
    state = replace(state, combat=replace(combat, usage=usage, pending_move=pending))
    return continue_move(state, ruleset)


def continue_move(
    state: EncounterState, ruleset: Ruleset
) -> tuple[EncounterState, list[MoveEvent]]:
    """Walk the pending move until it ends or an attack of opportunity pauses it."""
    scene, combat = state.scene, state.combat
    assert scene is not None and combat is not None and combat.pending_move is not None
    pending = combat.pending_move
    mover = scene.token(pending.token)
    assert mover is not None
    for position, stop in enumerate(pending.exits):
        threatener = scene.token(stop.threatener)
        if threatener is None or threatener.id not in combat.order:
            continue
        if not ruleset.threatens(combat, threatener, mover):
            continue
        if not ruleset.opportunity_available(combat, threatener, mover):
            continue
        return _pause(
            state,
            mover,
            threatener,
            replace(pending, step=stop.step, exits=pending.exits[position + 1 :]),
            stop,
        )
    arrived = mover.moved_to(pending.path[-1])
    left = ruleset.movement_left(arrived, combat.usage, limited(combat))
    state = replace(
        state, scene=scene.with_token(arrived), combat=replace(combat, pending_move=None)
    )
    return state, [MoveCompleted(mover.id, arrived.cell, pending.cost, left)]


def _pause(
    state: EncounterState,
    mover: Combatant,
    threatener: Combatant,
    pending: PendingMove,
    stop: PendingExit,
) -> tuple[EncounterState, list[MoveEvent]]:
    scene, combat = state.scene, state.combat
    assert scene is not None and combat is not None
    prompt = Prompt(
        id=f"p{state.next_prompt}",
        kind="attack_of_opportunity",
        controller=threatener.owner,
        attacker=threatener.id,
        target=mover.id,
        at=stop.cell,
        exit_point=stop.point,
    )
    paused = replace(combat, prompts=(*combat.prompts, prompt), pending_move=pending)
    state = replace(
        state,
        scene=scene.with_token(mover.moved_to(stop.cell)),
        combat=paused,
        next_prompt=state.next_prompt + 1,
    )
    opened = PromptOpened(
        prompt.id,
        prompt.kind,
        prompt.controller,
        prompt.attacker,
        prompt.target,
        prompt.at,
        prompt.exit_point,
    )
    return state, [MoveInterrupted(mover.id, stop.cell, stop.point, threatener.id), opened]
