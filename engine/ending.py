"""``end_combat``: the GM ends the fight and the table moves freely again.

Whatever the fight still holds open ends with its own event, so a client that watched
the fight sees each thing go: every open prompt (``prompt_closed``, outcome
``combat_ended``), a move paused on them (``move_stopped``), a combatant acting out of
turn (``interjection_ended``), every timed effect (``effect_ended``, reason
``combat_ended``, the ruleset told as when one expires), then what the ruleset holds
itself (held, readied and delayed actions: :meth:`~engine.rulesets.base.Ruleset.combat_ending`),
and last ``combat_ended``.  The state's ``combat`` becomes None.
"""

from __future__ import annotations

from typing import Any

from engine.checks import Result, combat_and_ruleset
from engine.commands import GM, EndCombat
from engine.copies import replace
from engine.effects import end_effect, notify_ended
from engine.errors import CommandRejected
from engine.events import CombatEnded, InterjectionEnded, MoveStopped, PromptClosed
from engine.model import EncounterState
from engine.spatial import SpatialCache

#: The outcome of a prompt, and the reason of an effect, the end of the fight closed.
ENDED = "combat_ended"


def end_combat(state: EncounterState, command: EndCombat, spatial: SpatialCache) -> Result:
    """End the running fight (GM only): see the module."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM may end combat, not {command.actor!r}")
    combat, ruleset = combat_and_ruleset(state)
    events: list[Any] = [PromptClosed(p.id, ENDED, command.actor) for p in combat.prompts]
    if combat.pending_move is not None:
        mover = state.scene.token(combat.pending_move.token) if state.scene else None
        if mover is not None:
            events.append(MoveStopped(mover.id, mover.cell, "the fight ended"))
    if combat.interjection is not None:
        events.append(InterjectionEnded(combat.interjection.combatant))
    state = replace(state, combat=replace(combat, prompts=(), pending_move=None, interjection=None))
    for effect in combat.effects:
        current = state.combat
        assert current is not None
        current, ended = end_effect(current, effect.id, ENDED)
        assert ended is not None
        events.append(ended)
        state, more = notify_ended(replace(state, combat=current), ruleset, effect)
        events += more
    events += ruleset.combat_ending(state)
    return replace(state, combat=None), [*events, CombatEnded(command.reason)]
