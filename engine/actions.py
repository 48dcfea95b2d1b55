"""Handlers for combat actions other than moving: attacks, named actions, Delay, Ready,
Abort (seed 000, *Combat Actions* and *Special Initiative Actions*), and the GM's
conditions.  Each is ``(state, command, spatial) -> (state, events)`` and refuses
before changing anything, like those in :mod:`engine.handlers`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.checks import (
    Result,
    acting_limited,
    acting_token,
    combat_and_ruleset,
    controlled_token,
    require_no_prompts,
    scene_of,
)
from engine.combat_state import ATTACK, MOVE, STRIKE, Hold, Interjection, PhaseUsage, Vitals
from engine.commands import (
    ABORT_ACTIONS,
    CONDITIONS,
    GM,
    Abort,
    Attack,
    Delay,
    Ready,
    SetCondition,
    SetVitals,
    TakeAction,
    TakeDelayed,
)
from engine.errors import CommandRejected
from engine.events import (
    Aborted,
    ActionTaken,
    CombatantActs,
    ConditionChanged,
    DelayTaken,
    HoldDeclared,
    InitiativeOrder,
    ReadiedActionTaken,
    VitalsChanged,
)
from engine.movement import in_reach
from engine.spatial import SpatialCache
from engine.tray import DiceTray
from engine.turns import able, advance, eligible, limited, next_phase, reorder, start_acting
from geometry import BlockMode

# "You can't use this action to start or complete a non-combat move, to withdraw from
# combat, or to perform any action that requires an attack roll."
NOT_STARTABLE = ("noncombat", "withdraw", "attack")


def attack(state: Any, command: Attack, spatial: SpatialCache) -> Result:
    """An attack action: melee within reach, or ranged in line of sight and range."""
    token, combat, ruleset = acting_token(state, command.actor, command.token)
    scene = scene_of(state)
    target = scene.token(command.target)
    if target is None or target.id == token.id:
        raise CommandRejected("unknown_token", f"no target {command.target!r} to attack")
    _require_interjection_allows(combat, ATTACK)
    usage = combat.current_usage
    reason = ruleset.refusal(token, usage, ATTACK, acting_limited(combat))
    if reason:
        raise CommandRejected("over_budget", reason)
    if command.ranged:
        index = spatial.index(scene)
        a = index.grid.footprint_center(token.cell, token.size)
        b = index.grid.footprint_center(target.cell, target.size)
        if index.walls.segment_blocked(a, b, BlockMode.SIGHT):
            raise CommandRejected("out_of_reach", f"{target.id!r} is not in line of sight")
        distance = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        if distance > command.range + 1e-9:
            raise CommandRejected(
                "out_of_reach", f"{target.id!r} is {distance:g} away, range {command.range:g}"
            )
    elif not in_reach(spatial, scene, token, target):
        raise CommandRejected("out_of_reach", f"{target.id!r} is not within {token.id!r}'s reach")
    tray = DiceTray(state.seed, state.draws, command.actor)
    maneuver = command.maneuver or STRIKE
    used = (*combat.maneuvers_of(token.id), maneuver)
    roll = ruleset.attack_roll(
        combat,
        token,
        target,
        tray,
        command.rolls,
        attack="attack",
        maneuvers=used,
        ocv_bonus=command.ocv_bonus,
    )
    usage = replace(usage, actions=(*usage.actions, ATTACK), attacked=(*usage.attacked, target.id))
    combat = combat.with_usage(usage).with_maneuver(token.id, maneuver)
    return replace(state, combat=combat, draws=tray.draws), [*tray.events, roll]


def take_action(state: Any, command: TakeAction, spatial: SpatialCache) -> Result:
    """A named action: draw or stow a focus, stand up, drop an item or prone, start or
    complete a full-phase action, a full-phase action, or defend with a manoeuvre."""
    token, combat, ruleset = acting_token(state, command.actor, command.token)
    slot = ruleset.free_action_slot(token, command.action)
    usage = combat.current_usage
    if slot is not None:
        _require_interjection_allows(combat, slot)
        reason = ruleset.refusal(token, usage, slot, acting_limited(combat))
        if reason:
            raise CommandRejected("over_budget", reason)
    name = command.action
    started = [c for c in combat.conditions_of(token.id) if c.startswith("started:")]
    if name == "stand_up" and not combat.has(token.id, "prone"):
        raise CommandRejected("illegal_action", f"{token.id!r} is not prone")
    if name == "start_full_phase":
        if not command.detail or command.detail in NOT_STARTABLE:
            raise CommandRejected(
                "illegal_action",
                f"name the full-phase action to start; not one of {', '.join(NOT_STARTABLE)}",
            )
        if started:
            raise CommandRejected(
                "illegal_action", f"{token.id!r} already started {started[0][8:]!r}"
            )
    if name == "complete_full_phase" and not started:
        raise CommandRejected("illegal_action", f"{token.id!r} has no full-phase action under way")
    if name == "complete_full_phase" and usage.full_phase_started:
        raise CommandRejected("illegal_action", "a full-phase action is completed in a later Phase")
    if name == "defend" and command.maneuver is None:
        raise CommandRejected("illegal_action", "defend names its defensive manoeuvre")
    detail = command.detail
    if slot is not None:
        usage = replace(usage, actions=(*usage.actions, slot))
    else:
        usage = replace(usage, free=usage.free + 1)
    combat = combat.with_usage(usage)
    if name == "stand_up":
        combat = combat.with_condition(token.id, "prone", False)
    elif name == "drop_prone":
        combat = combat.with_condition(token.id, "prone", True)
    elif name == "start_full_phase":
        combat = combat.with_condition(token.id, f"started:{detail}", True)
        combat = combat.with_usage(replace(combat.current_usage, full_phase_started=detail))
    elif name == "complete_full_phase":
        detail = started[0][len("started:") :]
        combat = combat.with_condition(token.id, started[0], False)
    elif name == "defend" and command.maneuver is not None:
        # A defensive manoeuvre is held as the defence; only attack manoeuvres combine.
        combat = combat.with_defense(token.id, command.maneuver)
        detail = command.maneuver.name
    return replace(state, combat=combat), [ActionTaken(token.id, name, slot, detail)]


def delay(state: Any, command: Delay, spatial: SpatialCache) -> Result:
    """Take no action on one's INIT and wait, maybe to just before someone."""
    token, combat, ruleset = acting_token(state, command.actor, command.token)
    if combat.interjection is not None:
        raise CommandRejected("illegal_action", "a readied action cannot be delayed")
    if combat.usage != PhaseUsage():
        raise CommandRejected(
            "illegal_action", "delaying takes no action on one's INIT: nothing done yet"
        )
    if command.before is not None and (
        command.before == token.id or command.before not in combat.order
    ):
        raise CommandRejected("unknown_token", f"cannot delay to before {command.before!r}")
    hold = Hold(token.id, "delay", (combat.turn, combat.phase), before=command.before)
    state = replace(
        state,
        combat=replace(
            combat.without_hold(token.id), holds=(*combat.without_hold(token.id).holds, hold)
        ),
    )
    declared = HoldDeclared(token.id, "delay", command.before, None, None, ())
    state, events = advance(state, ruleset)
    return state, [declared, *events]


