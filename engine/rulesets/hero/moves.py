"""Moving in a Hero fight (seed 000, *Combat Actions*, *Full-Phase Actions*, *Attacks of
Opportunity*): a move checked against the Phase's budget and charged, an attack at the
end of a move, and who a withdraw leaves behind without an attack of opportunity."""

from __future__ import annotations

from engine.combat_state import Combat
from engine.copies import replace
from engine.errors import CommandRejected
from engine.model import Combatant
from engine.rulesets.base import Context, MovePlan
from engine.rulesets.hero import budget
from engine.rulesets.hero.state import (
    ATTACK,
    Maneuver,
    hero,
    limited_now,
    put,
    usage,
    with_usage,
)
from engine.tray import DiceTray
from geometry import BlockMode, Grid, ThreatIndex

UNUSUAL_REACH = 1.0  # metres: seed 000's default reach; more is "unusual reach"


def plan_move(ctx: Context, mode: str, *, cost: float, steps: int) -> MovePlan:
    """Check a move of ``mode`` against the Phase's budget (and a readied action's type)
    and charge it: the slot it takes, the combat movement spent, the kind recorded."""
    combat, token = ctx.combat, ctx.token
    spent = usage(combat)
    interjection = combat.interjection
    if interjection is not None and interjection.allowed != "move" and mode != "step":
        raise CommandRejected(
            "illegal_action", f"the readied action is a {interjection.allowed} action"
        )
    limited = limited_now(combat)
    slot, kind = budget.plan_movement(
        combat,
        token,
        spent,
        mode,
        cost=cost,
        steps=steps,
        cell_size=ctx.scene.grid.cell_size,
        limited=limited,
    )
    if slot is not None:
        reason = budget.refusal(token, spent, slot, limited)
        if reason:
            raise CommandRejected("over_budget", reason)
    moved = replace(
        spent,
        moved=spent.moved + cost,
        movement=kind,
        actions=(*spent.actions, slot) if slot else spent.actions,
    )
    combat = with_usage(combat, moved)
    fight = hero(combat)
    hold = fight.hold(token.id)
    if hold is not None and hold.kind == "ready" and not hold.moved and interjection is None:
        # Moving after readying rules out the readied action's free 1 m step.
        combat = put(combat, fight.with_hold(replace(hold, moved=True)))
    return MovePlan(combat, kind)


def plan_move_attack(
    ctx: Context,
    combat: Combat,
    target: Combatant,
    maneuver: Maneuver | None,
    rolls: tuple[int, ...] | None,
) -> Combat:
    """A move that ends in an attack needs the attack action left after the move; the
    table's dice for it are checked now, by the roll that will use them, so a bad set is
    refused before the move starts rather than when it ends."""
    if rolls is not None:
        trial = DiceTray(ctx.state.seed, ctx.state.draws, ctx.actor)
        ctx.ruleset.attack_roll(  # type: ignore[attr-defined]
            ctx.combat, ctx.token, target, trial, rolls, attack="attack"
        )
    reason = budget.refusal(ctx.token, usage(combat), ATTACK, limited_now(combat))
    if reason:
        raise CommandRejected("over_budget", f"no attack after this move: {reason}")
    return combat


def withdraw_exempt(ctx: Context) -> tuple[str, ...]:
    """Enemies that get no attack of opportunity as a withdraw begins (seed 000,
    *Full-Phase Actions*): "any adjacent opponent you can see who does not have unusual
    reach".  A mover in ``darkness`` sees no one; an enemy that is ``invisible``, in
    ``darkness`` itself, or behind a wall that blocks sight is not seen."""
    scene, combat, mover = ctx.scene, ctx.combat, ctx.token
    if combat.has(mover.id, "darkness"):
        return ()
    if scene.grid.gridless:
        return _gridless_withdraw_exempt(ctx)
    index = ctx.spatial.index(scene)
    grid = index.grid
    mine = grid.footprint(mover.cell, mover.size)
    exempt = []
    for other in scene.tokens:
        if other.id == mover.id or not ctx.ruleset.threatens(combat, other, mover):
            continue
        if other.reach > UNUSUAL_REACH + 1e-9 or not _visible(combat, other.id):
            continue
        theirs = grid.footprint(other.cell, other.size)
        if not any(grid.adjacent(a, b) for a in mine for b in theirs):
            continue
        if not _sees(index, grid, mover, other):
            continue
        exempt.append(other.id)
    return tuple(sorted(exempt))


def _gridless_withdraw_exempt(ctx: Context) -> tuple[str, ...]:
    """:func:`withdraw_exempt` on a gridless scene: "adjacent" is standing as close as
    neighbouring squares of the scene's cell size do
    (:meth:`~engine.gridless_board.GridlessBoard.adjacent`)."""
    scene, combat, mover = ctx.scene, ctx.combat, ctx.token
    board = ctx.spatial.board(scene)
    exempt = [
        other.id
        for other in scene.tokens
        if other.id != mover.id
        and ctx.ruleset.threatens(combat, other, mover)
        and other.reach <= UNUSUAL_REACH + 1e-9
        and _visible(combat, other.id)
        and board.adjacent(mover, other)
        and board.sees(mover, other)
    ]
    return tuple(sorted(exempt))


def _visible(combat: Combat, who: str) -> bool:
    return not (combat.has(who, "invisible") or combat.has(who, "darkness"))


def _sees(index: ThreatIndex, grid: Grid, mover: Combatant, other: Combatant) -> bool:
    a = grid.footprint_center(mover.cell, mover.size)
    b = grid.footprint_center(other.cell, other.size)
    return not index.walls.segment_blocked(a, b, BlockMode.SIGHT)
