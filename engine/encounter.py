"""The encounter: commands in, events out, state a plain value.

``Encounter.apply(command)`` checks the command against the current state, and either
raises :class:`~engine.errors.CommandRejected` having changed nothing, or installs the
new state and returns the events that explain the change.  Asking is separate from
doing (python-chess's ``is_legal`` beside ``push``): :meth:`Encounter.options` answers
"what may this combatant do now?" without touching anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.commands import (
    GM,
    SYSTEM,
    AnswerPrompt,
    Command,
    EndPhase,
    ExpirePrompt,
    LoadScene,
    Move,
    StartCombat,
)
from engine.errors import CommandRejected, UnsupportedRuleset
from engine.events import (
    CombatStarted,
    Event,
    InitiativeOrder,
    MoveStarted,
    PromptClosed,
    SceneLoaded,
    TokenPlaced,
)
from engine.model import Combat, Combatant, EncounterState, PendingMove, Scene
from engine.movement import blocking_problem, run_move
from engine.rulesets import Ruleset, find_ruleset
from engine.serial import state_hash
from engine.tray import DiceTray
from engine.turns import advance, begin, limited
from geometry import GeometryError, validate_path


@dataclass(frozen=True, slots=True)
class Options:
    """What a combatant may do right now, for the VTT to offer (and nothing else)."""

    token: str
    can_act: bool
    reason: str | None
    movement_left: float
    can_end_phase: bool
    open_prompts: tuple[str, ...]


class Encounter:
    """One table's fight.  Not thread-safe; the bridge serialises commands per table."""

    def __init__(self, state: EncounterState | None = None) -> None:
        self._state = state if state is not None else EncounterState()

    @property
    def state(self) -> EncounterState:
        """The current state (an immutable value)."""
        return self._state

    def state_hash(self) -> str:
        """SHA-256 of the canonical form of the state."""
        return state_hash(self._state)

    def apply(self, command: Command) -> list[Event]:
        """Apply ``command``; return its events, or raise ``CommandRejected`` changing nothing."""
        handler = _HANDLERS[type(command)]
        new_state, events = handler(self._state, command)
        self._state = new_state
        return events

    def options(self, token_id: str, actor: str = GM) -> Options:
        """What ``actor`` may do with ``token_id`` now."""
        state = self._state
        try:
            token = _controlled_token(state, actor, token_id)
            combat, ruleset = _combat(state)
            _require_turn(combat, token)
            _require_no_prompts(combat)
        except CommandRejected as refusal:
            prompts = _prompts_for(state, actor)
            return Options(token_id, False, refusal.message, 0.0, False, prompts)
        left = ruleset.movement_left(token, combat.usage, limited(combat))
        return Options(token_id, True, None, left, True, ())


Handler = Callable[[EncounterState, Any], tuple[EncounterState, list[Event]]]


def _load_scene(state: EncounterState, command: LoadScene) -> tuple[EncounterState, list[Event]]:
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM may load a scene, not {command.actor!r}")
    if state.combat is not None:
        raise CommandRejected("combat_active", "cannot load a scene while combat is running")
    _check_scene(command.scene)
    return replace(state, scene=command.scene), [SceneLoaded(command.scene)]


def _start_combat(
    state: EncounterState, command: StartCombat
) -> tuple[EncounterState, list[Event]]:
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


def _move(state: EncounterState, command: Move) -> tuple[EncounterState, list[Event]]:
    token = _controlled_token(state, command.actor, command.token)
    scene = state.scene
    assert scene is not None
    path = (token.cell, *command.path)
    try:
        cost = validate_path(scene.grid.build(), path)
    except GeometryError as exc:
        raise CommandRejected("illegal_move", f"move of {token.id!r}: {exc}") from None
    problem = blocking_problem(scene, token, path)
    if problem is not None:
        raise CommandRejected("illegal_move", f"move of {token.id!r}: {problem}")
    if state.combat is None:
        # Outside combat the GM and owners arrange tokens freely: no budget, no provocation.
        moved = scene.with_token(token.moved_to(path[-1]))
        return replace(state, scene=moved), [TokenPlaced(token.id, path[-1])]
    combat, ruleset = _combat(state)
    _require_no_prompts(combat)
    _require_turn(combat, token)
    left = ruleset.movement_left(token, combat.usage, limited(combat))
    if cost > left + 1e-9:
        raise CommandRejected(
            "over_budget",
            f"move of {token.id!r} costs {cost:g} {scene.grid.unit}, "
            f"only {left:g} {scene.grid.unit} left this Phase",
        )
    pending = PendingMove(token=token.id, remaining=tuple(command.path), cost=0.0)
    new_state, move_events = run_move(state, ruleset, pending, token.cell)
    return new_state, [MoveStarted(token.id, token.cell, tuple(command.path)), *move_events]


