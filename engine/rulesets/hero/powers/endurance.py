"""What a use of a Power costs in END, with the Advantages and Limitations that change it.

Seed 002 (*Full Power*): "A character must use all of a Power's Advantages and
Limitations each time he uses the Power (unless a specific rule indicates otherwise)",
and END is 1 per 10 Active Points used (its 10d6 Blast costs 5 END, 8d6 4 END).  The two
modifiers that change END are named but not priced by the text; their figures are the
6E core rules' (6E1, *Power Advantages* and *Power Limitations*), the ones a 6E table
prices a character with:

* **Reduced Endurance** (an Advantage; ``detail`` ``"½ END"`` at +¼ or ``"0 END"`` at
  +½): ½ END halves the END, rounding down (in the character's favour, as
  :func:`~.effect.round_cost`) but never below 1; 0 END costs none.  As in 6E, the
  Advantage does not raise the END it reduces: the END is figured on the Active Points
  without Reduced Endurance itself (else buying ½ END would partly pay for itself back).
* **Increased Endurance Cost** (a Limitation; ``detail`` ``"x2"`` ... ``"x10"``, 6E's -½
  for x2, -1 for x3, -1½ for x4, -2 for x5 ... -4 for x10): the END is multiplied, after
  the rounding (a 4d6 Blast, 20 Active Points, 2 END, costs 4 at x2).

The table prices the modifier (its ``value``); only its ``detail`` changes the END, so a
table with its own price for them plays the same figures.  Names are compared ignoring
case, spaces, ``_`` and ``-`` (``reduced_endurance`` is Reduced Endurance).
"""

from __future__ import annotations

import re
from fractions import Fraction

from engine.params import ParamError

from .effect import end_cost, round_cost
from .sheet import DiceCode, Modifier, Power, modifier_key

REDUCED = "reducedendurance"
INCREASED = "increasedendurancecost"
#: Reduced Endurance's levels: the share of the END still paid.
REDUCED_LEVELS = {"½end": Fraction(1, 2), "1/2end": Fraction(1, 2), "0end": Fraction(0)}
_TIMES = re.compile(r"^[x\u00d7](\d{1,2})$")  # "x2", or with the multiplication sign


def _level(detail: str) -> str:
    return detail.replace(" ", "").lower()


def check(power: Power) -> None:
    """Refuse a Power whose END modifiers are malformed (``bad_value``, with the field)."""
    for field, mods, wrong in (
        ("advantages", power.advantages, INCREASED),
        ("limitations", power.limitations, REDUCED),
    ):
        for mod in mods:
            if modifier_key(mod.name) == wrong:
                kind = "a Limitation" if wrong == INCREASED else "an Advantage"
                raise ParamError("bad_value", f"{mod.name} is {kind}", field)
    reduced, increased = _reduced(power), _increased(power)
    if reduced is not None and _level(reduced.detail) not in REDUCED_LEVELS:
        raise ParamError(
            "bad_value", f"{reduced.name}: detail '½ END' or '0 END', not {reduced.detail!r}",
            "advantages",
        )  # fmt: skip
    if increased is not None:
        times = _TIMES.match(increased.detail.replace(" ", "").lower())
        if times is None or not 2 <= int(times.group(1)) <= 10:
            raise ParamError(
                "bad_value", f"{increased.name}: detail 'x2' .. 'x10', not {increased.detail!r}",
                "limitations",
            )  # fmt: skip
    if reduced is not None and increased is not None:
        raise ParamError("bad_value", "a Power's END is reduced or increased, not both")


def _reduced(power: Power) -> Modifier | None:
    return next((m for m in power.advantages if modifier_key(m.name) == REDUCED), None)


def _increased(power: Power) -> Modifier | None:
    return next((m for m in power.limitations if modifier_key(m.name) == INCREASED), None)


def end_points(power: Power, code: DiceCode, adder_points: int) -> int:
    """The Active Points the END of ``code`` dice of ``power`` with ``adder_points`` of
    Adders is figured on: its Active Points without Reduced Endurance's own value."""
    reduced = _reduced(power)
    cut = Fraction(reduced.value) if reduced is not None else Fraction(0)
    base = power.base_points_of(code) + adder_points
    return round_cost(base * (1 + power.advantage_total - cut))


def end_of(power: Power, points: int) -> int:
    """The END ``power`` costs used at ``points`` (from :func:`end_points`): 1 per 10
    (:func:`~.effect.end_cost`), then halved or none (Reduced Endurance) or multiplied
    (Increased Endurance Cost)."""
    cost = end_cost(points)
    reduced, increased = _reduced(power), _increased(power)
    if reduced is not None:
        share = REDUCED_LEVELS[_level(reduced.detail)]
        return 0 if not share or not cost else max(1, int(cost * share))
    if increased is not None:
        times = _TIMES.match(increased.detail.replace(" ", "").lower())
        assert times is not None  # checked by :func:`check`
        cost *= int(times.group(1))
    return cost
