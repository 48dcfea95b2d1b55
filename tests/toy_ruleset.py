"""A tiny ruleset that exercises the whole seam (:mod:`engine.rulesets.base`).

"Toy duel": a Round is one pass; initiative is ``speed`` + 1d6, a group sharing one roll;
each turn one move (``stride`` up to ``movement``, ``sneak`` up to half of it, which
provokes no attack of opportunity) and one action: ``zap`` a target (1d6, hits on 4+),
``guard`` (no attack of opportunity against the guard, and it makes none), ``ambush``:
zap for a trigger (a token's action, entering an area, coming into sight) that lapses
at the end of the Round, ``bless`` a token for some Rounds (an effect), ``nap`` (the
action is to end the turn at once), the GM's ``daze`` (a dazed combatant is skipped)
and ``barge`` (someone moves to just before whoever is up, and acts now).  ``nap`` and
``barge`` ask for time the only way a ruleset may: by returning clock requests
(:mod:`engine.clock`) that the walk applies.  Enemies within reach threaten a striding
mover: one attack of opportunity a Round each.

Importing this module registers it; it is used by tests only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Annotated, Any, ClassVar, Literal

from engine.clock import ActNow, Advance, Reorder
from engine.combat_state import Trigger
from engine.effects import start_effect
from engine.errors import CommandRejected
from engine.model import Combatant, EncounterState
from engine.params import DICE, CellRef, Range, TokenRef
from engine.rulesets.base import (
    ActionSpec,
    Context,
    Initiative,
    MovePlan,
    NoParams,
    OpportunityAttack,
    Result,
    Ruleset,
    Vocabulary,
    register,
)
from engine.tray import DiceTray
from engine.words import HoldFields, HoldWords, StatWords, Wording


@dataclass(frozen=True, slots=True)
class ToyFighter:
    """Per-combatant state: movement spent and whether the action is used this turn."""

    moved: float = 0.0
    acted: bool = False
    guarding: bool = False
    dazed: bool = False


@dataclass(frozen=True, slots=True)
class ToyFight:
    """Fight-wide state: zaps so far (to show fight state round-trips)."""

    zaps: int = 0


@dataclass(frozen=True, slots=True)
class Zapped:
    """``attacker`` zapped ``target``: ``roll`` on 1d6, ``hit`` on 4 or more."""

    kind: ClassVar[str] = "toy_zapped"
    attacker: str
    target: str
    roll: int
    hit: bool


@dataclass(frozen=True, slots=True)
class Held:
    """``combatant`` holds a zap until ``on`` (``by``, ``area``)."""

    kind: ClassVar[str] = "toy_ambush"
    combatant: str
    on: str
    by: str | None
    area: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Sprung:
    """``combatant``'s held zap goes off at ``by``: it acts now, out of turn."""

    kind: ClassVar[str] = "toy_ambush_sprung"
    combatant: str
    by: str


@dataclass(frozen=True, slots=True)
class Lapsed:
    """``combatant``'s held zap lapsed at the end of the Round."""

    kind: ClassVar[str] = "toy_ambush_lapsed"
    combatant: str


@dataclass(frozen=True, slots=True)
class ZapParams:
    """Zap ``target`` with ``power`` 1..3; ``rolls``: the table's own 1d6."""

    target: TokenRef
    power: Annotated[int, Range(1, 3)] = 1
    rolls: Annotated[tuple[int, ...] | None, DICE] = None


