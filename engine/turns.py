"""Turn structure: who acts next, and when a Phase, a Turn or the Surprise Phase ends.

Theory of operation
-------------------
Everything that moves time forward lives in this module, as h11 keeps its state
machine in one file.  Time is ``(turn, phase, acting)``: the Turn number, the Phase
within it (0 is the Surprise Phase) and the index of the acting combatant in the
initiative order.  ``phases_per_turn`` comes from the ruleset: 4 for the Hero
supplement (a 12 s Turn of 3 s Phases), 1 for games whose Round is one pass.

The transitions, one row each (``TRANSITIONS`` below is the same table as data):

==========================  ===============================  ==============================
where we are                what happens                     where we go
==========================  ===============================  ==============================
no combat                   start, some but not all aware    Surprise Phase (phase 0)
no combat                   start, none or all aware         Turn 1 Phase 1
acting X                    X is done                        next combatant in the order
next is Y, Y aborted        (Y gave up this action)          skip Y, keep looking
next is Y, Y cannot act     (unconscious, paralysed...)      skip Y; it keeps its INIT
next is Y, D delays         D said "just before Y"           D moves before Y and acts
  "before Y"
next is Y, R readied on     R's trigger has come             Y is up; R is asked first
  Y's action                                                 (``readied_action`` prompt)
next is Y, Y holds an old   Y's next action has come         the hold lapses, Y acts
  delay or ready                                               (it may delay again)
next is Y, D took a delay   D takes it (``take_delayed``)    D moves before Y and acts; in
  in an earlier Phase                                          a later Phase D's own place
                                                               is gone: no regular action
order done, D waits on a    D's controller is asked          D acts last (its INIT the
  delay with no place       (``delayed_action`` prompt)      last one's), or keeps waiting
  named                                                        into the next Phase
last of the Surprise Phase  done                             Turn 1 Phase 1
last of Phase p < N         done                             Phase p + 1
last of Phase N             done                             Post-Turn Recovery, Turn t + 1
==========================  ===============================  ==============================

"Eligible" is a question for this module too: in the Surprise Phase only the aware act
(seed 000, *Surprise*); in every other Phase everyone in the order does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.combat_state import Combat, PhaseUsage
from engine.effects import expire
from engine.errors import CommandRejected
from engine.events import (
    CombatantActs,
    CombatantDone,
    CombatantSkipped,
    DelayTaken,
    HoldLapsed,
    InitiativeOrder,
    PhaseStarted,
    Recovered,
)
from engine.model import EncounterState, Scene
from engine.prompts import open_prompt

TRANSITIONS: tuple[tuple[str, str, str], ...] = (
    ("no combat", "start, some but not all aware", "surprise phase"),
    ("no combat", "start, none or all aware", "turn 1 phase 1"),
    ("acting", "done", "next combatant in the order"),
    ("next has aborted", "skip", "keep looking"),
    ("next cannot act", "skip, keeps INIT", "keep looking"),
    ("next has a delayer before it", "delayer moves up", "delayer acts"),
    ("next triggers a readied action", "prompt the readier", "next acts after"),
    ("next holds an old delay or ready", "hold lapses", "next acts"),
    ("next is up, a delay from an earlier phase is taken", "delayer moves up", "delayer acts"),
    ("order done, a delay with no place waits", "ask the delayer", "delayer acts or waits on"),
    ("last of surprise phase", "done", "turn 1 phase 1"),
    ("last of phase p < N", "done", "phase p + 1"),
    ("last of phase N", "done", "post-turn recovery, turn t + 1 phase 1"),
)

Result = tuple[EncounterState, list[Any]]
#: The ruleset of a fight.  ``Any`` while the Hero supplement still answers through the
#: hooks it had before the seam (:func:`legacy`); every other ruleset is a
#: :class:`~engine.rulesets.base.Ruleset`.
Ruleset = Any


def legacy(ruleset: Any) -> bool:
    """Whether ``ruleset`` is the Hero supplement's pre-seam shape (being moved)."""
    return hasattr(ruleset, "plan_movement")


def _combat(state: EncounterState) -> Combat:
    combat = state.combat
    assert combat is not None
    return combat


