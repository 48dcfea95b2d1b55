"""Initiative (seed 003, *Initiative*, *Opponent Initiative*, *Joining a Fight*).

"Initiative Check = d20 + Dexterity + Miscellaneous Modifiers", made once at the start of
a battle, "with the check applying to all rounds of the combat", acted on "counting down
from highest total to lowest".  "If two combatants have the same initiative check result,
they act in order of highest Initiative modifier first.  If there is still a tie, roll a
die, with the highest roll going first."

The Narrator "makes a single initiative check for opponents", or one per group ("one
initiative check for a villain and another for all of his minions") or per foe: the GM
says which with ``start_combat``'s ``groups``; every token in no group checks alone.

Choices where the text is silent:

- A group's check uses the highest initiative modifier among its members, and the group
  is one entry in a tie: it is settled by that modifier, then by one roll-off die for the
  whole group.  Its members act one after the other at the group's count, in the order
  the GM's group lists them (sorted by token id).
- The roll-off die is a d20.  Those still tied after a roll-off roll again among
  themselves, as long as it takes; every die is a ``dice_rolled`` event, and each settled
  tie an :class:`~.events.InitiativeTie`.
- A combatant joining a running fight makes its own check (``newcomer``) and takes its
  count in the existing order.  At a count already taken the same tie rules place it:
  against each one already there (a group as one, by its modifier), down the order,
  the higher initiative modifier goes first, and at equal modifiers both roll a d20 (the
  newcomer first), again while they tie; it goes in front of the first it beats, else
  after them all.  Those already placed keep the order the start settled.  One whose
  count is above the acting combatant's acts from the next round on.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.model import Combatant
from engine.rulesets.base import Initiative
from engine.rulesets.mutants_masterminds.events import InitiativeCheck, InitiativeTie
from engine.rulesets.mutants_masterminds.state import initiative_modifier
from engine.tray import DiceTray

Unit = tuple[str, ...]
"""The combatants one initiative check is for: one token, or a GM's group."""


def units(combatants: Sequence[Combatant], groups: Sequence[Sequence[str]]) -> list[Unit]:
    """Each check to make, in scene order: a group's members share one."""
    present = {c.id for c in combatants}
    grouped = {cid: tuple(m for m in g if m in present) for g in groups for cid in g}
    seen: set[str] = set()
    out: list[Unit] = []
    for c in combatants:
        if c.id in seen:
            continue
        unit = grouped.get(c.id, (c.id,))
        seen.update(unit)
        out.append(unit)
    return out


def roll_initiative(
    combatants: Sequence[Combatant], tray: DiceTray, groups: Sequence[Sequence[str]]
) -> Initiative:
    """Everyone's check, the order highest first, and the events that explain it."""
    by_id = {c.id: c for c in combatants}
    events: list[object] = []
    totals: dict[Unit, int] = {}
    modifiers: dict[Unit, int] = {}
    for unit in units(combatants, groups):
        modifier = max(initiative_modifier(by_id[cid]) for cid in unit)
        # A player's own die first ("the players each roll for their heroes"), by the
        # unit's first member.
        (d20,) = tray.roll_for(unit[0], f"initiative: {', '.join(unit)} d20 + {modifier}", 1, 20)
        totals[unit], modifiers[unit] = d20 + modifier, modifier
        events.append(InitiativeCheck(unit, d20, modifier, d20 + modifier))
    ranked: list[Unit] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [u for u in totals if totals[u] == total]
        ranked += settle(tied, total, modifiers, tray, events)
    order = tuple(cid for unit in ranked for cid in unit)
    scores = tuple((cid, totals[unit]) for unit in ranked for cid in unit)
    return Initiative(order, scores, tuple(events))


def settle(
    tied: list[Unit], count: int, modifiers: dict[Unit, int], tray: DiceTray, events: list[object]
) -> list[Unit]:
    """``tied`` (same total) in acting order: the higher initiative modifier first, then
    a roll-off among those still tied.  Each tie's event comes before those of the
    roll-offs inside it."""
    if len(tied) < 2:
        return tied
    at = len(events)
    out: list[Unit] = []
    for modifier in sorted({modifiers[u] for u in tied}, reverse=True):
        out += roll_off([u for u in tied if modifiers[u] == modifier], count, tray, events)
    if len({modifiers[u] for u in tied}) > 1:
        events.insert(at, InitiativeTie(count, "modifier", tuple(out)))
    return out


def roll_off(tied: list[Unit], count: int, tray: DiceTray, events: list[object]) -> list[Unit]:
    """``tied`` (same total and modifier) ordered by a die each, highest first; those
    still tied roll again."""
    if len(tied) < 2:
        return tied
    rolls = {
        u: tray.roll_for(u[0], f"initiative roll-off at {count}: {', '.join(u)}", 1, 20)[0]
        for u in tied
    }
    at = len(events)
    out: list[Unit] = []
    for value in sorted(set(rolls.values()), reverse=True):
        out += roll_off([u for u in tied if rolls[u] == value], count, tray, events)
    events.insert(at, InitiativeTie(count, "roll_off", tuple(out)))
    return out


def newcomer_check(combatant: Combatant, tray: DiceTray) -> int:
    """A newcomer's own check ("they roll initiative and act whenever their turn comes up
    in the existing order")."""
    modifier = initiative_modifier(combatant)
    (d20,) = tray.roll(f"initiative (joins): {combatant.id} d20 + {modifier}", 1, 20)
    return d20 + modifier


def newcomer_beats(newcomer: Combatant, rival: Sequence[Combatant], tray: DiceTray) -> bool:
    """Whether ``newcomer`` goes ahead of ``rival`` (one combatant or a group) at their
    shared count: the higher initiative modifier first, then a d20 each until one is
    higher ("if there is still a tie, roll a die, with the highest roll going first")."""
    mine = initiative_modifier(newcomer)
    theirs = max(initiative_modifier(c) for c in rival)
    if mine != theirs:
        return mine > theirs
    names = ", ".join(c.id for c in rival)
    while True:
        (a,) = tray.roll(f"initiative roll-off (joins): {newcomer.id}", 1, 20)
        (b,) = tray.roll(f"initiative roll-off (joins): {names}", 1, 20)
        if a != b:
            return a > b
