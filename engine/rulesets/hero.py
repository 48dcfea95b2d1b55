"""The Hero System Rules Supplement, a d20-style variant of Hero System (seed 000).

Source: ``shared/seeds/000_7b793dffabbd5bba.txt``.  Section names below are the text's.

Implemented here (issue 2's slice; the rest of the supplement follows in issue 4):

- *Combat Time*: Phases of 3 seconds, 4 Phases to a Turn (``phases_per_turn``); every
  character acts in every Phase, in INIT order.  The cycle itself lives in
  :mod:`engine.turns`.
- *Initiative*: order by the ``init`` statistic, highest first.  "If two or more
  characters have the same INIT score, the characters who are tied randomly determine
  which one of them goes before the other": each tied character rolls 1d6 (an event),
  highest first, and characters still tied roll again among themselves only.  The order
  then holds every Phase.
- *Surprise*: the unaware have -3 DCV during the Surprise Phase; the aware are limited
  to one attack action or one move action there.
- *The Attack Roll*: 3d6 + OCV against a TN of 10 + DCV; the attack hits when the
  total reaches the TN (a "roll of TN or more", as the text's "TN" reads).
- *Combat Actions*: a normal Phase allows an attack action and a move action, or two move
  actions (a move action can always replace the attack action).  Moving up to the
  ``movement`` (combat movement) is one move action, so a Phase without an attack allows
  twice the combat movement, one with an attack once; a limited Phase allows one move.
- *Attacks of Opportunity*: a character threatens the squares it can melee into
  (geometry's threatened cells for its reach, 1 m by default); an enemy moving out of a
  threatened square provokes; one attack of opportunity a Phase, or with the Combat
  Reflexes skill (statistic ``combat_reflexes``) one per opponent a Phase; it is
  optional (a prompt the controller may decline) and resolves at once with an Attack
  Roll using the attacker's OCV.  The unaware make none in the Surprise Phase (our
  reading; see ``threatens``).

Statistics a token needs: ``ocv``, ``dcv``, ``init`` (integers); optional
``combat_reflexes`` (boolean).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from engine.errors import CommandRejected
from engine.events import AttackRolled
from engine.model import Combat, Combatant, PhaseUsage
from engine.rulesets.base import register
from engine.tray import DiceTray

SURPRISED_DCV_PENALTY = -3
ATTACK_ROLL_BASE = 10
REQUIRED_INT_STATS = ("ocv", "dcv", "init")


def int_stat(combatant: Combatant, name: str) -> int:
    """The integer statistic ``name`` (checked present by ``check_combatant``)."""
    value = combatant.stat(name)
    assert isinstance(value, int) and not isinstance(value, bool)
    return value


@register
class HeroSupplement:
    """Hero System Rules Supplement (seed 000); see the module docstring for each rule."""

    name: ClassVar[str] = "hero-supplement"
    title: ClassVar[str] = "Hero System Rules Supplement"
    phases_per_turn: ClassVar[int] = 4

    def check_combatant(self, combatant: Combatant) -> None:
        """Every combatant needs integer ``ocv``, ``dcv`` and ``init``."""
        for name in REQUIRED_INT_STATS:
            value = combatant.stat(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise CommandRejected(
                    "bad_scene",
                    f"token {combatant.id!r} needs an integer stat {name!r} for {self.title}, "
                    f"got {value!r}",
                )
        flag = combatant.stat("combat_reflexes", False)
        if not isinstance(flag, bool):
            raise CommandRejected(
                "bad_scene", f"token {combatant.id!r}: combat_reflexes must be true or false"
            )

    def initiative(
        self, combatants: Sequence[Combatant], tray: DiceTray
    ) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
        """INIT order, highest first; ties broken by 1d6 rolls among the tied only."""
        scores = {c.id: int_stat(c, "init") for c in combatants}
        by_score: dict[int, list[str]] = {}
        for combatant in combatants:
            by_score.setdefault(scores[combatant.id], []).append(combatant.id)
        order: list[str] = []
        for score in sorted(by_score, reverse=True):
            order.extend(_break_ties(by_score[score], tray, f"initiative tie at INIT {score}"))
        return tuple(order), tuple((cid, scores[cid]) for cid in order)

    def movement_left(self, combatant: Combatant, usage: PhaseUsage, limited: bool) -> float:
        """Combat movement per move action: two without an attack, one with; one if limited."""
        move_actions = 1 if limited else 2
        move_actions -= usage.attacks
        return max(0.0, combatant.movement * move_actions - usage.moved)

    def threatens(self, combat: Combat, threatener: Combatant, target: Combatant) -> bool:
        """Only enemies (another side) are threatened, and not by the surprised.

        The text says the unaware "don't get to act in the Surprise Phase"; it is silent
        on attacks of opportunity there.  We read it as d20 does for flat-footed
        characters: an unaware character makes none until the Surprise Phase is over.
        """
        if combat.surprise and threatener.id not in combat.aware:
            return False
        return threatener.side != target.side

    def opportunity_available(
        self, combat: Combat, threatener: Combatant, target: Combatant
    ) -> bool:
        """One attack of opportunity a Phase; Combat Reflexes: one per opponent a Phase."""
        made = [t for a, t in combat.opportunity_attacks if a == threatener.id]
        if threatener.stat("combat_reflexes", False) is True:
            return target.id not in made
        return not made

    def opportunity_attack(
        self,
        combat: Combat,
        attacker: Combatant,
        target: Combatant,
        tray: DiceTray,
        rolls: tuple[int, ...] | None,
    ) -> AttackRolled:
        """An Attack Roll: 3d6 + OCV against 10 + DCV."""
        dice = tray.roll(f"attack of opportunity: {attacker.id} on {target.id}", 3, 6, rolls)
        ocv = int_stat(attacker, "ocv")
        dcv = int_stat(target, "dcv")
        if combat.surprise and target.id not in combat.aware:
            dcv += SURPRISED_DCV_PENALTY
        total = sum(dice) + ocv
        target_number = ATTACK_ROLL_BASE + dcv
        return AttackRolled(
            attacker=attacker.id,
            target=target.id,
            attack="attack_of_opportunity",
            dice=dice,
            ocv=ocv,
            dcv=dcv,
            total=total,
            target_number=target_number,
            hit=total >= target_number,
        )


def _break_ties(tied: list[str], tray: DiceTray, purpose: str) -> list[str]:
    """Order ``tied`` by 1d6 each, highest first, rerolling among any still tied."""
    if len(tied) == 1:
        return tied
    rolls = tray.roll(purpose, len(tied), 6)
    groups: dict[int, list[str]] = {}
    for cid, value in zip(tied, rolls, strict=True):
        groups.setdefault(value, []).append(cid)
    ordered: list[str] = []
    for value in sorted(groups, reverse=True):
        ordered.extend(_break_ties(groups[value], tray, purpose))
    return ordered
