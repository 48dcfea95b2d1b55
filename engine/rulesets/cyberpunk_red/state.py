"""A Cyberpunk RED combatant's state, read from its token and kept between commands.

Frozen dataclasses only, like the rest of the encounter's state: a :class:`Fighter`
is replaced, never mutated, and every collection is a tuple sorted where order does not
matter, so equal fights hash equal.

Token statistics (the VTT sends them with the scene):

``ref``, ``move``
    Integers, required for every combatant: "Initiative = REF + d10"; a Move Action
    covers "MOVE x 2 meters".
``armor_penalty``
    Integer >= 0, default 0: what worn armour takes off MOVE (the core book's armours
    carry 0, 2 or 4; the text says only that "armor with a penalty ... lower[s] MOVE").
``jump``
    Metres of a running jump, default MOVE (the distance one Move Action buys at "2 meters
    per 1 meter"); a standing jump reaches half of it.
``net_actions``
    Integer >= 0, default 0: NET Actions a turn (a Netrunner's Interface figure).
``shield``
    True when the combatant carries a shield it can draw.
``weapon.<name>``
    A weapon it carries, with its ROF (1 or 2); ``melee.<name>`` true marks a melee
    weapon (reach instead of line of sight).  Fists are always there: ``unarmed``, ROF 2,
    melee ("ROF 2 (pistols, knives, fists)").
``hand.right``, ``hand.left``
    What it holds when the fight starts: a weapon name or ``shield``.
``vehicle``
    True marks a token as a vehicle, not a combatant: it rolls no Initiative and can be
    boarded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

HANDS = ("right", "left")
SHIELD = "shield"


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon a combatant carries: its ``rof`` (1 or 2) and whether it is ``melee``."""

    name: str
    rof: int
    melee: bool = False

    def __post_init__(self) -> None:
        if self.rof not in (1, 2):
            raise ValueError(f"weapon {self.name!r}: ROF must be 1 or 2, got {self.rof!r}")


UNARMED = Weapon("unarmed", 2, melee=True)


@dataclass(frozen=True, slots=True)
class TurnUsage:
    """What a combatant has spent of its turn ("1 Move Action + 1 Action").

    ``moved`` is metres of movement spent, out of ``move_actions`` Move Actions (two after
    Run); ``action`` names what the Action went on (None: still open); ``attacks`` lists
    the weapons attacked with, in order ("no more than two attacks a turn"); ``net`` counts
    NET Actions spent.
    """

    moved: float = 0.0
    move_actions: int = 1
    action: str | None = None
    attacks: tuple[str, ...] = ()
    net: int = 0


@dataclass(frozen=True, slots=True)
class Task:
    """A long Use Skill task: ``turns`` turns' Actions in all, ``done`` of them spent."""

    skill: str
    turns: int
    done: int = 1

    @property
    def finished(self) -> bool:
        """Whether every turn the task needs has been spent on it."""
        return self.done >= self.turns


@dataclass(frozen=True, slots=True)
class Fighter:
    """One combatant's Cyberpunk RED state (see the module docstring for the statistics).

    ``right``/``left`` hold a weapon name, ``shield`` or None; ``weapons`` is everything it
    carries, in a hand or not; ``holding`` the opponent it holds (Grab); ``vehicle`` the
    vehicle it sits in, ``driver`` whether at the wheel; ``task`` a long Use Skill under way.
    ``is_vehicle`` marks the entry the engine keeps for a vehicle token, which never acts.
    """

    id: str
    ref: int
    move: int
    armor_penalty: int = 0
    jump: float = 0.0
    net_actions: int = 0
    has_shield: bool = False
    weapons: tuple[Weapon, ...] = ()
    right: str | None = None
    left: str | None = None
    prone: bool = False
    mortally_wounded: bool = False
    holding: str | None = None
    shielded_by: str | None = None
    vehicle: str | None = None
    driver: bool = False
    task: Task | None = None
    usage: TurnUsage = field(default_factory=TurnUsage)
    is_vehicle: bool = False

    def in_hand(self, hand: str) -> str | None:
        """What ``hand`` (``right`` or ``left``) holds."""
        return self.right if hand == "right" else self.left

    def with_hand(self, hand: str, item: str | None) -> Fighter:
        """This fighter with ``hand`` holding ``item`` (None: empty)."""
        return replace(self, right=item) if hand == "right" else replace(self, left=item)

    def hand_of(self, item: str) -> str | None:
        """The hand holding ``item``, or None."""
        return next((h for h in HANDS if self.in_hand(h) == item), None)

    def free_hand(self) -> str | None:
        """A free hand (right first), or None."""
        return next((h for h in HANDS if self.in_hand(h) is None), None)

    def weapon(self, name: str) -> Weapon | None:
        """The carried weapon ``name`` (``unarmed`` always), or None."""
        if name == UNARMED.name:
            return UNARMED
        return next((w for w in self.weapons if w.name == name), None)

    def with_usage(self, usage: TurnUsage) -> Fighter:
        """This fighter with its turn's spending replaced."""
        return replace(self, usage=usage)


