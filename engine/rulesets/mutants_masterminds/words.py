"""Mutants & Masterminds 3e in words: a template per event kind and the stats a token
carries.

Read by :mod:`engine.describe` (through ``MutantsMasterminds.wording``); the language
is :mod:`engine.templates`.  An attack check reads with its arithmetic: "d20 14 + 8 =
22 vs DC 10 + Parry 6 = 16: hit" (``attack_check``'s ``total`` is ``d20`` +
``bonus``, its ``dc`` 10 + ``defence_rank``: seed 003).
"""

from __future__ import annotations

from engine.rulesets.mutants_masterminds.state import FLAGS, MOVEMENT, OPTIONAL, REQUIRED
from engine.words import Wording, stat_words

EVENTS = {
    "initiative_check": "{combatants:tokens} check initiative: d20 {d20} + {modifier} = {total}",
    "initiative_tie": "A tie at {count} is settled by {by:word}: {order:tokens}",
    "flat_footed_ended": "{combatant:token} is no longer flat-footed",
    "attack_check": "{attacker:token} makes a {reach} attack on {target:token}: d20 {d20} "
    "+ {bonus} = {total} vs DC 10 + {defence:word} {defence_rank} = {dc}"
    "{flat_footed? (flat-footed)|}: {hit?hit|miss}{critical? (critical)|}",
    "traded_down": "{combatant:token} trades its standard action for a move action",
    "free_action": "{combatant:token} takes a free action: {what}",
    "incapacitation": "{combatant:token} is {on?now|no longer} incapacitated",
}

WORDING = Wording(
    events=EVENTS,
    stats=stat_words(
        REQUIRED,
        (*OPTIONAL, *MOVEMENT),
        FLAGS,
        {
            "dexterity": "Dexterity: the initiative modifier",
            "dodge": "Dodge: the DC of a ranged attack is 10 + Dodge",
            "parry": "Parry: the DC of a close attack is 10 + Parry",
            "flight": "Flight rank: above 0, a move may change its height",
        },
    ),
)
