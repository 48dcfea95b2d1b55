"""Cyberpunk RED plugged into the engine: the seam's hooks over the rules modules.

The rules live beside this file, each module quoting the text it implements; this
module only translates between the engine's encounter (``Combat.rules`` holds
:class:`CprFight`, ``Combat.per_combatant`` a :class:`~.state.Fighter` per token) and
those modules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from engine.clock import Requeue
from engine.combat_state import Combat
from engine.combat_state import Trigger as CoreTrigger
from engine.errors import CommandRejected
from engine.events import ConditionChanged
from engine.model import Combatant, EncounterState, Scene
from engine.rulesets.base import (
    ActionSpec,
    Context,
    Initiative,
    MovePlan,
    Result,
    Ruleset,
    Vocabulary,
    register,
)
from engine.rulesets.cyberpunk_red import economy, ground, holding, initiative, movement, rules
from engine.rulesets.cyberpunk_red.events import CPR_EVENTS, ActionDone, QueueChanged
from engine.rulesets.cyberpunk_red.state import (
    Arena,
    Fighter,
    HeldAction,
    Vehicle,
    Weapon,
)
from engine.rulesets.cyberpunk_red.stats import (
    fighter_from_token,
    is_vehicle,
)
from engine.rulesets.cyberpunk_red.words import WORDING
from engine.rulesets.cyberpunk_red.world import GridlessWorld, SceneWorld
from engine.spatial import SpatialCache
from engine.timewords import TimeUnit, TimeWords
from engine.tray import DiceTray
from engine.words import Wording

NAME = "cyberpunk-red"


@dataclass(frozen=True, slots=True)
class CprFight:
    """The fight-wide Cyberpunk RED state: vehicles, weapons on the floor, held actions,
    the Round, who has had a turn this Round (``acted``), whose turn runs (``turn_of``),
    and the table's MOVE figures (``move_rules``)."""

    vehicles: tuple[Vehicle, ...] = ()
    floor: tuple[tuple[tuple[int, int], Weapon], ...] = ()
    holds: tuple[HeldAction, ...] = ()
    round: int = 1
    acted: tuple[str, ...] = ()
    turn_of: str | None = None
    move_rules: movement.MoveRules = field(default_factory=movement.MoveRules)


CONDITIONS = ("prone", "mortally_wounded")


def fighter_in(combat: Combat, cid: str) -> Fighter | None:
    """``cid``'s fighter, its conditions read from the fight's conditions (the GM's
    ``set_condition``, and what Get Up or a Throw changed), or None for a vehicle."""
    fighter = combat.state_of(cid)
    if not isinstance(fighter, Fighter) or fighter.is_vehicle:
        return None
    return _with_conditions(fighter, combat.conditions_of(cid))


def _with_conditions(fighter: Fighter, conditions: tuple[str, ...]) -> Fighter:
    """``fighter`` with its conditions as the fight records them."""
    return replace(
        fighter, prone="prone" in conditions, mortally_wounded="mortally_wounded" in conditions
    )


def _fight(combat: Combat) -> CprFight:
    rules_state = combat.rules
    assert isinstance(rules_state, CprFight)
    return rules_state


def arena_of(state: EncounterState) -> Arena:
    """The rules modules' view of ``state``'s fight: every fighter that is not a vehicle,
    the vehicles on the scene, the floor, the holds and the Round."""
    combat, scene = state.combat, state.scene
    assert combat is not None and scene is not None
    fight = _fight(combat)
    # fighter_in for every combatant, each state and conditions looked up in a dict made
    # once: fighter_in itself scans the fight's lists, n x n for the whole arena (300
    # combatants: some 5 ms an arena, 2,000: 60 ms).
    conditions: dict[str, tuple[str, ...]] = {}
    for cid, held in combat.conditions:
        conditions.setdefault(cid, held)  # the first, as Combat.conditions_of reads it
    fighters = tuple(
        _with_conditions(state, conditions.get(cid, ()))
        for cid, state in combat.per_combatant
        if isinstance(state, Fighter) and not state.is_vehicle
    )
    known = {v.id for v in fight.vehicles}
    vehicles = (
        *fight.vehicles,
        *(Vehicle(t.id) for t in scene.tokens if is_vehicle(t) and t.id not in known),
    )
    return Arena(
        fighters, tuple(sorted(vehicles, key=lambda v: v.id)), fight.floor, fight.holds, fight.round
    )


