"""The encounter: commands in, events out, state a plain value.

``Encounter.apply(command)`` checks the command against the current state, and either
raises :class:`~engine.errors.CommandRejected` having changed nothing, or installs the
new state and returns the events that explain the change.  Asking is separate from
doing (python-chess's ``is_legal`` beside ``push``): :meth:`Encounter.options` answers
"what may this combatant do now?" without touching anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.checks import (
    acting_limited,
    combat_and_ruleset,
    controlled_token,
    require_no_prompts,
    require_turn,
)
from engine.commands import GM, Command
from engine.errors import CommandRejected
from engine.events import Event
from engine.handlers import HANDLERS
from engine.model import EncounterState
from engine.serial import state_hash
from engine.spatial import SpatialCache


@dataclass(frozen=True, slots=True)
class Options:
    """What a combatant may do right now, for the VTT to offer (and nothing else)."""

    token: str
    can_act: bool
    reason: str | None
    movement_left: float
    can_end_phase: bool
    open_prompts: tuple[str, ...]


class Encounter:
    """One table's fight.  Not thread-safe; the bridge serialises commands per table."""

    def __init__(self, state: EncounterState | None = None) -> None:
        self._state = state if state is not None else EncounterState()
        self._spatial = SpatialCache()

    @property
    def state(self) -> EncounterState:
        """The current state (an immutable value)."""
        return self._state

    def state_hash(self) -> str:
        """SHA-256 of the canonical form of the state."""
        return state_hash(self._state)

    def apply(self, command: Command) -> list[Event]:
        """Apply ``command``; return its events, or raise ``CommandRejected`` changing nothing."""
        handler = HANDLERS[type(command)]
        new_state, events = handler(self._state, command, self._spatial)
        self._state = new_state
        return events

    def options(self, token_id: str, actor: str = GM) -> Options:
        """What ``actor`` may do with ``token_id`` now."""
        state = self._state
        try:
            token = controlled_token(state, actor, token_id)
            combat, ruleset = combat_and_ruleset(state)
            require_turn(combat, token)
            require_no_prompts(combat)
        except CommandRejected as refusal:
            prompts = prompts_for(state, actor)
            return Options(token_id, False, refusal.message, 0.0, False, prompts)
        left = ruleset.movement_left(token, combat.current_usage, acting_limited(combat))
        return Options(token_id, True, None, left, True, ())


def prompts_for(state: EncounterState, actor: str) -> tuple[str, ...]:
    """The open prompts ``actor`` may answer."""
    if state.combat is None:
        return ()
    return tuple(p.id for p in state.combat.prompts if actor in (p.controller, GM))


def replay_commands(commands: Sequence[Command]) -> Encounter:
    """A fresh encounter with ``commands`` applied in order (all must be accepted)."""
    encounter = Encounter()
    for command in commands:
        encounter.apply(command)
    return encounter
