"""The events of Powers in a Hero fight (seed 002): each a frozen dataclass with a wire
``kind``, sent as is.  END figures are (paid, left)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class PowerUsed:
    """``combatant`` used ``power`` at ``dice`` (``active_points``), paying ``end`` END
    (``end_left`` left), taking ``time`` (``none``: Casual, ``zero``, ``attack``: an
    Attack Action that ended the Phase).  ``hit`` is the Attack Roll's outcome (None: no
    roll); the effect as rolled or standard: ``rolled`` dice, ``standard`` dice, and the
    ``stun``, ``body`` or ``points`` counted (None: not counted, or no effect);
    ``absolute`` an Absolute Effect that applied; ``advantages`` and ``limitations`` the
    names of those that applied (all the Power's, every use).  Applying it stays the
    table's."""

    kind: ClassVar[str] = "power_used"
    combatant: str
    power: str
    casual: bool
    target: str | None
    object: str | None
    dice: str
    active_points: int
    end: int
    end_left: int
    time: str
    hit: bool | None
    rolled: tuple[int, ...]
    standard: int
    stun: int | None
    body: int | None
    points: int | None
    stun_multiplier: int | None
    absolute: str
    advantages: tuple[str, ...]
    limitations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PowerToggled:
    """``combatant`` turned ``power`` on (``on``) or off, paying ``end`` END, taking
    ``time`` (``zero``, ``full_phase``; ``switch``: a Framework switch took it off;
    ``identity``: leaving the alternate identity took it off)."""

    kind: ClassVar[str] = "power_toggled"
    combatant: str
    power: str
    on: bool
    end: int
    end_left: int
    time: str


@dataclass(frozen=True, slots=True)
class FrameworkSwitched:
    """``combatant`` allocated ``framework``'s reserve: (slot, points) each."""

    kind: ClassVar[str] = "framework_switched"
    combatant: str
    framework: str
    allocation: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class PowerUpkeep:
    """``combatant``'s Phase began: its constant Powers on cost ``end`` END; ``dropped``
    went off for want of END."""

    kind: ClassVar[str] = "power_upkeep"
    combatant: str
    end: int
    end_left: int
    dropped: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PowerOptionsSet:
    """The GM set the table's Power options."""

    kind: ClassVar[str] = "power_options_set"
    casual_use: bool
    ser_plus_one: bool
    adder_end: str
    toggle_freely: bool


@dataclass(frozen=True, slots=True)
class IdentityChanged:
    """``combatant`` changed into its ``identity`` (``true`` or ``alternate``)."""

    kind: ClassVar[str] = "identity_changed"
    combatant: str
    identity: str


POWER_EVENTS = (
    PowerUsed,
    PowerToggled,
    FrameworkSwitched,
    PowerUpkeep,
    PowerOptionsSet,
    IdentityChanged,
)
