"""Commands: what a participant asks the encounter to do.

Every command names its ``actor``, the participant id of whoever gave it: the bridge
fills it from the connection's join token, never from a message's payload.  ``"gm"``
is the table's GM; ``"system"`` is the bridge itself (a prompt's deadline passing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.model import Scene
from geometry import Cell

GM = "gm"
SYSTEM = "system"


@dataclass(frozen=True, slots=True)
class LoadScene:
    """Replace the scene (GM only, not during combat)."""

    kind: ClassVar[str] = "load_scene"
    actor: str
    scene: Scene


@dataclass(frozen=True, slots=True)
class StartCombat:
    """Start a fight under ``ruleset`` (GM only).

    ``aware`` lists the combatants aware of their opponents at the start; None means
    everyone.  ``seed`` seeds the encounter's dice and is logged with the command.
    """

    kind: ClassVar[str] = "start_combat"
    actor: str
    ruleset: str
    seed: int
    aware: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``token`` through ``path``: the cells after its current one, each adjacent."""

    kind: ClassVar[str] = "move"
    actor: str
    token: str
    path: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class AnswerPrompt:
    """Accept or decline an open prompt; ``rolls`` are dice the table rolled, if any."""

    kind: ClassVar[str] = "answer_prompt"
    actor: str
    prompt: str
    accept: bool
    rolls: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ExpirePrompt:
    """A prompt's deadline passed unanswered: it counts as declined."""

    kind: ClassVar[str] = "expire_prompt"
    actor: str
    prompt: str


@dataclass(frozen=True, slots=True)
class EndPhase:
    """``token`` is done acting; initiative passes to the next combatant."""

    kind: ClassVar[str] = "end_phase"
    actor: str
    token: str


@dataclass(frozen=True, slots=True)
class SetDoor:
    """Open or close the door ``wall``."""

    kind: ClassVar[str] = "set_door"
    actor: str
    wall: str
    open: bool


Command = LoadScene | StartCombat | Move | AnswerPrompt | ExpirePrompt | EndPhase | SetDoor

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.kind: cls
    for cls in (LoadScene, StartCombat, Move, AnswerPrompt, ExpirePrompt, EndPhase, SetDoor)
}
