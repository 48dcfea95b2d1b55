"""Moving a token in combat: the path, its cost, and the attacks of opportunity it provokes.

A move runs until it moves out of a square an enemy threatens while that enemy still has
an attack of opportunity (seed 000, *Attacks of Opportunity*).  There it pauses: the
token stands on the square it is leaving, a prompt goes to the threatener's controller,
and :class:`engine.model.PendingMove` keeps the rest of the path.  When every prompt is
answered the move resumes from that square, ignoring threateners already asked during
this move ("moving out of more than one square that you threaten doesn't count as more
than one opportunity to attack").
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

from engine.events import MoveCompleted, MoveInterrupted, PromptOpened
from engine.model import Combat, Combatant, EncounterState, PendingMove, Prompt, Scene
from engine.rulesets.base import Ruleset
from engine.turns import limited
from geometry import Cell, first_exits, footprint_cells, threatened_cells

MoveEvent = MoveInterrupted | PromptOpened | MoveCompleted


def occupied_by_others(scene: Scene, mover: Combatant) -> dict[Cell, Combatant]:
    """Every cell covered by a token other than ``mover``, mapped to that token."""
    cells: dict[Cell, Combatant] = {}
    for token in scene.tokens:
        if token.id != mover.id:
            for cell in footprint_cells(token.cell, token.size):
                cells[cell] = token
    return cells


def blocking_problem(scene: Scene, mover: Combatant, path: Sequence[Cell]) -> str | None:
    """Why ``path`` (start first) cannot be walked past other tokens, or None.

    A mover passes through allies but not enemies, and never ends on another token.
    """
    occupied = occupied_by_others(scene, mover)
    for index, origin in enumerate(path[1:], start=1):
        for cell in footprint_cells(origin, mover.size):
            other = occupied.get(cell)
            if other is None:
                continue
            if other.side != mover.side:
                return f"cell {cell} is occupied by enemy {other.id!r}"
            if index == len(path) - 1:
                return f"the move ends on {cell}, occupied by {other.id!r}"
    return None


def threat_areas(
    scene: Scene, combat: Combat, ruleset: Ruleset, mover: Combatant, skip: tuple[str, ...]
) -> dict[str, frozenset[Cell]]:
    """For each enemy that may still attack ``mover``, the origins ``mover`` is threatened on.

    A large mover is threatened wherever any cell of its footprint is, so each threatened
    cell is widened to every origin whose footprint would cover it.
    """
    grid = scene.grid.build()
    areas: dict[str, frozenset[Cell]] = {}
    for cid in combat.order:
        other = scene.token(cid)
        if other is None or other.id == mover.id or other.id in skip:
            continue
        if not ruleset.threatens(combat, other, mover):
            continue
        if not ruleset.opportunity_available(combat, other, mover):
            continue
        cells = threatened_cells(grid, other.cell, other.size, other.reach)
        if mover.size > 1:
            cells = frozenset(
                (x - dx, y - dy)
                for x, y in cells
                for dx in range(mover.size)
                for dy in range(mover.size)
            )
        areas[other.id] = cells
    return areas


def run_move(
    state: EncounterState, ruleset: Ruleset, pending: PendingMove, start: Cell
) -> tuple[EncounterState, list[MoveEvent]]:
    """Walk ``pending`` from ``start`` until it ends or an attack of opportunity pauses it."""
    scene, combat = state.scene, state.combat
    assert scene is not None and combat is not None
    mover = scene.token(pending.token)
    assert mover is not None
    grid = scene.grid.build()
    path = (start, *pending.remaining)
    areas = threat_areas(scene, combat, ruleset, mover, pending.resolved)
    exits = first_exits(grid, path, areas)
    if not exits:
        cost = _cost(grid_path=path, scene=scene)
        return _arrive(state, ruleset, mover, path[-1], leg=cost, total=pending.cost + cost)
    stop = exits[0]
    walked = path[: stop.step + 1]
    cost = _cost(grid_path=walked, scene=scene)
    threatener = scene.token(stop.area_id)
    assert threatener is not None
    prompt = Prompt(
        id=f"p{state.next_prompt}",
        kind="attack_of_opportunity",
        controller=threatener.owner,
        attacker=threatener.id,
        target=mover.id,
        at=stop.cell,
        exit_point=stop.point,
    )
    moved_scene = scene.with_token(mover.moved_to(stop.cell))
    paused = replace(
        combat,
        usage=replace(combat.usage, moved=combat.usage.moved + cost),
        prompts=(*combat.prompts, prompt),
        pending_move=PendingMove(
            token=mover.id,
            remaining=path[stop.step + 1 :],
            cost=pending.cost + cost,
            resolved=(*pending.resolved, threatener.id),
        ),
    )
    new_state = replace(state, scene=moved_scene, combat=paused, next_prompt=state.next_prompt + 1)
    events: list[MoveEvent] = [
        MoveInterrupted(mover.id, stop.cell, stop.point, threatener.id, pending.cost + cost),
        PromptOpened(
            prompt.id,
            prompt.kind,
            prompt.controller,
            prompt.attacker,
            prompt.target,
            prompt.at,
            prompt.exit_point,
        ),
    ]
    return new_state, events


def _cost(*, grid_path: Sequence[Cell], scene: Scene) -> float:
    grid = scene.grid.build()
    return sum(grid.step_cost(a, b) for a, b in itertools.pairwise(grid_path))


def _arrive(
    state: EncounterState,
    ruleset: Ruleset,
    mover: Combatant,
    cell: Cell,
    *,
    leg: float,
    total: float,
) -> tuple[EncounterState, list[MoveEvent]]:
    scene, combat = state.scene, state.combat
    assert scene is not None and combat is not None
    usage = replace(combat.usage, moved=combat.usage.moved + leg)
    arrived = mover.moved_to(cell)
    left = ruleset.movement_left(arrived, usage, limited(combat))
    new_combat = replace(combat, usage=usage, pending_move=None)
    new_state = replace(state, scene=scene.with_token(arrived), combat=new_combat)
    return new_state, [MoveCompleted(mover.id, cell, total, left)]
