"""The turn: what a combatant may do at its count (seed 003, *The Combat Round*, *Surprise*).

"When a character's turn comes up in the initiative order, that character performs his
entire round's worth of actions."  What a round's worth is, the text does not say; this
ruleset plays what M&M tables play by (the M&M 3e rulebook's action economy), a choice:

- a **standard action** (``attack``, ``use_power``), a **move action** (moving up to the
  token's ``movement``) and any number of **free actions** (``free_action``), in any
  order;
- the standard action may be **traded down** for a second move action (``trade_down``):
  two move actions carry the token up to twice its ``movement``;
- a move action is one stretch of movement: moving, then taking the standard action,
  ends it (what is left of it is lost), unless the token has ``move_by_action``
  (the Move-by Action advantage: move both before and after the standard action).

In the surprise round the aware "each take a standard or move action, not both": one of
them, and no trading down (that would be a move action taken for the standard).
"""

from __future__ import annotations

from dataclasses import replace

from engine.model import Combatant
from engine.rulesets.mutants_masterminds.state import Character

#: Why an incapacitated combatant does nothing, even if the GM sets it during its turn
#: (M&M 3e: incapacitated is stunned, "unable to take any actions").
INCAPACITATED = "incapacitated: it can take no actions"


def standard_refusal(who: Character, surprise: bool) -> str | None:
    """Why ``who`` cannot take its standard action now, or None."""
    if who.incapacitated:
        return INCAPACITATED
    if who.traded:
        return "the standard action was traded down for a second move action"
    if who.standard:
        return "the standard action is taken this turn"
    if surprise and who.moved > 0:
        return "the surprise round allows a standard or a move action, not both: it moved"
    return None


def trade_refusal(who: Character, surprise: bool) -> str | None:
    """Why ``who`` cannot trade its standard action down for a second move action now."""
    if who.incapacitated:
        return INCAPACITATED
    if surprise:
        return "the surprise round allows one standard or move action: nothing to trade"
    if who.traded:
        return "the standard action is already traded down"
    if who.standard:
        return "the standard action is taken this turn"
    return None


def movement_left(who: Character, token: Combatant, surprise: bool) -> float:
    """How far ``who`` may still move this turn: one move action's ``movement``, two
    after trading down; none after the surprise round's standard action, and none of a
    move action a standard action ended."""
    if who.incapacitated or (surprise and who.standard):
        return 0.0
    if who.move_closed and not token.stat("move_by_action", False):
        return 0.0
    allowance = token.movement * (2 if who.traded else 1)
    return max(0.0, allowance - who.moved)


def after_standard(who: Character) -> Character:
    """``who`` having taken its standard action (it ends a move action begun before)."""
    return replace(who, standard=True, move_closed=who.moved > 0)