def store(state: EncounterState, arena: Arena) -> tuple[EncounterState, list[Any]]:
    """``state`` with the rules modules' ``arena`` written back, and a
    ``condition_changed`` for each condition an action changed (Get Up, a Throw)."""
    combat = state.combat
    assert combat is not None
    events: list[Any] = []
    for fighter in arena.fighters:
        combat = combat.with_state(fighter.id, fighter)
        for condition in CONDITIONS:
            on = bool(getattr(fighter, condition))
            if combat.has(fighter.id, condition) != on:
                combat = combat.with_condition(fighter.id, condition, on)
                events.append(ConditionChanged(fighter.id, condition, on))
    fight = replace(_fight(combat), vehicles=arena.vehicles, floor=arena.floor,
                    holds=arena.holds, round=arena.round)  # fmt: skip
    return replace(state, combat=combat.with_rules(fight)), events


def world(ctx: Context) -> SceneWorld | GridlessWorld:
    """Reach and sight over the scene's spatial index (gridless: its board)."""
    return world_over(ctx.spatial, ctx.scene, token_ids(ctx.scene))


def world_over(
    spatial: SpatialCache, scene: Scene, ids: tuple[str, ...]
) -> SceneWorld | GridlessWorld:
    """The actions' :class:`~.action_spec.World` of ``scene`` (tokens ``ids``)."""
    if scene.grid.gridless:
        return GridlessWorld(spatial.board(scene), ids)
    return SceneWorld(spatial.index(scene), ids, elevations(scene))


def token_ids(scene: Scene) -> tuple[str, ...]:
    """Every token of ``scene``, in the scene's order (the targets an action may name)."""
    return tuple(t.id for t in scene.tokens)


def elevations(scene: Scene) -> dict[str, float]:
    """The tokens of ``scene`` off the ground, by id (reach counts in 3D for them)."""
    return {t.id: t.elevation for t in scene.tokens if t.elevation}


# -- the actions, through the seam ------------------------------------------------------


def _refusal(name: str) -> Callable[[Context], str | None]:
    """The seam's ``refusal`` for action ``name``: the same check its run makes first."""

    def refusal(ctx: Context) -> str | None:
        arena, scene_world = _arena_for_options(ctx)
        if not arena.has(ctx.token.id):
            return f"{ctx.token.id} is a vehicle, not a combatant"
        return rules.refusal(arena, scene_world, arena.fighter(ctx.token.id), name, None)

    return refusal


#: The last state an action's refusal read, its arena and its scene's token ids:
#: ``ask_options`` asks every action's refusal of one state in turn, and building the
#: arena once, not once an action, is most of its cost on a crowded scene (22 arenas of
#: 300 fighters: 100 ms).  States are immutable, so the same object always has the same
#: arena and ids; one slot, so it keeps at most one old state alive.  The world itself
#: is not kept: its spatial index follows whichever state was asked about last (the
#: bridge asks about its committed state between others), so it is asked for each time.
_last_arena: list[tuple[EncounterState, Arena, tuple[str, ...]]] = []


def _arena_for_options(ctx: Context) -> tuple[Arena, SceneWorld | GridlessWorld]:
    """:func:`arena_of` and :func:`world` of ``ctx``, the arena and the token ids reused
    if the last refusal was of the same state."""
    if _last_arena and _last_arena[0][0] is ctx.state:
        _, arena, ids = _last_arena[0]
    else:
        arena, ids = arena_of(ctx.state), token_ids(ctx.scene)
        _last_arena[:] = [(ctx.state, arena, ids)]
    return arena, world_over(ctx.spatial, ctx.scene, ids)


