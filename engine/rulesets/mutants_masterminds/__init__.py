"""Mutants & Masterminds 3e (seed 003): initiative, surprise, flat-footed and the round,
as one ruleset folder (``start_combat`` ruleset ``"mm3e"``).

========================  ===========================================================
module                    what it holds
========================  ===========================================================
:mod:`.state`             the token statistics it reads, a combatant's turn state
:mod:`.initiative`        d20 + Dexterity + modifiers, ties, groups, newcomers
:mod:`.turn`              standard, move and free actions, trading down, the surprise
                          round's one action
:mod:`.actions`           attack, use_power, trade_down, free_action, incapacitate
:mod:`.events`            what the ruleset reports
:mod:`.ruleset`           the engine's hooks over all of the above
========================  ===========================================================

Each module quotes the text it implements and states each choice made where the text
is silent; the folder's README.md is the table of them.
"""

from engine.rulesets.mutants_masterminds.ruleset import MutantsMasterminds
from engine.rulesets.mutants_masterminds.state import Character

__all__ = ["Character", "MutantsMasterminds"]
