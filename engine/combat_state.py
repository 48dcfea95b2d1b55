"""The state of a running fight: who acts, what they have spent, what waits on whom.

Frozen dataclasses only, like the rest of the state (see :mod:`engine.model`).  The
per-combatant collections are tuples sorted by combatant id, so equal fights compare
and hash equal whatever order things happened in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.copies import replace
from geometry import Cell, Point


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question the encounter waits on, addressed to ``controller``.

    ``kind`` is ``attack_of_opportunity`` (``attacker`` may attack ``target``, paused on
    ``at`` before crossing ``exit_point``; gridless, both the point it pauses on),
    ``readied_action`` (``attacker``'s trigger has come; ``target`` is whoever
    triggered it), ``delayed_action`` (the Phase's order is done and ``attacker``, also
    ``target``, still waits on a delay: take it now?) or
    ``continue_after_hit`` (the GM says whether ``target`` can still finish its action
    after ``attacker`` hit it).
    """

    id: str
    kind: str
    controller: str
    attacker: str
    target: str
    at: tuple[int | float, int | float]
    exit_point: Point


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A move under way: its whole path (start first; gridless, waypoints, with the
    points it paused on put in as it pauses), the step it has reached, what it
    cost, how it moves (``mode``), who has been asked already (``aoo:<id>`` for an attack
    of opportunity, ``held:<id>`` for a held action's trigger: separate opportunities), and an
    attack it makes as part of the action (``attack``: the target, with ``maneuver`` and
    the table's own dice ``rolls`` if it supplied them).  ``heights`` is a flight's
    elevation at each point of ``path`` (empty: the token keeps its elevation)."""

    #: Kept only for a flight: other moves keep the plain form (and hash) they had.
    PLAIN_OMITS_DEFAULT: ClassVar[tuple[str, ...]] = ("heights",)
    token: str
    path: tuple[tuple[int | float, int | float], ...]
    step: int
    cost: float
    mode: str = ""
    asked: tuple[str, ...] = ()
    exempt: tuple[str, ...] = ()
    attack: str | None = None
    maneuver: Any = None
    rolls: tuple[int, ...] | None = None
    heights: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Interjection:
    """A combatant acting out of turn: a held action firing on its trigger (``kind``
    ``trigger``), or whatever else a ruleset lets act out of turn (its own ``kind``).

    While it lasts the interjector acts (within ``allowed``, the ruleset's word for what
    it may do) and the interrupted combatant waits; a move it interrupted is kept in
    ``suspended`` and goes on when the interjection ends (``end_phase``).
    """

    combatant: str
    kind: str
    allowed: str | None
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
class Combat:
    """A running fight.

    ``order`` is the initiative order (it changes when a Delay or Ready moves someone);
    ``turn``/``phase`` the time, counted neutrally: the cycle over the order and the
    pass within it (phase 0: a surprise pass), said in the game's words only through
    its ruleset's ``time_words`` (:mod:`engine.timewords`); ``acting`` indexes
    ``order``.  ``conditions`` maps combatants to sorted condition names (the
    ruleset's words).  ``rules`` and ``per_combatant`` are the ruleset's own state
    (:mod:`engine.rulesets.base`); ``groups`` share a count; ``effects`` end at a point
    in the order; ``triggers`` are watched for held actions.
    """

    ruleset: str
    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    aware: tuple[str, ...]
    turn: int = 1
    phase: int = 1
    acting: int = 0
    opportunity_attacks: tuple[tuple[str, str], ...] = ()
    prompts: tuple[Prompt, ...] = ()
    pending_move: PendingMove | None = None
    interjection: Interjection | None = None
    conditions: tuple[tuple[str, tuple[str, ...]], ...] = ()
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

    def prompt(self, prompt_id: str) -> Prompt | None:
        """The open prompt ``prompt_id``, or None."""
        return next((p for p in self.prompts if p.id == prompt_id), None)

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
