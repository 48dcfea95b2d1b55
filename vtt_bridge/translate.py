"""Between the wire and the engine: scenes and tokens in, commands to the log, events
and state out.

A client message becomes its engine command through its row
(:meth:`vtt_bridge.registry.MessageRow.to_command`), read by field name; the actor of
every command is the participant the connection joined as, and nothing in a message's
payload can name someone else.
"""

from __future__ import annotations

from typing import Any

import engine
import protocol
from engine import COMMAND_TYPES, Command, from_plain, to_plain
from engine.errors import UnsupportedRuleset
from engine.rulesets import find_ruleset
from engine.timewords import ROUNDS, TimeWords
from vtt_bridge.derive import struct_reader


def scene_from_spec(spec: protocol.SceneSpec) -> engine.Scene:
    """The engine scene a ``load_scene`` body describes (read by field name)."""
    scene: engine.Scene = struct_reader(engine.Scene)(spec)
    return scene


def combatant_from_spec(t: protocol.TokenSpec) -> engine.Combatant:
    """The engine combatant a wire token spec describes (read by field name)."""
    combatant: engine.Combatant = struct_reader(engine.Combatant)(t)
    return combatant


def command_to_plain(command: Command) -> dict[str, Any]:
    """A command as stored in the log: its fields plus ``type``."""
    return {"type": command.kind, **to_plain(command)}


def command_from_plain(data: dict[str, Any]) -> Command:
    """The inverse of :func:`command_to_plain` (an older release's command passes through
    :func:`engine.versions.upgrade_command` first)."""
    fields = dict(data)
    kind = fields.pop("type")
    return from_plain(COMMAND_TYPES[kind], fields)


def event_to_plain(event: engine.Event) -> dict[str, Any]:
    """An event as stored in the log and sent on the wire: ``kind`` and ``data``."""
    return {"kind": event.kind, "data": tokens_stats_as_maps(event.kind, engine.event_data(event))}


def stats_as_map(token: dict[str, Any]) -> dict[str, Any]:
    """A plain token whose ``stats`` are the engine's sorted pairs, with them as a map:
    the wire's shape for stats everywhere (``load_scene`` takes a map, too)."""
    stats = token.get("stats")
    if isinstance(stats, list):
        token["stats"] = {pair[0]: pair[1] for pair in stats}
    return token


def tokens_stats_as_maps(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The plain ``data`` of an event ``kind``, every token's stats a map (the tokens of
    a ``scene_loaded`` scene, a ``combatant_joined`` newcomer)."""
    if kind == "scene_loaded" and isinstance(data.get("scene"), dict):
        for token in data["scene"].get("tokens", ()):
            stats_as_map(token)
    elif kind == "combatant_joined" and isinstance(data.get("token"), dict):
        stats_as_map(data["token"])
    return data


def public_state(state: engine.EncounterState) -> dict[str, Any]:
    """The state a participant may see: everything but the dice seed and draw count,
    tokens' stats as maps; a fight's ``combat`` also says its moment (``clock``) and its
    game's units of time (``time``), in the words its events use; ``initiative_dice``
    (rolled for the fight to come) only when some are, in wire version 8's shape
    ``[{token, by, rolls}]`` (none: left out, as before version 8)."""
    plain = to_plain(state)
    assert isinstance(plain, dict)
    plain.pop("seed", None)
    plain.pop("draws", None)
    combat = state.combat
    if combat is not None:
        words = time_words_of(combat.ruleset)
        plain["combat"]["clock"] = to_plain(words.reading(combat.turn, combat.phase))
        plain["combat"]["time"] = to_plain(words)
    rolled = plain.pop("initiative_dice", None)
    if rolled:
        plain["initiative_dice"] = [{"token": t, "by": by, "rolls": r} for t, by, r in rolled]
    return tokens_stats_as_maps("scene_loaded", plain)


def time_words_of(fight: str | None) -> TimeWords:
    """The time words of the ruleset named ``fight`` (a game this release does not
    know, or none: Rounds of one pass, the seam's default)."""
    if fight is None:
        return ROUNDS
    try:
        return find_ruleset(fight).time_words
    except UnsupportedRuleset:
        return ROUNDS
