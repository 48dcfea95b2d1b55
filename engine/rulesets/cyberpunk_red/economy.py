"""The turn's budget (seed 001, *What you can do in a turn*).

"Turn = 1 Move Action + 1 Action.  The Move Action is spent only on moving.  The Action
is for everything else ...  Any order: you can shoot first, then run."  "You can split
them. ... a weapon with ROF 2 (pistols, knives, fists) splits the Action itself ...  You
can even shoot a pistol in your left hand and swing a machete in your right: one attack
with each.  No matter how many weapons you hold, it's no more than two attacks a turn.
And you can't fire two ROF 1 weapons with one Action, even if they're in both hands."

Read as: the first attack spends the Action.  A second attack in the same Action is
allowed with the same weapon only if its ROF is 2, and with the weapon in the other hand
unless both weapons are ROF 1 (so a ROF 2 pistol and a ROF 1 weapon in the other hand
give one attack each, in either order).  Never a third.  Movement may come between the
two attacks.  A held attack (Hold Action) is one attack.
"""

from __future__ import annotations

from dataclasses import replace

from engine.rulesets.cyberpunk_red.state import Fighter, TurnUsage

MAX_ATTACKS = 2


def action_refusal(fighter: Fighter) -> str | None:
    """Why ``fighter``'s Action is no longer open, or None."""
    spent = fighter.usage.action
    if spent is None:
        return None
    return f'the Action is spent ({spent}): "Turn = 1 Move Action + 1 Action"'


def attack_refusal(fighter: Fighter, weapon_name: str) -> str | None:
    """Why ``fighter`` cannot attack with ``weapon_name`` now, or None."""
    weapon = fighter.weapon(weapon_name)
    if weapon is None:
        return f"carries no weapon {weapon_name!r}"
    if weapon_name != "unarmed" and fighter.hand_of(weapon_name) is None:
        return f"{weapon_name} is not in a hand (taking a weapon within reach is free)"
    usage = fighter.usage
    if usage.action is not None and usage.action != "attack":
        return action_refusal(fighter)
    if not usage.attacks:
        return None
    if len(usage.attacks) >= MAX_ATTACKS:
        return '"no more than two attacks a turn"'
    first = fighter.weapon(usage.attacks[0])
    if first is None:
        # The first attack's weapon was dropped since (it lies on the floor): its ROF is
        # not the fighter's to read, so it counts as ROF 1 and only a ROF 2 weapon may
        # make the second attack (before, this crashed the turn's every question).
        if weapon.rof == 1:
            return (
                f'"you can\'t fire two ROF 1 weapons with one Action" ({usage.attacks[0]} dropped)'
            )
        return None
    if first.name == weapon.name:
        if weapon.rof < 2:
            return f"{weapon.name} is ROF 1: one attack with the Action"
        return None
    if first.rof == 1 and weapon.rof == 1:
        return '"you can\'t fire two ROF 1 weapons with one Action"'
    return None


def spend_action(fighter: Fighter, name: str) -> Fighter:
    """``fighter`` having spent its Action on ``name``."""
    return fighter.with_usage(replace(fighter.usage, action=name))


def spend_attack(fighter: Fighter, weapon_name: str) -> Fighter:
    """``fighter`` having made an attack with ``weapon_name`` (the Action goes on it)."""
    usage = fighter.usage
    return fighter.with_usage(
        replace(usage, action="attack", attacks=(*usage.attacks, weapon_name))
    )


def spend_movement(fighter: Fighter, cost: float) -> Fighter:
    """``fighter`` having moved at ``cost`` metres of its Move Actions."""
    return fighter.with_usage(replace(fighter.usage, moved=fighter.usage.moved + cost))


def run_refusal(fighter: Fighter) -> str | None:
    """Why ``fighter`` cannot Run now: "a second Move Action, if you already moved this
    turn"."""
    if fighter.usage.move_actions > 1:
        return "already ran this turn"
    if fighter.usage.moved <= 0:
        return 'Run is "a second Move Action, if you already moved this turn": move first'
    if fighter.prone:
        return "prone: take the Get Up action first"
    return action_refusal(fighter)


def run(fighter: Fighter) -> Fighter:
    """``fighter`` with a second Move Action, its Action spent on Run."""
    usage = replace(fighter.usage, move_actions=2, action="run")
    return fighter.with_usage(usage)


def new_turn(fighter: Fighter) -> Fighter:
    """``fighter`` at the start of its turn: a fresh Move Action and Action."""
    return fighter.with_usage(TurnUsage())
