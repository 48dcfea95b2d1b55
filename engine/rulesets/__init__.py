"""Rulesets: one seam (:mod:`engine.rulesets.base`), one registry.

The first look-up (:func:`find_ruleset`, :func:`ruleset_names`, :func:`registered`)
imports every ruleset in this package, folder or module, so each registers itself:
adding a game is adding a folder here, with no line to edit anywhere else.
"""

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
