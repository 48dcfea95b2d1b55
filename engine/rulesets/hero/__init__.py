"""The Hero System Rules Supplement, a d20-style variant of Hero System (seed 000).

Source: ``shared/seeds/000_7b793dffabbd5bba.txt``; section names below are the text's.
The engine runs the flow (:mod:`engine.turns`, :mod:`engine.movement`,
:mod:`engine.initiative_actions`); this module answers the rules questions.

*Combat Time*: Phases of 3 s, a Turn of 4 Phases (``phases_per_turn``); after Phase 4 a
Post-Turn in which every eligible character Takes a Recovery: REC back to END and STUN,
up to their starting values (:meth:`post_turn_recovery`).  Eligible: has a ``rec``
statistic and is not marked ``no_recovery`` by the GM (the text leaves eligibility to
the game).

*Initiative*: order by ``init``, highest first; the tied "randomly determine which one
of them goes before the other": each rolls 1d6 (an event), highest first, re-rolling
among those still tied.  A table rolling its own dice supplies them with
``start_combat`` (see :meth:`HeroSupplement.initiative` for their order).  The order
then holds every Phase unless a Delay or Ready moves someone; a character who cannot
act keeps its place and is skipped.

*Surprise*: a Surprise Phase only if some but not all are aware; the aware act in INIT
order with one attack or one move action (plus free actions); the unaware do not act
and have -3 DCV during it.  The text is silent on attacks of opportunity there; we read
"unaware" as d20's flat-footed: they make none in the Surprise Phase.

*The Attack Roll*: 3d6 + OCV (with modifiers such as combat levels: ``ocv_bonus``)
against 10 + DCV (with modifiers such as Stunned or underwater); it hits when the total
reaches the TN.  The text names Stunned and underwater but gives no figures: we use
Hero 6E's (a Stunned character's DCV is halved, rounded down; underwater -2 DCV).

*Combat Actions*: a Phase allows an attack action and a move action, two move actions,
or one full-phase action, plus free actions; a move action can always replace the
attack action.  A limited Phase (the Surprise Phase) allows one attack or one move
action and no full-phase action.  Moving up to the combat movement (``movement``) is a
move action; movement may be split across the Phase, each started length of combat
movement taking one move action.

*Move Actions*: combat movement (then no free 1 m step); crawl 1 m; draw or stow a
focus (free with ``fast_draw``); stand up (free with ``position_shift``); start or
complete a full-phase action (not for noncombat movement, withdrawing, or anything with
an attack roll).

*Full-Phase Actions*: withdraw (up to twice combat movement; not threatened as it
begins by an adjacent enemy the withdrawer can see: not one ``invisible`` or in
``darkness``, nor any when the withdrawer is in ``darkness``, nor one behind a wall that
blocks sight); noncombat movement (up to ``noncombat`` metres, default twice combat
movement; the text's DCV change has no figures, so the VTT is told the mover moved at
noncombat speed and the DCV is the GM's); the 1 m move of a character too hampered to
move 1 m (less than 1 m of movement, or terrain costing more than it has), who may not
crawl instead (crawling is moving 1 m; it would make 2 m a Phase), prone or not.
Restricted withdraw: in a limited Phase, withdraw as a move action up to combat
movement.

*Free Actions*: drop an item, drop prone, the 1 m step (once a Phase, with no other
movement, not in difficult terrain or darkness, never for a character with 1 m of
movement or less).

*Attacks of Opportunity*: a character threatens the squares it can melee into (reach
from geometry, 1 m by default); an enemy moving out of one provokes unless it attacks
that character as part of its action, or moves by the 1 m step or a withdraw.  One a
Phase (Combat Reflexes, ``combat_reflexes``: one per opponent a Phase); optional; not
after the threatener used Dodge (the name compared ignoring case and spacing); any
manoeuvre with an attack roll, with the worst OCV and DCV bonus among that Phase's
manoeuvres and every penalty (:func:`combine`); an attack naming no manoeuvre is a
Strike (no bonus), and counts as one.

*Delay*, *Ready*, *Abort*: the flow is :mod:`engine.turns` and :mod:`engine.actions`;
the rules question here is which manoeuvres are defensive (:meth:`defensive`), for an
Abort "to any defensive attack or move action".

Statistics: ``ocv``, ``dcv``, ``init`` (integers, required); optional ``rec``, ``end``,
``stun`` (integers), ``noncombat`` (metres), and the flags ``combat_reflexes``,
``fast_draw``, ``position_shift``; for Powers (seed 002, :mod:`.powers`) ``power:<name>``,
``framework:<name>``, ``STR``, ``identity`` (``"true"`` or ``"alternate"``: the one it
starts the fight in) and the Weapon Familiarities ``wf:<group>`` (``"wf:blades": true``,
see :mod:`.actions`'s attack).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.combat_state import Combat, Prompt, Trigger
from engine.errors import CommandRejected
from engine.model import Combatant, EncounterState, Scene
from engine.rulesets.base import (
    Context,
    Initiative,
    MovePlan,
    OpportunityAttack,
    Result,
    Ruleset,
    Vocabulary,
    register,
)
from engine.rulesets.hero import budget, time, words
from engine.rulesets.hero import upgrade as upgrade  # registers its upgrade steps
from engine.rulesets.hero.actions import ACTIONS
from engine.rulesets.hero.budget import flag
from engine.rulesets.hero.events import HERO_EVENTS, AttackRolled
from engine.rulesets.hero.moves import plan_move, plan_move_attack, withdraw_exempt
from engine.rulesets.hero.powers.actions import POWER_ACTIONS, phase_upkeep
from engine.rulesets.hero.powers.events import POWER_EVENTS
from engine.rulesets.hero.powers.rules import PowerState
from engine.rulesets.hero.powers.sheet import sheet_of
from engine.rulesets.hero.state import (
    ATTACK,
    STRIKE,
    HeroFight,
    Maneuver,
    PhaseUsage,
    Vitals,
    adjoin,
    as_maneuver,
    hero,
    limited_now,
    put,
    usage,
    with_usage,
)
from engine.timewords import TimeUnit, TimeWords
from engine.tray import DiceTray
from engine.turns import has_surprise_phase
from engine.words import StatWords, Wording, stat_words

SURPRISED_DCV = -3
UNDERWATER_DCV = -2
ATTACK_ROLL_BASE = 10
REQUIRED_INT_STATS = ("ocv", "dcv", "init")
OPTIONAL_INT_STATS = ("rec", "end", "stun")
FLAGS = ("combat_reflexes", "fast_draw", "position_shift")


def int_stat(combatant: Combatant, name: str, default: int = 0) -> int:
    """The integer statistic ``name`` (checked by ``check_combatant``), or ``default``."""
    value = combatant.stat(name, default)
    assert isinstance(value, int) and not isinstance(value, bool)
    return value


def combine(maneuvers: Sequence[Maneuver]) -> tuple[int, int]:
    """OCV and DCV modifiers of several manoeuvres in one Phase (seed 000, *Attacks of
    Opportunity*): "you use the worst OCV and DCV bonus, while all OCV and DCV penalties
    stack".  A manoeuvre without a bonus on an axis counts as a bonus of 0 there."""
    if not maneuvers:
        return 0, 0

    def axis(values: list[int]) -> int:
        return min(max(v, 0) for v in values) + sum(min(v, 0) for v in values)

    return axis([m.ocv for m in maneuvers]), axis([m.dcv for m in maneuvers])


