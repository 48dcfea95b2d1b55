"""Between the wire and the engine: protocol messages to commands, events to messages.

The actor of every command is the participant the connection joined as; nothing in a
message's payload can name someone else.
"""

from __future__ import annotations

from typing import Any

import engine
import protocol
from engine import COMMAND_TYPES, Command, from_plain, to_plain


def scene_from_spec(spec: protocol.SceneSpec) -> engine.Scene:
    """The engine scene a ``load_scene`` body describes."""
    grid = spec.grid
    return engine.Scene(
        grid=engine.GridSpec(
            width=grid.width,
            height=grid.height,
            cell_size=grid.cell_size,
            unit=grid.unit,
            kind=grid.kind,
            diagonal=grid.diagonal,
            offset=grid.offset,
        ),
        walls=tuple(
            engine.WallSpec(w.id, w.a, w.b, w.blocks_move, w.blocks_sight, w.door)
            for w in spec.walls
        ),
        terrain=tuple(engine.TerrainSpec(t.kind, t.polygon) for t in spec.terrain),
        tokens=tuple(
            engine.Combatant(
                id=t.id,
                name=t.name,
                owner=t.owner,
                side=t.side,
                x=t.x,
                y=t.y,
                size=t.size,
                reach=t.reach,
                movement=t.movement,
                stats=tuple(t.stats),
            )
            for t in spec.tokens
        ),
    )


def to_command(message: protocol.ClientMessage, *, actor: str, seed: int) -> Command:
    """The engine command for a client message (``seed`` is used by ``start_combat``)."""
    match message:
        case protocol.LoadScene(scene=scene):
            return engine.LoadScene(actor, scene_from_spec(scene))
        case protocol.StartCombat(ruleset=ruleset, aware=aware, seed=chosen):
            return engine.StartCombat(actor, ruleset, seed if chosen is None else chosen, aware)
        case protocol.Move(token=token, path=path):
            return engine.Move(actor, token, tuple(path))
        case protocol.AnswerPrompt(prompt=prompt, accept=accept, rolls=rolls):
            return engine.AnswerPrompt(actor, prompt, accept, rolls)
        case protocol.EndPhase(token=token):
            return engine.EndPhase(actor, token)
        case protocol.SetDoor(wall=wall, open=is_open):
            return engine.SetDoor(actor, wall, is_open)
    raise TypeError(f"{type(message).__name__} is not a command")


COMMAND_MESSAGES = (
    protocol.LoadScene,
    protocol.StartCombat,
    protocol.Move,
    protocol.AnswerPrompt,
    protocol.EndPhase,
    protocol.SetDoor,
)


def command_to_plain(command: Command) -> dict[str, Any]:
    """A command as stored in the log: its fields plus ``type``."""
    return {"type": command.kind, **to_plain(command)}


def command_from_plain(data: dict[str, Any]) -> Command:
    """The inverse of :func:`command_to_plain`."""
    fields = dict(data)
    kind = fields.pop("type")
    return from_plain(COMMAND_TYPES[kind], fields)


def event_to_plain(event: engine.Event) -> dict[str, Any]:
    """An event as stored in the log and sent on the wire: ``kind`` and ``data``."""
    return {"kind": event.kind, "data": engine.event_data(event)}


def public_state(state: engine.EncounterState) -> dict[str, Any]:
    """The state a participant may see: everything but the dice seed and draw count."""
    plain = to_plain(state)
    assert isinstance(plain, dict)
    plain.pop("seed", None)
    plain.pop("draws", None)
    return plain
