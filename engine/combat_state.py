"""The state of a running fight: who acts, what they have spent, what waits on whom.

Frozen dataclasses only, like the rest of the state (see :mod:`engine.model`).  The
per-combatant collections are tuples sorted by combatant id, so equal fights compare
and hash equal whatever order things happened in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from geometry import Cell, Point

ATTACK, MOVE, FULL = "attack", "move", "full"


@dataclass(frozen=True, slots=True)
class Maneuver:
    """A combat manoeuvre's modifiers (seed 000 leaves the list to the game: the table
    names them).  Positive numbers are bonuses, negative ones penalties."""

    name: str
    ocv: int = 0
    dcv: int = 0


#: The manoeuvre of an attack that names none: a plain Strike, no modifiers.  It counts
#: among the Phase's manoeuvres like any other (seed 000, *Attacks of Opportunity*: with
#: several attack manoeuvres "you use the worst OCV and DCV bonus").
STRIKE = Maneuver("strike")


@dataclass(frozen=True, slots=True)
class PhaseUsage:
    """What a combatant has spent of its Phase.

    ``actions`` are the action slots taken other than movement (``attack``, ``move``,
    ``full``); ``moved`` is combat movement spent, which takes as many move actions as
    it needs whole lengths of combat movement; ``movement`` names the kind of movement
    used (``combat``, ``step``, ``withdraw``, ``noncombat``, ``crawl``, ``hampered``);
    ``maneuvers`` lists every manoeuvre used this Phase (for attacks of opportunity);
    ``attacked`` the targets attacked; ``free`` counts free actions (so even a Phase of
    only free actions has begun, and a delayed action can no longer interrupt it).
    """

    moved: float = 0.0
    actions: tuple[str, ...] = ()
    movement: str | None = None
    maneuvers: tuple[Maneuver, ...] = ()
    attacked: tuple[str, ...] = ()
    full_phase_started: str | None = None
    free: int = 0


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question the encounter waits on, addressed to ``controller``.

    ``kind`` is ``attack_of_opportunity`` (``attacker`` may attack ``target``, paused on
    ``at`` before crossing ``exit_point``), ``readied_action`` (``attacker``'s trigger has
    come; ``target`` is whoever triggered it), ``delayed_action`` (the Phase's order is
    done and ``attacker``, also ``target``, still waits on a delay: take it now?) or
    ``continue_after_hit`` (the GM says whether ``target`` can still finish its action
    after ``attacker`` hit it).
    """

    id: str
    kind: str
    controller: str
    attacker: str
    target: str
    at: Cell
    exit_point: Point


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A move under way: its whole path (start first), the step it has reached, what it
    cost, how it moves (``mode``), who has been asked already (``aoo:<id>`` for an attack
    of opportunity, ``ready:<id>`` for a readied action: separate opportunities), and an
    attack it makes as part of the action (``attack``: the target, with ``maneuver`` and
    the table's own dice ``rolls`` if it supplied them)."""

    token: str
    path: tuple[Cell, ...]
    step: int
    cost: float
    mode: str = "combat"
    asked: tuple[str, ...] = ()
    exempt: tuple[str, ...] = ()
    attack: str | None = None
    maneuver: Maneuver | None = None
    rolls: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Hold:
    """A delayed or readied action (seed 000, *Special Initiative Actions*).

    ``kind`` is ``delay`` or ``ready``; ``declared`` the (turn, phase) it was taken in.
    A delay may name ``before``: act immediately before that combatant.  A ready names
    the ``action`` type it will take and its trigger: another combatant's action
    (``trigger_by``) or a token entering ``area`` (cells; ``trigger_by`` narrows it to
    one token).  ``moved`` records that the holder moved in the Phase it readied, which
    rules out the 1 m step with the readied action.
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
class Interjection:
    """A combatant acting out of turn: a readied action firing (``kind`` ``ready``), or
    an Abort to a move action (``abort``).

    While it lasts the interjector acts (within ``allowed``, the readied action type, or
    anything for a delay) and the interrupted combatant waits; a move it interrupted is
    kept in ``suspended`` and goes on when the interjection ends.
    """

    combatant: str
    kind: str
    allowed: str | None
    usage: PhaseUsage = field(default_factory=PhaseUsage)
    suspended: PendingMove | None = None


@dataclass(frozen=True, slots=True)
class Effect:
    """Something lasting that ends at a point in the order (set by the GM or a ruleset).

    ``id`` is ``e<n>``; ``name`` is the table's or the ruleset's word; ``token`` the
    combatant it is on (None: the whole scene); ``source`` who started it (``gm`` or a
    combatant).  It began at ``started`` (turn, phase) at initiative count ``count`` and
    ends just before that count comes up in ``ends`` (turn, phase): before the first
    combatant whose score is at or below ``count``, whoever that is now (the order may
    have changed, the starter may be skipped or gone), or at the end of that pass when
    nobody is left at or below it.  Every member of a group shares its count, so an
    effect begun at a group's count ends before the first of them.  ``ends`` None: until
    someone ends it.
    """

    id: str
    name: str
    token: str | None
    source: str
    started: tuple[int, int]
    count: int
    ends: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class Trigger:
    """A condition the core watches for on a ruleset's behalf (a readied or held action).

    ``on`` is ``action`` (``by`` starts its action), ``enter`` (a token, ``by`` or
    anyone, enters ``area`` while moving) or ``sight`` (a moving token, ``by`` or
    anyone, comes into ``owner``'s line of sight).  When it happens the core pauses
    what is going on and asks ``owner``'s controller with a ``readied_action`` prompt;
    an accepted prompt calls the ruleset's :meth:`~engine.rulesets.base.Ruleset.trigger_fired`.
    ``tag`` is the ruleset's own note (which held action this is).
    """

    owner: str
    on: str
    by: str | None = None
    area: tuple[Cell, ...] = ()
    tag: str = ""


@dataclass(frozen=True, slots=True)
class Vitals:
    """A combatant's current END and STUN (their maxima are its ``end``/``stun`` stats)."""

    combatant: str
    end: int
    stun: int


@dataclass(frozen=True, slots=True)
class Combat:
    """A running fight.

    ``order`` is the initiative order (it changes when a Delay or Ready moves someone);
    ``turn``/``phase`` the time (phase 0 is the Surprise Phase); ``acting`` indexes
    ``order``.  ``conditions`` maps combatants to sorted condition names; ``forfeits``
    lists (combatant, turn, phase) slots given up by an Abort, ``abort_locks`` the
    (combatant, turn, phase) before whose INIT it may not abort again; ``defenses`` the
    defensive manoeuvre each combatant holds until its next action.
    """

    ruleset: str
    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    aware: tuple[str, ...]
    turn: int = 1
    phase: int = 1
    acting: int = 0
    usage: PhaseUsage = field(default_factory=PhaseUsage)
    opportunity_attacks: tuple[tuple[str, str], ...] = ()
    prompts: tuple[Prompt, ...] = ()
    pending_move: PendingMove | None = None
    holds: tuple[Hold, ...] = ()
    interjection: Interjection | None = None
    conditions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    forfeits: tuple[tuple[str, int, int], ...] = ()
    abort_locks: tuple[tuple[str, int, int], ...] = ()
    defenses: tuple[tuple[str, Maneuver], ...] = ()
    phase_maneuvers: tuple[tuple[str, tuple[Maneuver, ...]], ...] = ()
    vitals: tuple[Vitals, ...] = ()
    # -- the core's generic parts (every game) -------------------------------------------
    rules: Any = None
    per_combatant: tuple[tuple[str, Any], ...] = ()
    groups: tuple[tuple[str, ...], ...] = ()
    effects: tuple[Effect, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    next_effect: int = 1

    @property
    def surprise(self) -> bool:
        """Whether this is the Surprise Phase."""
        return self.phase == 0

    @property
    def actor(self) -> str:
        """The combatant whose action it is now (an interjector, else the one up)."""
        return self.interjection.combatant if self.interjection else self.order[self.acting]

    @property
    def regular_actor(self) -> str:
        """The combatant whose INIT is up, whether or not someone interjected."""
        return self.order[self.acting]

    @property
    def current_usage(self) -> PhaseUsage:
        """What the acting combatant has spent."""
        return self.interjection.usage if self.interjection else self.usage

    def with_usage(self, usage: PhaseUsage) -> Combat:
        """This combat with the acting combatant's spending replaced."""
        if self.interjection is not None:
            return replace(self, interjection=replace(self.interjection, usage=usage))
        return replace(self, usage=usage)

    def prompt(self, prompt_id: str) -> Prompt | None:
        """The open prompt ``prompt_id``, or None."""
        return next((p for p in self.prompts if p.id == prompt_id), None)

    def hold(self, combatant: str) -> Hold | None:
        """``combatant``'s delayed or readied action, if it holds one."""
        return next((h for h in self.holds if h.combatant == combatant), None)

    def with_hold(self, hold: Hold) -> Combat:
        """This combat with ``hold`` replacing whatever its combatant held."""
        return replace(
            self.without_hold(hold.combatant),
            holds=(*self.without_hold(hold.combatant).holds, hold),
        )

    def without_hold(self, combatant: str) -> Combat:
        """This combat with ``combatant``'s hold dropped."""
        return replace(self, holds=tuple(h for h in self.holds if h.combatant != combatant))

    def conditions_of(self, combatant: str) -> tuple[str, ...]:
        """``combatant``'s conditions."""
        return next((c for cid, c in self.conditions if cid == combatant), ())

    def has(self, combatant: str, condition: str) -> bool:
        """Whether ``combatant`` has ``condition``."""
        return condition in self.conditions_of(combatant)

    def with_condition(self, combatant: str, condition: str, on: bool) -> Combat:
        """This combat with ``condition`` set or cleared on ``combatant``."""
        current = set(self.conditions_of(combatant))
        current = current | {condition} if on else current - {condition}
        rest = [(cid, c) for cid, c in self.conditions if cid != combatant]
        if current:
            rest.append((combatant, tuple(sorted(current))))
        return replace(self, conditions=tuple(sorted(rest)))

    def defense(self, combatant: str) -> Maneuver | None:
        """The defensive manoeuvre ``combatant`` holds, if any."""
        return next((m for cid, m in self.defenses if cid == combatant), None)

    def with_defense(self, combatant: str, maneuver: Maneuver | None) -> Combat:
        """This combat with ``combatant``'s defensive manoeuvre set or dropped."""
        rest = [(cid, m) for cid, m in self.defenses if cid != combatant]
        if maneuver is not None:
            rest.append((combatant, maneuver))
        return replace(self, defenses=tuple(sorted(rest, key=lambda p: p[0])))

    def maneuvers_of(self, combatant: str) -> tuple[Maneuver, ...]:
        """Every manoeuvre ``combatant`` used this Phase."""
        return next((m for cid, m in self.phase_maneuvers if cid == combatant), ())

    def with_maneuver(self, combatant: str, maneuver: Maneuver) -> Combat:
        """This combat remembering that ``combatant`` used ``maneuver`` this Phase."""
        used = (*self.maneuvers_of(combatant), maneuver)
        rest = [(cid, m) for cid, m in self.phase_maneuvers if cid != combatant]
        return replace(
            self, phase_maneuvers=tuple(sorted([*rest, (combatant, used)], key=lambda p: p[0]))
        )

    def forfeited(self, combatant: str) -> bool:
        """Whether ``combatant`` gave up its action in the current Phase."""
        return (combatant, self.turn, self.phase) in self.forfeits

    def state_of(self, combatant: str) -> Any:
        """The ruleset's per-combatant state of ``combatant`` (see ``Ruleset.combatant_state``)."""
        return next((s for cid, s in self.per_combatant if cid == combatant), None)

    def with_state(self, combatant: str, value: Any) -> Combat:
        """This combat with ``combatant``'s per-combatant ruleset state replaced."""
        rest = [(cid, s) for cid, s in self.per_combatant if cid != combatant]
        rest.append((combatant, value))
        return replace(self, per_combatant=tuple(sorted(rest, key=lambda p: p[0])))

    def with_rules(self, rules: Any) -> Combat:
        """This combat with the ruleset's fight-wide state replaced."""
        return replace(self, rules=rules)

    def score_of(self, combatant: str) -> int | None:
        """``combatant``'s initiative score (its count), or None if not in the order."""
        return next((s for cid, s in self.scores if cid == combatant), None)

    def group_of(self, combatant: str) -> tuple[str, ...]:
        """The group ``combatant`` shares its count with (just itself when alone)."""
        return next((g for g in self.groups if combatant in g), (combatant,))

    def vitals_of(self, combatant: str) -> Vitals | None:
        """``combatant``'s END and STUN, if it has them."""
        return next((v for v in self.vitals if v.combatant == combatant), None)
