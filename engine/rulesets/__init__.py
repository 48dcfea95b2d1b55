"""Rulesets: one seam (:mod:`engine.rulesets.base`), one registry.

Importing this package imports every ruleset in it, folder or module, so each registers
itself: adding a game is adding a folder here, with no line to edit anywhere else.
"""

import importlib
import pkgutil

from engine.rulesets.base import (
    ActionSpec,
    Context,
    Initiative,
    MovePlan,
    NoParams,
    OpportunityAttack,
    Ruleset,
    Vocabulary,
    find_ruleset,
    register,
    registered,
    ruleset_names,
)

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base" and not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "ActionSpec",
    "Context",
    "Initiative",
    "MovePlan",
    "NoParams",
    "OpportunityAttack",
    "Ruleset",
    "Vocabulary",
    "find_ruleset",
    "register",
    "registered",
    "ruleset_names",
]
