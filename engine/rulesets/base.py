"""The ruleset plug-in interface and its registry.

Like python-chess's variants: one ``typing.Protocol`` of narrow hooks, class-level
metadata, and one registry looked up by name.  The engine owns the flow (commands,
state, the turn table in :mod:`engine.turns`); a ruleset answers questions about its
game's rules and never mutates anything.

The hooks are shaped for all four games the project targets: Hero's Phases and Turns
(``phases_per_turn = 4``), Cyberpunk RED's and M&M's Rounds (``phases_per_turn = 1``),
random, rerolled or modifier-first initiative tie-breaks (``initiative``), per-action
budgets (``movement_left``), and opportunity attacks where a game has them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol, TypeVar

from engine.combat_state import Combat, Maneuver, PhaseUsage, Vitals
from engine.errors import UnsupportedRuleset
from engine.events import AttackRolled
from engine.model import Combatant
from engine.tray import DiceTray


class Ruleset(Protocol):
    """The hooks every ruleset implements (rules questions only; no state changes)."""

    name: ClassVar[str]
    title: ClassVar[str]
    phases_per_turn: ClassVar[int]

    def check_combatant(self, combatant: Combatant) -> None:
        """Raise ``CommandRejected("bad_scene", ...)`` if the token lacks a needed statistic."""
        ...

    def initiative(
        self, combatants: Sequence[Combatant], tray: DiceTray
    ) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
        """The acting order (highest first) and each combatant's score, rolling on ``tray``."""
        ...

    def initial_vitals(self, combatant: Combatant) -> Vitals | None:
        """Starting resources (END, STUN) for combatants that track them."""
        ...

    def refusal(
        self, combatant: Combatant, usage: PhaseUsage, action: str, limited: bool
    ) -> str | None:
        """Why ``combatant`` cannot take an ``action`` slot (attack/move/full) now, or None."""
        ...

    def movement_left(self, combatant: Combatant, usage: PhaseUsage, limited: bool) -> float:
        """How far ``combatant`` may still move this Phase by ordinary movement."""
        ...

    def plan_movement(
        self,
        combat: Combat,
        mover: Combatant,
        usage: PhaseUsage,
        mode: str,
        *,
        cost: float,
        steps: int,
        cell_size: float,
        limited: bool,
    ) -> tuple[str | None, str]:
        """Check a move of ``mode``: the action slot it takes and the movement kind."""
        ...

    def provokes(self, mode: str) -> bool:
        """Whether movement of ``mode`` can provoke attacks of opportunity."""
        ...

    def free_action_slot(self, combatant: Combatant, kind: str) -> str | None:
        """The action slot a named action takes (None: free)."""
        ...

    def defensive(self, maneuver: Maneuver) -> bool:
        """Whether ``maneuver`` is a defensive one (what an Abort may be taken to)."""
        ...

    def threatens(self, combat: Combat, threatener: Combatant, target: Combatant) -> bool:
        """Whether ``threatener`` can make attacks of opportunity against ``target`` now."""
        ...

    def opportunity_available(
        self, combat: Combat, threatener: Combatant, target: Combatant
    ) -> bool:
        """Whether ``threatener`` still has an attack of opportunity against ``target`` now."""
        ...

    def attack_roll(
        self,
        combat: Combat,
        attacker: Combatant,
        target: Combatant,
        tray: DiceTray,
        rolls: tuple[int, ...] | None,
        *,
        attack: str,
        maneuvers: Sequence[Maneuver] = (),
        ocv_bonus: int = 0,
    ) -> AttackRolled:
        """Roll an attack."""
        ...

    def opportunity_attack(
        self,
        combat: Combat,
        attacker: Combatant,
        target: Combatant,
        tray: DiceTray,
        rolls: tuple[int, ...] | None,
        maneuver: Maneuver | None = None,
    ) -> AttackRolled:
        """Resolve an accepted attack of opportunity."""
        ...

    def recovers(self, combat: Combat, combatant: Combatant) -> bool:
        """Whether ``combatant`` takes the end-of-Turn recovery."""
        ...

    def recovery(self, combatant: Combatant, vitals: Vitals) -> Vitals:
        """``vitals`` after the end-of-Turn recovery."""
        ...


_REGISTRY: dict[str, Callable[[], Ruleset]] = {}
_Factory = TypeVar("_Factory", bound=Callable[[], Ruleset])


def register(factory: _Factory) -> _Factory:
    """Class decorator: make a ruleset findable by its ``name``."""
    name = factory().name
    if name in _REGISTRY:
        raise ValueError(f"ruleset {name!r} is registered twice")
    _REGISTRY[name] = factory
    return factory


def find_ruleset(name: str) -> Ruleset:
    """The ruleset registered as ``name``; raises ``UnsupportedRuleset`` otherwise."""
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise UnsupportedRuleset(
            f"unsupported ruleset: {name!r} (known: {', '.join(sorted(_REGISTRY))})"
        ) from None


def ruleset_names() -> tuple[str, ...]:
    """Every registered ruleset name, sorted."""
    return tuple(sorted(_REGISTRY))
