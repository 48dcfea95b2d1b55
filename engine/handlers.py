"""One function per command: check it against the state, return the new state and events.

Every handler is ``(state, command, spatial) -> (state, events)`` and raises
:class:`~engine.errors.CommandRejected` before building anything when the command is not
legal, so a refusal never leaves a half-applied state behind.  ``spatial`` is the
encounter's geometry index cache (:mod:`engine.spatial`): derived from the state, never
part of it.  A ruleset's own actions come through ``act`` (:mod:`engine.fight`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any, cast

from engine import ending, fight, scene_edits, stat_changes
from engine.checks import (
    Result,
    acting_token,
    combat_and_ruleset,
    controlled_token,
    require_no_prompts,
    require_turn,
    scene_of,
)
from engine.combat_state import Interjection, PendingMove
from engine.commands import (
    COMMAND_TYPES,
    GM,
    MAX_PATH,
    SYSTEM,
    Act,
    AnswerPrompt,
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
from engine.copies import replace
from engine.errors import CommandRejected, UnsupportedRuleset
from engine.events import (
    CombatStarted,
    ConditionChanged,
    DoorChanged,
    InitiativeOrder,
    InterjectionEnded,
    MoveStarted,
    MoveStopped,
    PromptClosed,
    SceneLoaded,
    TokenPlaced,
)
from engine.model import Combat, Combatant, EncounterState, Position, Prompt, Scene, VttSpec
from engine.move_paths import (
    flight_heights,
    gridless_points,
    move_steps,
    path_on,
    rise_of,
    traced_flight,
)
from engine.movement import begin_move, continue_move, resolve_path
from engine.prompts import CORE_PROMPTS, open_prompt
from engine.rulesets import Context, find_ruleset
from engine.scene_checks import check_scene
from engine.spatial import SpatialCache, at_height
from engine.tray import DiceTray
from engine.turns import Ruleset, advance, begin, settle
from geometry import Cell, threatened_cells, trace_waypoints, traced_steps
from geometry.vtt_coords import (
    FoundryHexScene,
    FoundryScene,
    OwlbearHexScene,
    OwlbearImageGrid,
    OwlbearScene,
)

Handler = Callable[[EncounterState, Any, SpatialCache], Result]
#: The prompts whose acceptance may carry the table's dice (``answer_prompt.rolls``):
#: the attack of opportunity's and the readied (held) action's own rolls.
ROLLING_PROMPTS = ("attack_of_opportunity", "readied_action")


def load_scene(state: EncounterState, command: LoadScene, spatial: SpatialCache) -> Result:
    """Replace the scene (GM only, between fights)."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM may load a scene, not {command.actor!r}")
    if state.combat is not None:
        raise CommandRejected("combat_active", "cannot load a scene while combat is running")
    check_scene(command.scene)
    # Initiative dice rolled for a token the new scene no longer holds go with it (no
    # one could take them back, and they would hold the next start).
    rolled = tuple(e for e in state.initiative_dice if command.scene.token(e[0]) is not None)
    loaded = replace(state, scene=command.scene, initiative_dice=rolled)
    return loaded, [SceneLoaded(command.scene)]


