"""Effects with durations that end at a point in the order.

An :class:`~engine.combat_state.Effect` lasting N Turns (Rounds) ends just before the
initiative count at which it began, N Turns later: when the walk over the order
(:mod:`engine.turns`) is about to reach the first combatant whose score is at or below
that count, or at the end of that pass if nobody is left at or below it.  Keying the
end to the count rather than to the combatant who started it keeps it right when that
combatant is skipped, has left, or the order changed.  Several combatants sharing the
count (a group) make no difference: the effect ends before the first of them.  The GM
sets and ends effects with ``set_effect`` / ``end_effect``; a ruleset starts them with
:func:`start_effect` from its actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.combat_state import Combat, Effect
from engine.copies import replace
from engine.events import EffectEnded, EffectStarted
from engine.model import EncounterState
from engine.timewords import TimeWords

if TYPE_CHECKING:
    from engine.clock import TimeHooks

Result = tuple[EncounterState, list[Any]]


def later(turn: int, phase: int, passes: int, per_turn: int) -> tuple[int, int]:
    """The (turn, phase) ``passes`` passes after (turn, phase); the surprise pass
    (phase 0) counts as one pass before the first regular one."""
    for _ in range(passes):
        if phase == 0:
            turn, phase = 1, 1
        elif phase < per_turn:
            phase += 1
        else:
            turn, phase = turn + 1, 1
    return turn, phase


def current_count(combat: Combat) -> int:
    """The count the fight stands at: the score of whoever's count it is now."""
    return combat.score_of(combat.order[combat.acting]) or 0


def start_effect(
    combat: Combat,
    name: str,
    token: str | None,
    source: str,
    rounds: int | None,
    words: TimeWords,
) -> tuple[Combat, EffectStarted]:
    """``combat`` with a new effect beginning now and lasting ``rounds`` Turns or Rounds
    (None: until ended), and its event (the end said in the game's ``words``)."""
    count = current_count(combat)
    per_turn = words.passes
    ends = None if rounds is None else later(combat.turn, combat.phase, rounds * per_turn, per_turn)
    effect = Effect(
        f"e{combat.next_effect}", name, token, source, (combat.turn, combat.phase), count, ends
    )
    combat = replace(combat, effects=(*combat.effects, effect), next_effect=combat.next_effect + 1)
    clock = None if ends is None else words.reading(*ends)
    return combat, EffectStarted(effect.id, name, token, source, count, clock)


def end_effect(combat: Combat, effect_id: str, reason: str) -> tuple[Combat, EffectEnded | None]:
    """``combat`` without effect ``effect_id``, and the event (None: no such effect)."""
    effect = next((e for e in combat.effects if e.id == effect_id), None)
    if effect is None:
        return combat, None
    rest = tuple(e for e in combat.effects if e.id != effect_id)
    return replace(combat, effects=rest), EffectEnded(effect.id, effect.name, effect.token, reason)


def due(combat: Combat, score: int | None) -> tuple[Effect, ...]:
    """The effects that end now, as the walk reaches a combatant with ``score`` (None:
    the pass is over)."""
    now = (combat.turn, combat.phase)
    return tuple(
        e
        for e in combat.effects
        if e.ends is not None
        and (now > e.ends or (now == e.ends and (score is None or score <= e.count)))
    )


def expire(state: EncounterState, ruleset: TimeHooks, score: int | None) -> Result:
    """End every effect due before ``score`` comes up (or at the pass's end), telling
    the ruleset of each."""
    combat = state.combat
    assert combat is not None
    events: list[Any] = []
    for effect in due(combat, score):
        combat, ended = end_effect(combat, effect.id, "expired")
        assert ended is not None
        events.append(ended)
        state, more = notify_ended(replace(state, combat=combat), ruleset, effect)
        events += more
        combat = state.combat
        assert combat is not None
    return state, events


def notify_ended(state: EncounterState, ruleset: TimeHooks, effect: Effect) -> Result:
    """Tell the ruleset that ``effect`` ended."""
    result: Result = ruleset.effect_ended(state, effect)
    return result
