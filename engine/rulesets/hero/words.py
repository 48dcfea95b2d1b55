"""The Hero supplement in words: a template per event kind, its delay prompt, its holds.

Read by :mod:`engine.describe` (through ``HeroSupplement.wording``); the template
language is :mod:`engine.templates`.  An Attack Roll reads with its arithmetic: "3d6 8
+ OCV 5 = 13 vs 10 + DCV 4 = 14: miss" (``attack_rolled``'s ``total`` is the dice's sum
plus ``ocv``, its ``target_number`` 10 + ``dcv``: seed 000).
"""

from __future__ import annotations

from engine.rulesets.hero.events import DelayTaken, HoldDeclared, HoldLapsed, ReadiedActionTaken
from engine.rulesets.hero.state import Hold
from engine.rulesets.hero.time import DELAYED_ACTION
from engine.words import HoldFields, HoldWords, PromptWords

EVENTS = {
    "attack_rolled": "{attacker:token} attacks {target:token} ({attack:word}): "
    "3d6 {dice:sum} ({dice}) + OCV {ocv} = {total} vs 10 + DCV {dcv} = {target_number}: "
    "{hit?hit|miss}",
    "hold_declared": "{combatant:token} holds ({hold:word})[ until just before {before:token}]"
    "[ to {action:word}][ when {trigger_by:token} acts][ when someone enters {area:count} "
    "cells]",
    "hold_lapsed": "{combatant:token}'s held action ({hold:word}) lapses",
    "delay_taken": "{combatant:token} takes its delayed action[ just before {before:token}]",
    "readied_action_taken": "{combatant:token}'s readied {action:word} interrupts "
    "{trigger_by:token}",
    "action_taken": "{combatant:token}: {action:word}[ ({slot:word})][: {detail}]",
    "aborted": "{combatant:token} aborts to {action:word}[ ({maneuver:word}, DCV "
    "{dcv:signed})], giving up its next action",
    "vitals_changed": "{combatant:token} now has END {end}, STUN {stun}",
    "recovered": "{combatant:token} recovers after Turn {turn}: END {end:change}, "
    "STUN {stun:change}",
    "power_used": "{combatant:token} uses {power:word} ({dice}, {active_points} Active "
    "Points)[ on {target:token}][ on {object}][ ({hit?hit|miss})][: rolled {rolled} = "
    "{rolled:sum}][, STUN {stun}][, BODY {body}][, {points} points]; END {end} "
    "({end_left} left)",
    "power_toggled": "{combatant:token} turns {power:word} {on?on|off} (END {end}, "
    "{end_left} left)",
    "framework_switched": "{combatant:token} switches {framework:word}: {allocation}",
    "power_upkeep": "{combatant:token}'s constant Powers cost END {end} ({end_left} left)"
    "[; {dropped} went off]",
    "power_options_set": "Power options: casual use {casual_use}, SER +1 {ser_plus_one}, "
    "adder END {adder_end:word}, toggle freely {toggle_freely}",
    "identity_changed": "{combatant:token} changes to its {identity:word} identity",
}

PROMPTS = (
    PromptWords(
        DELAYED_ACTION,
        "{attacker:token} is still delaying: take the action now, after everyone else?",
        accept="Act now, last in the Phase",
        decline="Keep waiting",
        expired="it keeps waiting",
    ),
)

TRIGGERS = {
    "action": "the named character starts an action",
    "enter": "someone enters the area",
}

#: Delays and readied actions: ``hold_declared`` names the kind ``hold``, the state's
#: entries (``rules.holds``) ``kind``; a readied action that fires interjects.
HOLDS = HoldWords(
    declared=HoldDeclared,
    event=HoldFields(
        "combatant", kind="hold", before="before", action="action",
        trigger_by="trigger_by", area="area",
    ),
    listed="rules.holds",
    entry_type=Hold,
    entry=HoldFields(
        "combatant", kind="kind", before="before", action="action",
        trigger_by="trigger_by", area="area",
    ),
    fired=ReadiedActionTaken,
    dropped=(HoldLapsed, DelayTaken),
)  # fmt: skip