def start_combat(state: EncounterState, command: StartCombat, spatial: SpatialCache) -> Result:
    """Roll initiative and open the first Phase."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM may start combat, not {command.actor!r}")
    if state.combat is not None:
        raise CommandRejected("combat_active", "combat is already running")
    scene = scene_of(state)
    if not scene.tokens:
        raise CommandRejected("no_scene", "load a scene with tokens before starting combat")
    try:
        ruleset: Ruleset = find_ruleset(command.ruleset)
    except UnsupportedRuleset as exc:
        raise CommandRejected("unknown_ruleset", str(exc)) from None
    for token in scene.tokens:
        ruleset.check_stats(token)
        ruleset.check_combatant(token)
    everyone = tuple(t.id for t in scene.tokens)
    aware = everyone if command.aware is None else command.aware
    for cid in aware:
        if scene.token(cid) is None:
            raise CommandRejected("unknown_token", f"aware names {cid!r}, not on the scene")
    groups = check_groups(scene, command.groups)
    tray = DiceTray(command.seed, 0, GM, command.rolls, state.initiative_dice)
    rolled = ruleset.initiative(scene.tokens, tray, groups)
    tray.require_supply_used()
    tray.require_own_used()
    order, scores = rolled.order, rolled.scores
    aware_in_order = tuple(cid for cid in order if cid in set(aware))
    combat = Combat(
        ruleset=ruleset.name, order=order, scores=scores, aware=aware_in_order, groups=groups
    )
    combat = replace(
        combat,
        rules=ruleset.new_fight_state(combat),
        per_combatant=tuple(sorted((t.id, ruleset.new_combatant_state(t)) for t in scene.tokens)),
    )
    state = replace(state, seed=command.seed, draws=tray.draws, combat=combat, initiative_dice=())
    state, set_up = ruleset.fight_started(state)
    state, turn_events = begin(state, ruleset)
    turn_events = [*set_up, *turn_events]
    surprise = state.combat is not None and state.combat.surprise
    events: list[Any] = [
        CombatStarted(ruleset.name, surprise, aware_in_order, ruleset.time_words),
        *tray.events,
        *rolled.events,
        InitiativeOrder(order, scores),
        *turn_events,
    ]
    return state, events


def check_groups(scene: Scene, groups: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """``groups`` sorted, each member a token of ``scene`` in at most one group."""
    seen: set[str] = set()
    for group in groups:
        for cid in group:
            if scene.token(cid) is None:
                raise CommandRejected("unknown_token", f"groups name {cid!r}, not on the scene")
            if cid in seen:
                raise CommandRejected("bad_scene", f"{cid!r} is in two groups")
            seen.add(cid)
    return tuple(sorted(tuple(sorted(g)) for g in groups if len(g) > 1))


def move_mode(ruleset: Ruleset, mode: str | None) -> str:
    """``mode`` checked against the ruleset's move modes (None: its first)."""
    chosen = mode or ruleset.move_modes[0]
    if chosen not in ruleset.move_modes:
        raise CommandRejected(
            "illegal_move",
            f"unknown movement mode {chosen!r}; one of {', '.join(ruleset.move_modes)}",
        )
    return chosen


def move(state: EncounterState, command: Move, spatial: SpatialCache) -> Result:
    """Move a token: freely outside combat; in combat the ruleset checks the mode against
    its budget and charges it, and the walk may be interrupted (:mod:`engine.movement`)."""
    token = controlled_token(state, command.actor, command.token)
    combat = state.combat
    if combat is not None:
        require_no_prompts(combat)
        require_turn(combat, token)
    steps = tuple(command.path)
    if command.elevations is None:  # every move but a flight: nothing more to read
        return carry_out_move(state, command, spatial, token, steps)
    scene = scene_of(state)
    heights = flight_heights(scene, token, path_on(scene, token.id, steps), command.elevations)
    return carry_out_move(state, command, spatial, token, steps, heights=heights)


