"""Active Points, END, and a Power's effect (rolled or under the Standard Effect Rule).

Rounding (stated because the text only shows it through its figures): Active Points and
END are rounded to the nearest whole number, and a half rounds *down*, in the character's
favour, as the Hero System rounds costs.  END is 1 per 10 Active Points used, so a 50-point
Blast 10d6 costs 5 END, at 8d6 (40 points) 4 END, and an RKA 1d6 (15 points) costs 1 END,
the text's Kasdrevan figure.  A Power used at all costs at least 1 END; used at zero points
it costs none.

The effect of dice (silent in the text; the Hero System's usual count):

* ``normal``: STUN is the total; BODY is 0 on a 1, 2 on a 6, else 1.  A half die counts
  half its roll, rounded up, and 1 BODY on 3-6.  ``+1`` adds a STUN, ``-1`` takes one.
* ``killing``: BODY is the total (a half die counts half, rounded up); STUN is BODY times
  a ½d6 STUN Multiplier (6E), rolled even under the Standard Effect Rule, which fixes
  the Power's dice, not the multiplier.
* ``body``: the BODY on the dice counts, as for Flash (normal-damage BODY per die).
* ``points``: the total counts (Aid, Healing, Transform's "BODY worth of effect").

The Standard Effect Rule: every standard die gives 3 points (1 BODY per die for a Power
that counts BODY, and 3 STUN and 1 BODY for normal damage).  When *all* of a Power's dice
are standard, a half die adds 1 point, ``+1`` adds 1 (or 0, a table option) and ``-1`` is
ignored (RKA 3d6-1: 9 BODY); when only part is, the half die or the point goes with the
rolled part.  The standard share of an amount used below full, or of the dice with STR
added (an HA or HKA), keeps the Power's ratio, rounded down (HKA 4d6 as 2d6+6 with 1d6 of
STR: 5d6, 2 standard and 3 rolled).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .sheet import DiceCode, Power

#: How the dice are rolled: ``roll(purpose, count, sides)``, as :class:`engine.tray.DiceTray`.
Roller = Callable[[str, int, int], tuple[int, ...]]


def round_cost(value: Fraction) -> int:
    """Nearest whole number, a half rounding down (in the character's favour)."""
    whole, rest = divmod(value, 1)
    return int(whole) + (1 if rest > Fraction(1, 2) else 0)


def active_points(power: Power, code: DiceCode, adder_points: int) -> int:
    """Active Points of ``code`` dice of ``power`` with ``adder_points`` of its Adders:
    (base + Adders) x (1 + Advantages); Limitations never lower Active Points."""
    return round_cost((power.base_points_of(code) + adder_points) * (1 + power.advantage_total))


def end_cost(points: int) -> int:
    """END for ``points`` Active Points used: 1 per 10, a half rounding down, at least 1."""
    if points <= 0:
        return 0
    return max(1, round_cost(Fraction(points, 10)))


@dataclass(frozen=True, slots=True)
class Split:
    """How the dice of a use divide under the Standard Effect Rule."""

    standard: int  # whole dice fixed at 3 points (or 1 BODY) each
    rolled: DiceCode  # the rest, rolled
    fixed_bonus: int  # the SER's half die or +1 when all the dice are standard


def split(power: Power, code: DiceCode, *, plus_one_counts: bool = True) -> Split:
    """Divide ``code`` (an amount of ``power``, STR included) into standard and rolled."""
    full = power.full_dice.dice
    std = power.standard_dice or 0
    if not std:
        return Split(0, code, 0)
    if std >= full:  # all of it: the SER's own adjustments
        bonus = 1 if code.half else (1 if code.adjust == 1 and plus_one_counts else 0)
        return Split(code.dice, DiceCode(0), bonus)
    share = code.dice * std // full
    return Split(share, DiceCode(code.dice - share, code.half, code.adjust), 0)


@dataclass(frozen=True, slots=True)
class Effect:
    """What a use of a Power did, as the table reads it: the dice rolled, the standard
    dice, and the points counted (None where the Power does not count that)."""

    dice: tuple[int, ...]
    standard: int
    stun: int | None = None
    body: int | None = None
    points: int | None = None
    multiplier: int | None = None


def _half(roll: int) -> int:
    return (roll + 1) // 2


def _normal_body(roll: int) -> int:
    return 0 if roll == 1 else 2 if roll == 6 else 1


def resolve(power: Power, code: DiceCode, roll: Roller, *, plus_one_counts: bool = True) -> Effect:
    """Roll (or fix) the effect of ``code`` dice of ``power``."""
    if power.effect == "none":
        return Effect((), 0)
    part = split(power, code, plus_one_counts=plus_one_counts)
    rolled = part.rolled
    count = rolled.dice + rolled.half
    dice = roll(f"{power.name} {code}", count, 6) if count else ()
    whole, half = dice[: rolled.dice], dice[rolled.dice :]
    std, bonus = part.standard, part.fixed_bonus
    if power.effect == "normal":
        stun = sum(whole) + sum(_half(h) for h in half) + rolled.adjust + 3 * std + bonus
        body = sum(map(_normal_body, whole)) + sum(h >= 3 for h in half) + std
        return Effect(dice, std, stun=max(0, stun), body=body)
    if power.effect == "killing":
        body = max(0, sum(whole) + sum(_half(h) for h in half) + rolled.adjust) + 3 * std + bonus
        multiplier = max(1, _half(roll(f"{power.name} STUN Multiplier", 1, 6)[0]))
        return Effect(dice, std, stun=body * multiplier, body=body, multiplier=multiplier)
    if power.effect == "body":
        body = sum(map(_normal_body, whole)) + sum(h >= 3 for h in half) + std + bonus
        return Effect(dice, std, body=body)
    points = sum(whole) + sum(_half(h) for h in half) + rolled.adjust + 3 * std + bonus
    return Effect(dice, std, points=max(0, points))
