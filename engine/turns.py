"""Turn structure: who acts next, and when a Phase, a Turn or the Surprise Phase ends.

Theory of operation
-------------------
Everything that moves time forward lives in this module, as h11 keeps its state
machine in one file.  Time is ``(turn, phase, acting)``: the Turn number, the Phase
within it (0 is the Surprise Phase) and the index of the acting combatant in the
initiative order.  ``phases_per_turn`` comes from the ruleset: 4 for the Hero
supplement (a 12 s Turn of 3 s Phases), 1 for games whose Round is one pass.

The transitions, one row each (``TRANSITIONS`` below is the same table as data):

====================  ==========================  ====================================
where we are          what happens                where we go
====================  ==========================  ====================================
no combat             start, some but not all     Surprise Phase (phase 0), first
                      aware                       aware combatant, limited actions
no combat             start, none or all aware    Turn 1 Phase 1, first combatant
acting X              X is done, someone after    next eligible combatant, same Phase
                      X may act this Phase
last of the Surprise  done                        Turn 1 Phase 1, first combatant
last of Phase p < N   done                        Phase p + 1, first combatant
last of Phase N       done                        Post-Turn, then Turn t + 1 Phase 1
====================  ==========================  ====================================

"Eligible" is a question for this module too: in the Surprise Phase only the aware act
(seed 000, *Surprise*); in every other Phase everyone in the order does.
"""

from __future__ import annotations

from dataclasses import replace

from engine.events import CombatantActs, CombatantDone, PhaseStarted
from engine.model import Combat, PhaseUsage, Scene
from engine.rulesets.base import Ruleset

TurnEvent = PhaseStarted | CombatantActs | CombatantDone

TRANSITIONS: tuple[tuple[str, str, str], ...] = (
    ("no combat", "start, some but not all aware", "surprise phase"),
    ("no combat", "start, none or all aware", "turn 1 phase 1"),
    ("acting", "done, an eligible combatant follows", "next combatant, same phase"),
    ("last of surprise phase", "done", "turn 1 phase 1"),
    ("last of phase p < N", "done", "phase p + 1"),
    ("last of phase N", "done", "post-turn, turn t + 1 phase 1"),
)


def has_surprise_phase(aware: tuple[str, ...], everyone: tuple[str, ...]) -> bool:
    """A Surprise Phase happens only if some but not all characters are aware."""
    return 0 < len(set(aware) & set(everyone)) < len(everyone)


def eligible(combat: Combat, combatant_id: str) -> bool:
    """Whether ``combatant_id`` acts in the current Phase."""
    return not combat.surprise or combatant_id in combat.aware


def limited(combat: Combat) -> bool:
    """Whether the current Phase allows only one attack or one move action."""
    return combat.surprise


def begin(combat: Combat, ruleset: Ruleset, scene: Scene) -> tuple[Combat, list[TurnEvent]]:
    """Open the first Phase of a new combat (the Surprise Phase when there is one)."""
    first_phase = 0 if has_surprise_phase(combat.aware, combat.order) else 1
    return _open_phase(combat, ruleset, scene, turn=1, phase=first_phase)


def advance(combat: Combat, ruleset: Ruleset, scene: Scene) -> tuple[Combat, list[TurnEvent]]:
    """The acting combatant is done: hand the action to whoever is next."""
    events: list[TurnEvent] = [CombatantDone(combat.actor, combat.turn, combat.phase)]
    for index in range(combat.acting + 1, len(combat.order)):
        if eligible(combat, combat.order[index]):
            following, more = _start_acting(combat, ruleset, scene, index)
            return following, events + more
    if combat.phase == 0:
        turn, phase = 1, 1
    elif combat.phase < ruleset.phases_per_turn:
        turn, phase = combat.turn, combat.phase + 1
    else:
        turn, phase = combat.turn + 1, 1
    following, more = _open_phase(combat, ruleset, scene, turn=turn, phase=phase)
    return following, events + more


def _open_phase(
    combat: Combat, ruleset: Ruleset, scene: Scene, *, turn: int, phase: int
) -> tuple[Combat, list[TurnEvent]]:
    opened = replace(combat, turn=turn, phase=phase, opportunity_attacks=())
    events: list[TurnEvent] = [PhaseStarted(turn, phase, surprise=phase == 0)]
    first = next(i for i, cid in enumerate(opened.order) if eligible(opened, cid))
    following, more = _start_acting(opened, ruleset, scene, first)
    return following, events + more


def _start_acting(
    combat: Combat, ruleset: Ruleset, scene: Scene, index: int
) -> tuple[Combat, list[TurnEvent]]:
    acting = replace(combat, acting=index, usage=PhaseUsage())
    token = scene.token(acting.actor)
    assert token is not None, f"combatant {acting.actor!r} left the scene mid-combat"
    movement = ruleset.movement_left(token, acting.usage, limited(acting))
    event = CombatantActs(acting.actor, acting.turn, acting.phase, limited(acting), movement)
    return acting, [event]
