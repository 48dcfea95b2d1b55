"""What a ruleset may ask of the clock, as values, and the hooks the walk calls.

A ruleset never steps time itself.  Its action returns, among its events, the clock
requests below (frozen values); :func:`engine.turns.settle` takes them out of the list
and applies each where it stands, through one table (``engine.turns.STEPS``), so the
events the step explains land where the request was.  :class:`TimeHooks` is what
:mod:`engine.turns` calls on a ruleset while it walks the order, typed so mypy strict
checks every hook.

This module is a leaf: it imports value types only, so the seam
(:mod:`engine.rulesets.base`), the walk (:mod:`engine.turns`) and every ruleset can
import it without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

from engine.combat_state import Combat, Effect
from engine.model import Combatant, EncounterState
from engine.timewords import Clock, TimeWords

__all__ = [
    "ActNow",
    "Advance",
    "ClockRequest",
    "ClosePass",
    "Reorder",
    "Requeue",
    "ResumeAt",
    "TimeHooks",
    "next_phase",
]

Result: TypeAlias = tuple[EncounterState, list[Any]]


@dataclass(frozen=True, slots=True)
class Advance:
    """The acting combatant is done: the action passes to whoever is next."""


@dataclass(frozen=True, slots=True)
class ActNow:
    """``who`` acts now, out of its count (a delayed action taken)."""

    who: str


@dataclass(frozen=True, slots=True)
class Reorder:
    """``who`` moves to just before ``before`` in the order, taking its score; whoever
    was acting stays acting.  Announced with ``InitiativeOrder``."""

    who: str
    before: str


@dataclass(frozen=True, slots=True)
class Requeue:
    """The order becomes ``order`` with ``scores`` (the same combatants, resorted by a
    rule of the game); whoever was acting stays acting.  Announced with
    ``InitiativeOrder``."""

    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class ClosePass:
    """The pass is over now (nobody else acts in it): the next one opens."""


@dataclass(frozen=True, slots=True)
class ResumeAt:
    """Walk on from ``index`` in the order."""

    index: int


ClockRequest: TypeAlias = Advance | ActNow | Reorder | Requeue | ClosePass | ResumeAt
"""Everything a ruleset may ask of the clock."""


def next_phase(turn: int, phase: int, per_turn: int) -> tuple[int, int]:
    """The (turn, phase) after ``phase``: the surprise pass leads to Turn 1 pass 1, the
    last pass of a Turn to the next Turn's first.  Arithmetic only: reading it steps
    nothing."""
    if phase == 0:
        return 1, 1
    if phase < per_turn:
        return turn, phase + 1
    return turn + 1, 1


class TimeHooks(Protocol):
    """The ruleset hooks :mod:`engine.turns` and :mod:`engine.effects` call while the
    order is walked (see :class:`engine.rulesets.base.Ruleset` for what each means)."""

    @property
    def phases_per_turn(self) -> int:
        """How many passes make a Turn (or Round)."""
        ...

    @property
    def time_words(self) -> TimeWords:
        """The game's units of time and their names (:mod:`engine.timewords`)."""
        ...

    def clock(self, combat: Combat) -> Clock:
        """The fight's moment now, in the game's words."""
        ...

    def surprise(self, aware: tuple[str, ...], everyone: tuple[str, ...]) -> bool:
        """Whether the fight opens with a surprise pass."""
        ...

    def can_act(self, combat: Combat, cid: str) -> bool:
        """Whether ``cid`` can act at all now."""
        ...

    def limited(self, combat: Combat, cid: str) -> bool:
        """Whether ``cid``'s action now is restricted (a surprise pass)."""
        ...

    def skip_reason(self, combat: Combat, cid: str) -> str | None:
        """Why ``cid`` does not act at its count, or None."""
        ...

    def count_reached(self, state: EncounterState, cid: str) -> Result:
        """``cid``'s count came up, whether or not it acts."""
        ...

    def cut_in(
        self, state: EncounterState, cid: str
    ) -> tuple[EncounterState, list[Any], str | None]:
        """Who acts just before ``cid`` instead (the walk moves it there), or None."""
        ...

    def start_acting(self, state: EncounterState, cid: str) -> Result:
        """``cid`` starts its action."""
        ...

    def movement_left(self, combat: Combat, combatant: Combatant) -> float:
        """How far ``combatant`` may still move in its action."""
        ...

    def pass_started(self, state: EncounterState) -> Result:
        """A pass opened."""
        ...

    def pass_ended(self, state: EncounterState) -> tuple[EncounterState, list[Any], str | None]:
        """The order is done: who acts at the end of the pass, or None (a prompt the
        hook opened holds the walk)."""
        ...

    def turn_ended(self, state: EncounterState) -> Result:
        """The last pass of a Turn closed."""
        ...

    def effect_ended(self, state: EncounterState, effect: Effect) -> Result:
        """``effect`` ended."""
        ...
