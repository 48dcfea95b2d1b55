"""Cyberpunk RED's events: what its actions did, for the VTT and the log.

Frozen dataclasses with a wire ``kind``, like the core's events.  Dice themselves are
the core's ``DiceRolled`` events; these report what the dice and actions meant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class ActionDone:
    """``combatant`` took ``action`` (``cost``: ``action``, ``free`` or ``net``), on
    ``target`` and/or with ``item`` where it has one; ``note`` says what changed."""

    kind: ClassVar[str] = "cpr_action"
    combatant: str
    action: str
    cost: str
    target: str | None = None
    item: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class AttackRolled:
    """An attack: d10 + ``base`` (the table's STAT + Skill) = ``total``; whether it hits
    (against the DV the table sets) and what a hit does stay the table's.  ``number`` is
    1 or 2 (the second attack of a split Action); ``held`` marks a fired Hold Action."""

    kind: ClassVar[str] = "cpr_attack"
    attacker: str
    target: str
    weapon: str
    die: int
    base: int
    total: int
    number: int
    held: bool = False


@dataclass(frozen=True, slots=True)
class GrabContested:
    """A Grab's opposed roll: each side d10 + its base; ties go to the defender."""

    kind: ClassVar[str] = "cpr_grab"
    attacker: str
    target: str
    attack_total: int
    defense_total: int
    success: bool
    item: str | None = None


@dataclass(frozen=True, slots=True)
class ActionHeld:
    """``holder`` holds ``action`` until ``trigger`` (``after_turn``, ``enters``,
    ``in_sight``) on ``token`` or ``area``; lost at the end of Round ``round``."""

    kind: ClassVar[str] = "cpr_action_held"
    holder: str
    action: str
    trigger: str
    token: str | None
    area: tuple[tuple[int, int], ...]
    round: int


@dataclass(frozen=True, slots=True)
class HeldActionFired:
    """``holder``'s held action fired, interrupting, because ``by`` set off its trigger;
    ``at`` is where ``by`` was when it did: the square its move steps into (the area's,
    or the first in view) for ``enters`` and ``in_sight`` (gridless: the point where it
    came onto the area or into view), null for ``after_turn``."""

    kind: ClassVar[str] = "cpr_held_fired"
    holder: str
    action: str
    by: str
    at: tuple[int | float, int | float] | None = None


@dataclass(frozen=True, slots=True)
class HeldActionLost:
    """``holder``'s held action is lost: ``reason`` (the Round ended, or it could not be
    carried out when it fired)."""

    kind: ClassVar[str] = "cpr_held_lost"
    holder: str
    action: str
    reason: str


@dataclass(frozen=True, slots=True)
class QueueChanged:
    """The Initiative Queue shifted: ``why`` is ``driver`` (a driver started a vehicle)
    or ``newcomer`` (``combatant`` joined and rolled ``score``)."""

    kind: ClassVar[str] = "cpr_queue_changed"
    why: str
    combatant: str
    order: tuple[str, ...]
    score: int | None = None


CPR_EVENTS = (ActionDone, AttackRolled, GrabContested, ActionHeld, HeldActionFired,
              HeldActionLost, QueueChanged)  # fmt: skip
