"""Cyberpunk RED in words: a template per event kind, the stats a token carries, the
Hold Action's triggers and how a client follows it.

Read by :mod:`engine.describe` (through ``CyberpunkRed.wording``); the language is
:mod:`engine.templates`.  An attack reads with its arithmetic: "d10 7 + base 12 = 19"
(``cpr_attack``'s ``total`` is ``die`` + ``base``, the table's STAT + Skill); whether
it beats the DV stays the table's, so the line names no outcome.
"""

from __future__ import annotations

from engine.rulesets.cyberpunk_red.events import ActionHeld, HeldActionFired, HeldActionLost
from engine.rulesets.cyberpunk_red.state import HANDS, HeldAction
from engine.rulesets.cyberpunk_red.stats import HAND, MELEE, WEAPON
from engine.words import HoldFields, HoldWords, StatWords, Wording

EVENTS = {
    "cpr_action": "{combatant:token}: {action:word} ({cost:word})[ on {target:token}]"
    "[ with {item}][: {note}]",
    "cpr_attack": "{attacker:token} attacks {target:token} with {weapon:word}"
    "{held? (held action)|}: d10 {die} + base {base} = {total} (attack {number})",
    "cpr_grab": "{attacker:token} grabs {target:token}[ for {item}]: {attack_total} vs "
    "{defense_total}: {success?success|fails (ties go to the defender)}",
    "cpr_action_held": "{holder:token} holds {action:word} (trigger: {trigger:word}"
    "[, {token:token}][, an area of {area:count} squares]; lost at the end of Round "
    "{round})",
    "cpr_held_fired": "{holder:token}'s held {action:word} fires: {by:token}[ at {at:cell}]",
    "cpr_held_lost": "{holder:token}'s held {action:word} is lost: {reason}",
    "cpr_queue_changed": "The Initiative Queue shifts ({why:word}: {combatant:token}"
    "[ rolled {score}]): {order:tokens}",
}

STATS = (
    StatWords("ref", "integer", True, "REF: initiative is REF + d10"),
    StatWords("move", "integer", True, "MOVE: a move action is MOVE x 2 m"),
    StatWords("jump", "number", doc="jumping distance in metres (default MOVE)"),
    StatWords("armor_penalty", "integer", doc="armor's penalty to REF, DEX and MOVE"),
    StatWords("net_actions", "integer", doc="NET Actions a Netrunner has a Turn"),
    StatWords("shield", "flag", doc="carries a bulletproof shield"),
    StatWords("vehicle", "flag", doc="the token is a vehicle, not a combatant"),
    StatWords(f"{WEAPON}<name>", "integer", doc="a weapon carried: its ROF, 1 or 2"),
    StatWords(f"{MELEE}<name>", "flag", doc="that weapon is a melee weapon"),
    *(StatWords(f"{HAND}{hand}", "text", doc=f"what the {hand} hand holds") for hand in HANDS),
)

TRIGGERS = {
    "after_turn": "the named character's Turn ends",
    "enters": "someone enters the area",
    "in_sight": "someone comes into sight",
}

#: The Hold Action: ``cpr_action_held`` names its trigger, token and area at the top,
#: the state's entries (``rules.holds``) inside their ``trigger``; one kind, ``hold``.
HOLDS = HoldWords(
    declared=ActionHeld,
    event=HoldFields("holder", action="action", trigger="trigger", trigger_by="token", area="area"),
    listed="rules.holds",
    entry_type=HeldAction,
    entry=HoldFields(
        "holder", action="action", trigger="trigger.kind", trigger_by="trigger.token",
        area="trigger.area",
    ),
    fired=HeldActionFired,
    dropped=(HeldActionLost,),
    kind="hold",
)  # fmt: skip

WORDING = Wording(events=EVENTS, stats=STATS, triggers=TRIGGERS, holds=HOLDS)