@dataclass(frozen=True, slots=True)
class HoldParams:
    """Hold a zap until ``on``: ``action`` (``by``'s), ``enter`` (``area``), ``sight``."""

    on: Literal["action", "enter", "sight"]
    by: TokenRef | None = None
    area: tuple[CellRef, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class BlessParams:
    """Bless ``target`` for ``rounds`` Rounds."""

    target: TokenRef
    rounds: Annotated[int, Range(1, 10)] = 1


@dataclass(frozen=True, slots=True)
class DazeParams:
    """Daze (``on``) or wake ``target``."""

    target: TokenRef
    on: bool = True


@dataclass(frozen=True, slots=True)
class BargeParams:
    """Who the GM barges in to act now."""

    target: TokenRef


def _me(ctx: Context) -> ToyFighter:
    state = ctx.mine
    assert isinstance(state, ToyFighter)
    return state


def _action_used(ctx: Context) -> str | None:
    return "the action is used this turn" if _me(ctx).acted else None


def _spend(ctx: Context, **changes: Any) -> EncounterState:
    combat = ctx.combat.with_state(ctx.token.id, replace(_me(ctx), acted=True, **changes))
    return replace(ctx.state, combat=combat)


def _target(ctx: Context, target: str) -> Combatant:
    token = ctx.scene.token(target)
    if token is None or token.id == ctx.token.id:
        raise CommandRejected("unknown_token", f"no target {target!r}")
    return token


def _zap_targets(ctx: Context) -> list[tuple[str, str | None]]:
    """Each token as a target of a zap, with why not (the check ``_target`` runs)."""
    return [(t.id, "not oneself" if t.id == ctx.token.id else None) for t in ctx.scene.tokens]


def _zap(ctx: Context, params: ZapParams) -> Result:
    target = _target(ctx, params.target)
    (roll,) = ctx.tray.roll(f"zap: {ctx.token.id} on {target.id}", 1, 6, params.rolls)
    state = _spend(ctx)
    combat = state.combat
    assert combat is not None
    combat = combat.with_rules(ToyFight(combat.rules.zaps + 1))
    event = Zapped(ctx.token.id, target.id, roll, roll + params.power - 1 >= 4)
    return replace(state, combat=combat), [*ctx.tray.events, event]


def _guard(ctx: Context, params: NoParams) -> Result:
    return _spend(ctx, guarding=True), []


def _hold(ctx: Context, params: HoldParams) -> Result:
    if params.on == "action" and params.by is None:
        raise CommandRejected("illegal_action", "name whose action sets the zap off")
    if params.on == "enter" and not params.area:
        raise CommandRejected("illegal_action", "name the area")
    state = _spend(ctx)
    combat = state.combat
    assert combat is not None
    trigger = Trigger(ctx.token.id, params.on, params.by, tuple(sorted(params.area)), "zap")
    combat = replace(combat, triggers=(*combat.triggers, trigger))
    held = Held(ctx.token.id, params.on, params.by, trigger.area)
    return replace(state, combat=combat), [held]


def _bless(ctx: Context, params: BlessParams) -> Result:
    target = _target(ctx, params.target)
    state = _spend(ctx)
    combat = state.combat
    assert combat is not None
    combat, started = start_effect(
        combat, "blessed", target.id, ctx.token.id, params.rounds, ctx.ruleset.time_words
    )
    return replace(state, combat=combat), [started]


def _nap(ctx: Context, params: NoParams) -> Result:
    # Time is asked for, never stepped: the walk ends the turn where this value stands.
    return _spend(ctx), [Advance()]


def _barge(ctx: Context, params: BargeParams) -> Result:
    target = _target(ctx, params.target)
    # The walk moves the target just before whoever is up, announces it, and lets it act.
    return ctx.state, [Reorder(target.id, ctx.combat.regular_actor), ActNow(target.id)]


def _daze(ctx: Context, params: DazeParams) -> Result:
    combat = ctx.combat
    fighter = combat.state_of(params.target)
    if fighter is None:
        raise CommandRejected("unknown_token", f"{params.target!r} is not in the fight")
    combat = combat.with_state(params.target, replace(fighter, dazed=params.on))
    return replace(ctx.state, combat=combat), []


@register
class ToyDuel(Ruleset):
    """The toy duel (see the module docstring)."""

    name: ClassVar[str] = "toy-duel"
    title: ClassVar[str] = "Toy duel"
    fight_state: ClassVar[type | None] = ToyFight
    combatant_state: ClassVar[type | None] = ToyFighter
    move_modes: ClassVar[tuple[str, ...]] = ("stride", "sneak")
    actions: ClassVar[dict[str, ActionSpec[Any]]] = {
        "zap": ActionSpec("zap", ZapParams, _zap, _action_used, choices=_zap_targets),
        "guard": ActionSpec("guard", NoParams, _guard, _action_used),
        "ambush": ActionSpec("ambush", HoldParams, _hold, _action_used),
        "bless": ActionSpec("bless", BlessParams, _bless, _action_used),
        "nap": ActionSpec("nap", NoParams, _nap, _action_used),
        "daze": ActionSpec("daze", DazeParams, _daze, when="gm"),
        "barge": ActionSpec("barge", BargeParams, _barge, when="gm"),
    }
    vocabulary: ClassVar[Vocabulary] = Vocabulary(
        conditions=("dazed",),
        resources=("speed",),
        events=(Zapped, Held, Sprung, Lapsed),
        other=("zaps",),
    )
    # A game's words live in its words.py; the toy keeps them beside its events.
    wording: ClassVar[Wording] = Wording(
        events={
            "toy_zapped": "{attacker:token} zaps {target:token}: 1d6 {roll}, {hit?a hit|a miss}",
            "toy_ambush": "{combatant:token} lies in ambush until {on:word}[ by {by:token}]"
            "[ in {area:count} cells]",
            "toy_ambush_sprung": "{combatant:token} springs its ambush on {by:token}",
            "toy_ambush_lapsed": "{combatant:token}'s ambush lapses",
        },
        stats=(StatWords("speed", "integer", doc="added to the initiative roll"),),
        triggers={
            "action": "the named token starts its action",
            "enter": "a token enters the area",
            "sight": "a token comes into sight",
        },
        # Its held zaps are the core's triggers: a client follows them with no edit.
        holds=HoldWords(
            declared=Held,
            event=HoldFields("combatant", trigger="on", trigger_by="by", area="area"),
            listed="triggers",
            entry_type=Trigger,
            entry=HoldFields("owner", trigger="on", trigger_by="by", area="area"),
            fired=Sprung,
            dropped=(Lapsed,),
            kind="ambush",
        ),
    )

    def check_combatant(self, combatant: Combatant) -> None:
        """``speed``, when given, is an integer."""
        speed = combatant.stat("speed", 0)
        if isinstance(speed, bool) or not isinstance(speed, int):
            raise CommandRejected("bad_scene", f"{combatant.id}: speed must be an integer")

    def condition_set(self, combat: Any, cid: str, condition: str, on: bool) -> Any:
        """``dazed`` is the fighter's own flag, as the GM's ``daze`` sets it."""
        fighter = combat.state_of(cid)
        return combat.with_state(cid, replace(fighter, dazed=on))

    def initiative(self, combatants: Any, tray: DiceTray, groups: Any) -> Initiative:
        """``speed`` + 1d6; a group rolls once at its fastest member's speed."""
        grouped = {cid: tuple(g) for g in groups for cid in g}
        scores: dict[str, int] = {}
        for c in combatants:
            if c.id in scores:
                continue
            members = grouped.get(c.id, (c.id,))
            speed = max(int(m.stat("speed", 0) or 0) for m in combatants if m.id in members)
            (roll,) = tray.roll(f"initiative: {', '.join(members)}", 1, 6)
            scores.update({m: speed + roll for m in members})
        order = sorted(scores, key=lambda cid: (-scores[cid], cid))
        return Initiative(tuple(order), tuple((cid, scores[cid]) for cid in order))

    def skip_reason(self, combat: Any, cid: str) -> str | None:
        """A dazed combatant is skipped."""
        fighter = combat.state_of(cid)
        return "dazed" if fighter is not None and fighter.dazed else None

    def start_acting(self, state: EncounterState, cid: str) -> Result:
        """A fresh move and action each turn."""
        combat = state.combat
        assert combat is not None
        return replace(state, combat=combat.with_state(cid, ToyFighter())), []

    def turn_ended(self, state: EncounterState) -> Result:
        """Held zaps lapse at the end of the Round."""
        combat = state.combat
        assert combat is not None
        lapsed = [Lapsed(t.owner) for t in combat.triggers]
        return replace(state, combat=replace(combat, triggers=())), lapsed

    def movement_left(self, combat: Any, combatant: Combatant) -> float:
        """What is left of ``movement`` this turn."""
        fighter = combat.state_of(combatant.id)
        return max(0.0, combatant.movement - (fighter.moved if fighter else 0.0))

    def plan_move(self, ctx: Context, mode: str, *, cost: float, steps: int) -> MovePlan:
        """Stride up to what is left; sneak at double cost."""
        spent = cost * (2 if mode == "sneak" else 1)
        left = self.movement_left(ctx.combat, ctx.token)
        if spent > left + 1e-9:
            raise CommandRejected("over_budget", f"{mode} costs {spent:g}, {left:g} left")
        fighter = replace(_me(ctx), moved=_me(ctx).moved + spent)
        return MovePlan(ctx.combat.with_state(ctx.token.id, fighter), mode)

    def provokes(self, combat: Any, mover: Combatant, mode: str) -> bool:
        """Striding provokes; sneaking does not."""
        return mode == "stride"

    def threatens(self, combat: Any, threatener: Combatant, target: Combatant) -> bool:
        """Enemies threaten unless guarding or dazed."""
        fighter = combat.state_of(threatener.id)
        busy = fighter is not None and (fighter.guarding or fighter.dazed)
        return threatener.side != target.side and not busy

    def opportunity_available(self, combat: Any, threatener: Combatant, target: Combatant) -> bool:
        """One attack of opportunity a Round."""
        return all(a != threatener.id for a, _ in combat.opportunity_attacks)

    def opportunity_attack(
        self, ctx: Context, target: Combatant, rolls: tuple[int, ...] | None, answer: Any
    ) -> OpportunityAttack:
        """A free zap at the mover."""
        state, events = _zap_free(ctx, target, rolls)
        hit = any(isinstance(e, Zapped) and e.hit for e in events)
        return OpportunityAttack(state, events, hit)

    def trigger_fired(self, ctx: Context, trigger: Trigger, by: str) -> Result:
        """The held zap goes off at whoever set it off."""
        target = ctx.scene.token(by)
        assert target is not None
        state, events = _zap_free(ctx, target, None)
        return state, [Sprung(ctx.token.id, by), *events]


def _zap_free(ctx: Context, target: Combatant, rolls: tuple[int, ...] | None) -> Result:
    (roll,) = ctx.tray.roll(f"zap: {ctx.token.id} on {target.id}", 1, 6, rolls)
    return ctx.state, [*ctx.tray.events, Zapped(ctx.token.id, target.id, roll, roll >= 4)]
