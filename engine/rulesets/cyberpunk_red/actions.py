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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, Protocol

from engine.params import DICE, TokenRef
from engine.rulesets.cyberpunk_red import economy
from engine.rulesets.cyberpunk_red.events import ActionDone, AttackRolled, GrabContested
from engine.rulesets.cyberpunk_red.state import (
    HANDS,
    SHIELD,
    Arena,
    Fighter,
    Task,
)
from engine.tray import DiceTray

Cell = tuple[int, int]
Hand = Literal["right", "left"]
Dice = Annotated[tuple[int, ...] | None, DICE]


class World(Protocol):
    """What the actions ask of the scene (answered from geometry by the engine)."""

    def in_reach(self, a: str, b: str) -> bool:
        """Whether token ``b`` is within token ``a``'s melee reach."""
        ...

    def sees(self, a: str, b: str) -> bool:
        """Whether token ``a`` has line of sight to token ``b``."""
        ...

    def cell(self, token: str) -> Cell:
        """Token ``token``'s cell."""
        ...

    def reaches_cell(self, token: str, cell: Cell) -> bool:
        """Whether ``cell`` is within ``token``'s reach (or under it)."""
        ...

    def is_token(self, token: str) -> bool:
        """Whether the scene has a token ``token``."""
        ...


# -- parameters, one typed class per shape ---------------------------------------------


@dataclass(frozen=True, slots=True)
class NoParams:
    """An action that takes no parameters."""


@dataclass(frozen=True, slots=True)
class AttackParams:
    """Attack ``target`` with ``weapon`` (default fists); ``base`` is the table's STAT +
    Skill (and modifiers) added to the d10; ``rolls``: the d10 if the table rolled it."""

    target: TokenRef
    weapon: str = "unarmed"
    base: int = 0
    rolls: Dice = None


@dataclass(frozen=True, slots=True)
class WeaponParams:
    """The weapon acted on."""

    weapon: str


@dataclass(frozen=True, slots=True)
class SkillParams:
    """Use ``skill``; a long task takes ``turns`` turns in all."""

    skill: str
    turns: int = 1


@dataclass(frozen=True, slots=True)
class TargetParams:
    """The combatant acted on."""

    target: TokenRef


@dataclass(frozen=True, slots=True)
class GrabParams:
    """Grab ``target`` (or wrest ``item`` from it): d10 + ``base`` against the target's
    d10 + ``defense``; ``rolls`` are the two d10s if the table rolled them."""

    target: TokenRef
    item: str | None = None
    base: int = 0
    defense: int = 0
    rolls: Dice = None


@dataclass(frozen=True, slots=True)
class ThrowParams:
    """Throw the held opponent, or ``item`` from a hand at ``target``'s square."""

    target: TokenRef | None = None
    item: str | None = None


@dataclass(frozen=True, slots=True)
class ObjectParams:
    """Use ``object`` (press a button, open a locker...)."""

    object: str


@dataclass(frozen=True, slots=True)
class HandParams:
    """The hand acted on: ``right`` or ``left``."""

    hand: Hand


@dataclass(frozen=True, slots=True)
class TakeParams:
    """Take ``weapon`` (carried, or on the floor within reach) into ``hand`` (default:
    a free one)."""

    weapon: str
    hand: Hand | None = None


@dataclass(frozen=True, slots=True)
class VehicleParams:
    """Board ``vehicle``, at the wheel if ``driver``."""

    vehicle: TokenRef
    driver: bool = False


@dataclass(frozen=True, slots=True)
class ManeuverParams:
    """The vehicle manoeuvre, in the table's words."""

    maneuver: str


@dataclass(frozen=True, slots=True)
class NetParams:
    """The NET Action, in the table's words (Slide, Zap, Pathfinder...)."""

    program: str


Result = tuple[Arena, list[Any]]


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One entry of the list of Actions: cost, the text's words, params, needs, effect."""

    name: str
    cost: str
    does: str
    params: type
    needs: Callable[[Arena, World, Fighter, Any], str | None]
    apply: Callable[[Arena, World, Fighter, Any, DiceTray], Result]
    holdable: bool = True


# -- needs ------------------------------------------------------------------------------


def _opponent(arena: Arena, world: World, fighter: Fighter, target: str) -> str | None:
    if target == fighter.id:
        return "cannot target itself"
    if not arena.has(target):
        return f"no combatant {target!r}"
    return None


