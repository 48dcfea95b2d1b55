"""The params of the Hero supplement's actions, declared once: the bridge checks an
``act``'s params against these before the engine sees them, and the README's Hero
table lists them (see :mod:`engine.params` for what a declaration may say)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from engine.params import DICE, CellRef, Length, Range, TokenRef
from engine.rulesets.hero.state import Maneuver

#: Largest manoeuvre modifier and combat-level bonus accepted (Hero values are single digits).
MAX_MODIFIER = 50
Modifier = Annotated[int, Range(-MAX_MODIFIER, MAX_MODIFIER)]
Rolls = Annotated[tuple[int, ...] | None, DICE]


@dataclass(frozen=True, slots=True)
class ManeuverParams:
    """A combat manoeuvre as the table names it: OCV and DCV modifiers."""

    name: Annotated[str, Length(1, 64)]
    ocv: Modifier = 0
    dcv: Modifier = 0

    def maneuver(self) -> Maneuver:
        """The manoeuvre."""
        return Maneuver(self.name, self.ocv, self.dcv)


@dataclass(frozen=True, slots=True)
class WeaponParams:
    """The weapon an attack is made with: its ``name`` (a Power of that name is one the
    character paid Character Points for) and its Weapon Familiarity ``group``
    (``blades``, ``common melee`` ...)."""

    name: Annotated[str, Length(1, 48)]
    group: Annotated[str, Length(1, 32)]


@dataclass(frozen=True, slots=True)
class AttackParams:
    """An attack action on ``target``: melee within reach, or ``ranged`` within ``range``
    and in line of sight; ``ocv_bonus`` for combat levels; ``weapon`` the weapon used
    (Unfamiliar Weapon penalty unless familiar); ``rolls`` the table's 3d6."""

    target: TokenRef
    ranged: bool = False
    range: Annotated[float, Range(0, 1e9)] = 0.0
    maneuver: ManeuverParams | None = None
    ocv_bonus: Modifier = 0
    rolls: Rolls = None
    weapon: WeaponParams | None = None


@dataclass(frozen=True, slots=True)
class NamedActionParams:
    """A named action's ``detail`` (what is drawn, dropped, started ...) and, for
    ``defend``, its defensive ``maneuver``."""

    detail: Annotated[str, Length(1, 128)] | None = None
    maneuver: ManeuverParams | None = None


@dataclass(frozen=True, slots=True)
class DelayParams:
    """Delay, optionally to just ``before`` someone."""

    before: TokenRef | None = None


@dataclass(frozen=True, slots=True)
class ReadyParams:
    """Ready an ``action`` for a trigger: ``trigger_by``'s action, or a token
    (``trigger_by``, or anyone) entering ``area``."""

    action: Literal["attack", "move", "free"]
    trigger_by: TokenRef | None = None
    area: tuple[CellRef, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class AbortParams:
    """Abort to ``defend`` with a defensive ``maneuver``, or to a ``move`` action."""

    maneuver: ManeuverParams | None = None
    action: Literal["defend", "move"] = "defend"


@dataclass(frozen=True, slots=True)
class VitalsParams:
    """The GM's record of END and STUN as they stand."""

    end: Annotated[int, Range(0, 1_000_000)]
    stun: Annotated[int, Range(-1_000_000, 1_000_000)]


def maneuver_of(params: ManeuverParams | None) -> Maneuver | None:
    """The manoeuvre a params field names, if any."""
    return None if params is None else params.maneuver()
