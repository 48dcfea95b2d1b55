"""The Hero supplement's part in walking the order (seed 000, *Combat Time*,
*Initiative*, *Delay*, *Ready*, *Abort*): the hooks :mod:`engine.turns` calls.

Theory of operation.  The core walks the initiative order Phase by Phase; at each
character's INIT it asks, in this order:

==========================  ===============================  ==============================
where the walk is           what this module says            the core then
==========================  ===============================  ==============================
Y's INIT comes up           a delayer said "just before Y"   (:func:`cut_in`) the delayer
                                                               moves before Y and acts
Y's INIT comes up           Y aborted this action, or        (:func:`skip_reason`) skips Y;
                              ``cannot_act``                   it keeps its INIT
Y's INIT comes up           Y's defence ends, an abort lock  (:func:`count_reached`)
                              lifts, an old delay or ready
                              lapses (Y may delay again)
Y acts                      a fresh Phase budget             (:func:`fresh_budget`); a
                                                               ready on Y's action prompts
the order is done           a delay with no place named      (:func:`pass_ended`) waits on
                              waits: ask its controller        the ``delayed_action`` prompt
                              (``delayed_action`` prompt)
answered: take it           the delayer's INIT becomes the   (:func:`prompt_answered`) it
                              last one's                       acts last
answered: keep waiting      the next waiting delayer is      or the next Phase opens
                              asked
last of Phase 4 done        Post-Turn Recovery: REC back to  (:func:`turn_ended`)
                              END and STUN
a readied trigger comes     the holder acts just ahead of    (:func:`trigger_fired`) an
  and is taken                the trigger, for the rest of     interjection until it ends
                              the encounter
==========================  ===============================  ==============================
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.clock import ActNow, ClosePass, Reorder, Requeue
from engine.combat_state import Combat, Prompt, Trigger
from engine.errors import CommandRejected
from engine.events import CombatantActs
from engine.model import EncounterState, Scene
from engine.prompts import open_prompt
from engine.rulesets.base import Context, Result
from engine.rulesets.hero import budget
from engine.rulesets.hero.events import (
    DelayTaken,
    HoldLapsed,
    ReadiedActionTaken,
    Recovered,
)
from engine.rulesets.hero.state import PhaseUsage, forfeited, hero, in_state, put
from engine.turns import eligible

if TYPE_CHECKING:
    from engine.rulesets.hero import HeroSupplement

DELAYED_ACTION = "delayed_action"


def able(combat: Combat, cid: str) -> bool:
    """Whether ``cid`` can act now: in this Phase, and not unable to act."""
    return eligible(combat, cid) and not combat.has(cid, "cannot_act")


def skip_reason(combat: Combat, cid: str) -> str | None:
    """An aborted action, or a character who cannot act, is skipped (keeping its INIT)."""
    if forfeited(combat, cid):
        return "aborted"
    if combat.has(cid, "cannot_act"):
        return "cannot act"
    return None


def count_reached(state: EncounterState, cid: str) -> Result:
    """``cid``'s INIT came up this Phase (whether or not it acts): its defence ends, an
    abort lock on it lifts, and a delay or ready from an earlier Phase lapses ("if you
    come to your next action and have not yet performed" it)."""
    combat = state.combat
    assert combat is not None
    fight = hero(combat)
    locks = tuple(lock for lock in fight.abort_locks if lock != (cid, combat.turn, combat.phase))
    fight = replace(fight.with_defense(cid, None), abort_locks=locks)
    hold = fight.hold(cid)
    if hold is not None and hold.declared != (combat.turn, combat.phase):
        fight = fight.without_hold(cid)
        combat = replace(combat, triggers=tuple(t for t in combat.triggers if t.owner != cid))
        return replace(state, combat=put(combat, fight)), [HoldLapsed(cid, hold.kind)]
    return replace(state, combat=put(combat, fight)), []


def holds_lapsing(state: EncounterState) -> list[Any]:
    """The fight ends: every delayed or readied action still held lapses, in the order
    they were declared."""
    combat = state.combat
    assert combat is not None
    return [HoldLapsed(hold.combatant, hold.kind) for hold in hero(combat).holds]


def cut_in(state: EncounterState, cid: str) -> tuple[EncounterState, list[Any], str | None]:
    """A delay "just before" ``cid`` fires when its place in the order comes, whether or
    not ``cid`` can act itself: the delayer (returned; the walk moves it there) acts."""
    combat = state.combat
    assert combat is not None
    delayer = next(
        (
            h
            for h in hero(combat).holds
            if h.kind == "delay" and h.before == cid and h.combatant != cid
            and able(combat, h.combatant)
        ),
        None,
    )  # fmt: skip
    if delayer is None:
        return state, [], None
    # The walk moves the delayer to just before ``cid`` (and announces the new order).
    combat = put(combat, hero(combat).without_hold(delayer.combatant))
    return replace(state, combat=combat), [DelayTaken(delayer.combatant, cid)], delayer.combatant


def fresh_budget(state: EncounterState, cid: str) -> Result:
    """A fresh Phase budget for the one acting now."""
    combat = state.combat
    assert combat is not None
    return in_state(state, replace(hero(combat), usage=PhaseUsage())), []


def pass_started(state: EncounterState) -> Result:
    """A new Phase: nobody has used a manoeuvre in it yet."""
    combat = state.combat
    assert combat is not None
    return in_state(state, replace(hero(combat), phase_maneuvers=())), []


def waiting_delay(combat: Combat, after: int) -> str | None:
    """The first combatant, past index ``after`` in the order, still waiting on a delay
    with no place named that it declared this Phase and can take now."""
    fight = hero(combat)
    for index, cid in enumerate(combat.order):
        hold = fight.hold(cid)
        if (
            index > after and hold is not None and hold.kind == "delay"
            and hold.before is None and hold.declared == (combat.turn, combat.phase)
            and able(combat, cid)
        ):  # fmt: skip
            return cid
    return None


def pass_ended(state: EncounterState, after: int = -1) -> Result:
    """Everyone in the order has had its place this Phase.  A delay with no place named
    ("just wait until some time later and act then") may still be taken now, at the end
    of the sequence: its controller is asked (``delayed_action`` prompt), one delayer at a
    time in INIT order.  Declined, the delay keeps waiting into the next Phase, where it
    can be taken before the delayer's regular action (which it then replaces) or lapses
    when that action comes (seed 000, *Delay*)."""
    combat, scene = state.combat, state.scene
    assert combat is not None and isinstance(scene, Scene)
    waiting = waiting_delay(combat, after)
    if waiting is None:
        return state, []
    holder = scene.token(waiting)
    assert holder is not None
    state, asked = open_prompt(
        state, DELAYED_ACTION, holder.owner, waiting, waiting, holder.cell, (0.0, 0.0)
    )
    return state, [asked]


def answer_delay(state: EncounterState, prompt: Prompt, take: bool) -> Result:
    """The answer to a ``delayed_action`` prompt at the end of the Phase: ``take`` it now,
    after everyone else (the delayer's INIT becomes the last character's), or keep waiting
    (the next waiting delayer is asked, else the next Phase opens)."""
    combat = state.combat
    assert combat is not None
    delayer = prompt.attacker
    if not take:
        state, asked = pass_ended(state, after=combat.order.index(delayer))
        if asked:
            return state, asked
        return state, [ClosePass()]
    if not able(combat, delayer):  # the GM ruled it out meanwhile
        raise CommandRejected("illegal_action", f"{delayer!r} cannot act now: decline instead")
    combat = put(combat, hero(combat).without_hold(delayer))
    return replace(state, combat=combat), [
        DelayTaken(delayer, None),
        _to_end(combat, delayer),
        ActNow(delayer),
    ]


def _to_end(combat: Combat, who: str) -> Requeue:
    """The order with ``who`` acting last, with the last combatant's INIT score."""
    order = (*(c for c in combat.order if c != who), who)
    scores = dict(combat.scores)
    scores[who] = scores[order[-2]] if len(order) > 1 else scores[who]
    return Requeue(order, tuple((cid, scores[cid]) for cid in order))


def post_turn(state: EncounterState, ruleset: HeroSupplement) -> Result:
    """Post-Turn Recovery: every eligible character Takes a Recovery."""
    combat, scene = state.combat, state.scene
    assert combat is not None and isinstance(scene, Scene)
    fight = hero(combat)
    events: list[Any] = []
    vitals = []
    for current in fight.vitals:
        token = scene.token(current.combatant)
        if token is not None and ruleset.recovers(combat, token):
            after = ruleset.recovery(token, current)
            events.append(
                Recovered(
                    token.id, combat.turn, (current.end, after.end), (current.stun, after.stun)
                )
            )
            vitals.append(after)
        else:
            vitals.append(current)
    return in_state(state, replace(fight, vitals=tuple(vitals))), events


def fire_ready(ctx: Context, trigger: Trigger, by: str) -> Result:
    """A readied action's trigger came and its controller took it: the holder acts now
    (the core has made it the interjector), just ahead of ``by``, for the rest of the
    encounter; the 1 m step comes with it only if the holder did not otherwise move."""
    combat, holder = ctx.combat, ctx.token
    fight = hero(combat)
    hold = fight.hold(holder.id)
    if hold is None:
        raise CommandRejected("no_hold", f"{holder.id!r} holds no readied action")
    if not able(combat, holder.id):
        raise CommandRejected("illegal_action", f"{holder.id!r} cannot act now")
    fight = replace(
        fight.without_hold(holder.id),
        interjection_usage=PhaseUsage(movement="combat" if hold.moved else None),
    )
    combat = put(combat, fight)
    movement = budget.movement_left(holder, PhaseUsage(), True) if hold.action == "move" else 0.0
    events: list[Any] = [
        ReadiedActionTaken(holder.id, by, hold.action or "attack"),
        Reorder(holder.id, by),
        CombatantActs(holder.id, ctx.ruleset.clock(combat), True, movement),
    ]
    return replace(ctx.state, combat=combat), events
