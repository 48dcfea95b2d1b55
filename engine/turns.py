"""Turn structure: who acts next, and when a pass over the order, or a Turn, ends.

Theory of operation
-------------------
Everything that moves time forward lives in this module, as h11 keeps its state
machine in one file; what a game adds at each step it says through the ruleset's hooks
(:class:`~engine.clock.TimeHooks`, part of :class:`~engine.hooks.RulesetHooks`, which
:class:`~engine.rulesets.base.Ruleset` implements), never here, and what it wants of
the clock it asks with values (below).
Time is ``(turn, phase, acting)``: the Turn (Round) number, the pass within it
(``phase``; 0 is a surprise pass) and the index of the acting combatant in the
initiative order.  A ruleset's ``phases_per_turn`` says how many passes make a Turn: 4
for the Hero supplement (a 12 s Turn of 3 s Phases), 1 for games whose Round is one
pass.

The walk, one row per step (each function below is one row or two):

==========================  ===============================  ==============================
where the walk is           what happens                     where it goes
==========================  ===============================  ==============================
no combat                   start; the ruleset says there    surprise pass (phase 0), else
                              is a surprise (some aware)       Turn 1 pass 1 (:func:`begin`)
a pass opens                opportunity attacks reset,       the first in the order
                              ``pass_started``                 (:func:`_open_phase`)
X's count comes up          effects due before it end        (:mod:`engine.effects`)
X's count, surprise pass,   X is unaware                     skip X silently
X's count comes up          ``cut_in``: someone acts just    that one acts
                              before X
X's count comes up          ``skip_reason``: X does not act  skip X (``combatant_skipped``),
                              now                              ``count_reached``
X's count comes up          ``count_reached``,               X acts (:func:`start_acting`);
                              ``start_acting``                 triggers on X's action prompt
X is done                   ``combatant_done``               the next in the order
                                                               (:func:`advance`)
the order is done           effects due end; ``pass_ended``  someone acts, a prompt waits,
                              may let someone act or ask       or the pass closes
the pass closes             the last of a Turn:              the next pass (:func:`close_pass`)
                              ``turn_ended``
==========================  ===============================  ==============================

A combatant in the surprise pass acts only if aware (:func:`eligible`); every other
pass, everyone in the order has its count.

What a ruleset asks of the clock
--------------------------------
A ruleset never calls the steps above.  Its action returns clock requests
(:mod:`engine.clock`) among its events and :func:`engine.fight.act` settles them
(``prompt_answered`` and ``trigger_fired`` results are not settled by their caller yet:
such a hook calls :func:`settle` itself).  :func:`settle` replaces each with the events
of the step :data:`STEPS` names for its type, in place, so the log reads in the order
things happened.  ``cut_in`` returns who cuts in, and the walk applies a ``Reorder``
for it.  The table, read by :func:`settle`:

=======================  =============================================================
request                  step
=======================  =============================================================
``Advance()``            :func:`advance`: ``combatant_done``, then the next count
``ActNow(who)``          :func:`start_acting` at ``who``'s place
``Reorder(who, before)`` :func:`reorder` (whoever acts stays acting),
                           ``initiative_order``
``Requeue(order, ...)``  the order resorted (same combatants; whoever acts stays),
                           ``initiative_order``
``ClosePass()``          :func:`close_pass`
``ResumeAt(index)``      :func:`resume_at`
=======================  =============================================================

``tests/test_architecture.py`` fails on a ruleset module that imports a step from here
or sets ``acting``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from engine.clock import (
    ActNow,
    Advance,
    ClockRequest,
    ClosePass,
    Reorder,
    Requeue,
    ResumeAt,
    TimeHooks,
    next_phase,
)
from engine.combat_state import Combat
from engine.copies import replace
from engine.effects import expire
from engine.errors import CommandRejected
from engine.events import (
    CombatantActs,
    CombatantDone,
    CombatantSkipped,
    InitiativeOrder,
    PassStarted,
)
from engine.hooks import RulesetHooks
from engine.model import EncounterState, Scene
from engine.prompts import open_prompt

__all__ = [
    "STEPS",
    "Ruleset",
    "advance",
    "begin",
    "close_pass",
    "eligible",
    "has_surprise_phase",
    "limited",
    "next_phase",
    "reorder",
    "resume_at",
    "settle",
    "start_acting",
]

Result: TypeAlias = tuple[EncounterState, list[Any]]
#: The fight's ruleset as the core sees it (the seam's class implements it).
Ruleset: TypeAlias = RulesetHooks


def _combat(state: EncounterState) -> Combat:
    combat = state.combat
    assert combat is not None
    return combat


def has_surprise_phase(aware: tuple[str, ...], everyone: tuple[str, ...]) -> bool:
    """Some but not all are aware (the surprise rule the games here share)."""
    return 0 < len(set(aware) & set(everyone)) < len(everyone)


def eligible(combat: Combat, combatant_id: str) -> bool:
    """Whether ``combatant_id`` has a count in the current pass at all (in a surprise
    pass, only the aware do)."""
    return not combat.surprise or combatant_id in combat.aware


def limited(combat: Combat) -> bool:
    """Whether the current pass is a surprise pass (the rulesets limit what it allows)."""
    return combat.surprise


def reorder(combat: Combat, who: str, target: str) -> Combat:
    """``who`` now acts immediately before ``target``, with ``target``'s score (a delayed
    or held action taken there); ``acting`` keeps pointing at the same combatant."""
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


def begin(state: EncounterState, ruleset: TimeHooks) -> Result:
    """Open the first pass of a new combat (the surprise pass when the ruleset has one)."""
    combat = _combat(state)
    first_phase = 0 if ruleset.surprise(combat.aware, combat.order) else 1
    return _open_phase(state, ruleset, turn=1, phase=first_phase)


def advance(state: EncounterState, ruleset: TimeHooks) -> Result:
    """The acting combatant is done: hand the action to whoever is next."""
    combat = _combat(state)
    events: list[Any] = [CombatantDone(combat.actor, ruleset.clock(combat))]
    state, more = _next_from(state, ruleset, combat.acting + 1, opened=0)
    return state, events + more


def resume_at(state: EncounterState, ruleset: TimeHooks, index: int) -> Result:
    """Walk on from ``index`` in the order (after the one acting there left the fight)."""
    return _next_from(state, ruleset, index, opened=0)


def _next_from(state: EncounterState, ruleset: TimeHooks, index: int, *, opened: int) -> Result:
    combat = _combat(state)
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
        state, cut, who = ruleset.cut_in(state, cid)
        events += cut
        combat = _combat(state)
        if who is not None:
            # The one cutting in moves to just before ``cid``, from where it stands now.
            combat = replace(combat, acting=index)
            state, moved = _reorder(replace(state, combat=combat), ruleset, Reorder(who, cid))
            state, more = start_acting(state, ruleset, _combat(state).order.index(who))
            return state, events + moved + more
        skip = ruleset.skip_reason(combat, cid)
        if skip is not None:
            events.append(CombatantSkipped(cid, ruleset.clock(combat), skip))
            state, reached = ruleset.count_reached(state, cid)
            events += reached
            combat = _combat(state)
            index += 1
            continue
        state, more = start_acting(state, ruleset, index)
        return state, events + more
    # The order is done: effects due by now end, and the ruleset may let someone act at
    # the end of the pass, or ask (a prompt it opened holds the walk until answered).
    state, ended = expire(state, ruleset, None)
    events += ended
    prompts = len(_combat(state).prompts)
    state, late, who = ruleset.pass_ended(state)
    events += late
    if who is not None:
        state, more = start_acting(state, ruleset, _combat(state).order.index(who))
        return state, events + more
    if len(_combat(state).prompts) > prompts:
        return state, events
    state, more = close_pass(state, ruleset, opened=opened)
    return state, events + more


def close_pass(state: EncounterState, ruleset: TimeHooks, *, opened: int = 0) -> Result:
    """The pass is over: after the last of a Turn the ruleset's ``turn_ended`` (a
    Post-Turn, held actions lost ...), then the next pass opens."""
    combat = _combat(state)
    if opened:
        raise CommandRejected(
            "illegal_action",
            f"nobody could act in the whole next {ruleset.time_words.pass_name}: lift what "
            "keeps them from acting first",
        )
    events: list[Any] = []
    turn, phase = next_phase(combat.turn, combat.phase, ruleset.phases_per_turn)
    if turn > combat.turn:
        state, ended = ruleset.turn_ended(state)
        events += ended
    state, more = _open_phase(state, ruleset, turn=turn, phase=phase, opened=opened + 1)
    return state, events + more


def _open_phase(
    state: EncounterState, ruleset: TimeHooks, *, turn: int, phase: int, opened: int = 0
) -> Result:
    fresh = replace(_combat(state), turn=turn, phase=phase, opportunity_attacks=())
    events: list[Any] = [PassStarted(ruleset.clock(fresh), surprise=phase == 0)]
    state, started = ruleset.pass_started(replace(state, combat=fresh))
    events += started
    state, more = _next_from(state, ruleset, 0, opened=opened)
    return state, events + more


def start_acting(state: EncounterState, ruleset: TimeHooks, index: int) -> Result:
    """The combatant at ``index`` acts now: its count has come (or it cut in).  Triggers
    set off by its action prompt their owners just before it."""
    scene = state.scene
    assert isinstance(scene, Scene)
    cid = _combat(state).order[index]
    token = scene.token(cid)
    assert token is not None, f"combatant {cid!r} left the scene mid-combat"
    state, events = ruleset.count_reached(state, cid)
    combat = replace(_combat(state), acting=index, interjection=None)
    state, started = ruleset.start_acting(replace(state, combat=combat), cid)
    combat = _combat(state)
    restricted = ruleset.limited(combat, cid)
    movement = ruleset.movement_left(combat, token)
    events += [*started, CombatantActs(cid, ruleset.clock(combat), restricted, movement)]
    for trigger in combat.triggers:
        if trigger.on == "action" and trigger.by == cid:
            holder = scene.token(trigger.owner)
            if holder is not None and ruleset.can_act(combat, holder.id):
                kind, at = "readied_action", token.cell
                state, opened = open_prompt(
                    state, kind, holder.owner, holder.id, cid, at, (0.0, 0.0)
                )
                events.append(opened)
    return state, events


# -- clock requests ---------------------------------------------------------------------
# A ruleset asks for time with values (engine.clock); these steps are the only code that
# applies them, one per request type, read from STEPS by settle().


def _advance(state: EncounterState, ruleset: TimeHooks, request: Advance) -> Result:
    return advance(state, ruleset)


def _in_order(combat: Combat, *who: str) -> None:
    # A request naming someone outside the order is refused before anything moves.
    for cid in who:
        if cid not in combat.order:
            raise CommandRejected("not_in_combat", f"{cid!r} is not in the initiative order")


def _act_now(state: EncounterState, ruleset: TimeHooks, request: ActNow) -> Result:
    _in_order(_combat(state), request.who)
    return start_acting(state, ruleset, _combat(state).order.index(request.who))


def _reorder(state: EncounterState, ruleset: TimeHooks, request: Reorder) -> Result:
    _in_order(_combat(state), request.who, request.before)
    if request.who == request.before:
        raise CommandRejected("illegal_action", f"{request.who!r} cannot move before itself")
    combat = reorder(_combat(state), request.who, request.before)
    return replace(state, combat=combat), [InitiativeOrder(combat.order, combat.scores)]


def _requeue(state: EncounterState, ruleset: TimeHooks, request: Requeue) -> Result:
    combat = _combat(state)
    if sorted(request.order) != sorted(combat.order) or [c for c, _ in request.scores] != list(
        request.order
    ):
        raise CommandRejected(
            "illegal_action", "a new order must hold the same combatants, each with its score"
        )
    current = combat.regular_actor
    combat = replace(
        combat, order=request.order, scores=request.scores, acting=request.order.index(current)
    )
    return replace(state, combat=combat), [InitiativeOrder(combat.order, combat.scores)]


def _close_pass(state: EncounterState, ruleset: TimeHooks, request: ClosePass) -> Result:
    return close_pass(state, ruleset)


def _resume_at(state: EncounterState, ruleset: TimeHooks, request: ResumeAt) -> Result:
    if not 0 <= request.index <= len(_combat(state).order):
        raise CommandRejected("illegal_action", f"no place {request.index} in the order")
    return resume_at(state, ruleset, request.index)


Step: TypeAlias = Callable[[EncounterState, TimeHooks, Any], Result]

#: Request type -> the step that applies it: the walk's whole answer to a ruleset.
STEPS: dict[type[ClockRequest], Step] = {
    Advance: _advance,
    ActNow: _act_now,
    Reorder: _reorder,
    Requeue: _requeue,
    ClosePass: _close_pass,
    ResumeAt: _resume_at,
}


def settle(state: EncounterState, ruleset: TimeHooks, events: Sequence[Any]) -> Result:
    """Apply the clock requests (:data:`engine.clock.ClockRequest`) among ``events`` in
    order, each replaced by the events of its step; other events pass through."""
    out: list[Any] = []
    for item in events:
        step = STEPS.get(type(item))
        if step is None:
            out.append(item)
            continue
        state, more = step(state, ruleset, item)
        out += more
    return state, out


def is_request(item: object) -> bool:
    """Whether ``item`` is a clock request (for a caller that must not pass one on)."""
    return type(item) in STEPS
