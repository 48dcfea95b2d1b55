"""The Hero supplement's state in a fight: Phase budgets, manoeuvres, holds, aborts, END
and STUN.  Frozen dataclasses, kept by the core in ``Combat.rules`` (one
:class:`HeroFight` a fight) and snapshotted with it.

The per-combatant collections are tuples sorted by combatant id, so equal fights compare
and hash equal whatever order things happened in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.combat_state import Combat
from engine.copies import replace
from engine.model import EncounterState
from engine.rulesets.hero.powers.rules import TableOptions
from geometry import Cell

ATTACK, MOVE, FULL = "attack", "move", "full"


@dataclass(frozen=True, slots=True)
class Maneuver:
    """A combat manoeuvre's modifiers (seed 000 leaves the list of manoeuvres to the game:
    the table names them).  Positive numbers are bonuses, negative ones penalties."""

    name: str
    ocv: int = 0
    dcv: int = 0


#: The manoeuvre of an attack that names none: a plain Strike, no modifiers.  It counts
#: among the Phase's manoeuvres like any other (seed 000, *Attacks of Opportunity*: with
#: several attack manoeuvres "you use the worst OCV and DCV bonus").
STRIKE = Maneuver("strike")


def as_maneuver(value: Any) -> Maneuver | None:
    """A manoeuvre from a command's option (a :class:`Maneuver`, its plain map, or None)."""
    if value is None or isinstance(value, Maneuver):
        return value
    from engine.errors import CommandRejected
    from engine.params import ParamError, decode_params

    try:
        return decode_params(Maneuver, value)
    except ParamError as exc:
        raise CommandRejected("bad_params", f"maneuver: {exc}") from None


@dataclass(frozen=True, slots=True)
class PhaseUsage:
    """What a combatant has spent of its Phase.

    ``actions`` are the action slots taken other than movement (``attack``, ``move``,
    ``full``); ``moved`` is combat movement spent, which takes as many move actions as
    it needs whole lengths of combat movement; ``movement`` names the kind of movement
    used (``combat``, ``step``, ``withdraw``, ``noncombat``, ``crawl``, ``hampered``);
    ``attacked`` the targets attacked; ``free`` counts free actions (so even a Phase of
    only free actions has begun, and a delayed action can no longer interrupt it).
    """

    moved: float = 0.0
    actions: tuple[str, ...] = ()
    movement: str | None = None
    attacked: tuple[str, ...] = ()
    full_phase_started: str | None = None
    free: int = 0


@dataclass(frozen=True, slots=True)
class Hold:
    """A delayed or readied action (seed 000, *Special Initiative Actions*).

    ``kind`` is ``delay`` or ``ready``; ``declared`` the (turn, phase) it was taken in.
    A delay may name ``before``: act immediately before that combatant.  A ready names
    the ``action`` type it will take and its trigger: another combatant's action
    (``trigger_by``) or a token entering ``area`` (cells; ``trigger_by`` narrows it to
    one token), watched by the core as a :class:`~engine.combat_state.Trigger`.
    ``moved`` records that the holder moved in the Phase it readied, which rules out the
    1 m step with the readied action.
    """

    combatant: str
    kind: str
    declared: tuple[int, int]
    before: str | None = None
    action: str | None = None
    trigger_by: str | None = None
    area: tuple[Cell, ...] = ()
    moved: bool = False


@dataclass(frozen=True, slots=True)
class Vitals:
    """A combatant's current END and STUN (their maxima are its ``end``/``stun`` stats)."""

    combatant: str
    end: int
    stun: int