def _runner(name: str) -> Callable[[Context, Any], Result]:
    """The seam's ``run`` for action ``name``: check, apply, and the queue or trigger it
    changes."""

    def run(ctx: Context, params: Any) -> Result:
        arena, events = rules.perform(
            arena_of(ctx.state), world(ctx), ctx.token.id, name, params, ctx.tray
        )
        state, extra = store(ctx.state, arena)
        if name == "start_vehicle":
            state, shifted = _driver_to_front(state, ctx.token.id)
            extra += shifted
        elif name == "hold_action":
            state = _watch(state, ctx.token.id, params)
        return state, [*ctx.tray.events, *events, *extra]

    return run


def _driver_to_front(state: EncounterState, driver: str) -> Result:
    """The driver goes to the front of the queue ("a driver who starts a vehicle moves to
    its front")."""
    combat = state.combat
    assert combat is not None
    order = initiative.to_front(combat.order, driver)
    score_of = dict(combat.scores)
    # The queue stays sorted by score for whoever joins later: the driver takes the top score.
    score_of[driver] = max(score_of.values())
    scores = tuple((cid, score_of[cid]) for cid in order)
    # The walk reorders (whoever is up stays up) and announces the new order.
    return state, [QueueChanged("driver", driver, order), Requeue(order, scores)]


def _watch(state: EncounterState, holder: str, params: holding.HoldParams) -> EncounterState:
    """Ask the core to watch for an ``enters`` or ``in_sight`` trigger (``after_turn`` is
    the ruleset's own: see :meth:`CyberpunkRed.count_reached`)."""
    combat = state.combat
    assert combat is not None
    on = {"enters": "enter", "in_sight": "sight"}.get(params.trigger)
    if on is None:
        return state
    trigger = CoreTrigger(holder, on, params.token, tuple(params.area), params.action)
    return replace(state, combat=replace(combat, triggers=(*combat.triggers, trigger)))


@dataclass(frozen=True, slots=True)
class MovePenaltyParams:
    """The table's figures for Mortally Wounded: MOVE minus ``mortally_wounded_move``,
    never below ``mortally_wounded_floor`` by it.  The text says only that Mortally
    Wounded lowers MOVE; the defaults (6, 1) are the Cyberpunk RED core book's."""

    mortally_wounded_move: int = 6
    mortally_wounded_floor: int = 1


def _move_penalties(ctx: Context, params: MovePenaltyParams) -> Result:
    if params.mortally_wounded_move < 0 or params.mortally_wounded_floor < 0:
        raise CommandRejected("illegal_action", "MOVE penalties are whole numbers >= 0")
    move_rules = movement.MoveRules(params.mortally_wounded_move, params.mortally_wounded_floor)
    fight = replace(_fight(ctx.combat), move_rules=move_rules)
    note = (
        f"Mortally Wounded: MOVE -{move_rules.mortally_wounded_move}, "
        f"at least {move_rules.mortally_wounded_floor}"
    )
    state = replace(ctx.state, combat=ctx.combat.with_rules(fight))
    return state, [ActionDone(ctx.token.id, "move_penalties", "gm", note=note)]


ACTIONS: dict[str, ActionSpec[Any]] = {
    **{
        name: ActionSpec(name, spec.params, _runner(name), _refusal(name), "turn", doc=spec.does)
        for name, spec in rules.CATALOGUE.items()
    },
    "move_penalties": ActionSpec("move_penalties", MovePenaltyParams, _move_penalties, when="gm",
                                 doc="The GM sets what Mortally Wounded takes off MOVE"),
}  # fmt: skip


