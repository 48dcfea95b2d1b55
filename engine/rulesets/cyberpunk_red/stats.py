"""Reading a token's statistics into a :class:`~.state.Fighter` (see :mod:`.state` for
the list), refusing a token that cannot be played with a ``bad_scene`` reason."""

from __future__ import annotations

from engine.errors import CommandRejected
from engine.model import Combatant, StatValue
from engine.rulesets.cyberpunk_red.state import HANDS, SHIELD, Fighter, Weapon

WEAPON, MELEE, HAND = "weapon.", "melee.", "hand."
KNOWN = ("ref", "move", "armor_penalty", "jump", "net_actions", "shield", "vehicle")


def is_vehicle(token: Combatant) -> bool:
    """Whether ``token`` is a vehicle (stat ``vehicle`` true), not a combatant."""
    return token.stat("vehicle") is True


def _bad(token: Combatant, what: str) -> CommandRejected:
    return CommandRejected("bad_scene", f"token {token.id!r} (Cyberpunk RED): {what}")


def _int(token: Combatant, name: str, default: int | None = None, low: int = 0) -> int:
    value: StatValue | None = token.stat(name, default)
    if value is None:
        raise _bad(token, f"needs an integer stat {name!r}")
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise _bad(token, f"{name} must be an integer >= {low}, got {value!r}")
    return value


def fighter_from_token(token: Combatant) -> Fighter:
    """The fighter ``token`` describes; CommandRejected("bad_scene") naming a bad stat."""
    if not isinstance(token.stat("vehicle", False), bool):
        raise _bad(token, "vehicle must be true or false")
    ref = _int(token, "ref")
    move = _int(token, "move")
    jump = token.stat("jump", move)
    if isinstance(jump, bool) or not isinstance(jump, int | float) or jump < 0:
        raise _bad(token, f"jump must be metres >= 0, got {jump!r}")
    shield = token.stat("shield", False)
    if not isinstance(shield, bool):
        raise _bad(token, f"shield must be true or false, got {shield!r}")
    weapons = []
    for key, value in token.stats:
        if key.startswith(WEAPON):
            name = key[len(WEAPON) :]
            if value not in (1, 2) or isinstance(value, bool):
                raise _bad(token, f"{key} is the weapon's ROF: 1 or 2, got {value!r}")
            melee = token.stat(MELEE + name, False)
            if not isinstance(melee, bool):
                raise _bad(token, f"{MELEE}{name} must be true or false")
            weapons.append(Weapon(name, int(value), melee))
        elif key.startswith(HAND) and key[len(HAND) :] not in HANDS:
            raise _bad(token, f"{key} names no hand (hand.{' or hand.'.join(HANDS)})")
        elif key.startswith(MELEE) and token.stat(WEAPON + key[len(MELEE) :]) is None:
            raise _bad(token, f"{key} names no weapon ({WEAPON}{key[len(MELEE) :]})")
    fighter = Fighter(
        token.id,
        ref,
        move,
        armor_penalty=_int(token, "armor_penalty", 0),
        jump=float(jump),
        net_actions=_int(token, "net_actions", 0),
        has_shield=shield,
        weapons=tuple(sorted(weapons, key=lambda w: w.name)),
    )
    for hand in HANDS:
        item = token.stat(HAND + hand)
        if item is None:
            continue
        if item == SHIELD and not shield:
            raise _bad(token, f"{HAND}{hand} holds a shield but stat shield is not true")
        if item != SHIELD and (not isinstance(item, str) or fighter.weapon(item) is None):
            raise _bad(token, f"{HAND}{hand} holds {item!r}, which it does not carry")
        if isinstance(item, str) and fighter.hand_of(item):
            raise _bad(token, f"{item} cannot be in both hands")
        fighter = fighter.with_hand(hand, str(item))
    return fighter
