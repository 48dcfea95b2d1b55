"""Movement (seed 001, *Movement*).

"With a Move Action a character covers MOVE x 2 meters.  On a grid, as many squares as
their MOVE, diagonals too; you can't stop between squares."  The cost table:

=============================== =================
How you move                    Cost
=============================== =================
Walking or running              1 meter per 1 meter
Swimming, climbing, running jump 2 meters per 1 meter
Standing jump                   half as far as a running jump
=============================== =================

"You can't move while prone: first take the Get Up action.  Armor with a penalty and
being Mortally Wounded lower MOVE."

How this module reads it:

- A move's cost is the grid's distance (a 2 m square grid with diagonals counting one:
  MOVE squares for MOVE x 2 m) times the mode's multiplier or the terrain's, whichever is
  dearer: ``swim``, ``climb`` and ``jump`` (running) 2, ``standing_jump`` 4 (the same
  metres carry half as far), ``walk`` 1; water and climbable terrain cost 2 whatever the
  mode; a gap is a running jump unless the mode is ``standing_jump``.
- Squares are whole: a path is a list of cells, so nobody stops between squares.
- A jump's length is also capped by the token's ``jump`` statistic (running; default
  MOVE metres) and half of it standing.
- MOVE lowered: MOVE - ``armor_penalty``; Mortally Wounded takes ``mortally_wounded_move``
  more (the core book's -6, at least 1 left); both figures are table settings.  Never
  below 0.
- Run (an Action) gives a second Move Action; the two are one budget, spent in any pieces
  around the Action ("run halfway, shoot, run the rest").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.cyberpunk_red.state import Fighter

METRES_PER_MOVE = 2.0
MODE_COST = {"walk": 1.0, "swim": 2.0, "climb": 2.0, "jump": 2.0, "standing_jump": 4.0}
JUMPS = ("jump", "standing_jump")


@dataclass(frozen=True, slots=True)
class MoveRules:
    """The table's figures for what lowers MOVE (defaults: the core book's).

    Mortally Wounded: MOVE -6, never below 1 by this penalty.
    """

    mortally_wounded_move: int = 6
    mortally_wounded_floor: int = 1


def effective_move(fighter: Fighter, rules: MoveRules) -> int:
    """MOVE after armour and wounds: MOVE - armour penalty, then Mortally Wounded."""
    move = fighter.move - fighter.armor_penalty
    if fighter.mortally_wounded:
        move = max(min(move, rules.mortally_wounded_floor), move - rules.mortally_wounded_move)
    return max(move, 0)


def allowance(fighter: Fighter, rules: MoveRules) -> float:
    """Metres the turn's Move Actions cover: MOVE x 2 m each (two after Run)."""
    return effective_move(fighter, rules) * METRES_PER_MOVE * fighter.usage.move_actions


def movement_left(fighter: Fighter, rules: MoveRules) -> float:
    """Metres still open this turn."""
    return max(allowance(fighter, rules) - fighter.usage.moved, 0.0)


def mode_multiplier(mode: str) -> float:
    """What one metre costs moving in ``mode``; raises ValueError for an unknown mode."""
    try:
        return MODE_COST[mode]
    except KeyError:
        raise ValueError(f"unknown move mode {mode!r} (known: {', '.join(MODE_COST)})") from None


def step_cost(distance: float, terrain: float, mode: str) -> float:
    """Cost of a step of ``distance`` metres onto terrain priced ``terrain`` (the scene's
    multiplier there: 2 for water, climbable and gaps), moving in ``mode``."""
    return distance * max(mode_multiplier(mode), terrain)


def jump_reach(fighter: Fighter, mode: str) -> float | None:
    """The longest jump in ``mode`` (None: not a jump): the ``jump`` statistic running,
    half of it standing ("half as far as a running jump")."""
    if mode == "jump":
        return fighter.jump
    if mode == "standing_jump":
        return fighter.jump / 2
    return None


def move_refusal(
    fighter: Fighter, rules: MoveRules, mode: str, length: float, cost: float
) -> str | None:
    """Why ``fighter`` cannot move ``length`` metres costing ``cost`` in ``mode`` now, or None."""
    if fighter.prone:
        return 'prone: "You can\'t move while prone: first take the Get Up action."'
    if fighter.vehicle is not None:
        return f"in vehicle {fighter.vehicle!r}: get out first (free)"
    reach = jump_reach(fighter, mode)
    if reach is not None and length > reach + 1e-9:
        return f"a {mode.replace('_', ' ')} reaches {reach:g} m, not {length:g} m"
    left = movement_left(fighter, rules)
    if cost > left + 1e-9:
        return (
            f"costs {cost:g} m of movement, {left:g} m left "
            f"(MOVE {effective_move(fighter, rules)} x 2 m a Move Action)"
        )
    return None
