"""One function per command: check it against the state, return the new state and events.

Every handler is ``(state, command, spatial) -> (state, events)`` and raises
:class:`~engine.errors.CommandRejected` before building anything when the command is not
legal, so a refusal never leaves a half-applied state behind.  ``spatial`` is the
encounter's geometry index cache (:mod:`engine.spatial`): derived from the state, never
part of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.commands import (
    GM,
    SYSTEM,
    AnswerPrompt,
    EndPhase,
    ExpirePrompt,
    LoadScene,
    Move,
    SetDoor,
    StartCombat,
)
from engine.errors import CommandRejected, UnsupportedRuleset
from engine.events import (
    CombatStarted,
    DoorChanged,
    Event,
    InitiativeOrder,
    MoveStarted,
    PromptClosed,
    SceneLoaded,
    TokenPlaced,
)
from engine.model import Combat, Combatant, EncounterState, Scene
from engine.movement import begin_move, continue_move, resolve_path
from engine.rulesets import Ruleset, find_ruleset
from engine.scene_checks import check_scene
from engine.spatial import SpatialCache
from engine.tray import DiceTray
from engine.turns import advance, begin, limited

Handler = Callable[[EncounterState, Any, SpatialCache], tuple[EncounterState, list[Event]]]
Result = tuple[EncounterState, list[Event]]


def load_scene(state: EncounterState, command: LoadScene, spatial: SpatialCache) -> Result:
    """Replace the scene (GM only, between fights)."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM may load a scene, not {command.actor!r}")
    if state.combat is not None:
        raise CommandRejected("combat_active", "cannot load a scene while combat is running")
    check_scene(command.scene)
    return replace(state, scene=command.scene), [SceneLoaded(command.scene)]


def start_combat(state: EncounterState, command: StartCombat, spatial: SpatialCache) -> Result:
    """Roll initiative and open the first Phase."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM may start combat, not {command.actor!r}")
    if state.combat is not None:
        raise CommandRejected("combat_active", "combat is already running")
    scene = state.scene
    if scene is None or not scene.tokens:
        raise CommandRejected("no_scene", "load a scene with tokens before starting combat")
    try:
        ruleset = find_ruleset(command.ruleset)
    except UnsupportedRuleset as exc:
        raise CommandRejected("unknown_ruleset", str(exc)) from None
    for token in scene.tokens:
        ruleset.check_combatant(token)
    everyone = tuple(t.id for t in scene.tokens)
    aware = everyone if command.aware is None else command.aware
    for cid in aware:
        if scene.token(cid) is None:
            raise CommandRejected("unknown_token", f"aware names {cid!r}, not on the scene")
    tray = DiceTray(command.seed, 0, GM)
    order, scores = ruleset.initiative(scene.tokens, tray)
    aware_in_order = tuple(cid for cid in order if cid in set(aware))
    combat = Combat(ruleset=ruleset.name, order=order, scores=scores, aware=aware_in_order)
    combat, turn_events = begin(combat, ruleset, scene)
    events: list[Event] = [
        CombatStarted(ruleset.name, combat.surprise, aware_in_order),
        *tray.events,
        InitiativeOrder(order, scores),
        *turn_events,
    ]
    return replace(state, seed=command.seed, draws=tray.draws, combat=combat), events


def move(state: EncounterState, command: Move, spatial: SpatialCache) -> Result:
    """Move a token: freely outside combat, within its Phase's budget in combat."""
    token = controlled_token(state, command.actor, command.token)
    scene = state.scene
    assert scene is not None
    path = (token.cell, *command.path)
    if state.combat is not None:
        combat = state.combat
        require_no_prompts(combat)
        require_turn(combat, token)
    resolution = resolve_path(spatial, scene, token, path)
    if state.combat is None:
        # Outside combat the GM and owners arrange tokens freely: no budget, no provocation.
        moved = scene.with_token(token.moved_to(path[-1]))
        return replace(state, scene=moved), [TokenPlaced(token.id, path[-1])]
    combat, ruleset = combat_and_ruleset(state)
    left = ruleset.movement_left(token, combat.usage, limited(combat))
    if resolution.cost > left + 1e-9:
        unit = scene.grid.unit
        raise CommandRejected(
            "over_budget",
            f"move of {token.id!r} costs {resolution.cost:g} {unit}, "
            f"only {left:g} {unit} left this Phase",
        )
    state, events = begin_move(state, ruleset, token, path, resolution.cost, resolution)
    return state, [MoveStarted(token.id, token.cell, tuple(command.path)), *events]


def answer_prompt(state: EncounterState, command: AnswerPrompt, spatial: SpatialCache) -> Result:
    """Accept (attack now) or decline an open prompt; the paused move then goes on."""
    combat, ruleset = combat_and_ruleset(state)
    prompt = combat.prompt(command.prompt)
    if prompt is None:
        raise CommandRejected("unknown_prompt", f"prompt {command.prompt!r} is not open")
    if command.actor not in (prompt.controller, GM):
        raise CommandRejected(
            "not_your_prompt",
            f"prompt {prompt.id!r} is addressed to {prompt.controller!r}, not {command.actor!r}",
        )
    if not command.accept and command.rolls is not None:
        raise CommandRejected("bad_rolls", "a declined prompt takes no dice")
    scene = state.scene
    assert scene is not None
    outcome = "accepted" if command.accept else "declined"
    events: list[Event] = [PromptClosed(prompt.id, outcome, command.actor)]
    draws = state.draws
    if command.accept:
        attacker, target = scene.token(prompt.attacker), scene.token(prompt.target)
        assert attacker is not None and target is not None
        tray = DiceTray(state.seed, state.draws, command.actor)
        roll = ruleset.opportunity_attack(combat, attacker, target, tray, command.rolls)
        events += [*tray.events, roll]
        draws = tray.draws
        made = (*combat.opportunity_attacks, (attacker.id, target.id))
        combat = replace(combat, opportunity_attacks=made)
    return close_prompt(replace(state, draws=draws, combat=combat), ruleset, prompt.id, events)