def carry_out_move(
    state: EncounterState,
    command: Move | MovePoints,
    spatial: SpatialCache,
    token: Combatant,
    steps: tuple[Position, ...],
    checked: tuple[Ruleset, str] | None = None,
    *,
    heights: tuple[float, ...] = (),
) -> Result:
    """The one pass of a move whose first checks are done: ``token`` (which the actor
    controls) walks ``steps``, the cells after its own; the prompts and the turn are
    checked.  ``checked`` is the fight's ruleset and move mode when the caller has found
    them already (``move_points`` checks the mode before it traces), so no check runs
    twice and the command is not rebuilt: its ``mode``, ``attack``, ``maneuver`` and
    ``rolls`` are read where they arrived.  ``heights``: a flight's elevation at each
    point of the path, start first (empty: the token keeps its elevation);
    the ruleset says whether the token may fly (:meth:`Ruleset.check_flight`)."""
    scene = scene_of(state)
    steps = path_on(scene, token.id, steps)  # a grid's cells: 3.0 is cell 3
    path = (token.position, *steps)
    resolution = resolve_path(
        spatial, scene, token, path, areas=state.combat is not None, heights=heights
    )
    if state.combat is None:
        # Outside combat the GM and owners arrange tokens freely: no budget, no provocation.
        placed = token.moved_to(path[-1])
        if heights:  # no game to ask: the GM and owners place tokens at any height
            placed = replace(placed, elevation=heights[-1])
        moved = scene.with_token(placed)
        spatial.moved(scene, moved, placed)
        up = heights[-1] if heights else None
        return state.with_scene(moved), [TokenPlaced(token.id, path[-1], up)]
    if checked is None:
        combat, ruleset = combat_and_ruleset(state)
        mode = move_mode(ruleset, command.mode)
    else:
        combat, (ruleset, mode) = state.combat, checked
    tray = DiceTray(state.seed, state.draws, command.actor)
    ctx = Context(state, ruleset, spatial, tray, command.actor, token, path, heights)
    if heights:
        ruleset.check_flight(ctx, mode, rise_of(heights))
    plan = ruleset.plan_move(
        ctx, mode, cost=resolution.cost, steps=move_steps(scene, path, resolution.cost)
    )
    combat = plan.combat
    if command.attack is None and command.rolls is not None:
        raise CommandRejected("bad_rolls", "only a move with an attack takes dice")
    if command.attack is not None:
        target = scene.token(command.attack)
        if target is None or target.id == token.id:
            raise CommandRejected("unknown_token", f"no target {command.attack!r} to attack")
        combat = ruleset.plan_move_attack(ctx, combat, target, command.maneuver, command.rolls)
        # The target gives up its attack of opportunity only if it really is attacked:
        # it must be within reach of where the move ends.
        if not _reaches_from(spatial, scene, token, path[-1], target):
            raise CommandRejected(
                "out_of_reach", f"{target.id!r} would not be within reach where the move ends"
            )
    pending = PendingMove(
        token=token.id,
        path=path,
        step=0,
        cost=resolution.cost if plan.cost is None else plan.cost,
        mode=plan.mode,
        asked=tuple(f"aoo:{who}" for who in ruleset.spared(ctx)),
        exempt=ruleset.move_exempt(ctx, plan.mode),
        attack=command.attack,
        maneuver=command.maneuver,
        rolls=command.rolls,
        heights=heights,
    )
    planned: list[Any] = list(tray.events)  # dice the ruleset rolled to plan the move
    tray.events.clear()
    state = replace(state, combat=combat, draws=tray.draws)
    state, events = begin_move(state, ruleset, spatial, pending, tray, resolution)
    started = MoveStarted(token.id, token.position, steps, plan.mode, heights[1:] or None)
    return state, [*planned, started, *events]


def _reaches_from(
    spatial: SpatialCache, scene: Scene, token: Combatant, at: Position, target: Combatant
) -> bool:
    """Whether ``target`` is within ``token``'s reach once it stands on ``at``."""
    if scene.grid.gridless:
        return spatial.board(scene).in_reach(token, target, (float(at[0]), float(at[1])))
    index = spatial.index(scene)
    cell = cast(Cell, at)
    reach = threatened_cells(index.grid, cell, token.size, token.reach, walls=index.walls)
    reach = at_height(index.grid, token, cell, reach, target.elevation)
    return bool(reach & index.grid.footprint(target.cell, target.size))


#: The most steps a move may take: the protocol's limit on a ``move`` path
#: (``engine.commands.MAX_PATH``), which a traced ``move_points`` path must keep too.
MAX_MOVE_STEPS = MAX_PATH


