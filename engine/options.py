"""What may this combatant do now?  Asked without changing anything (python-chess's
``legal_moves`` beside ``push``), so a VTT can offer only what the rules allow.

Each action is checked by the very check its handler runs first (the ruleset action's
``refusal``; a dry run of the ruleset's ``plan_move`` for each move mode), so "may I"
and "do it" cannot drift; an action that is not available comes with the rule that
forbids it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.checks import (
    combat_and_ruleset,
    controlled_token,
    require_no_prompts,
    scene_of,
    whose_action,
)
from engine.commands import GM
from engine.errors import CommandRejected
from engine.model import Combatant, EncounterState
from engine.rulesets import Context, find_ruleset
from engine.spatial import SpatialCache
from engine.timewords import Clock
from engine.tray import DiceTray
from engine.turns import Ruleset
from geometry import Cell, GeometryError
from geometry.search import cheapest_path

#: The most positions one path search may expand, whatever the budget: a query must
#: never hold up the server (about 10-30 ms of one core at most on the development
#: machine).  A search within a Phase's movement expands far fewer.
MAX_EXPANSIONS = 2_000
#: Outside combat a token has no movement budget; a path search then looks no farther
#: than this many cells' worth of movement (a long drag is planned in legs).
FREE_PATH_CELLS = 40


@dataclass(frozen=True, slots=True)
class Options:
    """What ``token`` may do now: ``available`` actions, ``refused`` ones with the reason,
    ``movement_left`` of ordinary movement, and the prompts ``open_prompts`` waiting on the
    asker.  ``can_act`` is whether it is this token's action at all (else ``reason``);
    ``clock`` the fight's moment in its game's words (None: no fight)."""

    token: str
    can_act: bool
    reason: str | None
    movement_left: float
    available: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]
    open_prompts: tuple[str, ...]
    clock: Clock | None = None


def options(
    state: EncounterState, token_id: str, actor: str = GM, spatial: SpatialCache | None = None
) -> Options:
    """What ``actor`` may do with ``token_id`` now."""
    prompts = _prompts_for(state, actor)
    try:
        token = controlled_token(state, actor, token_id)
        _, ruleset = combat_and_ruleset(state)
    except CommandRejected as refusal:
        return Options(token_id, False, refusal.message, 0.0, (), (), prompts)
    return _seam_options(state, spatial or SpatialCache(), token, actor, ruleset, prompts)


def _seam_options(
    state: EncounterState,
    spatial: SpatialCache,
    token: Combatant,
    actor: str,
    ruleset: Ruleset,
    prompts: tuple[str, ...],
) -> Options:
    """Options under a ruleset on the seam: each action's own ``refusal`` (the check its
    handler runs first) and a dry run of the smallest move in each mode."""
    combat = state.combat
    assert combat is not None
    ctx = Context(state, ruleset, spatial, DiceTray(state.seed, state.draws, actor), actor, token)
    acting = combat.actor == token.id
    order: list[str] = []
    verdicts: dict[str, str | None] = {}
    waiting: str | None = None
    try:
        interjecting = combat.interjection is not None and acting
        require_no_prompts(combat, ignore="readied_action" if interjecting else None)
    except CommandRejected as refusal:
        waiting = refusal.message
    if acting and waiting is not None:
        # Its action, but everything waits on a prompt's answer first.
        return Options(token.id, False, waiting, 0.0, (), (), prompts, ruleset.clock(combat))
    if acting:
        for mode in ruleset.move_modes:
            order.append(mode)
            verdicts[mode] = waiting or _dry_move(ctx, ruleset, mode)
    for name, spec in ruleset.actions.items():
        if spec.when == "gm" or (spec.when == "turn" and not acting):
            continue
        order.append(name)
        verdicts[name] = (waiting if spec.when == "turn" else None) or _refusal(spec, ctx)
        if verdicts[name] is None and spec.choices is not None:
            for choice, why in spec.choices(ctx):
                order.append(f"{name}:{choice}")
                verdicts[order[-1]] = why
    left = 0.0
    reason = None
    if acting:
        order.append("end_phase")
        verdicts["end_phase"] = None if combat.pending_move is None else "a move is under way"
        left = ruleset.movement_left(combat, token)
    else:
        reason = whose_action(combat)
    available = tuple(a for a in order if verdicts[a] is None)
    refused = tuple((a, r) for a in order if (r := verdicts[a]) is not None)
    clock = ruleset.clock(combat)
    return Options(token.id, acting, reason, left, available, refused, prompts, clock)


def _refusal(spec: Any, ctx: Context) -> str | None:
    """An action's own refusal, whether it returns the reason or raises it."""
    try:
        reason: str | None = spec.refusal(ctx)
    except CommandRejected as refusal:
        return refusal.message
    return reason


