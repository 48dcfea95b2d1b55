"""What a Power is to the engine (Hero System 6E, seed 002): its declaration, once.

A Power is declared as a :class:`Power`, a frozen dataclass whose annotations are the
whole declaration (:mod:`engine.params` decodes and validates it, with a code and a field
path, exactly as it checks an action's params).  On the scene a token carries each Power
as one statistic, ``"power:<name>"``, whose value is the Power's map as JSON text, and each
Power Framework as ``"framework:<name>"`` (a :class:`Framework` map); the token's ``STR``
statistic becomes the Power-like ``STR`` (a characteristic the text lets a character use
Casually and pay END for).  :func:`sheet_of` reads them all and refuses a bad one with
``bad_scene``.

Dice are written as the Hero System writes them: ``"10d6"``, ``"1½d6"`` (or ``"1.5d6"``),
``"2d6+1"``, ``"3d6-1"``.  Internally a dice code counts thirds of a die, the Hero
System's Damage Classes for a killing attack: ``+1`` is one third, a half die two thirds,
``-1`` minus one third, so the Active Points of any amount of a Power are linear in it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Literal

from engine.errors import CommandRejected
from engine.model import Combatant
from engine.params import Length, ParamError, Range, decode_params

KINDS = ("attack", "defence", "movement", "other")
#: How a Power's dice are counted: ``normal`` (STUN total, BODY 0/1/2 per die: Blast, HA,
#: STR), ``killing`` (BODY total, STUN = BODY x a ½d6 multiplier: RKA, HKA), ``body``
#: (the BODY on the dice counts, as Flash), ``points`` (the total counts: Aid, Healing,
#: Transform), ``none`` (no dice: Flight, Resistant Protection).
EFFECTS = ("normal", "killing", "body", "points", "none")

#: A Power's name: at most 48 characters, so ``"use_power:<name>"`` fits an option.
Name = Annotated[str, Length(1, 48)]

_DICE = re.compile(r"^(\d{1,3})?(?:(½|\.5)d6|d6([+-]1)?)$")


@dataclass(frozen=True, slots=True)
class DiceCode:
    """A number of dice as the Hero System writes it: ``dice`` whole d6, plus a half die,
    or plus or minus one point (never both)."""

    dice: int
    half: bool = False
    adjust: int = 0

    def __post_init__(self) -> None:
        if self.dice < 0 or self.adjust not in (-1, 0, 1) or (self.half and self.adjust):
            raise ValueError(f"not a dice code: {self.dice} {self.half} {self.adjust}")
        if self.adjust == -1 and self.dice == 0:
            raise ValueError("0d6-1 is not a dice code")

    @property
    def thirds(self) -> int:
        """The code in thirds of a die (Damage Classes of a killing attack)."""
        return 3 * self.dice + 2 * self.half + self.adjust

    @classmethod
    def of_thirds(cls, thirds: int) -> DiceCode:
        """The code of ``thirds`` thirds of a die (``7`` is ``2d6+1``, ``8`` is ``2½d6``)."""
        if thirds < 0:
            raise ValueError(f"negative dice: {thirds}")
        whole, rest = divmod(thirds, 3)
        return cls(whole, half=rest == 2, adjust=1 if rest == 1 else 0)

    @classmethod
    def parse(cls, text: str) -> DiceCode:
        """Read ``"10d6"``, ``"1½d6"``, ``"1.5d6"``, ``"2d6+1"`` or ``"3d6-1"``."""
        match = _DICE.match(text.strip())
        if match is None:
            raise ValueError(f"not a dice code: {text!r} (write 10d6, 1½d6, 2d6+1 or 3d6-1)")
        whole, half, adjust = match.groups()
        if whole is None and half is None:
            raise ValueError(f"not a dice code: {text!r} (write 10d6, 1½d6, 2d6+1 or 3d6-1)")
        return cls(int(whole or 0), half=half is not None, adjust=int(adjust or 0))

    def __str__(self) -> str:
        if self.half:
            return f"{self.dice}½d6" if self.dice else "½d6"
        return f"{self.dice}d6" + {1: "+1", -1: "-1", 0: ""}[self.adjust]


@dataclass(frozen=True, slots=True)
class Modifier:
    """An Advantage (positive ``value``) or Limitation (negative), in quarters as the
    Hero System prices them; ``detail`` qualifies it (Extra Time's time: ``full_phase``,
    ``turn`` ...)."""

    name: Name
    value: Annotated[float, Range(-4, 4)]
    detail: Annotated[str, Length(0, 64)] = ""

    def __post_init__(self) -> None:
        if (self.value * 4) != int(self.value * 4):
            raise ParamError("bad_value", f"{self.name}: a modifier is priced in quarters")


@dataclass(frozen=True, slots=True)
class Adder:
    """An Adder: extra points bought on a Power (Flight's Noncombat multiples)."""

    name: Name
    points: Annotated[int, Range(1, 1000)]


@dataclass(frozen=True, slots=True)
class Power:
    """One Power of a character, as the table declares it.

    ``dice`` and ``points_per_die`` (base points per d6: Blast 5, RKA 15) price a dice
    Power; ``base_points`` prices one without dice (Flight 40m: 40).  ``adders`` are
    optional when used (END is still paid with all of them unless the table relaxes it),
    ``advantages`` and ``limitations`` always apply (Reduced Endurance and Increased
    Endurance Cost change the END: :mod:`.endurance`; Only In Alternate Identity keeps the
    Power to that identity: :mod:`.activation`).  ``attack_action``: the Power takes an
    Attack Action and an Attack Roll (Aid, Healing).  ``duration``: ``instant`` Powers are
    used; ``constant`` ones are turned on and off and cost END every Phase they are on.
    ``framework`` names the Power Framework it is a slot of.  ``standard_dice``: how many of
    its whole dice use the Standard Effect Rule (all of them: the dice count; None: it
    rolls).  ``absolute``: GM-declared absolute properties (``always_hits``,
    ``always_kills``, ``immune:<tag>``); ``tags`` say what the Power is (``sword``,
    ``fire``) for immunities.  ``casual``: False when it cannot be used Casually (a -0
    Limitation).  ``adds_str``: STR adds to it (HA, HKA).  ``offensive``: defaults to attack
    Powers.
    """

    name: Name
    kind: Literal["attack", "defence", "movement", "other"]
    effect: Literal["normal", "killing", "body", "points", "none"] = "none"
    dice: Annotated[str, Length(0, 16)] = ""
    points_per_die: Annotated[int, Range(1, 100)] = 5
    base_points: Annotated[int, Range(0, 10_000)] = 0
    adders: tuple[Adder, ...] = ()
    advantages: tuple[Modifier, ...] = ()
    limitations: tuple[Modifier, ...] = ()
    attack_action: bool = False
    duration: Literal["instant", "constant"] = "instant"
    framework: Annotated[str, Length(0, 64)] = ""
    standard_dice: Annotated[int, Range(0, 100)] | None = None
    absolute: tuple[Annotated[str, Length(1, 64)], ...] = ()
    tags: tuple[Annotated[str, Length(1, 32)], ...] = ()
    casual: bool = True
    adds_str: bool = False
    offensive: bool | None = None
    characteristic: bool = False

    def __post_init__(self) -> None:
        if (self.effect == "none") != (self.dice == ""):
            raise ParamError("bad_value", "a Power has dice exactly when its effect counts them")
        if self.dice:
            try:
                code = DiceCode.parse(self.dice)
            except ValueError as exc:
                raise ParamError("bad_value", str(exc), "dice") from None
            if self.standard_dice is not None and self.standard_dice > code.dice:
                raise ParamError(
                    "bad_value", f"standard_dice {self.standard_dice} > {code.dice}", "dice"
                )
        elif self.standard_dice is not None:
            raise ParamError("bad_value", "the Standard Effect Rule needs dice", "standard_dice")
        for word in self.absolute:
            if word not in ("always_hits", "always_kills") and not word.startswith("immune:"):
                raise ParamError(
                    "bad_value", f"{word!r}: always_hits, always_kills or immune:<tag>", "absolute"
                )
        from .endurance import check  # the END modifiers' own module, which reads Power

        check(self)

    # -- derived ---------------------------------------------------------------------------

    @property
    def full_dice(self) -> DiceCode:
        """The Power's dice at full strength (``0d6`` for a Power without dice)."""
        return DiceCode.parse(self.dice) if self.dice else DiceCode(0)

    @property
    def advantage_total(self) -> Fraction:
        """The sum of its Advantages (``+1/4`` for Armor Piercing)."""
        return sum((Fraction(m.value) for m in self.advantages), Fraction(0))

    @property
    def is_offensive(self) -> bool:
        """Whether it is an offensive Power (it may not be used on oneself)."""
        return self.kind == "attack" if self.offensive is None else self.offensive

    @property
    def uses_ser(self) -> bool:
        """Whether the Standard Effect Rule applies to (some of) it."""
        return bool(self.standard_dice)

    def limitation(self, name: str) -> Modifier | None:
        """Its Limitation called ``name`` (case and spaces ignored), if it has one."""
        key = modifier_key(name)
        return next((m for m in self.limitations if modifier_key(m.name) == key), None)

    def base_points_of(self, code: DiceCode) -> Fraction:
        """Base points (before Adders and Advantages) of ``code`` dice of this Power."""
        if not self.dice:
            return Fraction(self.base_points)
        return Fraction(self.points_per_die * code.thirds, 3)


@dataclass(frozen=True, slots=True)
class Framework:
    """A Power Framework (a Multipower): slots share a reserve of ``pool`` points."""

    name: Name
    pool: Annotated[int, Range(1, 10_000)]


@dataclass(frozen=True, slots=True)
class Sheet:
    """A character's Powers and Frameworks, by name."""

    powers: tuple[Power, ...] = ()
    frameworks: tuple[Framework, ...] = field(default=())

    def power(self, name: str) -> Power | None:
        """The Power called ``name``, or None."""
        return next((p for p in self.powers if p.name == name), None)

    def framework(self, name: str) -> Framework | None:
        """The Framework called ``name``, or None."""
        return next((f for f in self.frameworks if f.name == name), None)

    def slots(self, framework: str) -> tuple[Power, ...]:
        """The Powers that are slots of ``framework``."""
        return tuple(p for p in self.powers if p.framework == framework)


def modifier_key(name: str) -> str:
    """A modifier's name as the rules compare it: case, spaces, ``_`` and ``-`` ignored."""
    return re.sub(r"[\s_-]", "", name).lower()


def strength(value: int) -> Power:
    """STR ``value`` as the Power-like ability the text treats it as: 1d6 per 5 STR, 1
    point per STR, END 1 per 10 STR used, usable Casually (STR 60: 12d6, 6 END)."""
    thirds = (value * 3 + 2) // 5  # 5 STR per die; a remainder of 3+ STR rounds up
    return Power(
        name="STR",
        kind="attack",
        effect="normal",
        dice=str(DiceCode.of_thirds(thirds)),
        points_per_die=5,
        characteristic=True,
    )


def sheet_of(combatant: Combatant) -> Sheet:
    """The Powers declared on a token's statistics; ``bad_scene`` names a bad one."""
    powers: list[Power] = []
    frameworks: list[Framework] = []
    for key, value in combatant.stats:
        kind, _, name = key.partition(":")
        if kind not in ("power", "framework") or not name:
            continue
        where = f"token {combatant.id!r} {key!r}"
        if not isinstance(value, str):
            raise CommandRejected("bad_scene", f"{where}: a Power is declared as JSON text")
        try:
            data = json.loads(value)
            if not isinstance(data, dict):
                raise ParamError("bad_type", "expected a map")
            data.setdefault("name", name)
            if data["name"] != name:
                raise ParamError("bad_value", f"named {data['name']!r} under {key!r}", "name")
            if kind == "power":
                powers.append(decode_params(Power, data))
            else:
                frameworks.append(decode_params(Framework, data))
        except (ValueError, ParamError) as exc:
            raise CommandRejected("bad_scene", f"{where}: {exc}") from None
    str_value = combatant.stat("STR")
    if str_value is not None and (not isinstance(str_value, int) or isinstance(str_value, bool)):
        raise CommandRejected(
            "bad_scene", f"token {combatant.id!r}: STR must be an integer, got {str_value!r}"
        )
    if isinstance(str_value, int) and not isinstance(str_value, bool) and str_value > 0:
        if any(p.name == "STR" for p in powers):
            raise CommandRejected(
                "bad_scene", f"token {combatant.id!r}: STR is a stat, not a Power"
            )
        powers.append(strength(str_value))
    names = {f.name for f in frameworks}
    for power in powers:
        if power.framework and power.framework not in names:
            raise CommandRejected(
                "bad_scene",
                f"token {combatant.id!r}: {power.name!r} is a slot of an undeclared "
                f"framework {power.framework!r}",
            )
    return Sheet(tuple(powers), tuple(frameworks))