def has_surprise_phase(aware: tuple[str, ...], everyone: tuple[str, ...]) -> bool:
    """A Surprise Phase happens only if some but not all characters are aware."""
    return 0 < len(set(aware) & set(everyone)) < len(everyone)


def eligible(combat: Combat, combatant_id: str) -> bool:
    """Whether ``combatant_id`` acts in the current Phase at all."""
    return not combat.surprise or combatant_id in combat.aware


def limited(combat: Combat) -> bool:
    """Whether the current Phase allows only one attack or one move action."""
    return combat.surprise


def reorder(combat: Combat, who: str, target: str) -> Combat:
    """``who`` now acts immediately before ``target``, with ``target``'s INIT score ("your
    INIT changes to when you took the delayed/readied action"); ``acting`` keeps pointing
    at the same combatant."""
    current = combat.order[combat.acting]
    rest = [c for c in combat.order if c != who]
    rest.insert(rest.index(target), who)
    scores = dict(combat.scores)
    scores[who] = scores[target]
    order = tuple(rest)
    return replace(
        combat,
        order=order,
        acting=order.index(current),
        scores=tuple((cid, scores[cid]) for cid in order),
    )


def begin(state: EncounterState, ruleset: Ruleset) -> Result:
    """Open the first Phase of a new combat (the Surprise Phase when there is one)."""
    combat = state.combat
    assert combat is not None
    first_phase = 0 if has_surprise_phase(combat.aware, combat.order) else 1
    return _open_phase(state, ruleset, turn=1, phase=first_phase)


def advance(state: EncounterState, ruleset: Ruleset) -> Result:
    """The acting combatant is done: hand the action to whoever is next."""
    combat = state.combat
    assert combat is not None
    events: list[Any] = [CombatantDone(combat.actor, combat.turn, combat.phase)]
    state, more = _next_from(state, ruleset, combat.acting + 1, opened=0)
    return state, events + more


def resume_at(state: EncounterState, ruleset: Ruleset, index: int) -> Result:
    """Walk on from ``index`` in the order (after the one acting there left the fight)."""
    return _next_from(state, ruleset, index, opened=0)


def next_phase(turn: int, phase: int, per_turn: int) -> tuple[int, int]:
    """The (turn, phase) after ``phase``: the Surprise Phase leads to Turn 1 Phase 1, the
    last Phase of a Turn to the next Turn's first."""
    if phase == 0:
        return 1, 1
    if phase < per_turn:
        return turn, phase + 1
    return turn + 1, 1


def able(combat: Combat, cid: str) -> bool:
    """Whether ``cid`` can act at all now (in this Phase, and not unable to act)."""
    return eligible(combat, cid) and not combat.has(cid, "cannot_act")


def _next_from(state: EncounterState, ruleset: Ruleset, index: int, *, opened: int) -> Result:
    combat = state.combat
    assert combat is not None
    events: list[Any] = []
    while index < len(combat.order):
        cid = combat.order[index]
        # Effects end just before their count comes up, whoever stands there now.
        state, ended = expire(replace(state, combat=combat), ruleset, combat.score_of(cid))
        events += ended
        combat = _combat(state)
        if not eligible(combat, cid):
            index += 1
            continue
        if not legacy(ruleset):
            state, cut, who = ruleset.cut_in(replace(state, combat=combat), cid)
            events += cut
            combat = _combat(state)
            if who is not None:
                state, more = start_acting(state, ruleset, combat.order.index(who))
                return state, events + more
            skip = ruleset.skip_reason(combat, cid)
            if skip is not None:
                events.append(CombatantSkipped(cid, combat.turn, combat.phase, skip))
                state, reached = ruleset.count_reached(replace(state, combat=combat), cid)
                events += reached
                combat = _combat(state)
                index += 1
                continue
            state, more = start_acting(replace(state, combat=combat), ruleset, index)
            return state, events + more
        # A delay "just before" someone fires when their place in the order comes,
        # whether or not they can act themselves.
        delayer = next(
            (
                h
                for h in combat.holds
                if h.kind == "delay" and h.before == cid and h.combatant != cid
                and able(combat, h.combatant)
            ),
            None,
        )  # fmt: skip
        if delayer is not None:
            combat = reorder(
                replace(combat.without_hold(delayer.combatant), acting=index),
                delayer.combatant,
                cid,
            )
            events += [
                DelayTaken(delayer.combatant, cid),
                InitiativeOrder(combat.order, combat.scores),
            ]
            index = combat.order.index(delayer.combatant)
            state, more = start_acting(replace(state, combat=combat), ruleset, index)
            return state, events + more
        if combat.forfeited(cid) or combat.has(cid, "cannot_act"):
            reason = "aborted" if combat.forfeited(cid) else "cannot act"
            events.append(CombatantSkipped(cid, combat.turn, combat.phase, reason))
            combat, lapsed = _reached(combat, cid)
            events += lapsed
            index += 1
            continue
        state, more = start_acting(replace(state, combat=combat), ruleset, index)
        return state, events + more
    # The order is done: effects due by now end, and the ruleset may let someone act
    # at the end of the pass.
    state, ended = expire(replace(state, combat=combat), ruleset, None)
    events += ended
    combat = _combat(state)
    if not legacy(ruleset):
        state, late, who = ruleset.pass_ended(state)
        events += late
        combat = _combat(state)
        if who is not None:
            state, more = start_acting(state, ruleset, combat.order.index(who))
            return state, events + more
    state = replace(state, combat=combat)
    state, more = _order_done(state, ruleset, after=-1, opened=opened)
    return state, events + more