def move_points(state: EncounterState, command: MovePoints, spatial: SpatialCache) -> Result:
    """A move given in the VTT's pixels: snap each waypoint to a cell, walk the straight
    line between them as the VTT does (Foundry's direct path on a Foundry scene, see
    ``geometry/lines.py``), then move as usual.

    Cheapest refusals first, and all before anything is traced: who controls the token,
    its turn, each waypoint on the grid, and the traced length within
    :data:`MAX_MOVE_STEPS` (worked out without tracing), so waypoints far off the map
    cost no more than near ones."""
    token = controlled_token(state, command.actor, command.token)
    scene = scene_of(state)
    vtt = scene.grid.vtt
    if vtt is None:
        raise CommandRejected("illegal_move", "this scene declares no VTT coordinates (grid.vtt)")
    combat = state.combat
    checked = None
    if combat is not None:
        require_no_prompts(combat)
        require_turn(combat, token)
        ruleset = find_ruleset(combat.ruleset)
        checked = ruleset, move_mode(ruleset, command.mode)
    up = command.elevations
    if up is not None and len(up) != len(command.points):
        raise CommandRejected(
            "illegal_move", f"{len(up)} elevations for {len(command.points)} points: one each"
        )
    if scene.grid.gridless:
        points = gridless_points(scene, vtt, token, command)
        heights = flight_heights(scene, token, points, up)
        return carry_out_move(state, command, spatial, token, points, checked, heights=heights)
    grid = spatial.index(scene).grid
    waypoints, levels = [token.cell], [token.elevation]
    for i, (x, y) in enumerate(command.points):
        cell = to_cell(scene, vtt, token.size, x, y, command.image)
        if not all(grid.contains(c) for c in grid.footprint(cell, token.size)):
            raise CommandRejected(
                "illegal_move",
                f"points[{i}] ({x:g}, {y:g}) puts {token.id!r} at {cell}, off the "
                f"{grid.width}x{grid.height} grid",
            )
        level = levels[-1] if up is None else up[i]
        # Points that snap to the same cell at the same height make one waypoint; at
        # another height they are a climb in place.
        if cell != waypoints[-1] or level != levels[-1]:
            waypoints.append(cell)
            levels.append(level)
    if len(waypoints) < 2:
        raise CommandRejected(
            "illegal_move", f"the points do not take {token.id!r} off {token.cell}"
        )
    # A climb in place (a waypoint on the cell before it) is a step of its own.
    steps = traced_steps(grid, waypoints) + sum(a == b for a, b in pairwise(waypoints))
    if steps > MAX_MOVE_STEPS:
        raise CommandRejected(
            "illegal_move",
            f"the points make a path of {steps} steps; a move takes at most {MAX_MOVE_STEPS}",
        )
    if up is None:
        path = trace_waypoints(grid, waypoints, vtt.line_rule())[1:]
        # Checked once: the token, the prompts, the turn and the mode are not checked again.
        return carry_out_move(state, command, spatial, token, tuple(path), checked)
    flown, along = traced_flight(grid, waypoints, levels, vtt.line_rule())
    heights = flight_heights(scene, token, flown, along)
    return carry_out_move(state, command, spatial, token, flown, checked, heights=heights)


FOUNDRY_HEX_TYPES = {
    ("hex_pointy", "odd"): 2,
    ("hex_pointy", "even"): 3,
    ("hex_flat", "odd"): 4,
    ("hex_flat", "even"): 5,
}