def maneuver_name(maneuver: Maneuver) -> str:
    """A manoeuvre's name as the rules compare it: case, spacing and ``_``/``-`` ignored
    ("Dodge", " DODGE ", "dive_for_cover" and "Dive for Cover" are the same)."""
    return " ".join(maneuver.name.replace("_", " ").replace("-", " ").split()).casefold()


def is_dodge(maneuver: Maneuver) -> bool:
    """Whether ``maneuver`` is the Dodge manoeuvre, however the table spelt it."""
    return maneuver_name(maneuver) == "dodge"


#: Hero's defensive manoeuvres, which may have no DCV bonus of their own (a Block stops
#: the attack instead).  Seed 000 names none but Dodge; these are Hero 6E's.
DEFENSIVE_MANEUVERS = ("block", "dodge", "dive for cover")
#: The movement modes a move may name (the first is the default).
MOVE_MODES = ("combat", "step", "withdraw", "noncombat", "crawl", "hampered")
#: The conditions the GM sets and these rules read.
CONDITIONS = (
    "stunned",
    "underwater",
    "prone",
    "cannot_act",
    "darkness",
    "invisible",
    "no_recovery",
    # Seed 002's Casual escape "from a Grab, Entangle, or the like": the GM sets which
    # holds a character, and Casual Use with ``escape`` needs one of them.
    "grabbed",
    "entangled",
)