def expire_prompt(state: EncounterState, command: ExpirePrompt, spatial: SpatialCache) -> Result:
    """A prompt's deadline passed: declined."""
    if command.actor not in (SYSTEM, GM):
        raise CommandRejected("gm_only", "only the server or the GM expires a prompt")
    combat, ruleset = combat_and_ruleset(state)
    if combat.prompt(command.prompt) is None:
        raise CommandRejected("unknown_prompt", f"prompt {command.prompt!r} is not open")
    events: list[Event] = [PromptClosed(command.prompt, "expired", command.actor)]
    return close_prompt(state, ruleset, command.prompt, events)


def close_prompt(
    state: EncounterState, ruleset: Ruleset, prompt_id: str, events: list[Event]
) -> Result:
    """Remove an answered prompt; with none left, the paused move continues."""
    combat = state.combat
    assert combat is not None
    combat = replace(combat, prompts=tuple(p for p in combat.prompts if p.id != prompt_id))
    state = replace(state, combat=combat)
    if combat.prompts or combat.pending_move is None:
        return state, events
    state, move_events = continue_move(state, ruleset)
    return state, events + list(move_events)


def end_phase(state: EncounterState, command: EndPhase, spatial: SpatialCache) -> Result:
    """The acting combatant is done; initiative passes on."""
    token = controlled_token(state, command.actor, command.token)
    combat, ruleset = combat_and_ruleset(state)
    require_no_prompts(combat)
    require_turn(combat, token)
    scene = state.scene
    assert scene is not None
    combat, events = advance(combat, ruleset, scene)
    return replace(state, combat=combat), list(events)


def set_door(state: EncounterState, command: SetDoor, spatial: SpatialCache) -> Result:
    """Open or close a door (the GM's call; doors as actions come with the rulesets)."""
    if command.actor != GM:
        raise CommandRejected(
            "gm_only", f"only the GM opens and closes doors, not {command.actor!r}"
        )
    scene = state.scene
    if scene is None:
        raise CommandRejected("no_scene", "no scene is loaded")
    wall = scene.wall(command.wall)
    if wall is None or wall.door == "none":
        raise CommandRejected("unknown_door", f"the scene has no door {command.wall!r}")
    if state.combat is not None and state.combat.prompts:
        require_no_prompts(state.combat)
    door = "open" if command.open else "closed"
    moved = scene.with_wall(replace(wall, door=door))
    return replace(state, scene=moved), [DoorChanged(wall.id, command.open)]


HANDLERS: dict[type, Handler] = {
    LoadScene: load_scene,
    StartCombat: start_combat,
    Move: move,
    AnswerPrompt: answer_prompt,
    ExpirePrompt: expire_prompt,
    EndPhase: end_phase,
    SetDoor: set_door,
}


# -- shared checks ------------------------------------------------------------------------


def controlled_token(state: EncounterState, actor: str, token_id: str) -> Combatant:
    """The token ``token_id`` if ``actor`` controls it (its owner, or the GM)."""
    if state.scene is None:
        raise CommandRejected("no_scene", "no scene is loaded")
    token = state.scene.token(token_id)
    if token is None:
        raise CommandRejected("unknown_token", f"no token {token_id!r} on the scene")
    if actor not in (GM, token.owner):
        raise CommandRejected("not_your_token", f"{actor!r} does not control token {token_id!r}")
    return token


def combat_and_ruleset(state: EncounterState) -> tuple[Combat, Ruleset]:
    """The running combat and its ruleset, or a ``no_combat`` refusal."""
    if state.combat is None:
        raise CommandRejected("no_combat", "no combat is running")
    return state.combat, find_ruleset(state.combat.ruleset)


def require_turn(combat: Combat, token: Combatant) -> None:
    """Refuse unless it is ``token``'s action."""
    if combat.actor != token.id:
        raise CommandRejected(
            "not_your_turn",
            f"it is {combat.actor!r}'s action (Turn {combat.turn}, Phase {combat.phase}), "
            f"not {token.id!r}'s",
        )


def require_no_prompts(combat: Combat) -> None:
    """Refuse while a prompt waits for an answer."""
    if combat.prompts:
        waiting = ", ".join(f"{p.id} ({p.controller})" for p in combat.prompts)
        raise CommandRejected("prompt_pending", f"waiting for prompt answers: {waiting}")


def scene_of(state: EncounterState) -> Scene:
    """The loaded scene, or a ``no_scene`` refusal."""
    if state.scene is None:
        raise CommandRejected("no_scene", "no scene is loaded")
    return state.scene