def to_cell(
    scene: Scene,
    vtt: VttSpec,
    size: int,
    x: float,
    y: float,
    image: OwlbearImageGrid | None = None,
) -> Cell:
    """The cell a VTT places a ``size``-cell token on at pixel ``x``/``y`` (an Owlbear
    item placed by its own ``image`` grid, else by its centre)."""
    grid = scene.grid
    if image is not None and (vtt.kind != "owlbear" or grid.kind != "square"):
        # A hex image's box has no documented shape to measure from, and Foundry has none.
        raise CommandRejected(
            "illegal_move", "an image grid places items on Owlbear square grids only"
        )
    if grid.kind == "square":
        if vtt.kind == "foundry":
            return FoundryScene(
                vtt.grid_size, grid.cell_size, vtt.scene_x, vtt.scene_y
            ).token_origin(x, y)
        return OwlbearScene(vtt.grid_size, grid.cell_size).item_origin(x, y, size, image)
    if vtt.kind == "foundry":
        # Foundry hex cells count from the canvas origin: the padding plays no part.
        hexes = FoundryHexScene(
            FOUNDRY_HEX_TYPES[grid.kind, grid.offset], vtt.grid_size, grid.cell_size
        )
        return hexes.token_cell(x, y, size, vtt.shape())
    # An item larger than one hex: the hexagon shape centred on its position (Owlbear
    # draws it centred; geometry.vtt_coords.OwlbearHexScene.item_cell).
    owlbear = OwlbearHexScene(vtt.grid_size, grid.cell_size, grid.kind == "hex_flat")
    return owlbear.item_cell(x, y, size)


def answer_prompt(state: EncounterState, command: AnswerPrompt, spatial: SpatialCache) -> Result:
    """Answer an open prompt; what an answer means depends on the prompt's kind."""
    combat, ruleset = combat_and_ruleset(state)
    prompt = combat.prompt(command.prompt)
    if prompt is None:
        raise CommandRejected("unknown_prompt", f"prompt {command.prompt!r} is not open")
    if command.actor not in (prompt.controller, GM):
        raise CommandRejected(
            "not_your_prompt",
            f"prompt {prompt.id!r} is addressed to {prompt.controller!r}, not {command.actor!r}",
        )
    if command.rolls is not None and not (command.accept and prompt.kind in ROLLING_PROMPTS):
        raise CommandRejected(
            "bad_rolls", "only an accepted attack of opportunity or readied action takes dice"
        )
    outcome = "accepted" if command.accept else "declined"
    events: list[Any] = [PromptClosed(prompt.id, outcome, command.actor)]
    tray = DiceTray(state.seed, state.draws, command.actor)
    state = _drop_prompt(state, prompt.id)
    if prompt.kind not in CORE_PROMPTS:
        state, more = ruleset.prompt_answered(state, prompt, command.accept, command.actor)
        state, more = settle(state, ruleset, more)  # the hook's clock requests
        return state, events + more
    if prompt.kind == "attack_of_opportunity" and command.accept:
        return _opportunity_attack(state, ruleset, spatial, prompt, command, tray, events)
    if prompt.kind == "readied_action" and command.accept:
        # The held action's own dice may be the table's, sent with the answer (the one
        # moment they are known), each used once.
        tray = DiceTray(state.seed, state.draws, command.actor, command.rolls)
        fired = _trigger_fired(state, ruleset, spatial, prompt, command, tray, events)
        tray.require_supply_used()
        return fired
    if prompt.kind == "continue_after_hit" and not command.accept:
        return _stop_move(state, events, "the GM reports it can no longer act")
    return _resume(state, ruleset, spatial, tray, events)


def expire_prompt(state: EncounterState, command: ExpirePrompt, spatial: SpatialCache) -> Result:
    """A prompt's deadline passed: declined (a ``continue_after_hit`` one: the move goes
    on; one of the ruleset's own kinds: as the ruleset says of a decline)."""
    if command.actor not in (SYSTEM, GM):
        raise CommandRejected("gm_only", "only the server or the GM expires a prompt")
    combat, ruleset = combat_and_ruleset(state)
    prompt = combat.prompt(command.prompt)
    if prompt is None:
        raise CommandRejected("unknown_prompt", f"prompt {command.prompt!r} is not open")
    events: list[Any] = [PromptClosed(command.prompt, "expired", command.actor)]
    state = _drop_prompt(state, command.prompt)
    if prompt.kind not in CORE_PROMPTS:  # the ruleset's own: unanswered counts as declined
        state, more = ruleset.prompt_answered(state, prompt, False, command.actor)
        state, more = settle(state, ruleset, more)
        return state, events + more
    return _resume(state, ruleset, spatial, DiceTray(state.seed, state.draws, SYSTEM), events)