def take_delayed(state: Any, command: TakeDelayed, spatial: SpatialCache) -> Result:
    """Take a delayed action now, just before whoever is up (who has not acted yet)."""
    token = controlled_token(state, command.actor, command.token)
    combat, ruleset = combat_and_ruleset(state)
    require_no_prompts(combat)
    hold = combat.hold(token.id)
    if hold is None or hold.kind != "delay":
        raise CommandRejected("no_hold", f"{token.id!r} has no delayed action")
    if (
        combat.interjection is not None
        or combat.pending_move is not None
        or combat.usage != PhaseUsage()
    ):
        raise CommandRejected(
            "illegal_action", "a delayed action cannot interrupt: wait until the next action starts"
        )
    if not able(combat, token.id):
        raise CommandRejected("illegal_action", f"{token.id!r} cannot act now")
    current = combat.regular_actor
    combat = reorder(combat.without_hold(token.id), token.id, current)
    events: list[Any] = [
        DelayTaken(token.id, current),
        InitiativeOrder(combat.order, combat.scores),
    ]
    state, started = start_acting(
        replace(state, combat=combat), ruleset, combat.order.index(token.id)
    )
    return state, events + started


def ready(state: Any, command: Ready, spatial: SpatialCache) -> Result:
    """Ready an attack, move or free action against a trigger; readying is an attack action."""
    token, combat, ruleset = acting_token(state, command.actor, command.token)
    scene = scene_of(state)
    if combat.interjection is not None:
        raise CommandRejected("illegal_action", "a readied action cannot ready another")
    if command.action not in ("attack", "move", "free"):
        raise CommandRejected(
            "illegal_action", f"ready an attack, move or free action, not {command.action!r}"
        )
    if command.trigger_by is None and not command.area:
        raise CommandRejected(
            "illegal_action", "a readied action needs a trigger: someone's action or an area"
        )
    if command.trigger_by is not None and (
        command.trigger_by == token.id or scene.token(command.trigger_by) is None
    ):
        raise CommandRejected("unknown_token", f"cannot ready against {command.trigger_by!r}")
    grid = spatial.index(scene).grid
    for cell in command.area:
        if not grid.contains(cell):
            raise CommandRejected("illegal_action", f"trigger area cell {cell} is off the grid")
    usage = combat.usage
    reason = ruleset.refusal(token, usage, ATTACK, limited(combat))
    if reason:
        raise CommandRejected("over_budget", reason)
    area = tuple(sorted(set(command.area)))
    hold = Hold(
        token.id, "ready", (combat.turn, combat.phase), action=command.action,
        trigger_by=command.trigger_by, area=area, moved=usage.movement is not None,
    )  # fmt: skip
    combat = replace(combat.with_hold(hold), usage=replace(usage, actions=(*usage.actions, ATTACK)))
    return replace(state, combat=combat), [
        HoldDeclared(token.id, "ready", None, command.action, command.trigger_by, area)
    ]