def waiting_delay(combat: Combat, after: int) -> str | None:
    """The first combatant, past index ``after`` in the order, still waiting on a delay
    with no place named that it declared this Phase and can take now."""
    for index, cid in enumerate(combat.order):
        hold = combat.hold(cid)
        if (
            index > after and hold is not None and hold.kind == "delay"
            and hold.before is None and hold.declared == (combat.turn, combat.phase)
            and able(combat, cid)
        ):  # fmt: skip
            return cid
    return None


def _order_done(state: EncounterState, ruleset: Ruleset, *, after: int, opened: int) -> Result:
    """Everyone in the order has had its place this Phase.  A delay with no place named
    ("just wait until some time later and act then") may still be taken now, at the end
    of the sequence: its controller is asked (``delayed_action`` prompt), one delayer at a
    time in INIT order.  Declined, the delay keeps waiting into the next Phase, where it
    can be taken before the delayer's regular action (which it then replaces) or lapses
    when that action comes (seed 000, *Delay*)."""
    combat, scene = state.combat, state.scene
    assert combat is not None and isinstance(scene, Scene)
    waiting = waiting_delay(combat, after)
    if waiting is not None:
        holder = scene.token(waiting)
        assert holder is not None
        state, asked = open_prompt(
            state, "delayed_action", holder.owner, waiting, waiting, holder.cell, (0.0, 0.0)
        )
        return state, [asked]
    if opened:
        raise CommandRejected(
            "illegal_action",
            "nobody could act in the whole next Phase: clear a cannot_act condition first",
        )
    events: list[Any] = []
    turn, phase = next_phase(combat.turn, combat.phase, ruleset.phases_per_turn)
    if turn > combat.turn:  # the last Phase of a Turn is done: Post-Turn first
        if legacy(ruleset):
            state, recovered = _post_turn(state, ruleset)
        else:
            state, recovered = ruleset.turn_ended(state)
        events += recovered
    state, more = _open_phase(state, ruleset, turn=turn, phase=phase, opened=opened + 1)
    return state, events + more


def answer_delay(state: EncounterState, ruleset: Ruleset, delayer: str, take: bool) -> Result:
    """The answer to a ``delayed_action`` prompt at the end of the Phase: ``take`` it now,
    after everyone else (the delayer's INIT becomes the last character's), or keep waiting
    (the next waiting delayer is asked, else the next Phase opens)."""
    combat = state.combat
    assert combat is not None
    if not take:
        return _order_done(state, ruleset, after=combat.order.index(delayer), opened=0)
    if not able(combat, delayer):  # the GM ruled it out meanwhile
        raise CommandRejected("illegal_action", f"{delayer!r} cannot act now: decline instead")
    combat = _to_end(combat.without_hold(delayer), delayer)
    events: list[Any] = [DelayTaken(delayer, None), InitiativeOrder(combat.order, combat.scores)]
    state, more = start_acting(replace(state, combat=combat), ruleset, len(combat.order) - 1)
    return state, events + more


