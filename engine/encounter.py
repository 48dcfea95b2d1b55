"""The encounter: commands in, events out, state a plain value.

``Encounter.apply(command)`` checks the command against the current state, and either
raises :class:`~engine.errors.CommandRejected` having changed nothing, or installs the
new state and returns the events that explain the change.  Asking is separate from
doing (python-chess's ``is_legal`` beside ``push``): :meth:`Encounter.options` answers
"what may this combatant do now?" without touching anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands import GM, Command
from engine.events import Event
from engine.gridless_board import GridlessBoard
from engine.handlers import HANDLERS
from engine.model import EncounterState, Position, Scene
from engine.options import Options, PathPlan, options, plan_path
from engine.serial import state_hash
from engine.spatial import SpatialCache
from engine.threat import PathExit, Threat, path_exits, threat
from geometry import ThreatIndex


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

    def adopt_index(self, scene: Scene, built: ThreatIndex | GridlessBoard) -> bool:
        """Take ``built``, the index (gridless: the board) of ``scene`` made elsewhere
        (:func:`engine.spatial.build_index`), so the first question about the scene
        does not build it again.  Taken only while ``scene`` is the current state's
        (the very object); returns whether it was (see
        :meth:`engine.spatial.SpatialCache.adopt`)."""
        if self._state.scene is not scene:
            return False
        return self._spatial.adopt(scene, built)

    def options(self, token_id: str, actor: str = GM) -> Options:
        """What ``actor`` may do with ``token_id`` now (see :mod:`engine.options`)."""
        return options(self._state, token_id, actor, self._spatial)

    def plan_path(
        self, token_id: str, goal: Position, actor: str = GM, state: EncounterState | None = None
    ) -> PathPlan:
        """The cheapest path for ``token_id`` to ``goal`` now (or in ``state``, such as the
        bridge's committed one), within what it may still move.  Changes nothing."""
        return plan_path(state or self._state, self._spatial, token_id, goal, actor)

    def threat(self, token_id: str, state: EncounterState | None = None) -> Threat:
        """The cells ``token_id`` threatens and its reach area now (or in ``state``), see
        :mod:`engine.threat`.  Changes nothing."""
        return threat(state or self._state, self._spatial, token_id)

    def path_exits(
        self,
        token_id: str,
        path: tuple[Position, ...],
        mode: str | None = None,
        actor: str = GM,
        state: EncounterState | None = None,
        elevations: tuple[float, ...] | None = None,
    ) -> tuple[tuple[PathExit, ...], str | None]:
        """Where a move of ``token_id`` along ``path`` (a gridless flight's
        ``elevations``) would be stopped, asking nobody (see
        :func:`engine.threat.path_exits`).  Changes nothing."""
        return path_exits(
            state or self._state, self._spatial, token_id, path, mode, actor, elevations
        )


def replay_commands(commands: Sequence[Command]) -> Encounter:
    """A fresh encounter with ``commands`` applied in order (all must be accepted)."""
    encounter = Encounter()
    for command in commands:
        encounter.apply(command)
    return encounter
