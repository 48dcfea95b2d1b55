"""Fighting actions (seed 001, *List of Actions*): Attack, and the grapple that starts
with Grab: Choke, Throw and Human Shield on the opponent held.

- Attack: the weapon in a hand (fists always); melee within reach, ranged in line of
  sight; the ROF limits of :mod:`.economy`.  Rolled d10 + the table's base, reported.
- Grab: an opponent within reach, a free hand, nobody held yet; an opposed d10 + base
  roll, ties to the defender; with ``item``, wrests that item into the free hand.
- Choke, Human Shield: a held opponent.  Throw: a held opponent (thrown prone and let
  go) or an item in a hand (it lands in the target's square).

Each ``_needs_*`` here is what the action asks beyond the checks its row of
:data:`.actions.ACTIONS` puts first (an open Action).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.params import TokenRef
from engine.rulesets.cyberpunk_red import economy
from engine.rulesets.cyberpunk_red.action_spec import (
    AttackParams,
    GrabParams,
    Result,
    ThrowParams,
    World,
    done,
    reach_refusal,
    spend,
)
from engine.rulesets.cyberpunk_red.events import AttackRolled, GrabContested
from engine.rulesets.cyberpunk_red.state import HANDS, SHIELD, Arena, Fighter
from engine.tray import DiceTray

# -- needs ------------------------------------------------------------------------------


def _opponent(arena: Arena, world: World, fighter: Fighter, target: str) -> str | None:
    if target == fighter.id:
        return "cannot target itself"
    if not arena.has(target):
        return f"no combatant {target!r}"
    return None


def needs_attack(arena: Arena, world: World, f: Fighter, p: AttackParams | None) -> str | None:
    """Why ``f`` cannot Attack (``p``, or with any weapon in hand if None) now, or None.

    Not behind an open Action: a second ROF 2 shot is taken while the Action is "attack".
    """
    if p is None:
        return _any_attack_refusal(arena, world, f)
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


def _any_attack_refusal(arena: Arena, world: World, f: Fighter) -> str | None:
    """Why ``f`` can make no attack at all now, or None: an attack is offered only if
    some weapon in hand (or fists) at some token passes :func:`needs_attack`'s own check,
    the one an ``attack`` naming them runs (a ROF 1 shot spent and nobody within a
    punch's reach: nothing to offer)."""
    in_hand = [f.in_hand(h) for h in HANDS]
    weapons = [w for w in (*in_hand, "unarmed") if w is not None and w != SHIELD]
    usable = [w for w in dict.fromkeys(weapons) if economy.attack_refusal(f, w) is None]
    if not usable:
        why = economy.attack_refusal(f, weapons[0])
        assert why is not None
        return why
    # Only tokens within reach (a melee weapon) or in sight (a ranged one) can pass the
    # check, so it is run only on those, found together from the index (300 tokens:
    # one batch of sight lines, not 300 questions): the answer is the check's own.
    near: dict[bool, frozenset[str]] = {}
    for weapon in usable:
        spec = f.weapon(weapon)
        assert spec is not None  # attack_refusal passed: it is in hand, or fists
        if spec.melee not in near:
            near[spec.melee] = world.within_reach(f.id) if spec.melee else world.seen_by(f.id)
        for target in world.tokens():
            if target not in near[spec.melee]:
                continue
            if needs_attack(arena, world, f, AttackParams(TokenRef(target), weapon)) is None:
                return None
    return f"nothing to attack: no token within reach or line of sight of {', '.join(usable)}"


def needs_grab(arena: Arena, world: World, f: Fighter, p: GrabParams | None) -> str | None:
    """Why ``f`` cannot Grab (``p``) once its Action is open, or None."""
    if f.holding:
        return f"already holding {f.holding}"
    if f.free_hand() is None:
        return "needs a free hand"
    if p is None:
        # Offered only with someone to grab: an opponent within reach.
        if any(_opponent(arena, world, f, t) is None for t in world.within_reach(f.id)):
            return None
        return "nothing to grab: no opponent within reach"
    why = _opponent(arena, world, f, p.target) or reach_refusal(world, f, p.target)
    if why:
        return why
    if p.item is not None and arena.fighter(p.target).hand_of(p.item) is None:
        return f"{p.target} holds no {p.item}"
    return None


def needs_holding(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    """Why ``f`` holds nobody to Choke or hide behind, or None."""
    return None if f.holding else "needs an opponent it is holding (Grab first)"


def needs_throw(arena: Arena, world: World, f: Fighter, p: ThrowParams | None) -> str | None:
    """Why ``f`` cannot Throw (``p``) once its Action is open, or None."""
    has_item = any(f.in_hand(h) is not None for h in HANDS)
    if p is None:
        if f.holding:
            return None
        if not has_item:
            return "holds nobody and nothing to throw"
        # An item is thrown at a target in line of sight: offered only with one.
        return None if world.seen_by(f.id) else "nothing to throw at: no token in line of sight"
    if p.item is None:
        return None if f.holding else "throws someone it is holding: Grab first"
    if f.hand_of(p.item) is None:
        return f"{p.item} is not in a hand"
    if p.target is None or (not arena.has(p.target) and not world.is_token(p.target)):
        return "throwing an item needs a target"
    return None if world.sees(f.id, p.target) else f"{p.target} is out of line of sight"


# -- effects ----------------------------------------------------------------------------


def attack(arena: Arena, world: World, f: Fighter, p: AttackParams, tray: DiceTray) -> Result:
    """Spend the Action on an attack and roll its d10 (or take the table's)."""
    f = spend(f, "attack")
    f = economy.spend_attack(f, p.weapon)
    (die,) = tray.roll(f"attack {f.id} -> {p.target} ({p.weapon})", 1, 10, p.rolls)
    event = AttackRolled(f.id, p.target, p.weapon, die, p.base, die + p.base, len(f.usage.attacks))
    return arena.with_fighter(f), [event]


def grab(arena: Arena, world: World, f: Fighter, p: GrabParams, tray: DiceTray) -> Result:
    """Roll the opposed Grab; on a win hold the target, or wrest ``p.item`` into a hand."""
    f = spend(f, "grab")
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


def choke(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    """Choke the opponent held (the damage is the table's)."""
    return done(arena, spend(f, "choke"), "choke", target=f.holding)


def throw(arena: Arena, world: World, f: Fighter, p: ThrowParams, tray: DiceTray) -> Result:
    """Throw the opponent held (prone, let go), or ``p.item`` into the target's square."""
    f = spend(f, "throw")
    if p.item is None:
        victim = replace(arena.fighter(f.holding or ""), prone=True)
        f = replace(f, holding=None)
        arena = arena.with_fighter(victim)
        return done(arena, f, "throw", target=victim.id, note="thrown to the ground: prone")
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
    return done(arena, f, "throw", target=p.target, item=p.item)


def human_shield(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    """Hide behind the opponent held."""
    f = replace(spend(f, "human_shield"), shielded_by=f.holding)
    return done(arena, f, "human_shield", target=f.holding, note="hides behind its captive")