@dataclass(frozen=True, slots=True)
class HeroFight:
    """The Hero side of a running fight.

    ``usage`` is what the one acting on its INIT has spent; ``interjection_usage`` what
    one acting out of turn (a readied action, an abort to a move) has.  ``holds`` are
    delays and readies; ``forfeits`` (combatant, turn, phase) actions given up by an
    Abort; ``abort_locks`` the (combatant, turn, phase) before whose INIT it may not
    abort again; ``defenses`` the defensive manoeuvre each holds until its next action;
    ``phase_maneuvers`` every manoeuvre each used this Phase; ``vitals`` END and STUN;
    ``power_options`` the table's choices for Powers (seed 002).
    """

    usage: PhaseUsage = field(default_factory=PhaseUsage)
    interjection_usage: PhaseUsage = field(default_factory=PhaseUsage)
    holds: tuple[Hold, ...] = ()
    forfeits: tuple[tuple[str, int, int], ...] = ()
    abort_locks: tuple[tuple[str, int, int], ...] = ()
    defenses: tuple[tuple[str, Maneuver], ...] = ()
    phase_maneuvers: tuple[tuple[str, tuple[Maneuver, ...]], ...] = ()
    vitals: tuple[Vitals, ...] = ()
    power_options: TableOptions = field(default_factory=TableOptions)

    def hold(self, combatant: str) -> Hold | None:
        """``combatant``'s delayed or readied action, if it holds one."""
        return next((h for h in self.holds if h.combatant == combatant), None)

    def with_hold(self, hold: Hold) -> HeroFight:
        """With ``hold`` replacing whatever its combatant held."""
        return replace(self, holds=(*self.without_hold(hold.combatant).holds, hold))

    def without_hold(self, combatant: str) -> HeroFight:
        """With ``combatant``'s hold dropped."""
        return replace(self, holds=tuple(h for h in self.holds if h.combatant != combatant))

    def defense(self, combatant: str) -> Maneuver | None:
        """The defensive manoeuvre ``combatant`` holds, if any."""
        return next((m for cid, m in self.defenses if cid == combatant), None)

    def with_defense(self, combatant: str, maneuver: Maneuver | None) -> HeroFight:
        """With ``combatant``'s defensive manoeuvre set or dropped."""
        rest = [(cid, m) for cid, m in self.defenses if cid != combatant]
        if maneuver is not None:
            rest.append((combatant, maneuver))
        return replace(self, defenses=tuple(sorted(rest, key=lambda p: p[0])))

    def maneuvers_of(self, combatant: str) -> tuple[Maneuver, ...]:
        """Every manoeuvre ``combatant`` used this Phase."""
        return next((m for cid, m in self.phase_maneuvers if cid == combatant), ())

    def with_maneuver(self, combatant: str, maneuver: Maneuver) -> HeroFight:
        """Remembering that ``combatant`` used ``maneuver`` this Phase."""
        used = (*self.maneuvers_of(combatant), maneuver)
        rest = [(cid, m) for cid, m in self.phase_maneuvers if cid != combatant]
        return replace(
            self, phase_maneuvers=tuple(sorted([*rest, (combatant, used)], key=lambda p: p[0]))
        )

    def vitals_of(self, combatant: str) -> Vitals | None:
        """``combatant``'s END and STUN, if it has them."""
        return next((v for v in self.vitals if v.combatant == combatant), None)


def hero(combat: Combat) -> HeroFight:
    """The Hero state of ``combat``."""
    rules = combat.rules
    assert isinstance(rules, HeroFight), rules
    return rules


def put(combat: Combat, fight: HeroFight) -> Combat:
    """``combat`` with its Hero state replaced."""
    return combat.with_rules(fight)


def in_state(state: EncounterState, fight: HeroFight) -> EncounterState:
    """``state`` with its combat's Hero state replaced."""
    combat = state.combat
    assert combat is not None
    return replace(state, combat=put(combat, fight))


def usage(combat: Combat) -> PhaseUsage:
    """What the one acting now has spent (an interjector its own)."""
    fight = hero(combat)
    return fight.interjection_usage if combat.interjection is not None else fight.usage


def with_usage(combat: Combat, spent: PhaseUsage) -> Combat:
    """``combat`` with the acting combatant's spending replaced."""
    fight = hero(combat)
    if combat.interjection is not None:
        return put(combat, replace(fight, interjection_usage=spent))
    return put(combat, replace(fight, usage=spent))


def forfeited(combat: Combat, combatant: str) -> bool:
    """Whether ``combatant`` gave up its action in the current Phase."""
    return (combatant, combat.turn, combat.phase) in hero(combat).forfeits


def limited_now(combat: Combat) -> bool:
    """Whether the one acting now may take only one action: the Surprise Phase, or acting
    out of turn (a readied action, an abort to a move)."""
    return combat.surprise or combat.interjection is not None


def adjoin(order: Sequence[str], groups: Sequence[Sequence[str]]) -> list[str]:
    """``order`` with each group's members moved up behind its first member."""
    result: list[str] = []
    placed: set[str] = set()
    for cid in order:
        if cid in placed:
            continue
        group = next((g for g in groups if cid in g), (cid,))
        members = [c for c in order if c in group]
        result += members
        placed |= set(members)
    return result
