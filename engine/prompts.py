"""Opening a prompt: the one place prompt ids are numbered and prompts announced."""

from __future__ import annotations

from engine.combat_state import Prompt
from engine.copies import replace
from engine.events import PromptOpened
from engine.model import EncounterState, Position
from geometry import Point


def open_prompt(
    state: EncounterState,
    kind: str,
    controller: str,
    attacker: str,
    target: str,
    at: Position,
    point: Point,
) -> tuple[EncounterState, PromptOpened]:
    """``state`` with a new prompt ``p<n>`` waiting on ``controller``, and its event."""
    combat = state.combat
    assert combat is not None
    prompt = Prompt(f"p{state.next_prompt}", kind, controller, attacker, target, at, point)
    combat = replace(combat, prompts=(*combat.prompts, prompt))
    event = PromptOpened(prompt.id, kind, controller, attacker, target, at, point)
    return replace(state, combat=combat, next_prompt=state.next_prompt + 1), event


#: The prompt kinds the core opens and answers itself; any other kind is a ruleset's own
#: (answered through its ``prompt_answered`` hook).
CORE_PROMPTS = ("attack_of_opportunity", "readied_action", "continue_after_hit")
