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

- A move's cost is, square by square, the metres stepped (a 2 m square grid with
  diagonals counting one: MOVE squares for MOVE x 2 m) times the mode's multiplier or
  the terrain's, whichever is dearer: ``swim`` and ``climb`` 2, ``walk`` 1; water and
  climbable terrain cost 2 whatever the mode.
- A jump is the squares jumped *over*, not the run-up or the landing: "running jump:
  2 meters per 1 meter" prices the metres in the air.  Where the move crosses gap
  terrain, each run of gap squares is a jump (a running one, 2 per 1, unless the mode
  is ``standing_jump``: 4 per 1, the same metres carrying "half as far"); the squares
  before and after are walked at what their ground costs, whether the mode is ``walk``
  or ``jump``, so the two ways to send a jump over a drawn gap cost the same.  With
  ``mode`` ``jump`` or ``standing_jump`` and no gap drawn (the table says this move is
  a jump, over something the map does not show) the move takes off where it starts
  and lands on its last square: every square before the last is jumped over.  So a
  2-square gap with a square of run-up is 1 + 2 + 2 + 1 = 6 squares of movement.
- Squares are whole: a path is a list of cells, so nobody stops between squares.
- Each jump's length is also capped by the token's ``jump`` statistic (running; default
  MOVE metres) and half of it standing.
- MOVE lowered: MOVE - ``armor_penalty``.  Mortally Wounded "lower[s] MOVE" and this
  text does not say by how much (it points to "Mortally Wounded", not part of it): the
  figure is the table's option, ``move_penalties`` (default
  ``mortally_wounded_move`` 6, at least ``mortally_wounded_floor`` 1 left: the figure
  the Cyberpunk RED core book gives, not this text's).  Never below 0.
- Run (an Action) gives a second Move Action; the two are one budget, spent in any pieces
  around the Action ("run halfway, shoot, run the rest").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rulesets.cyberpunk_red.state import Fighter

METRES_PER_MOVE = 2.0
MODE_COST = {"walk": 1.0, "swim": 2.0, "climb": 2.0, "jump": 2.0, "standing_jump": 4.0}
JUMPS = ("jump", "standing_jump")


@dataclass(frozen=True, slots=True)
class MoveRules:
    """The table's figures for what lowers MOVE.

    Mortally Wounded: MOVE -6, never below 1 by this penalty.  This text only says it
    lowers MOVE; the defaults are the Cyberpunk RED core book's figures, the table's
    option (``move_penalties``).
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


@dataclass(frozen=True, slots=True)
class Square:
    """One square a move steps onto: the ``metres`` of the step, what the ground there
    costs (``terrain``: the scene's multiplier, 2 for water, climbable and gaps) and
    whether it is a ``gap``."""

    metres: float
    terrain: float = 1.0
    gap: bool = False


def jumps(squares: Sequence[Square], mode: str) -> list[range]:
    """The jumps of a move onto ``squares`` in ``mode``, each the indices of the squares
    jumped over: every run of gap squares; with no gap, a ``jump`` or ``standing_jump``
    mode jumps over every square but the last (the landing); otherwise none."""
    runs: list[range] = []
    start: int | None = None
    for i, square in enumerate((*squares, Square(0.0))):
        if square.gap and start is None:
            start = i
        elif not square.gap and start is not None:
            runs.append(range(start, i))
            start = None
    if runs or mode not in JUMPS or len(squares) < 2:
        return runs
    return [range(0, len(squares) - 1)]


def jump_kind(mode: str) -> str:
    """The jump a gap is in ``mode``: standing in ``standing_jump``, else running."""
    return "standing_jump" if mode == "standing_jump" else "jump"


def move_cost(squares: Sequence[Square], mode: str) -> float:
    """Metres of movement a move onto ``squares`` in ``mode`` costs (module docstring):
    each square jumped over at the jump's price or its ground's, whichever is dearer;
    in a jump mode the other squares at their ground's; otherwise at the mode's or the
    ground's, whichever is dearer."""
    mode_multiplier(mode)  # an unknown mode is refused, not priced as a walk
    jumped = {i for run in jumps(squares, mode) for i in run}
    total = 0.0
    for i, square in enumerate(squares):
        if i in jumped:
            total += step_cost(square.metres, square.terrain, jump_kind(mode))
        elif mode in JUMPS:
            total += square.metres * square.terrain
        else:
            total += step_cost(square.metres, square.terrain, mode)
    return total


def jump_lengths(squares: Sequence[Square], mode: str) -> list[float]:
    """The metres of each jump of a move onto ``squares`` in ``mode``."""
    return [sum(squares[i].metres for i in run) for run in jumps(squares, mode)]


def move_refusal(
    fighter: Fighter, rules: MoveRules, mode: str, cost: float, leaps: Sequence[float] = ()
) -> str | None:
    """Why ``fighter`` cannot move in ``mode`` at ``cost`` metres of movement, jumping
    ``leaps`` (metres each), now; or None."""
    if fighter.prone:
        return 'prone: "You can\'t move while prone: first take the Get Up action."'
    if fighter.vehicle is not None:
        return f"in vehicle {fighter.vehicle!r}: get out first (free)"
    kind = jump_kind(mode)
    reach = jump_reach(fighter, kind)
    assert reach is not None
    for length in leaps:
        if length > reach + 1e-9:
            return f"a {kind.replace('_', ' ')} reaches {reach:g} m, not {length:g} m"
    left = movement_left(fighter, rules)
    if cost > left + 1e-9:
        return (
            f"costs {cost:g} m of movement, {left:g} m left "
            f"(MOVE {effective_move(fighter, rules)} x 2 m a Move Action)"
        )
    return None
