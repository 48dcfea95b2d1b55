"""A game's clock in its own words: the units of time a ruleset declares, and a moment
of a fight read in them.

The core counts time neutrally, as ``(turn, phase)`` on :class:`engine.combat_state.Combat`:
the number of the cycle over the order and the pass within it (0: a surprise pass).
What a table sees is its game's words.  A ruleset declares them once
(:attr:`engine.rulesets.base.Ruleset.time_words`), a :class:`TimeWords` of one or two
:class:`TimeUnit` (largest first), and every event, refusal and option that names a
moment carries a :class:`Clock` read from it:

===================  ==============================  ===============================
game                 units                           a moment
===================  ==============================  ===============================
Cyberpunk RED        3 s Rounds (one pass)           ``{"round": 2}``, "Round 2"
Mutants & M. 3e      6 s rounds (one pass)           ``{"round": 2}``, "Round 2"
Hero supplement      12 s Turns of 3 s Phases        ``{"turn": 1, "phase": 3}``,
                                                     "Turn 1, Phase 3"
===================  ==============================  ===============================

A surprise pass reads as the last unit 0 (``{"round": 0}``, ``{"turn": 1, "phase": 0}``)
with the game's name for it ("Surprise Round", "Surprise Phase").  One combatant's share
of a pass is :attr:`TimeWords.action` ("Turn" in Cyberpunk RED and M&M, "Phase" in Hero):
what a client's "End X's ..." button says.

A leaf module (value types only), like :mod:`engine.clock`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Clock", "TimeUnit", "TimeWords"]


@dataclass(frozen=True, slots=True)
class TimeUnit:
    """One unit of a game's time: ``key`` on the wire (``"round"``), ``name`` as the
    game's text spells it (``"Round"``), ``seconds`` long; ``also`` other names the
    game's texts give the same unit (the Hero Powers' "Segment", which this table
    plays as one Phase)."""

    key: str
    name: str
    seconds: int
    also: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.key.isidentifier() or self.key == "label" or self.seconds <= 0:
            raise ValueError(f"bad time unit {self.key!r} ({self.seconds} s)")


@dataclass(frozen=True, slots=True)
class Clock:
    """A moment of a fight in its game's words: ``at`` counts each unit, largest first
    (``{"round": 2}``, ``{"turn": 1, "phase": 3}``), and ``label`` says it as the
    game's table does ("Round 2", "Turn 1, Phase 3", "Surprise Round")."""

    at: dict[str, int]
    label: str


@dataclass(frozen=True, slots=True)
class TimeWords:
    """A ruleset's units of time, largest first, and its words for a surprise pass
    and for one combatant's share of a pass.

    ``units`` is one unit (a Round that is one pass over the order) or two (a Turn of
    passes, Hero's Phases): then the outer lasts a whole number of the inner, and that
    number is the ruleset's ``phases_per_turn``."""

    units: tuple[TimeUnit, ...]
    surprise: str
    action: str

    def __post_init__(self) -> None:
        if len(self.units) not in (1, 2):
            raise ValueError("a clock has one unit (a Round) or two (a Turn of Phases)")
        if len(self.units) == 2 and self.units[0].seconds % self.units[1].seconds:
            raise ValueError(f"a {self.units[0].name} is not a whole number of passes")

    @property
    def passes(self) -> int:
        """How many passes over the order make the outer unit (``phases_per_turn``)."""
        if len(self.units) == 1:
            return 1
        return self.units[0].seconds // self.units[1].seconds

    @property
    def pass_name(self) -> str:
        """The name of one pass over the order ("Round", "Phase")."""
        return self.units[-1].name

    def at(self, turn: int, phase: int) -> dict[str, int]:
        """The core's ``(turn, phase)`` counted in these units (a surprise pass: the
        last unit 0)."""
        if len(self.units) == 1:
            return {self.units[0].key: turn if phase else 0}
        outer, inner = self.units
        return {outer.key: turn, inner.key: phase}

    def label(self, turn: int, phase: int) -> str:
        """The core's ``(turn, phase)`` as the game's table says it."""
        if phase == 0:
            return self.surprise
        if len(self.units) == 1:
            return f"{self.units[0].name} {turn}"
        outer, inner = self.units
        return f"{outer.name} {turn}, {inner.name} {phase}"

    def reading(self, turn: int, phase: int) -> Clock:
        """The core's ``(turn, phase)`` as a :class:`Clock` (what events carry)."""
        return Clock(self.at(turn, phase), self.label(turn, phase))


#: The words of a game whose Round is one pass, for a ruleset that declares none.
ROUNDS = TimeWords((TimeUnit("round", "Round", 6),), surprise="Surprise Round", action="Turn")