@dataclass(frozen=True, slots=True)
class Vehicle:
    """A vehicle token: whether its engine runs, and who sits at the wheel."""

    id: str
    started: bool = False
    driver: str | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    """When a held action fires ("after Gina's turn", "when the door opens").

    ``kind`` is ``after_turn`` (``token`` finished its turn), ``enters`` (a token, or
    ``token`` alone, moves into ``area``, a tuple of cells) or ``in_sight`` (``token``
    comes into the holder's line of sight).
    """

    kind: str
    token: str | None = None
    area: tuple[tuple[int, int], ...] = ()

    KINDS = ("after_turn", "enters", "in_sight")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise ValueError(f"unknown trigger {self.kind!r} (known: {', '.join(self.KINDS)})")
        if self.kind in ("after_turn", "in_sight") and not self.token:
            raise ValueError(f"a {self.kind} trigger names a token")
        if self.kind == "enters" and not self.area:
            raise ValueError("an enters trigger names the cells of its area")


@dataclass(frozen=True, slots=True)
class HeldParams:
    """The held action's parameters: those its own declaration in :mod:`.actions` takes
    (the others stay unset), checked against it when the hold is declared."""

    target: str | None = None
    weapon: str | None = None
    base: int | None = None
    skill: str | None = None
    turns: int | None = None
    item: str | None = None
    defense: int | None = None
    object: str | None = None
    hand: str | None = None
    vehicle: str | None = None
    driver: bool | None = None
    maneuver: str | None = None

    def given(self) -> dict[str, Any]:
        """The parameters set, as a map."""
        return {k: v for k, v in ((f, getattr(self, f)) for f in self.__slots__) if v is not None}


@dataclass(frozen=True, slots=True)
class HeldAction:
    """A Hold Action: "saying in advance what you'll do, to whom and when".

    ``action`` and ``params`` are the declared action and its parameters;
    ``trigger`` the moment; ``round`` the Round it was declared in (it is lost at the
    end of that Round).
    """

    holder: str
    action: str
    params: HeldParams
    trigger: Trigger
    round: int


@dataclass(frozen=True, slots=True)
class Arena:
    """The Cyberpunk RED side of a fight: fighters, vehicles, weapons lying on the floor
    (``floor``: cell and weapon), held actions, and the Round number.  Sorted tuples."""

    fighters: tuple[Fighter, ...]
    vehicles: tuple[Vehicle, ...] = ()
    floor: tuple[tuple[tuple[int, int], Weapon], ...] = ()
    holds: tuple[HeldAction, ...] = ()
    round: int = 1

    def fighter(self, fighter_id: str) -> Fighter:
        """The fighter ``fighter_id``; KeyError when the fight has none."""
        for fighter in self.fighters:
            if fighter.id == fighter_id:
                return fighter
        raise KeyError(fighter_id)

    def has(self, fighter_id: str) -> bool:
        """Whether ``fighter_id`` fights here."""
        return any(f.id == fighter_id for f in self.fighters)

    def with_fighter(self, fighter: Fighter) -> Arena:
        """This arena with ``fighter`` replacing (or joining) its namesake."""
        rest = [f for f in self.fighters if f.id != fighter.id]
        return replace(self, fighters=tuple(sorted([*rest, fighter], key=lambda f: f.id)))

    def vehicle(self, vehicle_id: str) -> Vehicle | None:
        """The vehicle ``vehicle_id``, or None."""
        return next((v for v in self.vehicles if v.id == vehicle_id), None)

    def with_vehicle(self, vehicle: Vehicle) -> Arena:
        """This arena with ``vehicle`` replacing its namesake."""
        rest = [v for v in self.vehicles if v.id != vehicle.id]
        return replace(self, vehicles=tuple(sorted([*rest, vehicle], key=lambda v: v.id)))

    def hold(self, holder: str) -> HeldAction | None:
        """``holder``'s held action, or None."""
        return next((h for h in self.holds if h.holder == holder), None)

    def with_hold(self, hold: HeldAction | None, holder: str) -> Arena:
        """This arena with ``holder``'s held action replaced by ``hold`` (None: dropped)."""
        rest = [h for h in self.holds if h.holder != holder]
        if hold is not None:
            rest.append(hold)
        return replace(self, holds=tuple(sorted(rest, key=lambda h: h.holder)))
