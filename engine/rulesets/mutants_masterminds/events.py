"""What the Mutants & Masterminds ruleset reports, beside the core's events.

Each is a frozen dataclass whose ``kind`` is its wire name; the bridge sends its fields
as the event's ``data``.  Every die behind them is a core ``dice_rolled`` event first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class InitiativeCheck:
    """One initiative check at the start of the fight: ``combatants`` (a group makes one
    check for all of its members), the ``d20``, the ``modifier`` and the ``total``."""

    kind: ClassVar[str] = "initiative_check"
    combatants: tuple[str, ...]
    d20: int
    modifier: int
    total: int


@dataclass(frozen=True, slots=True)
class InitiativeTie:
    """A tie at ``count`` settled ``by`` ``modifier`` (the higher initiative modifier goes
    first) or ``roll_off`` (a die each, highest first, again while still tied);
    ``order`` is who acts first among the tied, each entry a check's combatants."""

    kind: ClassVar[str] = "initiative_tie"
    count: int
    by: str
    order: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class FlatFootedEnded:
    """``combatant``'s first regular turn began: it may use its Dodge and Parry again."""

    kind: ClassVar[str] = "flat_footed_ended"
    combatant: str


@dataclass(frozen=True, slots=True)
class AttackCheck:
    """``attacker`` made a ``reach`` (``close`` or ``ranged``) attack check on ``target``:
    ``d20`` + ``bonus`` = ``total`` against ``dc`` = 10 + the ``defence`` rank it could
    use (``defence_rank``: 0 while it is ``flat_footed`` without Uncanny Dodge).  A
    natural 20 always hits and is a ``critical``; a natural 1 always misses.  What the
    hit does (the Toughness resistance check, conditions) is the table's."""

    kind: ClassVar[str] = "attack_check"
    attacker: str
    target: str
    reach: str
    d20: int
    bonus: int
    total: int
    defence: str
    defence_rank: int
    flat_footed: bool
    dc: int
    hit: bool
    critical: bool


@dataclass(frozen=True, slots=True)
class TradedDown:
    """``combatant`` traded its standard action for a second move action."""

    kind: ClassVar[str] = "traded_down"
    combatant: str


@dataclass(frozen=True, slots=True)
class FreeActionTaken:
    """``combatant`` took a free action, ``what`` it says (talking, dropping something)."""

    kind: ClassVar[str] = "free_action"
    combatant: str
    what: str


@dataclass(frozen=True, slots=True)
class Incapacitation:
    """The GM set (``on``) or cleared ``combatant``'s incapacitated condition."""

    kind: ClassVar[str] = "incapacitation"
    combatant: str
    on: bool


MM_EVENTS: tuple[type, ...] = (
    InitiativeCheck,
    InitiativeTie,
    FlatFootedEnded,
    AttackCheck,
    TradedDown,
    FreeActionTaken,
    Incapacitation,
)