def _answer_prompt(
    state: EncounterState, command: AnswerPrompt
) -> tuple[EncounterState, list[Event]]:
    combat, ruleset = _combat(state)
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
    events: list[Event] = [
        PromptClosed(prompt.id, "accepted" if command.accept else "declined", command.actor)
    ]
    draws = state.draws
    if command.accept:
        attacker, target = scene.token(prompt.attacker), scene.token(prompt.target)
        assert attacker is not None and target is not None
        tray = DiceTray(state.seed, state.draws, command.actor)
        roll = ruleset.opportunity_attack(combat, attacker, target, tray, command.rolls)
        events += [*tray.events, roll]
        draws = tray.draws
        combat = replace(
            combat, opportunity_attacks=(*combat.opportunity_attacks, (attacker.id, target.id))
        )
    return _close_prompt(replace(state, draws=draws, combat=combat), ruleset, prompt.id, events)


def _expire_prompt(
    state: EncounterState, command: ExpirePrompt
) -> tuple[EncounterState, list[Event]]:
    if command.actor not in (SYSTEM, GM):
        raise CommandRejected("gm_only", "only the server or the GM expires a prompt")
    combat, ruleset = _combat(state)
    if combat.prompt(command.prompt) is None:
        raise CommandRejected("unknown_prompt", f"prompt {command.prompt!r} is not open")
    events: list[Event] = [PromptClosed(command.prompt, "expired", command.actor)]
    return _close_prompt(state, ruleset, command.prompt, events)


def _close_prompt(
    state: EncounterState, ruleset: Ruleset, prompt_id: str, events: list[Event]
) -> tuple[EncounterState, list[Event]]:
    combat = state.combat
    assert combat is not None
    combat = replace(combat, prompts=tuple(p for p in combat.prompts if p.id != prompt_id))
    state = replace(state, combat=combat)
    pending = combat.pending_move
    if combat.prompts or pending is None:
        return state, events
    scene = state.scene
    assert scene is not None
    mover = scene.token(pending.token)
    assert mover is not None
    state, move_events = run_move(state, ruleset, pending, mover.cell)
    return state, events + list(move_events)


def _end_phase(state: EncounterState, command: EndPhase) -> tuple[EncounterState, list[Event]]:
    token = _controlled_token(state, command.actor, command.token)
    combat, ruleset = _combat(state)
    _require_no_prompts(combat)
    _require_turn(combat, token)
    scene = state.scene
    assert scene is not None
    combat, events = advance(combat, ruleset, scene)
    return replace(state, combat=combat), list(events)


_HANDLERS: dict[type, Handler] = {
    LoadScene: _load_scene,
    StartCombat: _start_combat,
    Move: _move,
    AnswerPrompt: _answer_prompt,
    ExpirePrompt: _expire_prompt,
    EndPhase: _end_phase,
}


def _check_scene(scene: Scene) -> None:
    grid = scene.grid.build() if scene.grid.kind == "square" else None
    if grid is None:
        raise CommandRejected("bad_scene", f"grid kind {scene.grid.kind!r} is not supported yet")
    seen: dict[tuple[int, int], str] = {}
    ids: set[str] = set()
    for token in scene.tokens:
        if token.id in ids:
            raise CommandRejected("bad_scene", f"token id {token.id!r} appears twice")
        ids.add(token.id)
        for dx in range(token.size):
            for dy in range(token.size):
                cell = (token.x + dx, token.y + dy)
                if not grid.contains(cell):
                    raise CommandRejected("bad_scene", f"token {token.id!r} covers off-grid {cell}")
                if cell in seen:
                    raise CommandRejected(
                        "bad_scene", f"tokens {seen[cell]!r} and {token.id!r} overlap on {cell}"
                    )
                seen[cell] = token.id


def _controlled_token(state: EncounterState, actor: str, token_id: str) -> Combatant:
    if state.scene is None:
        raise CommandRejected("no_scene", "no scene is loaded")
    token = state.scene.token(token_id)
    if token is None:
        raise CommandRejected("unknown_token", f"no token {token_id!r} on the scene")
    if actor not in (GM, token.owner):
        raise CommandRejected("not_your_token", f"{actor!r} does not control token {token_id!r}")
    return token


def _combat(state: EncounterState) -> tuple[Combat, Ruleset]:
    if state.combat is None:
        raise CommandRejected("no_combat", "no combat is running")
    return state.combat, find_ruleset(state.combat.ruleset)


def _require_turn(combat: Combat, token: Combatant) -> None:
    if combat.actor != token.id:
        raise CommandRejected(
            "not_your_turn",
            f"it is {combat.actor!r}'s action (Turn {combat.turn}, Phase {combat.phase}), "
            f"not {token.id!r}'s",
        )


def _require_no_prompts(combat: Combat) -> None:
    if combat.prompts:
        waiting = ", ".join(f"{p.id} ({p.controller})" for p in combat.prompts)
        raise CommandRejected("prompt_pending", f"waiting for prompt answers: {waiting}")


def _prompts_for(state: EncounterState, actor: str) -> tuple[str, ...]:
    if state.combat is None:
        return ()
    return tuple(p.id for p in state.combat.prompts if actor in (p.controller, GM))


def replay_commands(commands: Sequence[Command]) -> Encounter:
    """A fresh encounter with ``commands`` applied in order (all must be accepted)."""
    encounter = Encounter()
    for command in commands:
        encounter.apply(command)
    return encounter
