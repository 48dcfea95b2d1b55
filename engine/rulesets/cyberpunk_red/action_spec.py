"""What every CPR action is made of: the typed parameters, the :class:`ActionSpec` entry
of the list of Actions, the scene questions an action may ask (:class:`World`), and the
few helpers the actions share (the pre-checks and spending the Action).

The list itself is :data:`.actions.ACTIONS`; the actions live by kind in
:mod:`.actions` (one's own turn), :mod:`.fighting`, :mod:`.gear` and :mod:`.vehicles`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, Protocol

from engine.params import DICE, TokenRef
from engine.rulesets.cyberpunk_red import economy
from engine.rulesets.cyberpunk_red.events import ActionDone
from engine.rulesets.cyberpunk_red.state import Arena, Fighter
from engine.tray import DiceTray

Cell = tuple[int, int]
Hand = Literal["right", "left"]
Dice = Annotated[tuple[int, ...] | None, DICE]


class World(Protocol):
    """What the actions ask of the scene (answered from geometry by the engine)."""

    def in_reach(self, a: str, b: str) -> bool:
        """Whether token ``b`` is within token ``a``'s melee reach."""
        ...

    def sees(self, a: str, b: str) -> bool:
        """Whether token ``a`` has line of sight to token ``b``."""
        ...

    def cell(self, token: str) -> Cell:
        """Token ``token``'s cell."""
        ...

    def reaches_cell(self, token: str, cell: Cell) -> bool:
        """Whether ``cell`` is within ``token``'s reach (or under it)."""
        ...

    def is_token(self, token: str) -> bool:
        """Whether the scene has a token ``token``."""
        ...

    def tokens(self) -> tuple[str, ...]:
        """Every token on the scene (what an attack may target)."""
        ...

    def within_reach(self, a: str) -> frozenset[str]:
        """Every token ``b`` with :meth:`in_reach` ``(a, b)``."""
        ...

    def seen_by(self, a: str) -> frozenset[str]:
        """Every token ``b`` other than ``a`` with :meth:`sees` ``(a, b)``."""
        ...


# -- parameters, one typed class per shape ---------------------------------------------


@dataclass(frozen=True, slots=True)
class NoParams:
    """An action that takes no parameters."""


@dataclass(frozen=True, slots=True)
class AttackParams:
    """Attack ``target`` with ``weapon`` (default fists); ``base`` is the table's STAT +
    Skill (and modifiers) added to the d10; ``rolls``: the d10 if the table rolled it."""

    target: TokenRef
    weapon: str = "unarmed"
    base: int = 0
    rolls: Dice = None


@dataclass(frozen=True, slots=True)
class WeaponParams:
    """The weapon acted on."""

    weapon: str


@dataclass(frozen=True, slots=True)
class SkillParams:
    """Use ``skill``; a long task takes ``turns`` turns in all."""

    skill: str
    turns: int = 1


@dataclass(frozen=True, slots=True)
class TargetParams:
    """The combatant acted on."""

    target: TokenRef


@dataclass(frozen=True, slots=True)
class GrabParams:
    """Grab ``target`` (or wrest ``item`` from it): d10 + ``base`` against the target's
    d10 + ``defense``; ``rolls`` are the two d10s if the table rolled them."""

    target: TokenRef
    item: str | None = None
    base: int = 0
    defense: int = 0
    rolls: Dice = None


@dataclass(frozen=True, slots=True)
class ThrowParams:
    """Throw the held opponent, or ``item`` from a hand at ``target``'s square."""

    target: TokenRef | None = None
    item: str | None = None


@dataclass(frozen=True, slots=True)
class ObjectParams:
    """Use ``object`` (press a button, open a locker...)."""

    object: str


@dataclass(frozen=True, slots=True)
class HandParams:
    """The hand acted on: ``right`` or ``left``."""

    hand: Hand


@dataclass(frozen=True, slots=True)
class TakeParams:
    """Take ``weapon`` (carried, or on the floor within reach) into ``hand`` (default:
    a free one)."""

    weapon: str
    hand: Hand | None = None


@dataclass(frozen=True, slots=True)
class VehicleParams:
    """Board ``vehicle``, at the wheel if ``driver``."""

    vehicle: TokenRef
    driver: bool = False


@dataclass(frozen=True, slots=True)
class ManeuverParams:
    """The vehicle manoeuvre, in the table's words."""

    maneuver: str


@dataclass(frozen=True, slots=True)
class NetParams:
    """The NET Action, in the table's words (Slide, Zap, Pathfinder...)."""

    program: str


Result = tuple[Arena, list[Any]]
Need = Callable[[Arena, World, Fighter, Any], str | None]


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One entry of the list of Actions: cost, the text's words, params, needs, effect."""

    name: str
    cost: str
    does: str
    params: type
    needs: Need
    apply: Callable[[Arena, World, Fighter, Any, DiceTray], Result]
    holdable: bool = True


# -- pre-checks, composed per action in the table --------------------------------------


def first_refusal(*checks: Need) -> Need:
    """One ``needs`` made of ``checks``, run in order: the first refusal wins.

    Most actions share their first check (the turn's Action still open, :func:`open_action`)
    and differ only after it; the list of Actions names each action's checks in a row, so
    the shared ones are written once and the order is visible in the table.
    """

    def needs(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
        for check in checks:
            why = check(arena, world, f, p)
            if why:
                return why
        return None

    return needs


def open_action(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    """Why the turn's one Action is no longer open, or None."""
    return economy.action_refusal(f)


def reach_refusal(world: World, f: Fighter, target: str) -> str | None:
    """Why ``target`` is not within ``f``'s reach, or None."""
    return None if world.in_reach(f.id, target) else f"{target} is not within reach"


# -- effects shared by every action ----------------------------------------------------


def done(arena: Arena, f: Fighter, name: str, cost: str = "action", **kw: Any) -> Result:
    """The arena with ``f`` updated, and the one :class:`ActionDone` event for ``name``."""
    return arena.with_fighter(f), [ActionDone(f.id, name, cost, **kw)]


def spend(f: Fighter, name: str) -> Fighter:
    """Spend the Action on ``name``; a long task not continued by it is abandoned."""
    if f.task is not None and name != "use_skill":
        f = replace(f, task=None)
    return economy.spend_action(f, name)