@register
class HeroSupplement(Ruleset):
    """Hero System Rules Supplement (seed 000); see the module docstring for each rule."""

    name: ClassVar[str] = "hero-supplement"
    title: ClassVar[str] = "Hero System Rules Supplement"
    # "Each Phase is 3 seconds long.  4 Phases make up 1 Turn of 12 seconds"; the
    # Powers' Segment is one Phase at this table (``powers/rules.py``).
    time_words: ClassVar[TimeWords] = TimeWords(
        (TimeUnit("turn", "Turn", 12), TimeUnit("phase", "Phase", 3, also=("Segment",))),
        surprise="Surprise Phase",
        action="Phase",
    )
    fight_state: ClassVar[type | None] = HeroFight
    combatant_state: ClassVar[type | None] = PowerState
    move_modes: ClassVar[tuple[str, ...]] = MOVE_MODES
    actions: ClassVar[dict[str, Any]] = {**ACTIONS, **POWER_ACTIONS}
    #: What ``ask_options`` tells an unaware character in the Surprise Phase.
    unaware_rule: ClassVar[str] = (
        'unaware in the Surprise Phase: no action (Surprise: "Characters who were '
        'unaware do not get to act in the Surprise Phase")'
    )
    vocabulary: ClassVar[Vocabulary] = Vocabulary(
        conditions=CONDITIONS,
        resources=(*REQUIRED_INT_STATS, *OPTIONAL_INT_STATS, *FLAGS, "noncombat", "identity"),
        events=(*HERO_EVENTS, *POWER_EVENTS),
        other=("delayed_action", "hero", "hero_budget"),
    )
    wording: ClassVar[Wording] = Wording(
        events=words.EVENTS,
        prompts=words.PROMPTS,
        stats=(
            *stat_words(REQUIRED_INT_STATS, OPTIONAL_INT_STATS, FLAGS),
            StatWords("noncombat", "number", doc="noncombat movement (default twice combat)"),
            StatWords("flight", "number", doc="metres of Flight: it may change height in a move"),
            StatWords("identity", "text", doc="`true` or `alternate`"),
            StatWords("STR", "integer", doc="Strength, for STR added to a Power (seed 002)"),
            # Weapon Familiarities and Powers and Frameworks (seed 002).
            StatWords("wf:<group>", "flag", doc="a Weapon Familiarity with the group"),
            StatWords("power:<name>", "text", doc="a Power, as JSON (seed 002)"),
            StatWords("framework:<name>", "text", doc="a Power Framework, as JSON"),
        ),
        triggers=words.TRIGGERS,
    )
    #: Its characteristics and flags may change mid-fight (END and STUN as maximums:
    #: the tracked pools keep their current values).  INIT changes, but the order
    #: stands: "in every phase that follows, the characters act in the same order
    #: (unless a character takes an action that results in their INIT score changing)",
    #: and a GM's change is no such action.  This variant has no SPD (everyone acts
    #: once a Phase), so ``spd`` is refused like any stat it does not play.
    changeable_stats = (*REQUIRED_INT_STATS, *OPTIONAL_INT_STATS, *FLAGS)

    # -- set-up ---------------------------------------------------------------------------

    def check_combatant(self, combatant: Combatant) -> None:
        """Integer ``ocv``, ``dcv``, ``init``; optional integers and flags well typed."""
        for name in REQUIRED_INT_STATS + OPTIONAL_INT_STATS:
            value = combatant.stat(name)
            if value is None and name in OPTIONAL_INT_STATS:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise CommandRejected(
                    "bad_scene",
                    f"token {combatant.id!r} needs an integer stat {name!r} for {self.title}, "
                    f"got {value!r}",
                )
        for name in FLAGS:
            if not isinstance(combatant.stat(name, False), bool):
                raise CommandRejected(
                    "bad_scene", f"token {combatant.id!r}: {name} must be true or false"
                )
        sheet_of(combatant)  # its Powers (seed 002), refused with bad_scene if malformed
        if combatant.stat("identity", "true") not in ("true", "alternate"):
            raise CommandRejected(
                "bad_scene", f"token {combatant.id!r}: identity is 'true' or 'alternate'"
            )
        for key, value in combatant.stats:
            if key.startswith("wf:") and (len(key) == 3 or not isinstance(value, bool)):
                raise CommandRejected(
                    "bad_scene",
                    f"token {combatant.id!r}: {key!r} is a Weapon Familiarity, "
                    "'wf:<group>': true or false",
                )
        for name in ("noncombat", "flight"):
            value = combatant.stat(name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float)
            ):
                raise CommandRejected(
                    "bad_scene", f"token {combatant.id!r}: {name} must be a number"
                )

    def initiative(
        self,
        combatants: Sequence[Combatant],
        tray: DiceTray,
        groups: Sequence[Sequence[str]] = (),
    ) -> Initiative:
        """INIT order, highest first; ties broken by 1d6 rolls among the tied only.  A
        group acts at its best member's INIT, its members one after another.

        The rolls, in the order they are made (and the order a table supplying its own
        dice gives them in): the ties from the highest INIT down; at each, one die per
        tied character in scene order; where dice tie again, a re-roll among just those
        right away, the higher group first."""
        scores = {c.id: int_stat(c, "init") for c in combatants}
        for group in groups:
            best = max(scores[cid] for cid in group)
            scores.update({cid: best for cid in group})
        by_score: dict[int, list[str]] = {}
        for combatant in combatants:
            by_score.setdefault(scores[combatant.id], []).append(combatant.id)
        order: list[str] = []
        for score in sorted(by_score, reverse=True):
            order.extend(_break_ties(by_score[score], tray, f"initiative tie at INIT {score}"))
        order = adjoin(order, groups)
        return Initiative(tuple(order), tuple((cid, scores[cid]) for cid in order))

    def newcomer(self, combat: Combat, combatant: Combatant, tray: DiceTray) -> int:
        """A newcomer acts at its INIT; at an INIT already taken :meth:`newcomer_ahead`
        settles its place."""
        return int_stat(combatant, "init")

    def newcomer_ahead(
        self,
        combat: Combat,
        newcomer: Combatant,
        score: int,
        rival: Sequence[Combatant],
        tray: DiceTray,
    ) -> bool:
        """ "The characters who are tied randomly determine which one of them goes before
        the other": as at the start, 1d6 each (the newcomer first, then ``rival``, a
        group rolling once), rerolled while they tie; those already placed keep their
        order."""
        purpose = f"initiative tie at INIT {score}: {newcomer.id} joins"
        while True:
            mine, theirs = tray.roll(purpose, 2, 6)
            if mine != theirs:
                return mine > theirs

    def fight_started(self, state: EncounterState) -> Result:
        """Starting END and STUN for every character that tracks them, in scene order."""
        combat, scene = state.combat, state.scene
        assert combat is not None and isinstance(scene, Scene)
        vitals = tuple(v for t in scene.tokens if (v := self.initial_vitals(t)) is not None)
        return replace(state, combat=put(combat, replace(hero(combat), vitals=vitals))), []

    def joined(self, state: EncounterState, cid: str) -> Result:
        """A newcomer's END and STUN are tracked from now."""
        combat, scene = state.combat, state.scene
        assert combat is not None and isinstance(scene, Scene)
        token = scene.token(cid)
        vitals = None if token is None else self.initial_vitals(token)
        if vitals is None:
            return state, []
        fight = hero(combat)
        return replace(
            state, combat=put(combat, replace(fight, vitals=(*fight.vitals, vitals)))
        ), []

    def initial_vitals(self, combatant: Combatant) -> Vitals | None:
        """Starting END and STUN, for characters that track them."""
        if combatant.stat("end") is None and combatant.stat("stun") is None:
            return None
        return Vitals(combatant.id, int_stat(combatant, "end"), int_stat(combatant, "stun"))

    def new_combatant_state(self, combatant: Combatant) -> Any:
        """No Power state until a character uses its Powers (fights without them keep
        the shape they had)."""
        return None

    def surprise(self, aware: tuple[str, ...], everyone: tuple[str, ...]) -> bool:
        """A Surprise Phase only if some but not all are aware."""
        return has_surprise_phase(aware, everyone)

    # -- time (engine/rulesets/hero/time.py) ----------------------------------------------

    def can_act(self, combat: Combat, cid: str) -> bool:
        """In this Phase (aware in the Surprise Phase), and not ``cannot_act``."""
        return time.able(combat, cid)

    def skip_reason(self, combat: Combat, cid: str) -> str | None:
        """Aborted, or unable to act: skipped, keeping its INIT."""
        return time.skip_reason(combat, cid)

    def count_reached(self, state: EncounterState, cid: str) -> Result:
        """Defences end, abort locks lift, old holds lapse."""
        return time.count_reached(state, cid)

    def cut_in(
        self, state: EncounterState, cid: str
    ) -> tuple[EncounterState, list[Any], str | None]:
        """A delay "just before" ``cid``."""
        return time.cut_in(state, cid)

    def start_acting(self, state: EncounterState, cid: str) -> Result:
        """A fresh Phase budget; constant Powers on cost their END (seed 002)."""
        state, events = time.fresh_budget(state, cid)
        scene = state.scene
        token = scene.token(cid) if isinstance(scene, Scene) else None
        state, upkept = phase_upkeep(state, cid, token)
        return state, [*events, *upkept]

    def combat_ending(self, state: EncounterState) -> list[Any]:
        """Every delayed or readied action still held lapses (``hold_lapsed``)."""
        return time.holds_lapsing(state)

    def pass_started(self, state: EncounterState) -> Result:
        """No manoeuvres used yet this Phase."""
        return time.pass_started(state)

    def pass_ended(self, state: EncounterState) -> tuple[EncounterState, list[Any], str | None]:
        """Ask a waiting delayer whether it takes its delayed action now."""
        state, asked = time.pass_ended(state)
        return state, asked, None

    def prompt_answered(
        self, state: EncounterState, prompt: Prompt, accept: bool, actor: str
    ) -> Result:
        """The answer to a ``delayed_action`` prompt."""
        if prompt.kind != time.DELAYED_ACTION:
            raise CommandRejected("unknown_prompt", f"no {prompt.kind!r} prompt in {self.title}")
        return time.answer_delay(state, prompt, accept)  # the walk settles its requests

    def turn_ended(self, state: EncounterState) -> Result:
        """The Post-Turn Recovery."""
        return time.post_turn(state, self)

    def trigger_fired(self, ctx: Context, trigger: Trigger, by: str) -> Result:
        """A readied action fires."""
        return time.fire_ready(ctx, trigger, by)  # the walk settles its requests

    # -- movement (engine/rulesets/hero/moves.py, budget.py) ------------------------------

    def movement_left(self, combat: Combat, combatant: Combatant) -> float:
        """Combat movement still open: one length per move action the Phase has left."""
        if combat.actor == combatant.id:
            return budget.movement_left(combatant, usage(combat), limited_now(combat))
        return budget.movement_left(combatant, PhaseUsage(), False)

    def plan_move(self, ctx: Context, mode: str, *, cost: float, steps: int) -> MovePlan:
        """Check a move of ``mode`` against the Phase's budget and charge it."""
        return plan_move(ctx, mode, cost=cost, steps=steps)

    def move_exempt(self, ctx: Context, mode: str) -> tuple[str, ...]:
        """Adjacent enemies a withdrawer can see get no attack of opportunity as it begins."""
        return withdraw_exempt(ctx) if mode == "withdraw" else ()

    def spared(self, ctx: Context) -> tuple[str, ...]:
        """ "Unless the enemy attacks you as part of their action": those attacked already."""
        return usage(ctx.combat).attacked

    def plan_move_attack(
        self,
        ctx: Context,
        combat: Combat,
        target: Combatant,
        maneuver: Any,
        rolls: tuple[int, ...] | None,
    ) -> Combat:
        """A move ending in an attack needs the attack action left after the move."""
        return plan_move_attack(ctx, combat, target, as_maneuver(maneuver), rolls)

    def move_attack(
        self, ctx: Context, target: Combatant, maneuver: Any, rolls: tuple[int, ...] | None
    ) -> Result:
        """The attack at the end of a move."""
        combat = ctx.combat
        chosen = as_maneuver(maneuver) or STRIKE
        used = (*hero(combat).maneuvers_of(ctx.token.id), chosen)
        roll = self.attack_roll(
            combat, ctx.token, target, ctx.tray, rolls, attack="attack", maneuvers=used
        )
        spent = usage(combat)
        spent = replace(
            spent, actions=(*spent.actions, ATTACK), attacked=(*spent.attacked, target.id)
        )
        combat = with_usage(combat, spent)
        combat = put(combat, hero(combat).with_maneuver(ctx.token.id, chosen))
        return replace(ctx.state, combat=combat, draws=ctx.tray.draws), [*ctx.tray.events, roll]

    def check_flight(self, ctx: Context, mode: str, rise: float) -> None:
        """A move that changes height is Flight (6E Powers, a movement Power): the token
        needs a ``flight`` statistic above 0, and the move (any mode but the 1 m step,
        crawling and the hampered move, which stay on the ground) costs its length in
        three dimensions against the Phase's movement as any move does (a flier's
        ``movement`` is the speed it flies at)."""
        flight = ctx.token.stat("flight")
        if not isinstance(flight, int | float) or isinstance(flight, bool) or flight <= 0:
            raise CommandRejected(
                "illegal_move", f"{ctx.token.id!r} has no Flight (stat 'flight'): it cannot fly"
            )
        if mode in ("step", "crawl", "hampered"):
            raise CommandRejected(
                "illegal_move", f"the {mode} move stays on the ground: fly with combat movement"
            )

    def provokes(self, combat: Combat, mover: Combatant, mode: str) -> bool:
        """Whether moving this way provokes at all (the 1 m step never does)."""
        return mode != "step"

    # -- attacks ----------------------------------------------------------------------------

    def defensive(self, maneuver: Maneuver) -> bool:
        """A defensive manoeuvre, what an Abort may be taken to (seed 000, *Abort*: "any
        defensive attack or move action"): Block, Dodge or Dive for Cover by name, or any
        manoeuvre the table defines with a DCV bonus and no OCV bonus."""
        if maneuver_name(maneuver) in DEFENSIVE_MANEUVERS:
            return True
        return maneuver.dcv > 0 and maneuver.ocv <= 0

    def threatens(self, combat: Combat, threatener: Combatant, target: Combatant) -> bool:
        """Enemies threaten, unless surprised, unable to act, or having dodged."""
        if threatener.side == target.side:
            return False
        if combat.surprise and threatener.id not in combat.aware:
            return False
        if combat.has(threatener.id, "cannot_act"):
            return False
        defense = hero(combat).defense(threatener.id)
        return not (defense is not None and is_dodge(defense))

    def opportunity_available(
        self, combat: Combat, threatener: Combatant, target: Combatant
    ) -> bool:
        """One attack of opportunity a Phase; Combat Reflexes: one per opponent a Phase."""
        made = [t for a, t in combat.opportunity_attacks if a == threatener.id]
        if flag(threatener, "combat_reflexes"):
            return target.id not in made
        return not made

    def defense_value(self, combat: Combat, target: Combatant) -> int:
        """The target's DCV now: base, its manoeuvres, a held defence, Surprise, conditions."""
        fight = hero(combat)
        dcv = int_stat(target, "dcv")
        _, maneuver_dcv = combine(fight.maneuvers_of(target.id))
        dcv += maneuver_dcv
        defense = fight.defense(target.id)
        if defense is not None:
            dcv += defense.dcv
        if combat.surprise and target.id not in combat.aware:
            dcv += SURPRISED_DCV
        if combat.has(target.id, "underwater"):
            dcv += UNDERWATER_DCV
        if combat.has(target.id, "stunned"):
            dcv //= 2
        return max(dcv, 0)

    def attack_roll(
        self,
        combat: Combat,
        attacker: Combatant,
        target: Combatant,
        tray: DiceTray,
        rolls: tuple[int, ...] | None,
        *,
        attack: str,
        maneuvers: Sequence[Maneuver] = (),
        ocv_bonus: int = 0,
    ) -> AttackRolled:
        """An Attack Roll: 3d6 + OCV (+ combat levels, manoeuvres) against 10 + DCV."""
        dice = tray.roll(f"{attack}: {attacker.id} on {target.id}", 3, 6, rolls)
        maneuver_ocv, _ = combine(maneuvers)
        ocv = int_stat(attacker, "ocv") + ocv_bonus + maneuver_ocv
        dcv = self.defense_value(combat, target)
        total = sum(dice) + ocv
        target_number = ATTACK_ROLL_BASE + dcv
        return AttackRolled(
            attacker=attacker.id,
            target=target.id,
            attack=attack,
            dice=dice,
            ocv=ocv,
            dcv=dcv,
            total=total,
            target_number=target_number,
            hit=total >= target_number,
        )

    def opportunity_attack(
        self, ctx: Context, target: Combatant, rolls: tuple[int, ...] | None, answer: Any
    ) -> OpportunityAttack:
        """An attack of opportunity: this Phase's manoeuvres plus the one used now, which
        (named or not: a Strike) counts among them, so a later, better one gets only the
        worst bonus."""
        combat = ctx.combat
        chosen = as_maneuver(answer) or STRIKE
        used = (*hero(combat).maneuvers_of(ctx.token.id), chosen)
        roll = self.attack_roll(
            combat, ctx.token, target, ctx.tray, rolls, attack="attack_of_opportunity",
            maneuvers=used,
        )  # fmt: skip
        combat = put(combat, hero(combat).with_maneuver(ctx.token.id, chosen))
        state = replace(ctx.state, combat=combat, draws=ctx.tray.draws)
        return OpportunityAttack(state, [*ctx.tray.events, roll], roll.hit)

    # -- Post-Turn ------------------------------------------------------------------------

    def recovers(self, combat: Combat, combatant: Combatant) -> bool:
        """Eligible for the Post-Turn Recovery: has REC, not marked ``no_recovery``."""
        return combatant.stat("rec") is not None and not combat.has(combatant.id, "no_recovery")

    def recovery(self, combatant: Combatant, vitals: Vitals) -> Vitals:
        """Take a Recovery: REC back to END and STUN, up to their starting values."""
        rec = int_stat(combatant, "rec")
        return Vitals(
            combatant.id,
            min(int_stat(combatant, "end"), vitals.end + rec),
            min(int_stat(combatant, "stun"), vitals.stun + rec),
        )


def _break_ties(tied: list[str], tray: DiceTray, purpose: str) -> list[str]:
    """Order ``tied`` by 1d6 each, highest first, rerolling among any still tied."""
    if len(tied) == 1:
        return tied
    if any(tray.has_own(cid) for cid in tied):
        # A player rolled its own die (roll_initiative): one roll per character, so each
        # die is in its roller's name.
        rolls = tuple(tray.roll_for(cid, purpose, 1, 6)[0] for cid in tied)
    else:
        rolls = tray.roll(purpose, len(tied), 6)
    groups: dict[int, list[str]] = {}
    for cid, value in zip(tied, rolls, strict=True):
        groups.setdefault(value, []).append(cid)
    ordered: list[str] = []
    for value in sorted(groups, reverse=True):
        ordered.extend(_break_ties(groups[value], tray, purpose))
    return ordered