def fire_ready(state: Any, ruleset: Any, holder_id: str, trigger: str) -> Result:
    """A readied action's trigger came and its controller took it: ``holder_id`` acts now,
    just ahead of ``trigger``, for the rest of the encounter."""
    combat = state.combat
    hold = combat.hold(holder_id)
    assert hold is not None
    if combat.interjection is not None:
        raise CommandRejected(
            "illegal_action",
            f"{combat.interjection.combatant!r}'s readied action is under way: answer after it",
        )
    if not able(combat, holder_id):
        raise CommandRejected("illegal_action", f"{holder_id!r} cannot act now")
    combat = reorder(combat.without_hold(holder_id), holder_id, trigger)
    # The 1 m step comes with a readied action only if the holder did not otherwise move.
    usage = PhaseUsage(movement="combat" if hold.moved else None)
    interjection = Interjection(holder_id, "ready", hold.action, usage)
    combat = replace(combat, interjection=interjection)
    if combat.pending_move is not None:
        combat = replace(
            combat,
            interjection=replace(interjection, suspended=combat.pending_move),
            pending_move=None,
        )
    holder = state.scene.token(holder_id)
    movement = ruleset.movement_left(holder, PhaseUsage(), True) if hold.action == "move" else 0.0
    events: list[Any] = [
        ReadiedActionTaken(holder_id, trigger, hold.action or "attack"),
        InitiativeOrder(combat.order, combat.scores),
        CombatantActs(holder_id, combat.turn, combat.phase, True, movement),
    ]
    return replace(state, combat=combat), events


