"""Between the wire and the engine: protocol messages to commands, events to messages.

The actor of every command is the participant the connection joined as; nothing in a
message's payload can name someone else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine
import protocol
from engine import COMMAND_TYPES, Command, from_plain, to_plain
from geometry.vtt_coords import OwlbearImageGrid


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
            vtt=None
            if grid.vtt is None
            else engine.VttSpec(
                grid.vtt.kind,
                grid.vtt.grid_size,
                grid.vtt.scene_x,
                grid.vtt.scene_y,
                grid.vtt.hex_shape,
            ),
        ),
        walls=tuple(
            engine.WallSpec(w.id, w.a, w.b, w.blocks_move, w.blocks_sight, w.door)
            for w in spec.walls
        ),
        terrain=tuple(engine.TerrainSpec(t.kind, t.polygon) for t in spec.terrain),
        tokens=tuple(combatant_from_spec(t) for t in spec.tokens),
    )


def combatant_from_spec(t: protocol.TokenSpec) -> engine.Combatant:
    """The engine combatant a wire token spec describes."""
    return engine.Combatant(
        id=t.id,
        name=t.name,
        owner=t.owner,
        side=t.side,
        x=t.x,
        y=t.y,
        size=t.size,
        reach=t.reach,
        movement=t.movement,
        stats=tuple(t.stats.items()),
    )


def image_grid(image: protocol.ImageGrid | None) -> OwlbearImageGrid | None:
    """The geometry form of an Owlbear item's image grid, if the client sent one."""
    if image is None:
        return None
    return OwlbearImageGrid(image.offset[0], image.offset[1], image.dpi, *image.scale)


def to_command(message: protocol.ClientMessage, *, actor: str, seed: Callable[[], int]) -> Command:
    """The engine command for a client message.  ``seed()`` gives a ``start_combat``
    that names none its dice seed; it is called only then (it costs a hash)."""
    # Cases are tried in order: the commonest command first.
    match message:
        case protocol.Move(token=token, path=path, mode=mode, attack=target, maneuver=m):
            return engine.Move(actor, token, tuple(path), mode, target, m, message.rolls)
        case protocol.LoadScene(scene=scene):
            return engine.LoadScene(actor, scene_from_spec(scene))
        case protocol.StartCombat(
            ruleset=ruleset, aware=aware, seed=chosen, rolls=rolls, groups=groups
        ):
            dice_seed = seed() if chosen is None else chosen
            return engine.StartCombat(actor, ruleset, dice_seed, aware, rolls, groups)
        case protocol.Act(token=token, action=action, params=params):
            return engine.Act(actor, token, action, dict(params))
        case protocol.JoinCombat(token=spec):
            return engine.JoinCombat(actor, combatant_from_spec(spec))
        case protocol.LeaveCombat(token=token, remove=remove):
            return engine.LeaveCombat(actor, token, remove)
        case protocol.SetEffect(name=name, token=token, rounds=rounds):
            return engine.SetEffect(actor, name, token, rounds)
        case protocol.EndEffect(effect=effect):
            return engine.EndEffect(actor, effect)
        case protocol.MovePoints(
            token=token, points=points, mode=mode, attack=target, maneuver=m, image=image
        ):
            return engine.MovePoints(
                actor,
                token,
                tuple(points),
                mode,
                target,
                m,
                rolls=message.rolls,
                image=image_grid(image),
            )
        case protocol.AnswerPrompt(prompt=prompt, accept=accept, rolls=rolls, maneuver=m):
            return engine.AnswerPrompt(actor, prompt, accept, rolls, m)
        case protocol.SetCondition(token=token, condition=condition, on=on):
            return engine.SetCondition(actor, token, condition, on)
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
    protocol.SetCondition,
    protocol.MovePoints,
    protocol.Act,
    protocol.JoinCombat,
    protocol.LeaveCombat,
    protocol.SetEffect,
    protocol.EndEffect,
)


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
    tokens' stats as maps."""
    plain = to_plain(state)
    assert isinstance(plain, dict)
    plain.pop("seed", None)
    plain.pop("draws", None)
    return tokens_stats_as_maps("scene_loaded", plain)
