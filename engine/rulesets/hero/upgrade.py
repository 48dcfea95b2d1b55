"""Reading what a release before the ruleset seam stored: its plain state and commands.

Before the seam the Hero supplement's state sat in the core's ``Combat`` (``usage``,
``holds``, ``forfeits``, ``abort_locks``, ``defenses``, ``phase_maneuvers``, ``vitals``,
an interjection's ``usage``), its readied actions' triggers lived in ``holds`` only, a
move asked ``ready:<id>`` for one, and its actions were commands of their own
(``attack``, ``take_action``, ``delay``, ``take_delayed``, ``ready``, ``abort``,
``set_vitals``).  These two functions turn such plain values into today's form without
re-judging anything: the same facts, in the places the current classes read them.  They
are the upgrade steps for the version bump of the seam (register them with
``engine.versions``' ``state_upgrade`` / ``command_upgrade`` for the version the seam
upgrades from); the bridge also reads a legacy command kind through
:func:`command_to_act` whatever version a log row claims.
"""

from __future__ import annotations

from typing import Any

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
    combat["rules"] = rules
    scene = plain.get("scene")
    tokens = scene.get("tokens", []) if isinstance(scene, dict) else []
    combat["per_combatant"] = sorted([t["id"], None] for t in tokens)
    return {**plain, "combat": combat}


def _usage(usage: Plain) -> Plain:
    # ``maneuvers`` was never read: the Phase's manoeuvres are kept per combatant.
    return {k: v for k, v in usage.items() if k != "maneuvers"}
