"""The steps that rewrite an event logged under an older wire version as this release
sends it (:mod:`protocol.versions`).  They live here, not in :mod:`protocol`, because
they name a game's events (the protocol names no game's words); importing this module
registers them, and :mod:`vtt_bridge.loading` does.
"""

from __future__ import annotations

import json
from typing import Any

from engine import to_plain
from engine.timewords import TimeWords
from protocol.versions import event_upgrade
from vtt_bridge.translate import time_words_of, tokens_stats_as_maps


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


#: The events that named a moment as ``turn`` and ``phase`` before version 7.
_TIMED = ("combatant_acts", "combatant_done", "combatant_skipped")


def _clock(words: TimeWords, turn: object, phase: object) -> dict[str, Any]:
    if not isinstance(turn, int) or not isinstance(phase, int):
        raise ValueError(f"a logged moment is two whole numbers, not {turn!r}, {phase!r}")
    return to_plain(words.reading(turn, phase))  # type: ignore[no-any-return]


@event_upgrade(6, fight=True)
def _moments_in_the_games_words(
    event: dict[str, Any], command: dict[str, Any], fight: str | None
) -> dict[str, Any]:
    """Version 7 says each moment in the fight's game's units: ``phase_started {turn,
    phase, surprise}`` becomes ``pass_started {clock, surprise}``; ``combatant_acts``,
    ``combatant_done`` and ``combatant_skipped`` carry ``clock`` where ``turn`` and
    ``phase`` were (in their place, so the fields keep the order this release sends);
    ``effect_started``'s ``ends`` ``[turn, phase]`` becomes a clock; ``combat_started``
    gains its ruleset's ``time`` words.  The core counted
    time the same way then, so the moment is the same, only said in ``fight``'s words."""
    kind, data = event.get("kind"), event.get("data")
    if not isinstance(data, dict):
        return event
    words = time_words_of(fight)
    if kind == "phase_started":
        clock = _clock(words, data.get("turn"), data.get("phase"))
        return {
            **event,
            "kind": "pass_started",
            "data": {"clock": clock, "surprise": bool(data.get("surprise"))},
        }
    if kind in _TIMED and "turn" in data:
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key == "turn":
                out["clock"] = _clock(words, value, data.get("phase"))
            elif key != "phase":
                out[key] = value
        return {**event, "data": out}
    if kind == "combat_started" and "time" not in data:
        return {
            **event,
            "data": {**data, "time": to_plain(time_words_of(str(data.get("ruleset"))))},
        }
    if kind == "effect_started" and isinstance(data.get("ends"), list):
        turn, phase = data["ends"]
        return {**event, "data": {**data, "ends": _clock(words, turn, phase)}}
    return event