def end_phase(state: EncounterState, command: EndPhase, spatial: SpatialCache) -> Result:
    """The acting combatant is done: a readied action ends, or initiative passes on."""
    token, combat, ruleset = acting_token(state, command.actor, command.token)
    if combat.pending_move is not None:
        raise CommandRejected("illegal_action", "a move is still under way")
    interjection = combat.interjection
    if interjection is not None:
        combat = replace(combat, interjection=None, pending_move=interjection.suspended)
        state = replace(state, combat=combat)
        events: list[Any] = [InterjectionEnded(token.id)]
        tray = DiceTray(state.seed, state.draws, command.actor)
        return _resume(state, ruleset, spatial, tray, events)
    return advance(state, ruleset)


def set_door(state: EncounterState, command: SetDoor, spatial: SpatialCache) -> Result:
    """Open or close a door (the GM's call; doors as actions come with the rulesets)."""
    if command.actor != GM:
        raise CommandRejected(
            "gm_only", f"only the GM opens and closes doors, not {command.actor!r}"
        )
    scene = scene_of(state)
    wall = scene.wall(command.wall)
    if wall is None or wall.door == "none":
        raise CommandRejected("unknown_door", f"the scene has no door {command.wall!r}")
    if state.combat is not None:
        require_no_prompts(state.combat)
    door = "open" if command.open else "closed"
    changed = scene.with_wall(replace(wall, door=door))
    return replace(state, scene=changed), [DoorChanged(wall.id, command.open)]


