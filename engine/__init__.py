"""The deterministic combat engine: encounter state, commands in, events out.

Sans-I/O: no clock, no sockets, no unseeded randomness.  Rulesets are plug-ins found by
name (:func:`engine.rulesets.find_ruleset`).
"""

from engine.commands import (
    COMMAND_TYPES,
    GM,
    SYSTEM,
    Act,
    AnswerPrompt,
    Command,
    EditScene,
    EndCombat,
    EndEffect,
    EndPhase,
    ExpirePrompt,
    JoinCombat,
    LeaveCombat,
    LoadScene,
    Move,
    MovePoints,
    RollInitiative,
    SetCondition,
    SetDoor,
    SetEffect,
    SetStats,
    StartCombat,
)
from engine.encounter import Encounter, replay_commands
from engine.errors import REJECTION_CODES, CommandRejected, EngineError, UnsupportedRuleset
from engine.events import Event, event_data
from engine.model import (
    Combat,
    Combatant,
    EncounterState,
    GridSpec,
    Scene,
    TerrainSpec,
    VttSpec,
    WallSpec,
)
from engine.options import Options, PathPlan
from engine.options import options as options_for
from engine.rulesets import Ruleset, find_ruleset, ruleset_names
from engine.serial import canonical_json, from_plain, state_hash, to_plain
from engine.threat import Threat

__all__ = [
    "COMMAND_TYPES",
    "GM",
    "REJECTION_CODES",
    "SYSTEM",
    "Act",
    "AnswerPrompt",
    "Combat",
    "Combatant",
    "Command",
    "CommandRejected",
    "EditScene",
    "Encounter",
    "EncounterState",
    "EndCombat",
    "EndEffect",
    "EndPhase",
    "EngineError",
    "Event",
    "ExpirePrompt",
    "GridSpec",
    "JoinCombat",
    "LeaveCombat",
    "LoadScene",
    "Move",
    "MovePoints",
    "Options",
    "PathPlan",
    "RollInitiative",
    "Ruleset",
    "Scene",
    "SetCondition",
    "SetDoor",
    "SetEffect",
    "SetStats",
    "StartCombat",
    "TerrainSpec",
    "Threat",
    "UnsupportedRuleset",
    "VttSpec",
    "WallSpec",
    "canonical_json",
    "event_data",
    "find_ruleset",
    "from_plain",
    "options_for",
    "replay_commands",
    "ruleset_names",
    "state_hash",
    "to_plain",
]
