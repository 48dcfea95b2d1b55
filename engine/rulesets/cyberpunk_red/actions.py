"""The list of Actions (seed 001, *List of Actions*), each with what it needs.

Every entry is an :class:`ActionSpec`: its name, what it costs (``action``: the turn's
one Action; ``free``; ``net``: a NET Action, spent "instead of a regular Action"), the
text's "what it does", its typed parameters, and one function that says why it cannot
be taken now.  The handler runs that function before applying, and the options list
runs the same one, so "may I" and "do it" cannot disagree.

What each needs, beyond an open Action:

- Attack: the weapon in a hand (fists always); melee within reach, ranged in line of
  sight; the ROF limits of :mod:`.economy`.  Rolled d10 + the table's base, reported.
- Run: having moved already, not prone (a second Move Action).
- Reload: the weapon in a hand (ammunition is the table's).
- Use Skill: a skill; a long task names its ``turns`` and is continued by Use Skill on
  the same skill in later turns; spending the Action on anything else abandons it.
- Stabilize: the patient within reach (or oneself); the check is the table's.
- Grab: an opponent within reach, a free hand, nobody held yet; an opposed d10 + base
  roll, ties to the defender; with ``item``, wrests that item into the free hand.
- Choke, Human Shield: a held opponent.  Throw: a held opponent (thrown prone and let
  go) or an item in a hand (it lands in the target's square).
- Draw a shield: carrying one and a free hand.  Stow a shield: one in hand.
- Get Up: prone.  Use Object: an object.  Holster ("is already an Action"): a weapon in
  that hand.
- Hold Action: the action to hold and its trigger (see :mod:`.holding`).
- Board a vehicle: a vehicle within reach, not aboard one, a free wheel to drive.
  Start: at the wheel of one not running (moves to the front of the queue: the caller
  shifts the queue).  Maneuver: at the wheel of a running one (the manoeuvre is the
  table's: vehicle combat is not in this text).
- NET Action: ``net_actions`` above 0; the first spends the Action, up to
  ``net_actions`` a turn.
- Free: take a weapon within reach (carried, or on the floor within reach) into a free
  hand; drop what a hand holds; get out of a vehicle.

The actions live by kind: :mod:`.fighting` (Attack, the grapple), :mod:`.gear` (hands,
shield, objects), :mod:`.vehicles`, and here one's own turn (Run, Use Skill, Stabilize,
Get Up, NET).  What they are made of (parameters, :class:`ActionSpec`, :class:`World`)
is :mod:`.action_spec`, re-exported here.  The checks most actions share come first in
each row of :data:`ACTIONS`, composed by :func:`.action_spec.first_refusal`: the table
says in one place which actions need an open Action.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.rulesets.cyberpunk_red import economy, fighting, gear, vehicles
from engine.rulesets.cyberpunk_red.action_spec import (
    ActionSpec,
    AttackParams,
    Cell,
    Dice,
    GrabParams,
    Hand,
    HandParams,
    ManeuverParams,
    NetParams,
    NoParams,
    ObjectParams,
    Result,
    SkillParams,
    TakeParams,
    TargetParams,
    ThrowParams,
    VehicleParams,
    WeaponParams,
    World,
    done,
    first_refusal,
    open_action,
    spend,
)
from engine.rulesets.cyberpunk_red.state import Arena, Fighter, Task
from engine.tray import DiceTray

__all__ = [
    "ACTIONS",
    "ActionSpec",
    "AttackParams",
    "Cell",
    "Dice",
    "GrabParams",
    "Hand",
    "HandParams",
    "ManeuverParams",
    "NetParams",
    "NoParams",
    "ObjectParams",
    "Result",
    "SkillParams",
    "TakeParams",
    "TargetParams",
    "ThrowParams",
    "VehicleParams",
    "WeaponParams",
    "World",
]

# -- needs ------------------------------------------------------------------------------


def _needs_run(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    return economy.run_refusal(f)


def _needs_skill(arena: Arena, world: World, f: Fighter, p: SkillParams | None) -> str | None:
    if p is None:
        return None
    if p.turns < 1:
        return "a task takes at least one turn"
    return None


def _needs_patient(arena: Arena, world: World, f: Fighter, p: TargetParams | None) -> str | None:
    if p is None:
        return None
    if p.target != f.id and (not arena.has(p.target) or not world.in_reach(f.id, p.target)):
        return f"{p.target} is not within reach"
    return None


def _needs_prone(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    return None if f.prone else "not prone"


def _needs_net(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    if f.net_actions < 1:
        return "no NET Actions (not a Netrunner jacked in)"
    if f.usage.net >= f.net_actions:
        return f"all {f.net_actions} NET Actions spent this turn"
    if f.usage.net == 0:
        return economy.action_refusal(f)
    return None


# -- effects ----------------------------------------------------------------------------


def _run(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    f = economy.run(replace(f, task=None))
    return done(arena, f, "run", note="a second Move Action")


def _use_skill(arena: Arena, world: World, f: Fighter, p: SkillParams, tray: DiceTray) -> Result:
    task = f.task
    if task is not None and task.skill == p.skill:
        task = replace(task, done=task.done + 1)
    else:
        task = Task(p.skill, p.turns)
    f = replace(spend(f, "use_skill"), task=None if task.finished else task)
    note = f"turn {task.done} of {task.turns}" + (": done" if task.finished else "")
    return done(arena, f, "use_skill", item=p.skill, note=note)


def _stabilize(arena: Arena, world: World, f: Fighter, p: TargetParams, tray: DiceTray) -> Result:
    return done(arena, spend(f, "stabilize"), "stabilize", target=p.target)


def _get_up(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    return done(arena, replace(spend(f, "get_up"), prone=False), "get_up")


def _net(arena: Arena, world: World, f: Fighter, p: NetParams, tray: DiceTray) -> Result:
    if f.usage.net == 0:
        f = spend(f, "net")
    f = f.with_usage(replace(f.usage, net=f.usage.net + 1))
    note = f"NET Action {f.usage.net} of {f.net_actions}"
    return done(arena, f, "net_action", cost="net", item=p.program, note=note)


# Each row: name, cost, the text's words, params, its checks in order, its effect.  An
# Action-cost row starts with ``_OPEN`` (the turn's Action still open) unless its own check
# already covers it: Attack (a second ROF 2 shot), Run (a second Move Action), NET (the
# first NET Action spends it).  Free rows need no open Action.
_A, _F, _N = "action", "free", "net"
_OPEN = open_action
_all = first_refusal
ACTIONS: dict[str, ActionSpec] = {
    s.name: s
    for s in (
        ActionSpec("attack", _A, "A shot or a blow", AttackParams, fighting.needs_attack,
                   fighting.attack),
        ActionSpec("run", _A, "A second Move Action, if you already moved this turn",
                   NoParams, _needs_run, _run, holdable=False),
        ActionSpec("reload", _A, "Fully load a weapon with one type of ammo",
                   WeaponParams, _all(_OPEN, gear.needs_held_weapon), gear.reload),
        ActionSpec("use_skill", _A, "A short task with a skill; a long one takes several turns",
                   SkillParams, _all(_OPEN, _needs_skill), _use_skill),
        ActionSpec("stabilize", _A, "Stop the bleeding or pull a friend out of Mortally Wounded",
                   TargetParams, _all(_OPEN, _needs_patient), _stabilize),
        ActionSpec("grab", _A, "Seize and hold an opponent, or wrest an item from them",
                   GrabParams, _all(_OPEN, fighting.needs_grab), fighting.grab),
        ActionSpec("choke", _A, "Choke someone you're holding", NoParams,
                   _all(_OPEN, fighting.needs_holding), fighting.choke),
        ActionSpec("throw", _A, "Throw someone you're holding to the ground, or throw an object",
                   ThrowParams, _all(_OPEN, fighting.needs_throw), fighting.throw),
        ActionSpec("human_shield", _A, "Hide behind an opponent you're holding",
                   NoParams, _all(_OPEN, fighting.needs_holding), fighting.human_shield),
        ActionSpec("draw_shield", _A, "A shield is the only thing you can't put in your hand "
                   "for free", NoParams, _all(_OPEN, gear.needs_draw_shield), gear.draw_shield),
        ActionSpec("stow_shield", _A, "Put the shield away", NoParams,
                   _all(_OPEN, gear.needs_stow_shield), gear.stow_shield),
        ActionSpec("get_up", _A, "Rise from prone", NoParams, _all(_OPEN, _needs_prone),
                   _get_up),
        ActionSpec("use_object", _A, "Do something with an item without a skill",
                   ObjectParams, _OPEN, gear.use_object),
        ActionSpec("holster", _A, "Holstering a weapon or tucking it into your belt is "
                   "already an Action", HandParams, _all(_OPEN, gear.needs_holster),
                   gear.holster),
        ActionSpec("board_vehicle", _A, "Board a vehicle", VehicleParams,
                   _all(_OPEN, vehicles.needs_board), vehicles.board),
        ActionSpec("start_vehicle", _A, "Start a vehicle: the driver moves to the front of "
                   "the queue", NoParams, _all(_OPEN, vehicles.needs_start), vehicles.start),
        ActionSpec("maneuver_vehicle", _A, "Maneuver a vehicle", ManeuverParams,
                   _all(_OPEN, vehicles.needs_maneuver), vehicles.maneuver),
        ActionSpec("net_action", _N, "A Netrunner spends their NET Actions instead of a "
                   "regular Action", NetParams, _needs_net, _net, holdable=False),
        ActionSpec("take_weapon", _F, "Take a weapon within reach into a free hand",
                   TakeParams, gear.needs_take, gear.take, holdable=False),
        ActionSpec("drop_weapon", _F, "Drop a weapon on the floor", HandParams, gear.needs_drop,
                   gear.drop, holdable=False),
        ActionSpec("exit_vehicle", _F, "Get out of a vehicle (that's movement)", NoParams,
                   vehicles.needs_exit, vehicles.exit_vehicle, holdable=False),
    )
}  # fmt: skip