@register
class CyberpunkRed(Ruleset):
    """Cyberpunk RED (seed 001): see the folder's README.md and each module here."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Cyberpunk RED"
    # "Turn - one character's 3 seconds"; "Round - every combatant has had one turn".
    # The text has no surprise pass (``surprise`` is never true here).
    time_words: ClassVar[TimeWords] = TimeWords(
        (TimeUnit("round", "Round", 3),), surprise="Surprise Round", action="Turn"
    )
    fight_state: ClassVar[type | None] = CprFight
    combatant_state: ClassVar[type | None] = Fighter
    move_modes: ClassVar[tuple[str, ...]] = tuple(movement.MODE_COST)
    # "I shoot as soon as he leans out": a held action happens with him out, not before.
    trigger_pause: ClassVar[str] = "inside"
    actions: ClassVar[dict[str, ActionSpec[Any]]] = ACTIONS
    vocabulary: ClassVar[Vocabulary] = Vocabulary(
        conditions=CONDITIONS,
        # REF and MOVE are statistics too, but "ref" and "move" are also the core's own
        # words in other senses (a reply's reference, the move command).
        resources=("armor_penalty", "net_actions", "jump", "shield", "vehicle"),
        events=CPR_EVENTS,
        other=("after_turn", "enters", "in_sight", "unarmed"),
    )
    wording: ClassVar[Wording] = WORDING
    #: The fighter's numbers may change mid-fight; what it carries and holds changes
    #: through its actions (draw, drop ...), and ``vehicle`` never (a token is one or not).
    changeable_stats = ("ref", "move", "armor_penalty", "jump", "net_actions")

    # -- set-up ---------------------------------------------------------------------------

    def check_combatant(self, combatant: Combatant) -> None:
        """A vehicle needs nothing; anyone else needs ``ref`` and ``move`` (see state.py)."""
        if combatant.stat("vehicle", False) is not True:
            fighter_from_token(combatant)  # a non-boolean vehicle is refused there

    def initiative(
        self, combatants: Sequence[Combatant], tray: DiceTray, groups: Sequence[Sequence[str]]
    ) -> Initiative:
        """REF + d10, ties rerolled among the tied (:mod:`.initiative`).  Vehicles roll
        none.  A group (the GM's mooks) rolls once, as its first member, and its members
        follow that member in the queue with the same score."""
        fighters = [c for c in combatants if not is_vehicle(c)]
        lead = {member: group[0] for group in groups for member in group}
        entrants = [
            (c.id, fighter_from_token(c).ref) for c in fighters if lead.get(c.id, c.id) == c.id
        ]
        order, scores = initiative.roll_queue(entrants, initiative.InitiativeDice(tray))
        score_of = dict(scores)
        full: list[str] = []
        for cid in order:
            followers = [c.id for c in fighters if lead.get(c.id) == cid and c.id != cid]
            full += [cid, *followers]
            for member in followers:
                score_of[member] = score_of[cid]
        return Initiative(tuple(full), tuple((cid, score_of[cid]) for cid in full))

    def newcomer(self, combat: Combat, combatant: Combatant, tray: DiceTray) -> int:
        """A newcomer rolls REF + d10; at a score already taken, :meth:`newcomer_ahead`
        settles its place."""
        if is_vehicle(combatant):
            raise CommandRejected(
                "bad_scene", f"{combatant.id!r} is a vehicle: it joins no Initiative Queue"
            )
        ref = fighter_from_token(combatant).ref
        return initiative.newcomer_score(combatant.id, ref, initiative.InitiativeDice(tray))

    def newcomer_ahead(
        self,
        combat: Combat,
        newcomer: Combatant,
        score: int,
        rival: Sequence[Combatant],
        tray: DiceTray,
    ) -> bool:
        """ "Ties reroll until someone comes out on top": the tied newcomer and ``rival``
        (a group by its leader, the first) reroll REF + d10 until one is higher."""
        lead = rival[0]
        return initiative.newcomer_beats(
            newcomer.id,
            fighter_from_token(newcomer).ref,
            lead.id,
            fighter_from_token(lead).ref,
            initiative.InitiativeDice(tray),
            score,
        )

    def stats_changed(self, state: EncounterState, cid: str) -> Result:
        """The fighter takes its token's new numbers and keeps everything else (its hands,
        this turn's usage, prone ...).  The Initiative Queue stands: "at the start of
        combat each combatant rolls Initiative once ... after that the order doesn't
        change"; a new REF counts from the next fight."""
        combat, scene = state.combat, state.scene
        assert combat is not None and scene is not None
        token = scene.token(cid)
        assert token is not None
        fresh = fighter_from_token(token)
        fighter = replace(
            combat.state_of(cid),
            ref=fresh.ref,
            move=fresh.move,
            armor_penalty=fresh.armor_penalty,
            jump=fresh.jump,
            net_actions=fresh.net_actions,
        )
        return replace(state, combat=combat.with_state(cid, fighter)), []

    def new_fight_state(self, combat: Combat) -> CprFight:
        """An empty fight: Round 1, nothing held."""
        return CprFight()

    def new_combatant_state(self, combatant: Combatant) -> Fighter:
        """The fighter its token describes (a vehicle: a marker that never acts)."""
        if is_vehicle(combatant):
            return Fighter(combatant.id, 0, 0, is_vehicle=True)
        return fighter_from_token(combatant)

    # -- time -----------------------------------------------------------------------------

    def can_act(self, combat: Combat, cid: str) -> bool:
        """Everyone in the queue acts (Cyberpunk RED has no surprise pass here)."""
        return True

    def limited(self, combat: Combat, cid: str) -> bool:
        """No limited turns in Cyberpunk RED."""
        return False

    def skip_reason(self, combat: Combat, cid: str) -> str | None:
        """One turn a Round: a driver who moved to the front does not act twice."""
        if cid in _fight(combat).acted:
            return "already had its turn this Round"
        return None

    def count_reached(self, state: EncounterState, cid: str) -> Result:
        """The previous turn is over: "after X's turn" holds fire now."""
        return _turn_over(state)

    def start_acting(self, state: EncounterState, cid: str) -> Result:
        """A fresh Move Action and Action."""
        combat = state.combat
        assert combat is not None
        fighter = combat.state_of(cid)
        assert isinstance(fighter, Fighter)
        fight = _fight(combat)
        fight = replace(fight, turn_of=cid, acted=(*fight.acted, cid))
        combat = combat.with_state(cid, economy.new_turn(fighter)).with_rules(fight)
        return replace(state, combat=combat), []

    def pass_ended(self, state: EncounterState) -> tuple[EncounterState, list[Any], str | None]:
        """The last turn of the Round is over: its "after" holds fire."""
        state, events = _turn_over(state)
        return state, events, None

    def combat_ending(self, state: EncounterState) -> list[Any]:
        """Every held action not fired is lost (``cpr_held_lost``, "the fight ended")."""
        return holding.fight_over(arena_of(state))

    def turn_ended(self, state: EncounterState) -> Result:
        """The Round is over: every hold not fired is lost; the next Round starts from the top."""
        combat = state.combat
        assert combat is not None
        arena, events = holding.end_of_round(arena_of(state))
        state, _ = store(state, arena)  # the Round's end changes no condition
        combat = state.combat
        assert combat is not None
        holders = {e.holder for e in events}
        triggers = tuple(t for t in combat.triggers if t.owner not in holders)
        fight = replace(_fight(combat), acted=(), turn_of=None)
        return replace(state, combat=replace(combat, triggers=triggers).with_rules(fight)), events

    # -- movement -------------------------------------------------------------------------

    def check_flight(self, ctx: Context, mode: str, rise: float) -> None:
        """Nobody in this text flies; a change of height is a climb ("Swimming, climbing
        ... 2 meters per 1 meter"): only mode ``climb`` may change it, priced 2 per metre
        of the path's length in three dimensions like any climb (:mod:`.movement`)."""
        if mode != "climb":
            raise CommandRejected(
                "illegal_move",
                f"{ctx.token.id} cannot {mode.replace('_', ' ')} up or down: a change of "
                "height is a climb (mode 'climb', 2 m per 1 m); nobody here flies",
            )

    def plan_move(self, ctx: Context, mode: str, *, cost: float, steps: int) -> MovePlan:
        """MOVE x 2 m a Move Action; ``mode`` and terrain price each metre (:mod:`.movement`)."""
        fighter = fighter_in(ctx.combat, ctx.token.id)
        if fighter is None:
            raise CommandRejected("illegal_action", f"{ctx.token.id} is a vehicle")
        interjection = ctx.combat.interjection
        if interjection is not None and interjection.combatant == fighter.id:
            raise CommandRejected(
                "illegal_action",
                f"{ctx.token.id} is carrying out a held action: it holds no movement",
            )
        squares = ground.squares(ctx, mode, cost, steps)
        charge = max(cost, movement.move_cost(squares, mode))
        leaps = movement.jump_lengths(squares, mode)
        why = movement.move_refusal(fighter, _fight(ctx.combat).move_rules, mode, charge, leaps)
        if why is not None:
            code = "over_budget" if why.startswith("costs") else "illegal_action"
            raise CommandRejected(code, f"{ctx.token.id} cannot {mode.replace('_', ' ')}: {why}")
        combat = ctx.combat.with_state(fighter.id, economy.spend_movement(fighter, charge))
        return MovePlan(combat, mode, charge)

    def movement_left(self, combat: Combat, combatant: Combatant) -> float:
        """Metres of Move Action still open this turn."""
        fighter = fighter_in(combat, combatant.id)
        if fighter is None:
            return 0.0
        return movement.movement_left(fighter, _fight(combat).move_rules)

    # -- triggers -------------------------------------------------------------------------

    def trigger_fired(self, ctx: Context, trigger: CoreTrigger, by: str) -> Result:
        """A token entered the held area or came into sight: the held action fires now.

        The text's moment is the entry itself ("I shoot as soon as he leans out"; "when
        the door opens"), so the engine pauses the move on the square that sets the
        trigger off (``trigger_pause = "inside"``): the doorway, or the first square in
        view.  The action is checked and taken with the mover there, and
        ``cpr_held_fired`` names that square."""
        arena = arena_of(ctx.state)
        held = arena.hold(ctx.token.id)
        if held is None:
            raise CommandRejected("no_hold", f"{ctx.token.id} holds no action")
        mover = ctx.scene.token(by)
        at = mover.position if mover is not None else None
        view = world(ctx)
        arena, events = holding.fire(arena, view, held, by, at, ctx.tray)
        state, changed = store(ctx.state, arena)
        return state, [*_dice_after_firing(events, ctx.tray), *changed]


def _turn_over(state: EncounterState) -> Result:
    """Whoever's turn was running has finished it: fire the holds waiting for that
    ("after Gina's turn"), in queue order, with dice from the encounter's tray."""
    combat = state.combat
    assert combat is not None
    fight = _fight(combat)
    ended = fight.turn_of
    if ended is None:
        return state, []
    state = replace(state, combat=combat.with_rules(replace(fight, turn_of=None)))
    arena = arena_of(state)
    due = holding.after_turn(arena, ended, combat.order)
    if not due:
        return state, []
    scene = state.scene
    assert scene is not None
    events: list[Any] = []
    for held in due:
        holder = scene.token(held.holder)
        tray = DiceTray(state.seed, state.draws, holder.owner if holder else "gm")
        spatial_world = world_over(SpatialCache(), scene, token_ids(scene))
        arena, fired = holding.fire(arena_of(state), spatial_world, held, ended, None, tray)
        state, changed = store(state, arena)
        state = replace(state, draws=tray.draws)
        events += [*_dice_after_firing(fired, tray), *changed]
    return state, events


def _dice_after_firing(events: list[Any], tray: DiceTray) -> list[Any]:
    """``events`` of a held action firing with its dice after the announcement."""
    return [*events[:1], *tray.events, *events[1:]]
