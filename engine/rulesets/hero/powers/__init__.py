"""Hero System 6E Powers (seed 002) for the Hero ruleset: declared on tokens, used in a
Phase, paid in END, rolled or fixed by the Standard Effect Rule.

:mod:`.sheet` declares what a Power is, :mod:`.effect` prices and rolls it, and
:mod:`.rules` says when it may be used (:mod:`.casual` Casually, :mod:`.activation` turned
on and off, :mod:`.endurance` what END it costs); all are pure (values in, values out).
"""

from .activation import activate, activation_time, change_identity, deactivate, switch, upkeep
from .effect import Effect, active_points, end_cost, resolve, round_cost, split
from .endurance import end_of, end_points
from .rules import PowerRefused, PowerState, TableOptions, Use, Used, use_power
from .sheet import Adder, DiceCode, Framework, Modifier, Power, Sheet, sheet_of, strength

__all__ = [
    "Adder",
    "DiceCode",
    "Effect",
    "Framework",
    "Modifier",
    "Power",
    "PowerRefused",
    "PowerState",
    "Sheet",
    "TableOptions",
    "Use",
    "Used",
    "activate",
    "activation_time",
    "active_points",
    "change_identity",
    "deactivate",
    "end_cost",
    "end_of",
    "end_points",
    "resolve",
    "round_cost",
    "sheet_of",
    "split",
    "strength",
    "switch",
    "upkeep",
    "use_power",
]
