"""The steps that rewrite an event logged under an older wire version as this release
sends it (:mod:`protocol.versions`).  They live here, not in :mod:`protocol`, because
they name a game's events (the protocol names no game's words); importing this module
registers them, and :mod:`vtt_bridge.loading` does.
"""

from __future__ import annotations

import json
from typing import Any

from protocol.versions import event_upgrade
from vtt_bridge.translate import tokens_stats_as_maps


@event_upgrade(1)
def _moves_and_aborts_name_what_they_were(
    event: dict[str, Any], command: dict[str, Any]
) -> dict[str, Any]:
    """Version 2 added ``mode`` to ``move_started`` and ``action`` to ``aborted``.

    A version-1 move could only have been started by the ``move``/``move_points``
    command that caused it, so its mode is that command's (``combat`` when it named
    none); every version-1 abort was to a defensive manoeuvre, ``defend``.
    """
    kind, data = event.get("kind"), event.get("data")
    if not isinstance(data, dict):
        return event
    if kind == "move_started" and "mode" not in data:
        return {**event, "data": {**data, "mode": command.get("mode") or "combat"}}
    if kind == "aborted" and "action" not in data:
        return {**event, "data": {**data, "action": "defend"}}
    return event


@event_upgrade(3)
def _stats_are_maps(event: dict[str, Any], command: dict[str, Any]) -> dict[str, Any]:
    """Version 4 sends a token's ``stats`` as a map, not sorted ``[name, value]`` pairs
    (``scene_loaded``'s tokens, ``combatant_joined``'s newcomer)."""
    data = event.get("data")
    if not isinstance(data, dict):
        return event
    copied = json.loads(json.dumps(data))  # the logged event stays as it was read
    return {**event, "data": tokens_stats_as_maps(str(event.get("kind")), copied)}


@event_upgrade(4)
def _powers_name_their_modifiers(event: dict[str, Any], command: dict[str, Any]) -> dict[str, Any]:
    """Version 5 added ``advantages`` and ``limitations`` to the Hero ``power_used`` and
    ``toggle_freely`` to ``power_options_set`` (issue 26).  An older ``power_used`` did
    not record the Power's modifiers, and the log holds no sheet to read them from: it
    names none (empty lists).  ``toggle_freely`` did not exist, so it was off."""
    kind, data = event.get("kind"), event.get("data")
    if not isinstance(data, dict):
        return event
    if kind == "power_used" and "advantages" not in data:
        return {**event, "data": {**data, "advantages": [], "limitations": []}}
    if kind == "power_options_set" and "toggle_freely" not in data:
        return {**event, "data": {**data, "toggle_freely": False}}
    return event
