"""What may this combatant do now?  Asked without changing anything (python-chess's
``legal_moves`` beside ``push``), so a VTT can offer only what the rules allow.

Each action is checked by the very check its handler runs first (the ruleset action's
``refusal``; a dry run of the ruleset's ``plan_move`` for each move mode), so "may I"
and "do it" cannot drift; an action that is not available comes with the rule that
forbids it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from engine import gridless_paths
from engine.checks import (
    combat_and_ruleset,
    controlled_token,
    require_turn,
    scene_of,
)
from engine.combat_state import Combat
from engine.commands import GM
from engine.errors import CommandRejected
from engine.fight import check_when
from engine.gridless_board import centre
from engine.model import Combatant, EncounterState, Position, Scene
from engine.move_paths import path_on
from engine.rulesets import Context, find_ruleset
from engine.rulesets.base import ActionSpec, NoParams
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
class Unavailable:
    """An action the ruleset knows that ``token`` cannot take now: the ``code`` and
    ``reason`` the command would be refused with (the same checks, run without acting),
    so the reason names the rule that stops it."""

    action: str
    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class Options:
    """What ``token`` may do now: ``available`` actions, ``unavailable`` ones with the
    refusal each would get, ``movement_left`` of ordinary movement, and the prompts
    ``open_prompts`` waiting on the asker.  ``can_act`` is whether it is this token's
    action at all (else ``reason``: whose action it is, or the rule that keeps it idle,
    such as being unaware in a surprise pass); ``clock`` the fight's moment in its
    game's words (None: no fight)."""

    token: str
    can_act: bool
    reason: str | None
    movement_left: float
    available: tuple[str, ...]
    unavailable: tuple[Unavailable, ...]
    open_prompts: tuple[str, ...]
    clock: Clock | None = None

    @property
    def refused(self) -> tuple[tuple[str, str], ...]:
        """``unavailable`` as ``(action, reason)`` pairs."""
        return tuple((u.action, u.reason) for u in self.unavailable)


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
    """Options under a ruleset on the seam: for every move mode, action and the end of
    the action, the checks its command runs first (whose action it is and the prompts
    waiting, :func:`engine.fight.check_when`; the action's own ``refusal``; a dry run of
    the smallest move in each mode).  The GM's tools (``when="gm"``) are not a token's
    options and are not listed."""
    combat = state.combat
    assert combat is not None
    ctx = Context(state, ruleset, spatial, DiceTray(state.seed, state.draws, actor), actor, token)
    acting = combat.actor == token.id
    idle = None if acting else ruleset.idle_reason(combat, token.id)
    # The checks every action on the token's own action makes (a "turn" action, a move,
    # the end of its action): the prompts waiting and whose action it is.
    own_action = _when_refusal(combat, _TURN, actor, token)
    if own_action is not None and idle is not None:
        own_action = CommandRejected(own_action.code, idle)
    verdicts: dict[str, CommandRejected | None] = {}
    for mode in ruleset.move_modes:
        verdicts[mode] = own_action or _dry_move(ctx, ruleset, mode)
    for name, spec in ruleset.actions.items():
        if spec.when == "gm":
            continue
        verdict = _when_refusal(combat, spec, actor, token)
        if verdict is not None and spec.when == "turn" and idle is not None:
            verdict = CommandRejected(verdict.code, idle)
        verdicts[name] = verdict or _refusal(spec, ctx)
        if verdicts[name] is None and spec.choices is not None:
            choices = list(spec.choices(ctx))
            for choice, why in choices:
                verdicts[f"{name}:{choice}"] = None if why is None else _refused(spec, why)
            if all(why is not None for _, why in choices):
                # Offered only if some choice can be taken: else every act naming it fails.
                why_not = "; ".join(f"{choice}: {why}" for choice, why in choices)
                verdicts[name] = _refused(
                    spec, f"none of its choices can be taken now ({why_not or 'there are none'})"
                )
    pending = combat.pending_move is not None and acting
    verdicts["end_phase"] = own_action or (
        CommandRejected("illegal_action", "a move is still under way") if pending else None
    )
    can_act = acting and own_action is None
    left = ruleset.movement_left(combat, token) if can_act else 0.0
    reason = None
    if not acting:
        whose = _rejection(lambda: require_turn(combat, token))
        reason = idle or (whose.message if whose is not None else None)
    elif own_action is not None:
        reason = own_action.message
    available = tuple(a for a, v in verdicts.items() if v is None)
    unavailable = tuple(
        Unavailable(a, v.code, v.message) for a, v in verdicts.items() if v is not None
    )
    clock = ruleset.clock(combat)
    return Options(token.id, can_act, reason, left, available, unavailable, prompts, clock)