def set_condition(state: EncounterState, command: SetCondition, spatial: SpatialCache) -> Result:
    """The GM marks a condition the fight's rules read (one of the ruleset's words),
    recorded by the ruleset's ``condition_set``; any other condition is refused naming
    those it plays."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM sets conditions, not {command.actor!r}")
    combat, ruleset = combat_and_ruleset(state)
    if scene_of(state).token(command.token) is None:
        raise CommandRejected("unknown_token", f"no token {command.token!r} on the scene")
    known = ruleset.vocabulary.conditions
    if command.condition not in known:
        raise CommandRejected(
            "illegal_action",
            f"unknown condition {command.condition!r}; one of {', '.join(known)}",
        )
    combat = ruleset.condition_set(combat, command.token, command.condition, command.on)
    return replace(state, combat=combat), [
        ConditionChanged(command.token, command.condition, command.on)
    ]


HANDLERS: dict[type, Handler] = {
    Act: fight.act,
    JoinCombat: fight.join_combat,
    LeaveCombat: fight.leave_combat,
    SetEffect: fight.set_effect,
    EndEffect: fight.end_effect_now,
    EndCombat: ending.end_combat,
    LoadScene: load_scene,
    StartCombat: start_combat,
    Move: move,
    MovePoints: move_points,
    AnswerPrompt: answer_prompt,
    ExpirePrompt: expire_prompt,
    EndPhase: end_phase,
    SetDoor: set_door,
    SetCondition: set_condition,
    SetStats: stat_changes.set_stats,
    EditScene: scene_edits.edit_scene,
    RollInitiative: fight.roll_initiative,
}


def register_command(cls: type, handler: Handler) -> None:
    """Add a command the engine did not ship with (a bridge message row's, declared with
    its handler in one module): its class by its ``kind`` (read back from the log) and
    its handler.  A kind already taken by another class is refused."""
    kind: str = cast(Any, cls).kind
    if COMMAND_TYPES.get(kind, cls) is not cls:
        raise ValueError(f"command kind {kind!r} is already registered")
    COMMAND_TYPES[kind] = cast(Any, cls)
    HANDLERS[cls] = handler


def unregister_command(cls: type) -> None:
    """Take a command :func:`register_command` added out again (tests do, after use)."""
    kind: str = cast(Any, cls).kind
    if COMMAND_TYPES.get(kind) is cls:
        del COMMAND_TYPES[kind]
    HANDLERS.pop(cls, None)


def _drop_prompt(state: EncounterState, prompt_id: str) -> EncounterState:
    combat = state.combat
    assert combat is not None
    return replace(
        state, combat=replace(combat, prompts=tuple(p for p in combat.prompts if p.id != prompt_id))
    )


def _opportunity_attack(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    prompt: Prompt,
    command: AnswerPrompt,
    tray: DiceTray,
    events: list[Any],
) -> Result:
    """An accepted attack of opportunity under a ruleset on the seam: the ruleset rolls
    it; on a hit the GM says whether the mover can finish its move."""
    scene = scene_of(state)
    attacker, target = scene.token(prompt.attacker), scene.token(prompt.target)
    assert attacker is not None and target is not None
    ctx = Context(state, ruleset, spatial, tray, command.actor, attacker)
    outcome = ruleset.opportunity_attack(ctx, target, command.rolls, command.maneuver)
    combat = outcome.state.combat
    assert combat is not None
    made = (*combat.opportunity_attacks, (attacker.id, target.id))
    state = replace(outcome.state, combat=replace(combat, opportunity_attacks=made))
    state = replace(state, draws=max(state.draws, tray.draws))
    events = [*events, *outcome.events]
    tray.events.clear()
    if outcome.hit and combat.pending_move is not None:
        state, opened = open_prompt(
            state, "continue_after_hit", GM, attacker.id, target.id, prompt.at, prompt.exit_point
        )
        return state, [*events, opened]
    return _resume(state, ruleset, spatial, tray, events)


def _trigger_fired(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    prompt: Prompt,
    command: AnswerPrompt,
    tray: DiceTray,
    events: list[Any],
) -> Result:
    """A trigger's controller took the held action: the ruleset runs it now, out of
    turn.  A move it interrupted waits in the interjection and goes on after it."""
    combat, scene = state.combat, scene_of(state)
    assert combat is not None
    owner = scene.token(prompt.attacker)
    trigger = next(
        (
            t
            for t in combat.triggers
            if t.owner == prompt.attacker and t.by in (None, prompt.target)
        ),
        None,
    )
    if owner is None or trigger is None:
        raise CommandRejected("no_hold", f"{prompt.attacker!r} holds nothing for this trigger")
    if combat.interjection is not None:
        raise CommandRejected(
            "illegal_action",
            f"{combat.interjection.combatant!r} is acting out of turn: answer after it",
        )
    combat = replace(combat, triggers=tuple(t for t in combat.triggers if t != trigger))
    interjection = Interjection(
        owner.id, "trigger", trigger.tag or None, suspended=combat.pending_move
    )
    combat = replace(combat, interjection=interjection, pending_move=None)
    ctx = Context(replace(state, combat=combat), ruleset, spatial, tray, command.actor, owner)
    state, fired = ruleset.trigger_fired(ctx, trigger, prompt.target)
    state, fired = settle(state, ruleset, fired)  # the hook's clock requests
    return replace(state, draws=max(state.draws, tray.draws)), [*events, *fired]


def _resume(
    state: EncounterState,
    ruleset: Ruleset,
    spatial: SpatialCache,
    tray: DiceTray,
    events: list[Any],
) -> Result:
    """With no prompt left open, a paused move goes on."""
    combat = state.combat
    assert combat is not None
    if combat.prompts or combat.pending_move is None:
        return state, events
    if not ruleset.can_act(combat, combat.pending_move.token):
        # "the other character continues ... assuming they are still capable of doing so"
        return _stop_move(state, events, "it can no longer act")
    state, more = continue_move(state, ruleset, spatial, tray)
    return state, events + more


def _stop_move(state: EncounterState, events: list[Any], reason: str) -> Result:
    combat, scene = state.combat, scene_of(state)
    assert combat is not None and combat.pending_move is not None
    mover = scene.token(combat.pending_move.token)
    assert mover is not None
    state = replace(state, combat=replace(combat, pending_move=None))
    return state, [*events, MoveStopped(mover.id, mover.cell, reason)]
