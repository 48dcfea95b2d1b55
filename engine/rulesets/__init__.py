"""Rulesets: one Protocol of hooks, one registry.  Importing this package registers them all."""

from engine.rulesets import hero
from engine.rulesets.base import Ruleset, find_ruleset, register, ruleset_names

__all__ = ["Ruleset", "find_ruleset", "hero", "register", "ruleset_names"]
