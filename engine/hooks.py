"""The seam as the core sees it: a :class:`typing.Protocol` of every attribute and hook
:mod:`engine.turns`, :mod:`engine.handlers`, :mod:`engine.movement`,
:mod:`engine.options`, :mod:`engine.checks` and :mod:`engine.effects` use on a ruleset.

:class:`engine.rulesets.base.Ruleset` implements it (mypy checks that wherever a found
ruleset is handed to the core), so every hook call in the core is checked by mypy
strict; nothing is typed ``Any`` on the way.  A leaf: at run time it imports
:mod:`engine.clock` only; the value types of the seam (``Context``, ``MovePlan`` ...)
are named for the type checker alone, so the seam, the walk and the rulesets import
this module without a cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engine.clock import Result, TimeHooks

if TYPE_CHECKING:
    from engine.combat_state import Combat, Prompt, Trigger
    from engine.model import Combatant, EncounterState
    from engine.rulesets.base import (
        ActionSpec,
        Context,
        Initiative,
        MovePlan,
        OpportunityAttack,
        Vocabulary,
    )
    from engine.tray import DiceTray

__all__ = ["RulesetHooks"]


class RulesetHooks(TimeHooks, Protocol):
    """Everything the core reads or calls on a ruleset (meanings: the seam's
    :class:`~engine.rulesets.base.Ruleset`)."""

    @property
    def name(self) -> str:
        """The name ``start_combat`` uses."""
        ...

    @property
    def title(self) -> str:
        """A title for people."""
        ...

    @property
    def move_modes(self) -> tuple[str, ...]:
        """The movement modes a ``move`` may name; the first is the default."""
        ...

    @property
    def trigger_pause(self) -> str:
        """``before`` or ``inside``: where a triggered move pauses."""
        ...

    @property
    def actions(self) -> Mapping[str, ActionSpec[Any]]:
        """The actions ``act`` may name."""
        ...

    @property
    def vocabulary(self) -> Vocabulary:
        """The conditions, resources and event kinds the game owns."""
        ...

    def check_combatant(self, combatant: Combatant) -> None:
        """Refuse a token that lacks a needed statistic."""
        ...

    def idle_reason(self, combat: Combat, cid: str) -> str | None:
        """Why ``cid`` takes no action in this pass at all (the rule), or None."""
        ...

    def check_stats(self, combatant: Combatant) -> None:
        """Refuse a statistic the game does not play."""
        ...

    def condition_set(self, combat: Combat, cid: str, condition: str, on: bool) -> Combat:
        """The GM set or cleared a condition: the combat with it recorded."""
        ...

    def initiative(
        self, combatants: Sequence[Combatant], tray: DiceTray, groups: Sequence[Sequence[str]]
    ) -> Initiative:
        """The acting order and scores."""
        ...

    def newcomer(self, combat: Combat, combatant: Combatant, tray: DiceTray) -> int:
        """The score a combatant joining a running fight takes."""
        ...

    def newcomer_ahead(
        self,
        combat: Combat,
        newcomer: Combatant,
        score: int,
        rival: Sequence[Combatant],
        tray: DiceTray,
    ) -> bool:
        """Whether a newcomer tied at ``score`` goes ahead of ``rival``."""
        ...

    @property
    def changeable_stats(self) -> tuple[str, ...]:
        """The statistics ``set_stats`` may change."""
        ...

    def stats_changed(self, state: EncounterState, cid: str) -> Result:
        """The GM changed ``cid``'s statistics."""
        ...

    def new_fight_state(self, combat: Combat) -> Any:
        """The fight-wide state when the fight starts."""
        ...

    def fight_started(self, state: EncounterState) -> Result:
        """The fight is set up, before its first pass opens."""
        ...

    def joined(self, state: EncounterState, cid: str) -> Result:
        """``cid`` joined the running fight."""
        ...

    def new_combatant_state(self, combatant: Combatant) -> Any:
        """A combatant's state when it enters the fight."""
        ...

    def plan_move(self, ctx: Context, mode: str, *, cost: float, steps: int) -> MovePlan:
        """Check a move and charge it."""
        ...

    def check_flight(self, ctx: Context, mode: str, rise: float) -> None:
        """Refuse a move that changes height when the game says the token cannot."""
        ...

    def move_exempt(self, ctx: Context, mode: str) -> tuple[str, ...]:
        """Who may not attack this move of opportunity."""
        ...

    def provokes(self, combat: Combat, mover: Combatant, mode: str) -> bool:
        """Whether a move of ``mode`` provokes attacks of opportunity."""
        ...

    def threatens(self, combat: Combat, threatener: Combatant, target: Combatant) -> bool:
        """Whether ``threatener`` threatens ``target``."""
        ...

    def opportunity_available(
        self, combat: Combat, threatener: Combatant, target: Combatant
    ) -> bool:
        """Whether ``threatener`` still has an attack of opportunity against ``target``."""
        ...

    def opportunity_attack(
        self, ctx: Context, target: Combatant, rolls: tuple[int, ...] | None, answer: Any
    ) -> OpportunityAttack:
        """Resolve an accepted attack of opportunity."""
        ...

    def prompt_answered(
        self, state: EncounterState, prompt: Prompt, accept: bool, actor: str
    ) -> Result:
        """A prompt of the ruleset's own kinds was answered."""
        ...

    def spared(self, ctx: Context) -> tuple[str, ...]:
        """Whom a move's attack spares."""
        ...

    def plan_move_attack(
        self,
        ctx: Context,
        combat: Combat,
        target: Combatant,
        maneuver: Any,
        rolls: tuple[int, ...] | None,
    ) -> Combat:
        """Check the attack a move ends in and charge it."""
        ...

    def move_attack(
        self,
        ctx: Context,
        target: Combatant,
        maneuver: Any,
        rolls: tuple[int, ...] | None,
    ) -> Result:
        """The attack a move ends in."""
        ...

    def trigger_fired(self, ctx: Context, trigger: Trigger, by: str) -> Result:
        """A held action's trigger came and its controller took it."""
        ...

    def combat_ending(self, state: EncounterState) -> list[Any]:
        """The GM ends the fight: the events of what the ruleset still holds open."""
        ...
