"""Actions on what a combatant carries (seed 001, *List of Actions*): Reload, the shield,
Holster, Use Object, and the free ones: take a weapon into a hand, drop one.

- Reload: the weapon in a hand (ammunition is the table's).
- Draw a shield: carrying one and a free hand.  Stow a shield: one in hand.
- Use Object: an object.  Holster ("is already an Action"): a weapon in that hand.
- Free: take a weapon within reach (carried, or on the floor within reach) into a free
  hand; drop what a hand holds.

Each ``needs_*`` here is what the action asks beyond the checks its row of
:data:`.actions.ACTIONS` puts first (an open Action, for all but the free ones).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.rulesets.cyberpunk_red.action_spec import (
    HandParams,
    ObjectParams,
    Result,
    TakeParams,
    WeaponParams,
    World,
    done,
    spend,
)
from engine.rulesets.cyberpunk_red.state import HANDS, SHIELD, Arena, Fighter
from engine.tray import DiceTray

# -- needs ------------------------------------------------------------------------------


def needs_held_weapon(arena: Arena, world: World, f: Fighter, p: WeaponParams | None) -> str | None:
    """Why ``p.weapon`` (any weapon if None) is not in one of ``f``'s hands, or None."""
    if p is None:
        held = [f.in_hand(h) for h in HANDS]
        return None if any(w not in (None, SHIELD) for w in held) else "no weapon in hand"
    return None if f.hand_of(p.weapon) else f"{p.weapon} is not in a hand"


def needs_draw_shield(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    """Why ``f`` cannot draw a shield, or None."""
    if not f.has_shield:
        return "carries no shield"
    if f.hand_of(SHIELD):
        return "the shield is already in hand"
    return None if f.free_hand() else "needs a free hand"


def needs_stow_shield(arena: Arena, world: World, f: Fighter, p: Any) -> str | None:
    """Why ``f`` has no shield to stow, or None."""
    return None if f.hand_of(SHIELD) else "no shield in hand"


def needs_holster(arena: Arena, world: World, f: Fighter, p: HandParams | None) -> str | None:
    """Why ``f`` has no weapon to holster (in ``p.hand``), or None."""
    weapons = [h for h in HANDS if f.in_hand(h) not in (None, SHIELD)]
    if p is None:
        return None if weapons else "no weapon in hand"
    return None if p.hand in weapons else f"no weapon in the {p.hand} hand"


def needs_take(arena: Arena, world: World, f: Fighter, p: TakeParams | None) -> str | None:
    """Why ``f`` cannot take ``p.weapon`` into a hand for free, or None."""
    if p is None:
        if not f.free_hand():
            return "no free hand"
        # Offered only when some weapon can be taken: one carried and not in hand (a
        # shield is drawn, not taken), or one on the floor within reach.
        carried = any(
            w.name not in ("unarmed", SHIELD) and f.hand_of(w.name) is None for w in f.weapons
        )
        if carried or any(world.reaches_cell(f.id, c) for c, _ in arena.floor):
            return None
        return "no weapon to take: none carried out of hand, none on the floor within reach"
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


def needs_drop(arena: Arena, world: World, f: Fighter, p: HandParams | None) -> str | None:
    """Why ``f`` has nothing to drop (from ``p.hand``), or None."""
    if p is None:
        return None if any(f.in_hand(h) for h in HANDS) else "nothing in hand"
    if p.hand not in HANDS:
        return f"no hand {p.hand!r}"
    return None if f.in_hand(p.hand) else f"nothing in the {p.hand} hand"


# -- effects ----------------------------------------------------------------------------


def reload(arena: Arena, world: World, f: Fighter, p: WeaponParams, tray: DiceTray) -> Result:
    """Spend the Action reloading ``p.weapon``."""
    return done(arena, spend(f, "reload"), "reload", item=p.weapon)


def draw_shield(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    """Put the carried shield in the free hand."""
    hand = f.free_hand()
    assert hand is not None
    return done(arena, spend(f, "draw_shield").with_hand(hand, SHIELD), "draw_shield")


def stow_shield(arena: Arena, world: World, f: Fighter, p: Any, tray: DiceTray) -> Result:
    """Put the shield in hand away."""
    hand = f.hand_of(SHIELD)
    assert hand is not None
    return done(arena, spend(f, "stow_shield").with_hand(hand, None), "stow_shield")


def use_object(arena: Arena, world: World, f: Fighter, p: ObjectParams, tray: DiceTray) -> Result:
    """Spend the Action using ``p.object``."""
    return done(arena, spend(f, "use_object"), "use_object", item=p.object)


def holster(arena: Arena, world: World, f: Fighter, p: HandParams, tray: DiceTray) -> Result:
    """Empty ``p.hand`` into a holster or belt."""
    item = f.in_hand(p.hand)
    f = spend(f, "holster").with_hand(p.hand, None)
    return done(arena, f, "holster", item=item)


def take(arena: Arena, world: World, f: Fighter, p: TakeParams, tray: DiceTray) -> Result:
    """Take ``p.weapon`` into a hand, picking it up from the floor if it is not carried."""
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
    return done(arena, f.with_hand(hand, p.weapon), "take_weapon", cost="free", item=p.weapon)


def drop(arena: Arena, world: World, f: Fighter, p: HandParams, tray: DiceTray) -> Result:
    """Drop what ``p.hand`` holds on the floor at ``f``'s cell."""
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
    return done(arena, f, "drop_weapon", cost="free", item=item, note="on the floor")
