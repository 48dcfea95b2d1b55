"""Hold Action (seed 001, *Hold Action*).

"Holding means saying in advance what you'll do, to whom and when: 'after Gina's turn'
or 'when the door opens.'  If the condition hasn't happened by the end of the Round, the
action is lost."  The list of Actions: "Declare an action and the moment it triggers: 'I
shoot as soon as he leans out'".

Declaring spends the Action.  The held action is named with its parameters (its target
among them) and one trigger:

- ``after_turn`` of a named combatant ("after Gina's turn"): fires as that turn ends,
  before the next combatant's;
- ``enters``: a token (any, or the one named) steps into one of the area's cells ("when
  the door opens": the doorway's cells); the engine pauses the move on that square and
  asks the holder's controller, whose yes fires the action, and the move goes on when
  the holder ends its interruption;
- ``in_sight``: the named token comes into the holder's line of sight ("as soon as he
  leans out"), from the scene's walls: paused and asked the same way, on the first
  square in view.

The moment the text names is the entry itself: "as soon as he leans out" is when he is
out, not the step before.  So the move pauses on the square that sets the trigger off
(the ruleset's ``trigger_pause`` is ``inside``; the Hero supplement's readied action
pauses on the square before, "just before"), the action is checked and carried out with
the mover there, and ``cpr_held_fired.at`` is that square.

These two are the engine's triggers (``engine.combat_state.Trigger``); ``after_turn``
is this ruleset's own: it fires, without asking, as the named combatant's turn ends
(the action, target and moment were all declared; there is no move to pause).

When it fires it is carried out at once, interrupting, under the same checks as on the
holder's own turn except the Action (already spent declaring).  If it cannot be carried
out then (the target is out of reach or sight), it is lost, with the reason.  A
controller who declines the prompt lets that moment pass; the hold still waits.  Whatever
has not fired when the Round ends is lost.  Run, NET Actions and free actions cannot be
held (they are not "an action ... to whom"); one hold per combatant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine.params import CellRef, ParamError, TokenRef, decode_params
from engine.rulesets.cyberpunk_red import economy
from engine.rulesets.cyberpunk_red.actions import (
    ACTIONS,
    ActionSpec,
    Result,
    World,
)
from engine.rulesets.cyberpunk_red.events import (
    ActionHeld,
    AttackRolled,
    HeldActionFired,
    HeldActionLost,
)
from engine.rulesets.cyberpunk_red.state import (
    Arena,
    Fighter,
    HeldAction,
    HeldParams,
    Trigger,
    TurnUsage,
)
from engine.tray import DiceTray


@dataclass(frozen=True, slots=True)
class HoldParams:
    """Hold ``action`` (with its ``params``) until ``trigger``: ``after_turn`` or
    ``in_sight`` of ``token``, or a token (``token``, or anyone) ``enters`` ``area``."""

    action: str
    trigger: Literal["after_turn", "enters", "in_sight"]
    token: TokenRef | None = None
    area: tuple[CellRef, ...] = ()
    params: HeldParams = field(default_factory=HeldParams)


def _declared(p: HoldParams) -> tuple[ActionSpec | None, Any, str | None]:
    spec = ACTIONS.get(p.action)
    if spec is None or not spec.holdable:
        return None, None, f"cannot hold {p.action!r}"
    try:
        Trigger(p.trigger, p.token, p.area)
        return spec, decode_params(spec.params, p.params.given()), None
    except (ValueError, ParamError) as exc:
        return spec, None, str(exc)


def needs_hold(arena: Arena, world: World, f: Fighter, p: HoldParams | None) -> str | None:
    """Why ``f`` cannot declare a Hold Action (with ``p``) now, or None."""
    why = economy.action_refusal(f)
    if why or p is None:
        return why
    spec, params, why = _declared(p)
    if why or spec is None:
        return why
    if p.token is not None and not world.is_token(p.token):
        return f"no token {p.token!r}"
    # The held action must make sense as declared, bar the Action it will not spend again
    # and where the target will be: checked again when it fires.
    fresh = f.with_usage(TurnUsage())
    target = getattr(params, "target", None)
    if (
        target is not None
        and target != f.id
        and not arena.has(target)
        and (not world.is_token(target))
    ):
        return f"no combatant {target!r}"
    if spec.name == "attack":
        return economy.attack_refusal(fresh, params.weapon)
    return None


def hold(arena: Arena, world: World, f: Fighter, p: HoldParams, tray: DiceTray) -> Result:
    """Declare the Hold Action."""
    held = HeldAction(f.id, p.action, p.params, Trigger(p.trigger, p.token, p.area), arena.round)
    f = economy.spend_action(replace(f, task=None), "hold_action")
    arena = arena.with_fighter(f).with_hold(held, f.id)
    event = ActionHeld(f.id, p.action, p.trigger, p.token, p.area, arena.round)
    return arena, [event]


HOLD = ActionSpec(
    "hold_action", "action", "Declare an action and the moment it triggers",
    HoldParams, needs_hold, hold, holdable=False,
)  # fmt: skip


def fire(arena: Arena, world: World, held: HeldAction, by: str,
         at: tuple[int | float, int | float] | None, tray: DiceTray) -> Result:  # fmt: skip
    """Carry out ``held`` now, set off by ``by`` (standing on ``at``); lost if it cannot be."""
    arena = arena.with_hold(None, held.holder)
    holder = arena.fighter(held.holder)
    spec = ACTIONS[held.action]
    params: Any = decode_params(spec.params, held.params.given())
    fresh = holder.with_usage(TurnUsage())
    why = spec.needs(arena, world, fresh, params)
    if why is not None:
        return arena, [HeldActionLost(held.holder, held.action, f"could not be carried out: {why}")]
    after, events = spec.apply(arena, world, fresh, params, tray)
    # The fired action was paid for when declared: the holder's turn record stands.
    after = after.with_fighter(replace(after.fighter(held.holder), usage=holder.usage))
    events = [replace(e, held=True) if isinstance(e, AttackRolled) else e for e in events]
    return after, [HeldActionFired(held.holder, held.action, by, at), *events]


def after_turn(arena: Arena, ended: str, order: Sequence[str]) -> list[HeldAction]:
    """Holds set off by ``ended`` finishing its turn, in queue ``order``."""
    return _in_order(
        [h for h in arena.holds if h.trigger.kind == "after_turn" and h.trigger.token == ended],
        order,
    )


def fight_over(arena: Arena) -> list[HeldActionLost]:
    """The GM ended the fight: every hold still waiting is lost."""
    return [HeldActionLost(h.holder, h.action, "the fight ended") for h in arena.holds]


def end_of_round(arena: Arena) -> Result:
    """Every hold still waiting is lost ("if the condition hasn't happened by the end of
    the Round, the action is lost"); the next Round begins."""
    events = [HeldActionLost(h.holder, h.action, "the Round ended") for h in arena.holds]
    return replace(arena, holds=(), round=arena.round + 1), events


def _in_order(holds: list[HeldAction], order: Sequence[str]) -> list[HeldAction]:
    rank = {cid: i for i, cid in enumerate(order)}
    return sorted(holds, key=lambda h: (rank.get(h.holder, len(rank)), h.holder))
