"""The Hero supplement's Phase budget and movement rules (seed 000, *Combat Actions*,
*Move Actions*, *Full-Phase Actions*, *Free Actions*), as plain functions the
:class:`~engine.rulesets.hero.HeroSupplement` ruleset delegates to.

A Phase allows an attack action and a move action, two move actions, or one full-phase
action, plus free actions; a limited Phase one attack or one move action.  Combat
movement takes one move action per started length of combat movement, so it can be
split across the Phase.
"""

from __future__ import annotations

import math

from engine.combat_state import Combat
from engine.errors import CommandRejected
from engine.model import Combatant
from engine.rulesets.hero.state import ATTACK, FULL, MOVE, PhaseUsage

STEP_METRES = 1.0
EPSILON = 1e-9


def flag(combatant: Combatant, name: str) -> bool:
    """Whether the boolean statistic ``name`` is set."""
    return combatant.stat(name, False) is True


def slots_used(combatant: Combatant, usage: PhaseUsage) -> tuple[int, int, bool]:
    """(move actions, attack actions, full-phase?) spent so far."""
    movement_actions = 0
    if usage.movement == "combat" and usage.moved > EPSILON and combatant.movement > 0:
        movement_actions = math.ceil(usage.moved / combatant.movement - EPSILON)
    moves = usage.actions.count(MOVE) + movement_actions
    return moves, usage.actions.count(ATTACK), FULL in usage.actions


def refusal(combatant: Combatant, usage: PhaseUsage, action: str, limited: bool) -> str | None:
    """Why ``combatant`` cannot take an ``action`` (attack/move/full) now, or None."""
    moves, attacks, full = slots_used(combatant, usage)
    if full:
        return "a full-phase action has taken the whole Phase"
    if action == FULL:
        if limited:
            return "a limited Phase allows no full-phase action"
        if moves or attacks:
            return "a full-phase action needs the whole Phase"
        return None
    cap = 1 if limited else 2
    if moves + attacks >= cap:
        return "no actions left this Phase" if not limited else "a limited Phase allows one action"
    if action == ATTACK and attacks:
        return "one attack action a Phase"
    return None


def movement_left(combatant: Combatant, usage: PhaseUsage, limited: bool) -> float:
    """Combat movement still open: one length per move action the Phase has left."""
    if usage.movement not in (None, "combat") or FULL in usage.actions:
        return 0.0
    cap = 1 if limited else 2
    other = usage.actions.count(MOVE) + usage.actions.count(ATTACK)
    return max(0.0, combatant.movement * (cap - other) - usage.moved)


def plan_movement(
    combat: Combat,
    mover: Combatant,
    usage: PhaseUsage,
    mode: str,
    *,
    cost: float,
    steps: int,
    cell_size: float,
    limited: bool,
) -> tuple[str | None, str]:
    """Check a move of ``mode``; return (the action slot it takes, or None) and the
    movement kind to record.  Raises ``CommandRejected`` with the rule it breaks."""
    prone = combat.has(mover.id, "prone")
    if prone and mode not in ("crawl", "hampered"):
        raise _over(f"{mover.id!r} is prone: stand up first, or crawl 1 m")
    if usage.movement == "step":
        raise _over("the free 1 m step was taken this Phase: no other movement")
    one_metre = max(STEP_METRES, cell_size)
    if mode == "combat":
        if usage.movement not in (None, "combat"):
            raise _over(f"already moved this Phase by {usage.movement}")
        left = movement_left(mover, usage, limited)
        if cost > left + EPSILON:
            raise _over(f"the move costs {cost:g} m, only {left:g} m of combat movement left")
        return None, "combat"
    if mode == "step":
        if usage.movement is not None or usage.moved > 0:
            raise _over("the 1 m step needs a Phase with no other movement")
        if mover.movement <= STEP_METRES:
            raise _over(
                f"{mover.id!r} has {mover.movement:g} m of movement: 1 m takes a move action"
            )
        if combat.has(mover.id, "darkness"):
            raise _over("no free 1 m step in darkness")
        if steps != 1 or cost > one_metre + EPSILON:
            raise _over(f"the free step is one 1 m step on open ground (this one costs {cost:g} m)")
        return None, "step"
    if mode == "crawl":
        if usage.movement not in (None, "crawl"):
            raise _over(f"already moved this Phase by {usage.movement}")
        if mover.movement < STEP_METRES - EPSILON:
            # "so hampered that you can't move even 1m": crawling is moving too.
            raise _over(
                f"{mover.id!r} cannot move even 1 m: its 1 m move is the hampered one "
                "(mode 'hampered'), a full-phase action"
            )
        if steps != 1 or cost > one_metre + EPSILON:
            raise _over("crawling covers 1 m")
        return MOVE, "crawl"
    if mode == "withdraw":
        if usage.movement is not None:
            raise _over(f"already moved this Phase by {usage.movement}")
        slot = MOVE if limited else FULL  # restricted withdraw in a limited Phase
        limit = mover.movement if limited else 2 * mover.movement
        if cost > limit + EPSILON:
            raise _over(f"a withdraw covers up to {limit:g} m, this one costs {cost:g} m")
        return slot, "withdraw"
    if mode == "noncombat":
        if usage.movement is not None:
            raise _over(f"already moved this Phase by {usage.movement}")
        stat = mover.stat("noncombat")
        limit = (
            float(stat)
            if isinstance(stat, int | float) and not isinstance(stat, bool)
            else 2 * mover.movement
        )
        if cost > limit + EPSILON:
            raise _over(f"noncombat movement covers up to {limit:g} m, this move costs {cost:g} m")
        return FULL, "noncombat"
    if mode == "hampered":
        if usage.movement is not None:
            raise _over(f"already moved this Phase by {usage.movement}")
        if steps != 1:
            raise _over("the hampered move is a single 1 m move")
        if _can_move_one_metre(mover, usage, cost, one_metre, prone=prone, limited=limited):
            raise _over(
                f"{mover.id!r} can move 1 m normally; the hampered move is for those who cannot"
            )
        return FULL, "hampered"
    raise _over(f"unknown movement mode {mode!r}")


def _can_move_one_metre(
    mover: Combatant,
    usage: PhaseUsage,
    cost: float,
    one_metre: float,
    *,
    prone: bool,
    limited: bool,
) -> bool:
    """Whether ``mover`` could cover this 1 m some ordinary way (combat movement, or a
    crawl when prone), which rules out the hampered move (seed 000, *Full-Phase Actions*:
    "your movement may be so hampered that you can't move even 1m")."""
    if mover.movement < STEP_METRES - EPSILON:
        return False
    if prone:
        return cost <= one_metre + EPSILON
    return cost <= movement_left(mover, usage, limited) + EPSILON


def action_slot(combatant: Combatant, kind: str) -> str | None:
    """The slot a named non-attack action takes (None: free), per *Move Actions* and
    *Free Actions*; raises for an unknown kind."""
    slots = {
        "draw_focus": None if flag(combatant, "fast_draw") else MOVE,
        "stow_focus": None if flag(combatant, "fast_draw") else MOVE,
        "stand_up": None if flag(combatant, "position_shift") else MOVE,
        "drop_item": None,
        "drop_prone": None,
        "start_full_phase": MOVE,
        "complete_full_phase": MOVE,
        "full_phase": FULL,
        "defend": ATTACK,
    }
    if kind not in slots:
        raise CommandRejected("illegal_action", f"unknown action {kind!r}; one of {sorted(slots)}")
    return slots[kind]


def _over(reason: str) -> CommandRejected:
    return CommandRejected("over_budget", reason)