def _to_end(combat: Combat, who: str) -> Combat:
    """``who`` now acts last, with the last combatant's INIT score."""
    current = combat.order[combat.acting]
    order = (*(c for c in combat.order if c != who), who)
    scores = dict(combat.scores)
    scores[who] = scores[order[-2]] if len(order) > 1 else scores[who]
    return replace(
        combat,
        order=order,
        acting=order.index(current),
        scores=tuple((cid, scores[cid]) for cid in order),
    )


def _open_phase(
    state: EncounterState, ruleset: Ruleset, *, turn: int, phase: int, opened: int = 0
) -> Result:
    combat = state.combat
    assert combat is not None
    fresh = replace(combat, turn=turn, phase=phase, opportunity_attacks=(), phase_maneuvers=())
    state = replace(state, combat=fresh)
    events: list[Any] = [PhaseStarted(turn, phase, surprise=phase == 0)]
    state, more = _next_from(state, ruleset, 0, opened=opened)
    return state, events + more


def _reached(combat: Combat, cid: str) -> tuple[Combat, list[Any]]:
    """``cid``'s INIT came up this Phase (whether or not it acts): its defence ends, an
    abort lock on it lifts, and a delay or ready from an earlier Phase lapses ("if you
    come to your next action and have not yet performed" it)."""
    locks = tuple(lock for lock in combat.abort_locks if lock != (cid, combat.turn, combat.phase))
    combat = replace(combat.with_defense(cid, None), abort_locks=locks)
    hold = combat.hold(cid)
    if hold is not None and hold.declared != (combat.turn, combat.phase):
        return combat.without_hold(cid), [HoldLapsed(cid, hold.kind)]
    return combat, []


def start_acting(state: EncounterState, ruleset: Ruleset, index: int) -> Result:
    """The combatant at ``index`` acts now: its INIT has come (or it took a delayed action)."""
    combat = state.combat
    scene = state.scene
    assert combat is not None and isinstance(scene, Scene)
    cid = combat.order[index]
    token = scene.token(cid)
    assert token is not None, f"combatant {cid!r} left the scene mid-combat"
    if legacy(ruleset):
        combat, events = _reached(combat, cid)
        combat = replace(combat, acting=index, usage=PhaseUsage(), interjection=None)
        movement = ruleset.movement_left(token, combat.usage, limited(combat))
        events.append(CombatantActs(cid, combat.turn, combat.phase, limited(combat), movement))
        state = replace(state, combat=combat)
    else:
        state, events = ruleset.count_reached(state, cid)
        combat = replace(_combat(state), acting=index, usage=PhaseUsage(), interjection=None)
        state, started = ruleset.start_acting(replace(state, combat=combat), cid)
        combat = _combat(state)
        restricted = ruleset.limited(combat, cid)
        movement = ruleset.movement_left(combat, token)
        events += [*started, CombatantActs(cid, combat.turn, combat.phase, restricted, movement)]
        # Triggers set off by this combatant's action fire just before it.
        for trigger in combat.triggers:
            if trigger.on == "action" and trigger.by == cid:
                holder = scene.token(trigger.owner)
                if holder is not None and ruleset.can_act(combat, holder.id):
                    state, opened = open_prompt(
                        state,
                        "readied_action",
                        holder.owner,
                        holder.id,
                        cid,
                        token.cell,
                        (0.0, 0.0),
                    )
                    events.append(opened)
        return state, events
    # A readied action triggered by this combatant's action fires just before it.
    readied = [h for h in combat.holds if h.kind == "ready" and h.trigger_by == cid and not h.area]
    for ready in readied:
        holder = scene.token(ready.combatant)
        if holder is not None and able(combat, holder.id):
            state, opened = open_prompt(
                state, "readied_action", holder.owner, holder.id, cid, token.cell, (0.0, 0.0)
            )
            events.append(opened)
    return state, events


def _post_turn(state: EncounterState, ruleset: Ruleset) -> Result:
    combat, scene = state.combat, state.scene
    assert combat is not None and isinstance(scene, Scene)
    events: list[Any] = []
    vitals = []
    for current in combat.vitals:
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
    return replace(state, combat=replace(combat, vitals=tuple(vitals))), events
