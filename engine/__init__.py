"""The deterministic combat engine: encounter state, commands in, events out.

Sans-I/O: no clock, no sockets, no unseeded randomness.  Rulesets are plug-ins found by
name (:func:`engine.rulesets.find_ruleset`).
"""

from engine.commands import (
    COMMAND_TYPES,
    GM,
    SYSTEM,
    AnswerPrompt,
    Command,
    EndPhase,
    ExpirePrompt,
    LoadScene,
    Move,
    SetDoor,
    StartCombat,
)
from engine.encounter import Encounter, Options, replay_commands
from engine.errors import REJECTION_CODES, CommandRejected, EngineError, UnsupportedRuleset
from engine.events import Event, event_data
from engine.model import (
    Combat,
    Combatant,
    EncounterState,
    GridSpec,
    Scene,
    TerrainSpec,
    WallSpec,
)
from engine.rulesets import Ruleset, find_ruleset, ruleset_names
from engine.serial import canonical_json, from_plain, state_hash, to_plain

__all__ = [
    "COMMAND_TYPES",
    "GM",
    "REJECTION_CODES",
    "SYSTEM",
    "AnswerPrompt",
    "Combat",
    "Combatant",
    "Command",
    "CommandRejected",
    "Encounter",
    "EncounterState",
    "EndPhase",
    "EngineError",
    "Event",
    "ExpirePrompt",
    "GridSpec",
    "LoadScene",
    "Move",
    "Options",
    "Ruleset",
    "Scene",
    "SetDoor",
    "StartCombat",
    "TerrainSpec",
    "UnsupportedRuleset",
    "WallSpec",
    "canonical_json",
    "event_data",
    "find_ruleset",
    "from_plain",
    "replay_commands",
    "ruleset_names",
    "state_hash",
    "to_plain",
]
