"""The Hero supplement's actions (seed 000, *Combat Actions* and *Special Initiative
Actions*), reached through ``act``: attack, the named actions, Delay, Ready, Abort, and
the GM's END and STUN.

Each action is a :class:`~engine.rulesets.base.ActionSpec`: its ``refusal`` holds every
check that needs no params (``ask_options`` runs the same one, so "is it legal now" and
"do it" cannot drift), its ``run`` the checks on the params and the change itself.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.checks import require_no_prompts
from engine.clock import ActNow, Advance, Reorder, next_phase
from engine.combat_state import Interjection, Trigger
from engine.errors import CommandRejected
from engine.events import CombatantActs
from engine.model import Combatant
from engine.movement import in_reach
from engine.rulesets.base import ActionSpec, Context, NoParams, Result
from engine.rulesets.hero import budget
from engine.rulesets.hero.events import (
    Aborted,
    ActionTaken,
    DelayTaken,
    HoldDeclared,
    VitalsChanged,
)
from engine.rulesets.hero.params import (
    AbortParams,
    AttackParams,
    DelayParams,
    NamedActionParams,
    ReadyParams,
    VitalsParams,
    WeaponParams,
    maneuver_of,
)
from engine.rulesets.hero.powers.sheet import sheet_of
from engine.rulesets.hero.state import (
    ATTACK,
    MOVE,
    STRIKE,
    Hold,
    PhaseUsage,
    Vitals,
    hero,
    in_state,
    limited_now,
    put,
    usage,
    with_usage,
)
from engine.targets import centre_distance, nothing_to_attack, sight_line_clear
from engine.turns import eligible

# "You can't use this action to start or complete a non-combat move, to withdraw from
# combat, or to perform any action that requires an attack roll."
NOT_STARTABLE = ("noncombat", "withdraw", "attack")
#: The named actions (*Move Actions*, *Free Actions*, *Full-Phase Actions*, defending).
NAMED_ACTIONS = (
    "draw_focus",
    "stow_focus",
    "stand_up",
    "drop_item",
    "drop_prone",
    "start_full_phase",
    "complete_full_phase",
    "full_phase",
    "defend",
)


def able(ctx: Context, cid: str) -> bool:
    """Whether ``cid`` can act now (in this Phase, and not unable to act)."""
    return eligible(ctx.combat, cid) and not ctx.combat.has(cid, "cannot_act")


def _slot_refusal(ctx: Context, slot: str | None) -> None:
    """Refuse a slot the acting combatant cannot take now (its readied action's type,
    or its Phase's budget)."""
    if slot is None:
        return
    _require_interjection_allows(ctx, slot)
    reason = budget.refusal(ctx.token, usage(ctx.combat), slot, limited_now(ctx.combat))
    if reason:
        raise CommandRejected("over_budget", reason)


# -- attack -------------------------------------------------------------------------------


def attack_refusal(ctx: Context) -> str | None:
    """An attack action needs an attack slot and a token to attack: one within reach,
    or in line of sight for a ranged attack (the checks :func:`attack` makes)."""
    _slot_refusal(ctx, ATTACK)
    nothing = nothing_to_attack(ctx.spatial, ctx.scene, ctx.token, ctx.scene.tokens)
    if nothing is not None:
        raise CommandRejected("out_of_reach", nothing)
    return None


def attack(ctx: Context, params: AttackParams) -> Result:
    """An attack action: melee within reach, or ranged in line of sight and range."""
    token, scene, combat = ctx.token, ctx.scene, ctx.combat
    target = scene.token(params.target)
    if target is None or target.id == token.id:
        raise CommandRejected("unknown_token", f"no target {params.target!r} to attack")
    if params.ranged:
        if not sight_line_clear(ctx.spatial, scene, token, target):
            raise CommandRejected("out_of_reach", f"{target.id!r} is not in line of sight")
        distance = centre_distance(ctx.spatial, scene, token, target)
        if distance > params.range + 1e-9:
            raise CommandRejected(
                "out_of_reach", f"{target.id!r} is {distance:g} away, range {params.range:g}"
            )
    elif not in_reach(ctx.spatial, scene, token, target):
        raise CommandRejected("out_of_reach", f"{target.id!r} is not within {token.id!r}'s reach")
    maneuver = maneuver_of(params.maneuver) or STRIKE
    unfamiliar = unfamiliar_penalty(token, params.weapon)
    fight = hero(combat)
    used = (*fight.maneuvers_of(token.id), maneuver)
    roll = ctx.ruleset.attack_roll(  # type: ignore[attr-defined]
        combat,
        token,
        target,
        ctx.tray,
        params.rolls,
        attack="attack",
        maneuvers=used,
        ocv_bonus=params.ocv_bonus + unfamiliar,
    )
    spent = usage(combat)
    spent = replace(spent, actions=(*spent.actions, ATTACK), attacked=(*spent.attacked, target.id))
    combat = with_usage(combat, spent)
    combat = put(combat, hero(combat).with_maneuver(token.id, maneuver))
    return replace(ctx.state, combat=combat, draws=ctx.tray.draws), [*ctx.tray.events, roll]


#: The Unfamiliar Weapon penalty.  Seed 002 names "Unfamiliar Weapon penalties" but gives
#: no figure; -3 OCV is the 6E core rules' (6E1, *Weapon Familiarity*), the one a 6E
#: table plays.
UNFAMILIAR_WEAPON_OCV = -3


def unfamiliar_penalty(token: Combatant, weapon: WeaponParams | None) -> int:
    """The OCV penalty for attacking with ``weapon`` (seed 002, *Skill Rolls*): none for
    no weapon named, for the very device the character paid Character Points for (a
    Power of that name: "he automatically knows how to use it"), or with the Weapon
    Familiarity of its group (``wf:<group>``: "unless he buys WF: Blades"); otherwise the
    Unfamiliar Weapon penalty, since "the ability to use a power or equipment a character
    pays Character Points for only extends to that one power or device"."""
    if weapon is None:
        return 0
    if sheet_of(token).power(weapon.name) is not None:
        return 0
    familiar = {_group(k[3:]) for k, v in token.stats if k.startswith("wf:") and v is True}
    return 0 if _group(weapon.group) in familiar else UNFAMILIAR_WEAPON_OCV


def _group(name: str) -> str:
    # "Common Melee", "common_melee" and "common  melee" are one Weapon Familiarity.
    return " ".join(name.replace("_", " ").split()).casefold()


# -- named actions ------------------------------------------------------------------------


def named_refusal(name: str) -> Any:
    """The refusal of the named action ``name``: its slot (*Move Actions*, *Free Actions*)."""

    def refusal(ctx: Context) -> str | None:
        _slot_refusal(ctx, budget.action_slot(ctx.token, name))
        if name == "stand_up" and not ctx.combat.has(ctx.token.id, "prone"):
            return f"{ctx.token.id!r} is not prone"
        started = _started(ctx)
        if name == "start_full_phase" and started:
            return f"{ctx.token.id!r} already started {started[0][8:]!r}"
        if name == "complete_full_phase" and not started:
            return f"{ctx.token.id!r} has no full-phase action under way"
        if name == "complete_full_phase" and usage(ctx.combat).full_phase_started:
            return "a full-phase action is completed in a later Phase"
        return None

    return refusal


def _started(ctx: Context) -> list[str]:
    return [c for c in ctx.combat.conditions_of(ctx.token.id) if c.startswith("started:")]


def named_run(name: str) -> Any:
    """The run of the named action ``name``."""

    def run(ctx: Context, params: NamedActionParams) -> Result:
        return take_named(ctx, name, params)

    return run


def take_named(ctx: Context, name: str, params: NamedActionParams) -> Result:
    """A named action: draw or stow a focus, stand up, drop an item or prone, start or
    complete a full-phase action, a full-phase action, or defend with a manoeuvre."""
    token, combat = ctx.token, ctx.combat
    slot = budget.action_slot(token, name)
    maneuver = maneuver_of(params.maneuver)
    if name == "start_full_phase" and (not params.detail or params.detail in NOT_STARTABLE):
        raise CommandRejected(
            "illegal_action",
            f"name the full-phase action to start; not one of {', '.join(NOT_STARTABLE)}",
        )
    if name == "defend" and maneuver is None:
        raise CommandRejected("illegal_action", "defend names its defensive manoeuvre")
    detail = params.detail
    spent = usage(combat)
    if slot is not None:
        spent = replace(spent, actions=(*spent.actions, slot))
    else:
        spent = replace(spent, free=spent.free + 1)
    combat = with_usage(combat, spent)
    started = _started(ctx)
    if name == "stand_up":
        combat = combat.with_condition(token.id, "prone", False)
    elif name == "drop_prone":
        combat = combat.with_condition(token.id, "prone", True)
    elif name == "start_full_phase":
        combat = combat.with_condition(token.id, f"started:{detail}", True)
        combat = with_usage(combat, replace(usage(combat), full_phase_started=detail))
    elif name == "complete_full_phase":
        detail = started[0][len("started:") :]
        combat = combat.with_condition(token.id, started[0], False)
    elif name == "defend" and maneuver is not None:
        # A defensive manoeuvre is held as the defence; only attack manoeuvres combine.
        combat = put(combat, hero(combat).with_defense(token.id, maneuver))
        detail = maneuver.name
    return replace(ctx.state, combat=combat), [ActionTaken(token.id, name, slot, detail)]


# -- Delay ----------------------------------------------------------------------------------


def delay_refusal(ctx: Context) -> str | None:
    """Delaying takes no action on one's INIT: nothing done yet, not acting out of turn."""
    if ctx.combat.interjection is not None:
        return "a readied action cannot be delayed"
    if hero(ctx.combat).usage != PhaseUsage():
        return "delaying takes no action on one's INIT: nothing done yet"
    return None


def delay(ctx: Context, params: DelayParams) -> Result:
    """Take no action on one's INIT and wait, maybe to just before someone."""
    token, combat = ctx.token, ctx.combat
    if params.before is not None and (
        params.before == token.id or params.before not in combat.order
    ):
        raise CommandRejected("unknown_token", f"cannot delay to before {params.before!r}")
    hold = Hold(token.id, "delay", (combat.turn, combat.phase), before=params.before)
    state = in_state(ctx.state, hero(combat).with_hold(hold))
    declared = HoldDeclared(token.id, "delay", params.before, None, None, ())
    return state, [declared, Advance()]


def take_delayed_refusal(ctx: Context) -> str | None:
    """A delayed action is taken between actions, never interrupting one."""
    combat = ctx.combat
    require_no_prompts(combat)
    hold = hero(combat).hold(ctx.token.id)
    if hold is None or hold.kind != "delay":
        raise CommandRejected("no_hold", f"{ctx.token.id!r} has no delayed action")
    if (
        combat.interjection is not None
        or combat.pending_move is not None
        or hero(combat).usage != PhaseUsage()
    ):
        return "a delayed action cannot interrupt: wait until the next action starts"
    if not able(ctx, ctx.token.id):
        return f"{ctx.token.id!r} cannot act now"
    return None


def take_delayed(ctx: Context, params: Any) -> Result:
    """Take a delayed action now, just before whoever is up (who has not acted yet)."""
    combat = ctx.combat
    cid = ctx.token.id
    current = combat.regular_actor
    combat = put(combat, hero(combat).without_hold(cid))
    return replace(ctx.state, combat=combat), [
        DelayTaken(cid, current),
        Reorder(cid, current),
        ActNow(cid),
    ]


# -- Ready ----------------------------------------------------------------------------------


def ready_refusal(ctx: Context) -> str | None:
    """Readying is an attack action, and not while acting out of turn."""
    if ctx.combat.interjection is not None:
        return "a readied action cannot ready another"
    reason = budget.refusal(ctx.token, hero(ctx.combat).usage, ATTACK, ctx.combat.surprise)
    if reason:
        raise CommandRejected("over_budget", reason)
    return None


def ready(ctx: Context, params: ReadyParams) -> Result:
    """Ready an attack, move or free action against a trigger: someone's action, or a
    token entering an area (watched by the core)."""
    token, scene, combat = ctx.token, ctx.scene, ctx.combat
    if params.trigger_by is None and not params.area:
        raise CommandRejected(
            "illegal_action", "a readied action needs a trigger: someone's action or an area"
        )
    if params.trigger_by is not None and (
        params.trigger_by == token.id or scene.token(params.trigger_by) is None
    ):
        raise CommandRejected("unknown_token", f"cannot ready against {params.trigger_by!r}")
    size = scene.grid
    for cell in params.area:
        # The scene's cells, also on a gridless scene (squares of its cell size there).
        if not (0 <= cell[0] < size.width and 0 <= cell[1] < size.height):
            raise CommandRejected("illegal_action", f"trigger area cell {cell} is off the grid")
    fight = hero(combat)
    spent = fight.usage
    area = tuple(sorted(set(params.area)))
    hold = Hold(
        token.id, "ready", (combat.turn, combat.phase), action=params.action,
        trigger_by=params.trigger_by, area=area, moved=spent.movement is not None,
    )  # fmt: skip
    fight = replace(fight.with_hold(hold), usage=replace(spent, actions=(*spent.actions, ATTACK)))
    on = "enter" if area else "action"
    watched = Trigger(token.id, on, params.trigger_by, area, params.action)
    triggers = (*(t for t in combat.triggers if t.owner != token.id), watched)
    combat = replace(put(combat, fight), triggers=triggers)
    return replace(ctx.state, combat=combat), [
        HoldDeclared(token.id, "ready", None, params.action, params.trigger_by, area)
    ]


# -- Abort ----------------------------------------------------------------------------------


def _abort_slot(ctx: Context) -> tuple[bool, tuple[int, int]]:
    """Whether the aborter has acted this Phase, and the (turn, phase) it gives up."""
    combat = ctx.combat
    acted = combat.order.index(ctx.token.id) <= combat.acting
    if acted:
        return True, next_phase(combat.turn, combat.phase, ctx.ruleset.phases_per_turn)
    return False, (combat.turn, combat.phase)


def abort_refusal(ctx: Context) -> str | None:
    """Out of turn, able to act, not locked out by an earlier abort, not given up yet."""
    combat, cid = ctx.combat, ctx.token.id
    fight = hero(combat)
    if combat.actor == cid:
        return "it is your action: defend normally instead of aborting"
    if not able(ctx, cid):
        return f"{cid!r} cannot act now"
    if (cid, combat.turn, combat.phase) in fight.abort_locks:
        return "after aborting the next Phase's action, no abort until after your INIT"
    _, (turn, phase) = _abort_slot(ctx)
    if (cid, turn, phase) in fight.forfeits:
        return f"{cid!r} already gave up that action"
    return None


def abort(ctx: Context, params: AbortParams) -> Result:
    """Abort out of turn to "any defensive attack or move action", giving up the next
    action (seed 000, *Abort*): hold a defensive manoeuvre, or take a move action now."""
    token, combat, ruleset = ctx.token, ctx.combat, ctx.ruleset
    maneuver = maneuver_of(params.maneuver)
    if params.action == "defend" and (
        maneuver is None or not ruleset.defensive(maneuver)  # type: ignore[attr-defined]
    ):
        named = "no manoeuvre" if maneuver is None else f"{maneuver.name!r}"
        raise CommandRejected(
            "cannot_abort",
            f"an abort is to a defensive attack or move action; {named} is not a defensive "
            "manoeuvre",
        )
    if params.action == "move":
        if maneuver is not None:
            raise CommandRejected("illegal_action", "an abort to a move action names no manoeuvre")
        require_no_prompts(combat)
        if combat.pending_move is not None or combat.interjection is not None:
            raise CommandRejected(
                "cannot_abort", "an abort to a move action waits until the current move ends"
            )
    acted, (turn, phase) = _abort_slot(ctx)
    fight = hero(combat)
    fight = replace(fight, forfeits=(*fight.forfeits, (token.id, turn, phase)))
    if acted:
        fight = replace(fight, abort_locks=(*fight.abort_locks, (token.id, turn, phase)))
    if maneuver is None:  # a move action, now: the aborter acts until it ends it
        fight = replace(fight, interjection_usage=PhaseUsage())
        combat = replace(put(combat, fight), interjection=Interjection(token.id, "abort", "move"))
        movement = budget.movement_left(token, PhaseUsage(), True)
        return replace(ctx.state, combat=combat), [
            Aborted(token.id, None, 0, (turn, phase), "move"),
            CombatantActs(token.id, ctx.ruleset.clock(combat), True, movement),
        ]
    combat = put(combat, fight.with_defense(token.id, maneuver))
    return replace(ctx.state, combat=combat), [
        Aborted(token.id, maneuver.name, maneuver.dcv, (turn, phase), "defend")
    ]


# -- END and STUN -------------------------------------------------------------------------


def set_vitals(ctx: Context, params: VitalsParams) -> Result:
    """The GM records END and STUN as they stand (0 .. the character's starting values)."""
    token, combat = ctx.token, ctx.combat
    fight = hero(combat)
    if fight.vitals_of(token.id) is None:
        raise CommandRejected("unknown_token", f"{token.id!r} has no END and STUN to set")
    top_end, top_stun = token.stat("end", 0), token.stat("stun", 0)
    assert isinstance(top_end, int) and isinstance(top_stun, int)
    if not (0 <= params.end <= top_end and -top_stun <= params.stun <= top_stun):
        raise CommandRejected(
            "illegal_action",
            f"END must be 0..{top_end} and STUN -{top_stun}..{top_stun}, "
            f"got {params.end} and {params.stun}",
        )
    vitals = tuple(
        Vitals(v.combatant, params.end, params.stun) if v.combatant == token.id else v
        for v in fight.vitals
    )
    combat = put(combat, replace(fight, vitals=vitals))
    return replace(ctx.state, combat=combat), [VitalsChanged(token.id, params.end, params.stun)]


def _require_interjection_allows(ctx: Context, slot: str) -> None:
    interjection = ctx.combat.interjection
    if interjection is None:
        return
    allowed = {"attack": (ATTACK,), "move": (MOVE,), "free": ()}[interjection.allowed or "attack"]
    if slot not in allowed or hero(ctx.combat).interjection_usage.actions:
        raise CommandRejected(
            "illegal_action", f"the readied action is a {interjection.allowed} action, nothing else"
        )


ACTIONS: dict[str, ActionSpec[Any]] = {
    "attack": ActionSpec("attack", AttackParams, attack, attack_refusal, code="over_budget"),
    **{
        name: ActionSpec(name, NamedActionParams, named_run(name), named_refusal(name))
        for name in NAMED_ACTIONS
    },
    "delay": ActionSpec("delay", DelayParams, delay, delay_refusal),
    "ready": ActionSpec("ready", ReadyParams, ready, ready_refusal),
    "take_delayed": ActionSpec(
        "take_delayed", NoParams, take_delayed, take_delayed_refusal, when="any"
    ),
    "abort": ActionSpec(
        "abort", AbortParams, abort, abort_refusal, when="any", code="cannot_abort"
    ),
    "set_vitals": ActionSpec("set_vitals", VitalsParams, set_vitals, when="gm"),
}