def _dry_move(ctx: Context, ruleset: Ruleset, mode: str) -> str | None:
    """Why the smallest move (one cell) of ``mode`` would be refused now, or None."""
    if ctx.combat.pending_move is not None:
        return "a move is under way"
    try:
        ruleset.plan_move(ctx, mode, cost=ctx.scene.grid.cell_size, steps=1)
    except CommandRejected as refusal:
        return refusal.message
    return None


def _prompts_for(state: EncounterState, actor: str) -> tuple[str, ...]:
    if state.combat is None:
        return ()
    return tuple(p.id for p in state.combat.prompts if actor in (p.controller, GM))


@dataclass(frozen=True, slots=True)
class PathPlan:
    """The cheapest way for ``token`` to reach ``goal``: ``path`` (cells after its current
    one) and ``cost``, around walls, terrain and enemies, ending on a free cell.
    ``budget`` is the movement it has left now (None: no limit, e.g. outside combat or
    not its action); ``reason`` says why there is no path when ``path`` is empty."""

    token: str
    goal: Cell
    path: tuple[Cell, ...]
    cost: float
    budget: float | None
    reason: str | None


def plan_path(
    state: EncounterState, spatial: SpatialCache, token_id: str, goal: Cell, actor: str = GM
) -> PathPlan:
    """The cheapest path for ``token_id`` to ``goal`` within what it may still move.

    The cheap refusals come first (who controls the token, a goal off the grid, a goal
    farther than the budget even in the open), and the search itself is bounded by the
    budget (outside combat :data:`FREE_PATH_CELLS` cells) and :data:`MAX_EXPANSIONS`,
    so neither a far nor an unreachable goal costs more than a near one."""
    try:
        token = controlled_token(state, actor, token_id)
    except CommandRejected as refusal:
        return PathPlan(token_id, goal, (), 0.0, None, refusal.message)
    scene = scene_of(state)
    index = spatial.index(scene)
    grid = index.grid
    budget: float | None = None
    combat = state.combat
    if combat is not None:
        # On its action: what it has left; otherwise a whole Phase's worth.  Either way
        # the search is bounded by how far the token could go, never the whole map.
        ruleset: Ruleset = find_ruleset(combat.ruleset)
        budget = ruleset.movement_left(combat, token)
    unit = scene.grid.unit
    limit = FREE_PATH_CELLS * scene.grid.cell_size if budget is None else budget
    within = (
        f"within {budget:g} {unit}"
        if budget is not None
        else f"within the search limit of {limit:g} {unit} outside combat"
    )
    try:
        for cell in grid.footprint(goal, token.size):
            grid.require(cell)
    except GeometryError as exc:
        return PathPlan(token_id, goal, (), 0.0, budget, str(exc))
    least = grid.heuristic(token.cell, goal)
    if least > limit + 1e-9:
        reason = f"{goal} is at least {least:g} {unit} away: no path {within}"
        return PathPlan(token_id, goal, (), 0.0, budget, reason)
    enemies: set[Cell] = set()
    others: set[Cell] = set()
    for other in scene.tokens:
        if other.id != token.id:
            cells = grid.footprint(other.cell, other.size)
            others |= cells
            if other.side != token.side:
                enemies |= cells
    try:
        found = cheapest_path(
            grid,
            token.cell,
            goal,
            budget=limit,
            walls=index.blocker,
            terrain=index.terrain,
            size=token.size,
            impassable=frozenset(enemies),
            occupied=frozenset(others),
            max_expansions=MAX_EXPANSIONS,
        )
    except GeometryError as exc:
        return PathPlan(token_id, goal, (), 0.0, budget, str(exc))
    if found is None:
        return PathPlan(token_id, goal, (), 0.0, budget, f"no open path {within}")
    path, cost = found
    return PathPlan(token_id, goal, tuple(path[1:]), cost, budget, None)