def _needs_attack(arena: Arena, world: World, f: Fighter, p: AttackParams | None) -> str | None:
    if p is None:
        weapons = [f.in_hand(h) for h in HANDS if f.in_hand(h) not in (None, SHIELD)]
        refusals = [economy.attack_refusal(f, w) for w in [*weapons, "unarmed"] if w]
        return None if any(r is None for r in refusals) else refusals[0]
    # Any token may be shot at, a vehicle included; only a combatant can be grabbed.
    if p.target == f.id:
        return "cannot target itself"
    if not world.is_token(p.target):
        return f"no token {p.target!r}"
    why = economy.attack_refusal(f, p.weapon)
    if why:
        return why
    weapon = f.weapon(p.weapon)
    assert weapon is not None
    if weapon.melee and not world.in_reach(f.id, p.target):
        return f"{p.target} is out of reach of {weapon.name}"
    if not weapon.melee and not world.sees(f.id, p.target):
        return f"{p.target} is out of line of sight"
    return None


def _open(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    return economy.action_refusal(f)


def _needs_run(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    return economy.run_refusal(f)


def _needs_held_weapon(
    arena: Arena, world: World, f: Fighter, p: WeaponParams | None
) -> str | None:
    why = economy.action_refusal(f)
    if why or p is None:
        return why
    return None if f.hand_of(p.weapon) else f"{p.weapon} is not in a hand"


def _needs_skill(arena: Arena, world: World, f: Fighter, p: SkillParams | None) -> str | None:
    why = economy.action_refusal(f)
    if why or p is None:
        return why
    if p.turns < 1:
        return "a task takes at least one turn"
    return None


def _needs_patient(arena: Arena, world: World, f: Fighter, p: TargetParams | None) -> str | None:
    why = economy.action_refusal(f)
    if why or p is None:
        return why
    if p.target != f.id and (not arena.has(p.target) or not world.in_reach(f.id, p.target)):
        return f"{p.target} is not within reach"
    return None


def _needs_grab(arena: Arena, world: World, f: Fighter, p: GrabParams | None) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    if f.holding:
        return f"already holding {f.holding}"
    if f.free_hand() is None:
        return "needs a free hand"
    if p is None:
        return None
    why = _opponent(arena, world, f, p.target)
    if why:
        return why
    if not world.in_reach(f.id, p.target):
        return f"{p.target} is not within reach"
    if p.item is not None and arena.fighter(p.target).hand_of(p.item) is None:
        return f"{p.target} holds no {p.item}"
    return None


def _needs_holding(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    return None if f.holding else "needs an opponent it is holding (Grab first)"


def _needs_throw(arena: Arena, world: World, f: Fighter, p: ThrowParams | None) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    has_item = any(f.in_hand(h) is not None for h in HANDS)
    if p is None:
        return None if f.holding or has_item else "holds nobody and nothing to throw"
    if p.item is None:
        return None if f.holding else "throws someone it is holding: Grab first"
    if f.hand_of(p.item) is None:
        return f"{p.item} is not in a hand"
    if p.target is None or (not arena.has(p.target) and not world.is_token(p.target)):
        return "throwing an item needs a target"
    return None if world.sees(f.id, p.target) else f"{p.target} is out of line of sight"


def _needs_draw_shield(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    if not f.has_shield:
        return "carries no shield"
    if f.hand_of(SHIELD):
        return "the shield is already in hand"
    return None if f.free_hand() else "needs a free hand"


def _needs_stow_shield(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    why = economy.action_refusal(f)
    return why or (None if f.hand_of(SHIELD) else "no shield in hand")


def _needs_get_up(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    why = economy.action_refusal(f)
    return why or (None if f.prone else "not prone")


def _needs_holster(arena: Arena, world: World, f: Fighter, p: HandParams | None) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    weapons = [h for h in HANDS if f.in_hand(h) not in (None, SHIELD)]
    if p is None:
        return None if weapons else "no weapon in hand"
    return None if p.hand in weapons else f"no weapon in the {p.hand} hand"


def _needs_board(arena: Arena, world: World, f: Fighter, p: VehicleParams | None) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    if f.vehicle:
        return f"already aboard {f.vehicle}"
    if p is None:
        return (
            None
            if any(world.in_reach(f.id, v.id) for v in arena.vehicles)
            else ("no vehicle within reach")
        )
    vehicle = arena.vehicle(p.vehicle)
    if vehicle is None:
        return f"{p.vehicle!r} is not a vehicle"
    if not world.in_reach(f.id, p.vehicle):
        return f"{p.vehicle} is not within reach"
    if p.driver and vehicle.driver:
        return f"{vehicle.driver} is at the wheel of {p.vehicle}"
    return None


def _needs_start(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    if not f.driver or f.vehicle is None:
        return "not at the wheel of a vehicle"
    vehicle = arena.vehicle(f.vehicle)
    assert vehicle is not None
    return f"{vehicle.id} is already running" if vehicle.started else None


def _needs_maneuver(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    why = economy.action_refusal(f)
    if why:
        return why
    vehicle = arena.vehicle(f.vehicle) if f.vehicle and f.driver else None
    if vehicle is None:
        return "not at the wheel of a vehicle"
    return None if vehicle.started else f"{vehicle.id} is not running: start it first"


def _needs_net(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    if f.net_actions < 1:
        return "no NET Actions (not a Netrunner jacked in)"
    if f.usage.net >= f.net_actions:
        return f"all {f.net_actions} NET Actions spent this turn"
    if f.usage.net == 0:
        return economy.action_refusal(f)
    return None


def _needs_take(arena: Arena, world: World, f: Fighter, p: TakeParams | None) -> str | None:
    if p is None:
        return None if f.free_hand() else "no free hand"
    if p.weapon == SHIELD:
        return 'a shield is "the only thing you can\'t put in your hand for free": draw it'
    if p.hand is not None and p.hand not in HANDS:
        return f"no hand {p.hand!r}"
    hand = p.hand or f.free_hand()
    if hand is None or f.in_hand(hand) is not None:
        return f"the {hand or 'both'} hand{'' if hand else 's'} not free"
    if f.weapon(p.weapon) is not None and p.weapon != "unarmed":
        return None if f.hand_of(p.weapon) is None else f"{p.weapon} is already in hand"
    if any(w.name == p.weapon and world.reaches_cell(f.id, c) for c, w in arena.floor):
        return None
    return f"no {p.weapon} within reach"


def _needs_drop(arena: Arena, world: World, f: Fighter, p: HandParams | None) -> str | None:
    if p is None:
        return None if any(f.in_hand(h) for h in HANDS) else "nothing in hand"
    if p.hand not in HANDS:
        return f"no hand {p.hand!r}"
    return None if f.in_hand(p.hand) else f"nothing in the {p.hand} hand"


def _needs_exit(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    return None if f.vehicle else "not in a vehicle"


# -- effects ----------------------------------------------------------------------------


def _done(arena: Arena, f: Fighter, name: str, cost: str = "action", **kw: Any) -> Result:
    return arena.with_fighter(f), [ActionDone(f.id, name, cost, **kw)]


def _spend(f: Fighter, name: str) -> Fighter:
    """Spend the Action on ``name``; a long task not continued by it is abandoned."""
    if f.task is not None and name != "use_skill":
        f = replace(f, task=None)
    return economy.spend_action(f, name)


def _attack(arena: Arena, world: World, f: Fighter, p: AttackParams, tray: DiceTray) -> Result:
    f = _spend(f, "attack")
    f = economy.spend_attack(f, p.weapon)
    (die,) = tray.roll(f"attack {f.id} -> {p.target} ({p.weapon})", 1, 10, p.rolls)
    event = AttackRolled(f.id, p.target, p.weapon, die, p.base, die + p.base, len(f.usage.attacks))
    return arena.with_fighter(f), [event]


def _run(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    f = economy.run(replace(f, task=None))
    return _done(arena, f, "run", note="a second Move Action")


def _reload(arena: Arena, world: World, f: Fighter, p: WeaponParams, tray: DiceTray) -> Result:
    return _done(arena, _spend(f, "reload"), "reload", item=p.weapon)


def _use_skill(arena: Arena, world: World, f: Fighter, p: SkillParams, tray: DiceTray) -> Result:
    task = f.task
    if task is not None and task.skill == p.skill:
        task = replace(task, done=task.done + 1)
    else:
        task = Task(p.skill, p.turns)
    f = replace(_spend(f, "use_skill"), task=None if task.finished else task)
    note = f"turn {task.done} of {task.turns}" + (": done" if task.finished else "")
    return _done(arena, f, "use_skill", item=p.skill, note=note)


def _stabilize(arena: Arena, world: World, f: Fighter, p: TargetParams, tray: DiceTray) -> Result:
    return _done(arena, _spend(f, "stabilize"), "stabilize", target=p.target)


def _grab(arena: Arena, world: World, f: Fighter, p: GrabParams, tray: DiceTray) -> Result:
    f = _spend(f, "grab")
    ours, theirs = tray.roll(f"grab {f.id} -> {p.target}: d10 each", 2, 10, p.rolls)
    attack, defense = ours + p.base, theirs + p.defense
    success = attack > defense  # "ties go to the defender", the core book's rule
    victim = arena.fighter(p.target)
    if success and p.item is not None:
        hand = victim.hand_of(p.item)
        assert hand is not None
        weapon = victim.weapon(p.item)
        victim = victim.with_hand(hand, None)
        if weapon is not None:
            victim = replace(victim, weapons=tuple(w for w in victim.weapons if w != weapon))
            f = replace(f, weapons=(*f.weapons, weapon))
        free = f.free_hand()
        assert free is not None
        f = f.with_hand(free, p.item)
    elif success:
        f = replace(f, holding=p.target)
    arena = arena.with_fighter(f).with_fighter(victim)
    return arena, [GrabContested(f.id, p.target, attack, defense, success, p.item)]


def _choke(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    return _done(arena, _spend(f, "choke"), "choke", target=f.holding)


def _throw(arena: Arena, world: World, f: Fighter, p: ThrowParams, tray: DiceTray) -> Result:
    f = _spend(f, "throw")
    if p.item is None:
        victim = replace(arena.fighter(f.holding or ""), prone=True)
        f = replace(f, holding=None)
        arena = arena.with_fighter(victim)
        return _done(arena, f, "throw", target=victim.id, note="thrown to the ground: prone")
    hand = f.hand_of(p.item)
    assert hand is not None and p.target is not None
    weapon = f.weapon(p.item)
    f = f.with_hand(hand, None)
    if weapon is not None and weapon.name != "unarmed":
        f = replace(f, weapons=tuple(w for w in f.weapons if w != weapon))
        arena = replace(
            arena,
            floor=tuple(
                sorted(
                    [*arena.floor, (world.cell(p.target), weapon)], key=lambda e: (e[0], e[1].name)
                )
            ),
        )
    return _done(arena, f, "throw", target=p.target, item=p.item)


def _human_shield(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    f = replace(_spend(f, "human_shield"), shielded_by=f.holding)
    return _done(arena, f, "human_shield", target=f.holding, note="hides behind its captive")


def _draw_shield(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    hand = f.free_hand()
    assert hand is not None
    return _done(arena, _spend(f, "draw_shield").with_hand(hand, SHIELD), "draw_shield")


def _stow_shield(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    hand = f.hand_of(SHIELD)
    assert hand is not None
    return _done(arena, _spend(f, "stow_shield").with_hand(hand, None), "stow_shield")


def _get_up(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    return _done(arena, replace(_spend(f, "get_up"), prone=False), "get_up")


def _use_object(arena: Arena, world: World, f: Fighter, p: ObjectParams, tray: DiceTray) -> Result:
    return _done(arena, _spend(f, "use_object"), "use_object", item=p.object)


def _holster(arena: Arena, world: World, f: Fighter, p: HandParams, tray: DiceTray) -> Result:
    item = f.in_hand(p.hand)
    f = _spend(f, "holster").with_hand(p.hand, None)
    return _done(arena, f, "holster", item=item)


def _board(arena: Arena, world: World, f: Fighter, p: VehicleParams, tray: DiceTray) -> Result:
    vehicle = arena.vehicle(p.vehicle)
    assert vehicle is not None
    f = replace(_spend(f, "board_vehicle"), vehicle=p.vehicle, driver=p.driver)
    if p.driver:
        arena = arena.with_vehicle(replace(vehicle, driver=f.id))
    note = "at the wheel" if p.driver else "as a passenger"
    return _done(arena, f, "board_vehicle", item=p.vehicle, note=note)


def _start(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    vehicle = arena.vehicle(f.vehicle or "")
    assert vehicle is not None
    arena = arena.with_vehicle(replace(vehicle, started=True))
    note = "the driver moves to the front of the Initiative Queue"
    return _done(arena, _spend(f, "start_vehicle"), "start_vehicle", item=vehicle.id, note=note)


def _maneuver(arena: Arena, world: World, f: Fighter, p: ManeuverParams, tray: DiceTray) -> Result:
    f = _spend(f, "maneuver_vehicle")
    return _done(arena, f, "maneuver_vehicle", item=f.vehicle, note=p.maneuver)


def _net(arena: Arena, world: World, f: Fighter, p: NetParams, tray: DiceTray) -> Result:
    if f.usage.net == 0:
        f = _spend(f, "net")
    f = f.with_usage(replace(f.usage, net=f.usage.net + 1))
    note = f"NET Action {f.usage.net} of {f.net_actions}"
    return _done(arena, f, "net_action", cost="net", item=p.program, note=note)


def _take(arena: Arena, world: World, f: Fighter, p: TakeParams, tray: DiceTray) -> Result:
    hand = p.hand or f.free_hand()
    assert hand is not None
    if f.weapon(p.weapon) is None:  # from the floor
        cell, weapon = next(
            (c, w) for c, w in arena.floor if w.name == p.weapon and world.reaches_cell(f.id, c)
        )
        floor = list(arena.floor)
        floor.remove((cell, weapon))
        arena = replace(arena, floor=tuple(floor))
        f = replace(f, weapons=(*f.weapons, weapon))
    return _done(arena, f.with_hand(hand, p.weapon), "take_weapon", cost="free", item=p.weapon)


def _drop(arena: Arena, world: World, f: Fighter, p: HandParams, tray: DiceTray) -> Result:
    item = f.in_hand(p.hand)
    assert item is not None
    f = f.with_hand(p.hand, None)
    weapon = f.weapon(item) if item != SHIELD else None
    if weapon is not None:
        f = replace(f, weapons=tuple(w for w in f.weapons if w != weapon))
        floor = sorted([*arena.floor, (world.cell(f.id), weapon)], key=lambda e: (e[0], e[1].name))
        arena = replace(arena, floor=tuple(floor))
    elif item == SHIELD:
        f = replace(f, has_shield=False)
    return _done(arena, f, "drop_weapon", cost="free", item=item, note="on the floor")


def _exit(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    vehicle = arena.vehicle(f.vehicle or "")
    assert vehicle is not None
    if vehicle.driver == f.id:
        arena = arena.with_vehicle(replace(vehicle, driver=None))
    f = replace(f, vehicle=None, driver=False)
    return _done(arena, f, "exit_vehicle", cost="free", item=vehicle.id)


_A, _F, _N = "action", "free", "net"
ACTIONS: dict[str, ActionSpec] = {
    s.name: s
    for s in (
        ActionSpec("attack", _A, "A shot or a blow", AttackParams, _needs_attack, _attack),
        ActionSpec("run", _A, "A second Move Action, if you already moved this turn",
                   NoParams, _needs_run, _run, holdable=False),
        ActionSpec("reload", _A, "Fully load a weapon with one type of ammo",
                   WeaponParams, _needs_held_weapon, _reload),
        ActionSpec("use_skill", _A, "A short task with a skill; a long one takes several turns",
                   SkillParams, _needs_skill, _use_skill),
        ActionSpec("stabilize", _A, "Stop the bleeding or pull a friend out of Mortally Wounded",
                   TargetParams, _needs_patient, _stabilize),
        ActionSpec("grab", _A, "Seize and hold an opponent, or wrest an item from them",
                   GrabParams, _needs_grab, _grab),
        ActionSpec("choke", _A, "Choke someone you're holding", NoParams, _needs_holding, _choke),
        ActionSpec("throw", _A, "Throw someone you're holding to the ground, or throw an object",
                   ThrowParams, _needs_throw, _throw),
        ActionSpec("human_shield", _A, "Hide behind an opponent you're holding",
                   NoParams, _needs_holding, _human_shield),
        ActionSpec("draw_shield", _A, "A shield is the only thing you can't put in your hand "
                   "for free", NoParams, _needs_draw_shield, _draw_shield),
        ActionSpec("stow_shield", _A, "Put the shield away", NoParams, _needs_stow_shield,
                   _stow_shield),
        ActionSpec("get_up", _A, "Rise from prone", NoParams, _needs_get_up, _get_up),
        ActionSpec("use_object", _A, "Do something with an item without a skill",
                   ObjectParams, _open, _use_object),
        ActionSpec("holster", _A, "Holstering a weapon or tucking it into your belt is "
                   "already an Action", HandParams, _needs_holster, _holster),
        ActionSpec("board_vehicle", _A, "Board a vehicle", VehicleParams, _needs_board, _board),
        ActionSpec("start_vehicle", _A, "Start a vehicle: the driver moves to the front of "
                   "the queue", NoParams, _needs_start, _start),
        ActionSpec("maneuver_vehicle", _A, "Maneuver a vehicle", ManeuverParams,
                   _needs_maneuver, _maneuver),
        ActionSpec("net_action", _N, "A Netrunner spends their NET Actions instead of a "
                   "regular Action", NetParams, _needs_net, _net, holdable=False),
        ActionSpec("take_weapon", _F, "Take a weapon within reach into a free hand",
                   TakeParams, _needs_take, _take, holdable=False),
        ActionSpec("drop_weapon", _F, "Drop a weapon on the floor", HandParams, _needs_drop,
                   _drop, holdable=False),
        ActionSpec("exit_vehicle", _F, "Get out of a vehicle (that's movement)", NoParams,
                   _needs_exit, _exit, holdable=False),
    )
}  # fmt: skip