def _unchanged(ctx: Context, params: NoParams) -> tuple[EncounterState, list[Any]]:
    return ctx.state, []


#: Any action taken on the token's own action: what moves and ending it check too.
_TURN: ActionSpec[NoParams] = ActionSpec("end_phase", NoParams, _unchanged)


def _when_refusal(
    combat: Combat, spec: ActionSpec[Any], actor: str, token: Combatant
) -> CommandRejected | None:
    """Why ``actor`` may not take ``spec`` for ``token`` now by its ``when``, or None."""
    return _rejection(lambda: check_when(combat, spec, actor, token))


def _rejection(check: Callable[[], object]) -> CommandRejected | None:
    """The refusal ``check`` raises, or None."""
    try:
        check()
    except CommandRejected as refusal:
        return refusal
    return None


def _refused(spec: ActionSpec[Any], reason: str) -> CommandRejected:
    """A refusal of ``spec`` for ``reason``, with the code its command gives."""
    return CommandRejected(spec.code, reason)


def _refusal(spec: ActionSpec[Any], ctx: Context) -> CommandRejected | None:
    """An action's own refusal, whether it returns the reason or raises it."""
    try:
        reason: str | None = spec.refusal(ctx)
    except CommandRejected as refusal:
        return refusal
    return None if reason is None else _refused(spec, reason)


def _dry_move(ctx: Context, ruleset: Ruleset, mode: str) -> CommandRejected | None:
    """Why the smallest move (one cell) of ``mode`` would be refused now, or None."""
    if ctx.combat.pending_move is not None:
        return CommandRejected("illegal_move", "a move is under way")
    return _rejection(lambda: ruleset.plan_move(ctx, mode, cost=ctx.scene.grid.cell_size, steps=1))


def _prompts_for(state: EncounterState, actor: str) -> tuple[str, ...]:
    if state.combat is None:
        return ()
    return tuple(p.id for p in state.combat.prompts if actor in (p.controller, GM))


@dataclass(frozen=True, slots=True)
class PathPlan:
    """The cheapest way for ``token`` to reach ``goal``: ``path`` (cells after its current
    one; gridless, waypoints: :mod:`engine.gridless_paths`) and ``cost``, around walls,
    terrain and enemies, ending on a free cell.  ``budget`` is the movement it has left
    now (None: no limit, e.g. outside combat or not its action); ``reason`` says why
    there is no path when ``path`` is empty."""

    token: str
    goal: Position
    path: tuple[Position, ...]
    cost: float
    budget: float | None
    reason: str | None


def plan_path(
    state: EncounterState, spatial: SpatialCache, token_id: str, goal: Position, actor: str = GM
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
    if scene.grid.gridless:
        return _plan_gridless(spatial, scene, token, goal, limit, budget, within)
    try:
        goal = cast(Cell, path_on(scene, token.id, (goal,))[0])
    except CommandRejected as refusal:
        return PathPlan(token_id, goal, (), 0.0, budget, refusal.message)
    index = spatial.index(scene)
    grid = index.grid
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


def _plan_gridless(
    spatial: SpatialCache,
    scene: Scene,
    token: Combatant,
    goal: Position,
    limit: float,
    budget: float | None,
    within: str,
) -> PathPlan:
    """:func:`plan_path` on a gridless scene (:mod:`engine.gridless_paths`)."""
    board = spatial.board(scene)
    to = (float(goal[0]), float(goal[1]))
    if not board.plane.contains(to):
        reason = f"({to[0]:g}, {to[1]:g}) is off the scene"
        return PathPlan(token.id, goal, (), 0.0, budget, reason)
    least = math.dist(centre(token), to)
    if least > limit + 1e-9:
        reason = f"({to[0]:g}, {to[1]:g}) is {least:g} {scene.grid.unit} away: no path {within}"
        return PathPlan(token.id, goal, (), 0.0, budget, reason)
    enemies = [t for t in scene.tokens if t.side != token.side]
    found = gridless_paths.plan(board, token, to, limit, enemies)
    if found is None:
        return PathPlan(token.id, goal, (), 0.0, budget, f"no open path {within}")
    path, cost = found
    return PathPlan(token.id, goal, path, cost, budget, None)
