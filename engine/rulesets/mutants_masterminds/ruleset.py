"""Mutants & Masterminds 3e plugged into the engine: the seam's hooks over the rules modules.

Time is the core's: a round is one pass over the order (``phases_per_turn = 1``), the
same order every round ("Each round uses the same initiative order"), about 6 seconds;
the surprise round is the core's surprise pass (phase 0), held "if some, but not all, of
the combatants are aware of their opponents", where only the aware act, each with one
standard or move action.  Effects lasting N rounds are the core's
(:mod:`engine.effects`): they end "just before the same initiative number where they
began", keyed to the count, not to who started them.

"Just before" a shared count (a group, or combatants tied on their total) is decided
here as the core does it: the effect ends before the *first* combatant at that count
acts, so a round is exactly the span from one count to the same count, and no member of
a group acts twice under a one-round effect begun at the group's count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.combat_state import Combat
from engine.errors import CommandRejected
from engine.model import Combatant, EncounterState
from engine.rulesets.base import (
    ActionSpec,
    Context,
    Initiative,
    MovePlan,
    NoParams,
    Result,
    Ruleset,
    Vocabulary,
    register,
)
from engine.rulesets.mutants_masterminds import actions, turn
from engine.rulesets.mutants_masterminds.events import (
    MM_EVENTS,
    FlatFootedEnded,
    InitiativeCheck,
)
from engine.rulesets.mutants_masterminds.initiative import (
    newcomer_beats,
    newcomer_check,
    roll_initiative,
)
from engine.rulesets.mutants_masterminds.state import (
    FLAGS,
    OPTIONAL,
    REQUIRED,
    Character,
    check_token,
    initiative_modifier,
)
from engine.rulesets.mutants_masterminds.words import WORDING
from engine.timewords import TimeUnit, TimeWords
from engine.tray import DiceTray
from engine.turns import has_surprise_phase
from engine.words import Wording

NAME = "mm3e"
#: The one move mode: moving at the token's ground speed (its ``movement``).
GROUND = "ground"


def _character(combat: Combat, cid: str) -> Character:
    who = combat.state_of(cid)
    assert isinstance(who, Character), cid
    return who


@register
class MutantsMasterminds(Ruleset):
    """Mutants & Masterminds 3e, (see the folder's README.md)."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Mutants & Masterminds 3e"
    # "Each round represents about 6 seconds"; "each player gets a turn each round".
    time_words: ClassVar[TimeWords] = TimeWords(
        (TimeUnit("round", "Round", 6),), surprise="Surprise Round", action="Turn"
    )
    combatant_state: ClassVar[type | None] = Character
    move_modes: ClassVar[tuple[str, ...]] = (GROUND,)
    actions: ClassVar[dict[str, ActionSpec[Any]]] = {
        "attack": ActionSpec(
            "attack", actions.AttackParams, actions.attack, actions.attack_refusal,
            doc="standard action: attack check against Parry (close) or Dodge (ranged)",
        ),
        "use_power": ActionSpec(
            "use_power", actions.PowerParams, actions.use_power, actions.standard_refusal,
            doc="standard action: a power's effect lasting some rounds",
        ),
        "trade_down": ActionSpec(
            "trade_down", NoParams, actions.trade_down, actions.trade_refusal,
            doc="trade the standard action for a second move action",
        ),
        "free_action": ActionSpec(
            "free_action", actions.FreeParams, actions.free_action, actions.free_refusal,
            doc="a free action (talking, dropping something), reported",
        ),
        "incapacitate": ActionSpec(
            "incapacitate", actions.IncapacitateParams, actions.incapacitate, when="gm",
            doc="the GM sets or clears incapacitated (as set_condition does)",
        ),
    }  # fmt: skip
    #: What ``ask_options`` tells an unaware combatant in the surprise round.
    unaware_rule: ClassVar[str] = (
        'unaware in the surprise round: no action (Unaware Combatants: "Combatants unaware at the '
        'start of battle do not get to act in the surprise round")'
    )
    vocabulary: ClassVar[Vocabulary] = Vocabulary(
        conditions=("flat_footed", "incapacitated"),
        resources=(*REQUIRED, *OPTIONAL, *FLAGS),
        events=MM_EVENTS,
        other=(NAME,),
    )
    wording: ClassVar[Wording] = WORDING
    #: Every statistic it reads may change mid-fight; the initiative check stands
    #: ("with the check applying to all rounds of the combat").
    changeable_stats = (*REQUIRED, *OPTIONAL, *FLAGS)

    # -- set-up -----------------------------------------------------------------------------

    def check_combatant(self, combatant: Combatant) -> None:
        """Every combatant needs ``dexterity``, ``dodge`` and ``parry`` (see :mod:`.state`)."""
        check_token(combatant)

    def initiative(
        self, combatants: Sequence[Combatant], tray: DiceTray, groups: Sequence[Sequence[str]]
    ) -> Initiative:
        """d20 + Dexterity + modifiers once for the fight; a group checks once."""
        return roll_initiative(combatants, tray, groups)

    def newcomer(self, combat: Combat, combatant: Combatant, tray: DiceTray) -> int:
        """A newcomer's own check; at a count already taken, :meth:`newcomer_ahead`
        settles its place."""
        return newcomer_check(combatant, tray)

    def newcomer_ahead(
        self,
        combat: Combat,
        newcomer: Combatant,
        score: int,
        rival: Sequence[Combatant],
        tray: DiceTray,
    ) -> bool:
        """Initiative modifier first, then a die (:func:`.initiative.newcomer_beats`)."""
        return newcomer_beats(newcomer, rival, tray)

    def joined(self, state: EncounterState, cid: str) -> Result:
        """Report the newcomer's check like those made at the start."""
        combat, scene = state.combat, state.scene
        assert combat is not None and scene is not None
        token = scene.token(cid)
        score = combat.score_of(cid)
        assert token is not None and score is not None
        modifier = initiative_modifier(token)
        return state, [InitiativeCheck((cid,), score - modifier, modifier, score)]

    def surprise(self, aware: tuple[str, ...], everyone: tuple[str, ...]) -> bool:
        """A surprise round "if some, but not all, of the combatants are aware of their
        opponents"."""
        return has_surprise_phase(aware, everyone)

    # -- conditions -------------------------------------------------------------------------

    def condition_set(self, combat: Combat, cid: str, condition: str, on: bool) -> Combat:
        """``set_condition`` stores the condition where the rules read it, the
        combatant's own state (see :meth:`.state.Character.with_condition`)."""
        who = combat.state_of(cid)
        if not isinstance(who, Character):
            raise CommandRejected("not_in_combat", f"{cid!r} is not in the fight")
        return combat.with_state(cid, who.with_condition(condition, on))

    # -- time -------------------------------------------------------------------------------

    def skip_reason(self, combat: Combat, cid: str) -> str | None:
        """The incapacitated are skipped, keeping their count (and staying flat-footed
        if they never had a turn).  The unaware are passed over in the surprise round by
        the core itself (only the aware act there)."""
        who = combat.state_of(cid)
        if isinstance(who, Character) and who.incapacitated:
            return "incapacitated"
        return None

    def start_acting(self, state: EncounterState, cid: str) -> Result:
        """A fresh turn; the first regular turn ends flat-footed (the surprise round's
        action is not a regular turn: seed 003, "before your first regular turn")."""
        combat = state.combat
        assert combat is not None
        who = _character(combat, cid).fresh_turn()
        events: list[Any] = []
        if who.flat_footed and not combat.surprise:
            who = replace(who, flat_footed=False)
            events.append(FlatFootedEnded(cid))
        return replace(state, combat=combat.with_state(cid, who)), events

    # -- movement ---------------------------------------------------------------------------

    def combat_ending(self, state: EncounterState) -> list[Any]:
        """Nothing of this game's own outlasts a turn: no held, readied or delayed
        actions (the text has none), a character's state is its turn's spending and
        whether it is flat-footed, and its lasting things are the core's timed effects,
        which the core ends first."""
        return []

    def movement_left(self, combat: Combat, combatant: Combatant) -> float:
        """What is left of this turn's move action(s)."""
        who = combat.state_of(combatant.id)
        if not isinstance(who, Character):
            return 0.0
        return turn.movement_left(who, combatant, combat.surprise)

    def check_flight(self, ctx: Context, mode: str, rise: float) -> None:
        """A move that changes height needs the Flight effect: a ``flight`` rank above
        0.  It is charged like any move, its length in three dimensions against the move
        action's speed (the token's ``movement``, the speed its Flight rank gives)."""
        rank = ctx.token.stat("flight", 0)
        if not isinstance(rank, int) or isinstance(rank, bool) or rank <= 0:
            raise CommandRejected(
                "illegal_move", f"{ctx.token.id!r} has no Flight (stat 'flight'): it cannot fly"
            )

    def plan_move(self, ctx: Context, mode: str, *, cost: float, steps: int) -> MovePlan:
        """Charge a move against the move action (two after trading down)."""
        who = _character(ctx.combat, ctx.token.id)
        left = turn.movement_left(who, ctx.token, ctx.combat.surprise)
        if cost > left + 1e-9:
            why = _why_no_movement(who, ctx.token, ctx.combat.surprise)
            raise CommandRejected("over_budget", f"the move costs {cost:g}, {left:g} left{why}")
        who = replace(who, moved=who.moved + cost)
        return MovePlan(ctx.combat.with_state(ctx.token.id, who), mode)


def _why_no_movement(who: Character, token: Combatant, surprise: bool) -> str:
    """What a refused move is told beyond the figures."""
    if who.incapacitated:
        return f": {turn.INCAPACITATED}"
    if surprise and who.standard:
        return ": the surprise round allows a standard or a move action, not both"
    if who.move_closed and not token.stat("move_by_action", False):
        return ": the standard action ended the move action"
    if not who.traded and not who.standard and not surprise:
        return " (trade_down gives a second move action)"
    return ""
