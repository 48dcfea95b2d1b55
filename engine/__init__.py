"""The deterministic combat engine: encounter state, commands in, events out.

Sans-I/O: no clock, no sockets, no unseeded randomness.  Rulesets are plug-ins found by
name (:func:`engine.rulesets.find_ruleset`).
"""

from engine.combat_state import Maneuver
from engine.commands import (
    COMMAND_TYPES,
    CONDITIONS,
    GM,
    MOVE_MODES,
    SYSTEM,
    Abort,
    AnswerPrompt,
    Attack,
    Command,
    Delay,
    EndPhase,
    ExpirePrompt,
    LoadScene,
    Move,
    MovePoints,
    Ready,
    SetCondition,
    SetDoor,
    SetVitals,
    StartCombat,
    TakeAction,
    TakeDelayed,
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

__all__ = [
    "COMMAND_TYPES",
    "CONDITIONS",
    "GM",
    "MOVE_MODES",
    "REJECTION_CODES",
    "SYSTEM",
    "Abort",
    "AnswerPrompt",
    "Attack",
    "Combat",
    "Combatant",
    "Command",
    "CommandRejected",
    "Delay",
    "Encounter",
    "EncounterState",
    "EndPhase",
    "EngineError",
    "Event",
    "ExpirePrompt",
    "GridSpec",
    "LoadScene",
    "Maneuver",
    "Move",
    "MovePoints",
    "Options",
    "PathPlan",
    "Ready",
    "Ruleset",
    "Scene",
    "SetCondition",
    "SetDoor",
    "SetVitals",
    "StartCombat",
    "TakeAction",
    "TakeDelayed",
    "TerrainSpec",
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