def abort(state: Any, command: Abort, spatial: SpatialCache) -> Result:
    """Abort out of turn to "any defensive attack or move action", giving up the next
    action (seed 000, *Abort*): hold a defensive manoeuvre, or take a move action now."""
    token = controlled_token(state, command.actor, command.token)
    combat, ruleset = combat_and_ruleset(state)
    maneuver = command.maneuver
    if command.action not in ABORT_ACTIONS:
        raise CommandRejected(
            "illegal_action", f"abort to {' or '.join(ABORT_ACTIONS)}, not {command.action!r}"
        )
    if command.action == "defend" and (maneuver is None or not ruleset.defensive(maneuver)):
        named = "no manoeuvre" if maneuver is None else f"{maneuver.name!r}"
        raise CommandRejected(
            "cannot_abort",
            f"an abort is to a defensive attack or move action; {named} is not a defensive "
            "manoeuvre",
        )
    if command.action == "move":
        if maneuver is not None:
            raise CommandRejected("illegal_action", "an abort to a move action names no manoeuvre")
        require_no_prompts(combat)
        if combat.pending_move is not None or combat.interjection is not None:
            raise CommandRejected(
                "cannot_abort", "an abort to a move action waits until the current move ends"
            )
    if combat.actor == token.id:
        raise CommandRejected(
            "cannot_abort", "it is your action: defend normally instead of aborting"
        )
    if not eligible(combat, token.id) or combat.has(token.id, "cannot_act"):
        raise CommandRejected("cannot_abort", f"{token.id!r} cannot act now")
    if (token.id, combat.turn, combat.phase) in combat.abort_locks:
        raise CommandRejected(
            "cannot_abort", "after aborting the next Phase's action, no abort until after your INIT"
        )
    acted = combat.order.index(token.id) <= combat.acting
    if acted:
        turn, phase = next_phase(combat.turn, combat.phase, ruleset.phases_per_turn)
    else:
        turn, phase = combat.turn, combat.phase
    if (token.id, turn, phase) in combat.forfeits:
        raise CommandRejected("cannot_abort", f"{token.id!r} already gave up that action")
    combat = replace(combat, forfeits=(*combat.forfeits, (token.id, turn, phase)))
    if acted:
        combat = replace(combat, abort_locks=(*combat.abort_locks, (token.id, turn, phase)))
    if maneuver is None:  # a move action, now: the aborter acts until it ends it
        combat = replace(combat, interjection=Interjection(token.id, "abort", "move"))
        movement = ruleset.movement_left(token, PhaseUsage(), True)
        return replace(state, combat=combat), [
            Aborted(token.id, None, 0, (turn, phase), "move"),
            CombatantActs(token.id, combat.turn, combat.phase, True, movement),
        ]
    combat = combat.with_defense(token.id, maneuver)
    return replace(state, combat=combat), [
        Aborted(token.id, maneuver.name, maneuver.dcv, (turn, phase), "defend")
    ]


def set_condition(state: Any, command: SetCondition, spatial: SpatialCache) -> Result:
    """The GM marks a condition the rules use (Stunned, underwater, prone, cannot act ...)."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM sets conditions, not {command.actor!r}")
    combat, _ = combat_and_ruleset(state)
    if scene_of(state).token(command.token) is None:
        raise CommandRejected("unknown_token", f"no token {command.token!r} on the scene")
    if command.condition not in CONDITIONS:
        raise CommandRejected(
            "illegal_action",
            f"unknown condition {command.condition!r}; one of {', '.join(CONDITIONS)}",
        )
    combat = combat.with_condition(command.token, command.condition, command.on)
    return replace(state, combat=combat), [
        ConditionChanged(command.token, command.condition, command.on)
    ]


def set_vitals(state: Any, command: SetVitals, spatial: SpatialCache) -> Result:
    """The GM records END and STUN as they stand (0 .. the character's starting values)."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM sets END and STUN, not {command.actor!r}")
    combat, _ = combat_and_ruleset(state)
    token = scene_of(state).token(command.token)
    current = combat.vitals_of(command.token)
    if token is None or current is None:
        raise CommandRejected("unknown_token", f"{command.token!r} has no END and STUN to set")
    top_end, top_stun = token.stat("end", 0), token.stat("stun", 0)
    assert isinstance(top_end, int) and isinstance(top_stun, int)
    if not (0 <= command.end <= top_end and -top_stun <= command.stun <= top_stun):
        raise CommandRejected(
            "illegal_action",
            f"END must be 0..{top_end} and STUN -{top_stun}..{top_stun}, "
            f"got {command.end} and {command.stun}",
        )
    vitals = tuple(
        Vitals(v.combatant, command.end, command.stun) if v.combatant == token.id else v
        for v in combat.vitals
    )
    combat = replace(combat, vitals=vitals)
    return replace(state, combat=combat), [VitalsChanged(token.id, command.end, command.stun)]


def _require_interjection_allows(combat: Any, slot: str) -> None:
    interjection = combat.interjection
    if interjection is None:
        return
    allowed = {"attack": (ATTACK,), "move": (MOVE,), "free": ()}[interjection.allowed or "attack"]
    if slot not in allowed or interjection.usage.actions:
        raise CommandRejected(
            "illegal_action", f"the readied action is a {interjection.allowed} action, nothing else"
        )
