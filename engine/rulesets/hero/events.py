"""The Hero supplement's events (seed 000): attack rolls with OCV and DCV, holds,
delays, readied actions, aborts, named actions, END and STUN.  Each is a frozen
dataclass with a wire ``kind``, sent as is (see the folder's README.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from geometry import Cell


@dataclass(frozen=True, slots=True)
class AttackRolled:
    """An Attack Roll: ``total`` = sum(dice) + ocv against ``target_number``."""

    kind: ClassVar[str] = "attack_rolled"
    attacker: str
    target: str
    attack: str
    dice: tuple[int, ...]
    ocv: int
    dcv: int
    total: int
    target_number: int
    hit: bool


@dataclass(frozen=True, slots=True)
class HoldDeclared:
    """``combatant`` delays (``hold`` "delay", maybe ``before`` someone) or readies an
    ``action`` against a trigger: ``trigger_by``'s action or entering ``area``."""

    kind: ClassVar[str] = "hold_declared"
    combatant: str
    hold: str
    before: str | None
    action: str | None
    trigger_by: str | None
    area: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class HoldLapsed:
    """``combatant``'s next action came before its delayed or readied action: it is gone."""

    kind: ClassVar[str] = "hold_lapsed"
    combatant: str
    hold: str


@dataclass(frozen=True, slots=True)
class DelayTaken:
    """``combatant`` takes its delayed action now, just before ``before`` (None: at the end
    of the Phase, after everyone else): its INIT moves there."""

    kind: ClassVar[str] = "delay_taken"
    combatant: str
    before: str | None


@dataclass(frozen=True, slots=True)
class ReadiedActionTaken:
    """``combatant``'s readied action fires, interrupting ``trigger_by``; for the rest of
    the encounter it acts immediately ahead of ``trigger_by``."""

    kind: ClassVar[str] = "readied_action_taken"
    combatant: str
    trigger_by: str
    action: str


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """``combatant`` took the action ``action``, spending ``slot`` (None: a free action)."""

    kind: ClassVar[str] = "action_taken"
    combatant: str
    action: str
    slot: str | None
    detail: str | None


@dataclass(frozen=True, slots=True)
class Aborted:
    """``combatant`` aborted to ``action`` (``defend``: the defensive ``maneuver``, DCV
    modifier ``dcv``; ``move``: a move action, taken now), giving up its action in
    ``gives_up`` (turn, phase)."""

    kind: ClassVar[str] = "aborted"
    combatant: str
    maneuver: str | None
    dcv: int
    gives_up: tuple[int, int]
    action: str


@dataclass(frozen=True, slots=True)
class VitalsChanged:
    """The GM set ``combatant``'s current END and STUN."""

    kind: ClassVar[str] = "vitals_changed"
    combatant: str
    end: int
    stun: int


@dataclass(frozen=True, slots=True)
class Recovered:
    """Post-Turn Recovery after Turn ``turn``: END and STUN as (before, after)."""

    kind: ClassVar[str] = "recovered"
    combatant: str
    turn: int
    end: tuple[int, int]
    stun: tuple[int, int]


HERO_EVENTS = (
    AttackRolled,
    HoldDeclared,
    HoldLapsed,
    DelayTaken,
    ReadiedActionTaken,
    ActionTaken,
    Aborted,
    VitalsChanged,
    Recovered,
)
