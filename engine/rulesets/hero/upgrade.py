"""Reading what a release before the ruleset seam stored: its plain state and commands.

Before the seam the Hero supplement's state sat in the core's ``Combat`` (``usage``,
``holds``, ``forfeits``, ``abort_locks``, ``defenses``, ``phase_maneuvers``, ``vitals``,
an interjection's ``usage``), its readied actions' triggers lived in ``holds`` only, a
move asked ``ready:<id>`` for one, and its actions were commands of their own
(``attack``, ``take_action``, ``delay``, ``take_delayed``, ``ready``, ``abort``,
``set_vitals``).  These two functions turn such plain values into today's form without
re-judging anything: the same facts, in the places the current classes read them.  They
are registered as the upgrade steps from rules version 2 (:mod:`engine.versions`); a
version-1 log passes through issue 10's step (none) and then these.

From rules version 3 (issue 26, seed 002 read again): a table's ``power_options`` that
named no ``adder_end`` chose, then, END on the Adders used; today's default is the
text's (END on all of them).  :func:`power_options_keep_their_adder_end` writes the
choice the table made into its logged command, so it replays as it played.  A snapshot
needs no step: it stored ``adder_end`` in full, and the new fields (``toggle_freely``,
``PowerState.alternate``) have defaults that are what those tables played.  What no
step can keep (the rules refuse now what they allowed, or price END otherwise) is listed
in ``CHANGES.md``; replaying such a command is reported as a divergence.
"""

from __future__ import annotations

from typing import Any

from engine.versions import command_upgrade, state_upgrade

Plain = dict[str, Any]

#: Command kinds of logs written before the ruleset seam, read as ``act``.
LEGACY_ACTS = frozenset(
    {"attack", "take_action", "delay", "take_delayed", "ready", "abort", "set_vitals"}
)
_HERO_COMBAT_FIELDS = (
    "usage",
    "holds",
    "forfeits",
    "abort_locks",
    "defenses",
    "phase_maneuvers",
    "vitals",
)


@command_upgrade(2)
def command_to_act(plain: Plain) -> Plain:
    """A plain logged command (``{"type": ..., ...}``) in today's form: a pre-seam Hero
    action becomes the ``act`` it is now; anything else is returned as it is."""
    kind = plain.get("type")
    if kind not in LEGACY_ACTS:
        return plain
    fields = {k: v for k, v in plain.items() if k not in ("type", "actor", "token")}
    action = kind
    if kind == "take_action":
        action = fields.pop("action")
    return {
        "type": "act",
        "actor": plain["actor"],
        "token": plain["token"],
        "action": action,
        "params": fields,
    }


@state_upgrade(2)
def state_to_seam(plain: Plain) -> Plain:
    """A plain ``EncounterState`` of a pre-seam Hero fight in today's form."""
    combat = plain.get("combat")
    if not isinstance(combat, dict) or "rules" in combat:
        return plain
    combat = dict(combat)
    moved = {name: combat.pop(name) for name in _HERO_COMBAT_FIELDS if name in combat}
    rules: Plain = {name: moved[name] for name in _HERO_COMBAT_FIELDS if name in moved}
    if "usage" in rules:
        rules["usage"] = _usage(rules["usage"])
    interjection = combat.get("interjection")
    if isinstance(interjection, dict):
        interjection = dict(interjection)
        if "usage" in interjection:
            rules["interjection_usage"] = _usage(interjection.pop("usage"))
        combat["interjection"] = interjection
    pending = combat.get("pending_move")
    if isinstance(pending, dict):
        asked = [f"held:{a[6:]}" if a.startswith("ready:") else a for a in pending["asked"]]
        combat["pending_move"] = {**pending, "asked": asked}
    combat["triggers"] = [
        {
            "owner": hold["combatant"],
            "on": "enter" if hold.get("area") else "action",
            "by": hold.get("trigger_by"),
            "area": hold.get("area", []),
            "tag": hold.get("action") or "",
        }
        for hold in rules.get("holds", [])
        if hold.get("kind") == "ready"
    ]
    empty_usage = {
        "moved": 0.0,
        "actions": [],
        "movement": None,
        "attacked": [],
        "full_phase_started": None,
        "free": 0,
    }
    rules.setdefault("interjection_usage", empty_usage)
    combat["rules"] = rules
    # Written out in full, so the stored form equals what today's classes write.
    combat.setdefault("groups", [])
    combat.setdefault("effects", [])
    combat.setdefault("next_effect", 1)
    scene = plain.get("scene")
    tokens = scene.get("tokens", []) if isinstance(scene, dict) else []
    combat["per_combatant"] = sorted([t["id"], None] for t in tokens)
    return {**plain, "combat": combat}


def _usage(usage: Plain) -> Plain:
    # ``maneuvers`` was never read: the Phase's manoeuvres are kept per combatant.
    return {k: v for k, v in usage.items() if k != "maneuvers"}


@command_upgrade(3)
def power_options_keep_their_adder_end(plain: Plain) -> Plain:
    """A rules-version-3 ``power_options`` with no ``adder_end``: the default was then
    ``used``, so it says ``used`` (today's default is ``all``)."""
    params = plain.get("params")
    if plain.get("type") != "act" or plain.get("action") != "power_options":
        return plain
    if not isinstance(params, dict) or "adder_end" in params:
        return plain
    return {**plain, "params": {**params, "adder_end": "used"}}
