"""The ruleset seam: everything a game plugs into the engine, and the registry.

How to write a ruleset
======================
A ruleset is one folder, ``engine/rulesets/<game>/``, whose ``__init__.py`` defines a
subclass of :class:`Ruleset` decorated with :func:`register`.  The package is found and
imported by :mod:`engine.rulesets` on its own: adding a game edits neither the core
(``engine/*.py``) nor :mod:`protocol`.  ``tests/toy_ruleset.py`` is a complete, tiny
example; ``engine/rulesets/hero/`` and ``engine/rulesets/cyberpunk_red/`` are real ones.

The core owns what every game shares: the encounter and its scene, the spatial index,
time as ordered passes over the combatants (``time_words`` names them: a Round of one
pass, or a Turn of ``phases_per_turn`` Phases;
groups acting at one count; newcomers and leavers), prompts and their deadlines, paused
moves and attacks of opportunity as a mechanism, triggers (:class:`Trigger`: a token's
action, entering an area, coming into sight), effects that end at a point in the order
(:class:`Effect`), dice as inputs (:class:`~engine.tray.DiceTray`) and the event log.

A ruleset owns its game:

1. **Vocabulary** (:class:`Vocabulary`): its action names, move modes, conditions,
   resources and event kinds.  ``tests/test_architecture.py`` reads it and fails when a
   core module or ``protocol/`` names one of those words.
2. **State.**  ``fight_state`` (one value for the fight) and ``combatant_state`` (one
   value per combatant) are frozen dataclasses with defaults, built by
   :meth:`Ruleset.new_fight_state` and :meth:`Ruleset.new_combatant_state` and stored by
   the core in ``Combat.rules`` and ``Combat.per_combatant`` (read with
   ``combat.state_of(cid)``, replace with ``combat.with_state(cid, value)``).  Snapshots
   store them as plain maps and decode them with these two classes, so keep old fields
   decodable (give new fields defaults).
3. **Actions** (``actions``): name -> :class:`ActionSpec`.  Each has typed params (a
   frozen dataclass, see :mod:`engine.params`) checked by the bridge before the engine
   sees them; a ``refusal`` check that both ``ask_options`` and the handler run (one copy
   of "is it legal now"); and ``run``, which returns the new state and events.  On the
   wire every action is ``act {token, action, params}``.
4. **Time.**  Hooks the core calls as the order is walked: :meth:`Ruleset.skip_reason`,
   :meth:`Ruleset.count_reached`, :meth:`Ruleset.cut_in`, :meth:`Ruleset.start_acting`,
   :meth:`Ruleset.pass_ended` and :meth:`Ruleset.turn_ended` (typed by
   :class:`engine.clock.TimeHooks`).  A ruleset asks for time, never steps it: an
   action returns clock requests (:mod:`engine.clock`: ``Advance()``, ``ActNow(who)``,
   ``Reorder(who, before)``, ``Requeue(order, scores)``, ``ClosePass()``,
   ``ResumeAt(index)``) among its events, and the walk applies each in place
   (:func:`engine.turns.settle`).  ``time_words`` (:class:`engine.timewords.TimeWords`)
   declares the game's units of time and their names; every event, refusal and option
   that names a moment says it in them (:class:`engine.timewords.Clock`).
5. **Movement.**  ``move_modes`` and :meth:`Ruleset.plan_move` (check a move and charge
   it, its cells in ``Context.path``), :meth:`Ruleset.movement_left`, ``trigger_pause``
   (a held action's move pauses before or inside the area), and for games with
   attacks of opportunity :meth:`Ruleset.provokes`, :meth:`Ruleset.threatens`,
   :meth:`Ruleset.opportunity_available` and :meth:`Ruleset.opportunity_attack`.
6. **Events**: frozen dataclasses with a ``kind`` class variable, declared in the
   folder and listed in ``vocabulary.events``; the bridge sends any of them as is.
7. **Words** (``wording``, :class:`engine.words.Wording`, in the folder's ``words.py``):
   a template per event kind, its prompts' answers, the stats a token needs, its held
   actions' trigger words and its clock's names; the server's description of the game
   (:mod:`engine.describe`) is built from these and the declarations above.

A hook never mutates anything: it gets values and returns new ones.  Every hook below
has a default that suits a game without that rule, so a small game is small.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from engine.combat_state import Combat, Effect, Prompt, Trigger
from engine.errors import UnsupportedRuleset
from engine.hooks import RulesetHooks
from engine.model import Combatant, EncounterState, Scene
from engine.serial import from_plain, register_finisher
from engine.timewords import ROUNDS, Clock, TimeWords
from engine.tray import DiceTray
from engine.words import Wording

if TYPE_CHECKING:
    from engine.spatial import SpatialCache

__all__ = [
    "ActionSpec",
    "Context",
    "Effect",
    "Initiative",
    "MovePlan",
    "NoParams",
    "OpportunityAttack",
    "Result",
    "Ruleset",
    "Trigger",
    "Vocabulary",
    "find_ruleset",
    "register",
    "ruleset_names",
]

Result = tuple[EncounterState, list[Any]]
"""What changes the encounter: the new state and the events that explain it."""

P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class NoParams:
    """The params of an action that takes none."""


@dataclass(frozen=True, slots=True)
class Context:
    """What a ruleset's action or hook gets: the state, who asks, for which token.

    ``actor`` is the participant (``gm`` or a player); ``token`` the combatant acted
    for; ``tray`` rolls this command's dice (``state.draws`` is brought up to date by
    the core afterwards).  ``path`` is, for :meth:`Ruleset.plan_move`, the cells of the
    move being planned, its start first (a ruleset that prices squares by what they are,
    a jump's gap, reads them; on a gridless scene the waypoints, in the scene's unit);
    empty elsewhere; ``heights`` a flight's elevation at each of them (empty:
    the token keeps its own).
    """

    state: EncounterState
    ruleset: RulesetHooks
    spatial: SpatialCache
    tray: DiceTray
    actor: str
    token: Combatant
    path: tuple[tuple[int | float, int | float], ...] = ()
    heights: tuple[float, ...] = ()

    @property
    def combat(self) -> Combat:
        """The running combat."""
        combat = self.state.combat
        assert combat is not None
        return combat

    @property
    def scene(self) -> Scene:
        """The scene."""
        scene = self.state.scene
        assert isinstance(scene, Scene)
        return scene

    @property
    def mine(self) -> Any:
        """The acting token's per-combatant ruleset state."""
        return self.combat.state_of(self.token.id)


@dataclass(frozen=True, slots=True)
class ActionSpec(Generic[P]):
    """One action a ruleset offers through ``act``.

    ``params`` is the frozen dataclass its ``params`` map must decode to.  ``refusal``
    says why the action is not possible now (or None), from the state alone: the core
    runs it before ``run`` *and* to answer ``ask_options``, so the two cannot drift.
    ``run`` then checks what depends on the params and returns the new state and events.
    ``when`` is ``turn`` (only on the token's own action), ``any`` (also out of turn,
    like an abort) or ``gm`` (the GM's tool, any time in combat, never listed as an
    option).  ``code`` is the rejection code a refusal carries; a refusal that needs
    another code raises :class:`~engine.errors.CommandRejected` itself.  ``run`` returns
    its dice events (``ctx.tray.events``) first among its events.  ``choices``, for an
    action that names one of several things (a Power, a spell), lists each with why it
    cannot be chosen now (or None); ``ask_options`` shows them, when the action itself
    is possible, as ``"<action>:<choice>"`` entries right after it.
    """

    name: str
    params: type[P]
    run: Callable[[Context, P], Result]
    refusal: Callable[[Context], str | None] = field(default=lambda ctx: None)
    when: str = "turn"
    code: str = "illegal_action"
    doc: str = ""
    choices: Callable[[Context], Sequence[tuple[str, str | None]]] | None = None

    def __post_init__(self) -> None:
        if self.when not in ("turn", "any", "gm"):
            raise ValueError(f"action {self.name!r}: when must be turn, any or gm")


#: Plain words the core uses in their ordinary sense (the fight itself, a move that
#: ends in an attack, a step along a path, a wall's end, a dataclass field's ``init``,
#: an action's ``run``).
#: A ruleset may own them as well (Hero's ``combat`` movement, its ``attack`` action);
#: the architecture test does not count them as a game's words in the core.
SHARED_WORDS = frozenset({"combat", "attack", "step", "end", "init", "run"})


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The words a ruleset owns: no core module or ``protocol/`` may name them.

    ``actions`` and ``move_modes`` default to the ruleset's ``actions`` keys and
    ``move_modes`` (see :meth:`Ruleset.words`); list here what else is the game's:
    ``conditions`` the GM may set, ``resources`` (statistics and tracked pools such as
    END), ``events`` (the kinds of the ruleset's event classes) and ``other`` words.
    """

    conditions: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    events: tuple[type, ...] = ()
    other: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Initiative:
    """The acting order, highest first, with each combatant's score (its count), and the
    ruleset's own events explaining it (how a tie was settled, say); ``start_combat``
    sends them after the dice, before the order."""

    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    events: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class MovePlan:
    """A checked move: the combat with the move charged, and the mode to record.

    ``cost`` is what the move costs by the ruleset's own pricing when that differs from
    the scene's (a swim across dry ground): reported in ``move_completed``.  None: the
    scene's cost, as the core measured it."""

    combat: Combat
    mode: str
    cost: float | None = None


@dataclass(frozen=True, slots=True)
class OpportunityAttack:
    """An accepted attack of opportunity: the new state, its events, and whether it hit
    (a hit asks the GM whether the mover can finish its move)."""

    state: EncounterState
    events: list[Any]
    hit: bool


class Ruleset:
    """Base class of every ruleset: the hooks the core calls, each with a default.

    Subclass it, set the class variables, fill ``actions``, override the hooks your game
    needs, and decorate the class with :func:`register`.
    """

    #: The name ``start_combat`` uses (``"hero-supplement"``).
    name: ClassVar[str]
    #: A title for people.
    title: ClassVar[str]
    #: The game's units of time and their names, largest first (default: Rounds of
    #: one pass, a combatant's share of one its Turn).
    time_words: ClassVar[TimeWords] = ROUNDS
    #: The fight-wide and per-combatant state classes (frozen dataclasses with defaults).
    fight_state: ClassVar[type | None] = None
    combatant_state: ClassVar[type | None] = None
    #: The movement modes a ``move`` may name; the first is the default.
    move_modes: ClassVar[tuple[str, ...]] = ("walk",)
    #: Where a move that sets off an ``enter`` or ``sight`` trigger pauses for it:
    #: ``before``, on the last square before it (a readied action "just before"), or
    #: ``inside``, on the square that sets it off (the area's, or the first in view).
    trigger_pause: ClassVar[str] = "before"
    #: The actions ``act`` may name, in the order ``ask_options`` lists them.
    actions: ClassVar[Mapping[str, ActionSpec[Any]]] = {}
    #: The conditions, resources and event kinds the game owns.
    vocabulary: ClassVar[Vocabulary] = Vocabulary()
    #: The game in words: its events' templates, its prompts' answers, the stats a
    #: token needs, its trigger words (:mod:`engine.words`; kept in the
    #: ruleset's ``words.py``, read by :mod:`engine.describe`).
    wording: ClassVar[Wording] = Wording()
    #: The statistics the GM may change during a fight (``set_stats``); any other is
    #: refused, naming these.  Empty: none.
    changeable_stats: ClassVar[tuple[str, ...]] = ()
    #: Why an unaware combatant does nothing in the surprise pass, in the game's words
    #: and with its rule (``ask_options`` says it).
    unaware_rule: ClassVar[str] = "unaware in the surprise pass: no action"

    # -- set-up -----------------------------------------------------------------------------

    def check_combatant(self, combatant: Combatant) -> None:
        """Raise ``CommandRejected("bad_scene", ...)`` if the token lacks a needed statistic."""

    @property
    def token_stats(self) -> tuple[str, ...]:
        """The token statistics (``stats`` keys) this game plays by name: those its
        ``wording.stats`` declare (one declaration: the description lists the same)."""
        return tuple(s.name for s in type(self).wording.stats if "<" not in s.name)

    @property
    def token_stat_prefixes(self) -> tuple[str, ...]:
        """The families of statistics it plays: a declared ``weapon.<name>`` is the
        prefix ``weapon.``."""
        return tuple(s.name.split("<", 1)[0] for s in type(self).wording.stats if "<" in s.name)

    def check_stats(self, combatant: Combatant) -> None:
        """Refuse (``bad_scene``) a statistic on ``combatant`` this game does not play
        (not in :attr:`token_stats`, no :attr:`token_stat_prefixes` prefix), naming
        those it does: nothing a table sends is accepted and ignored.  The core runs it
        before :meth:`check_combatant`."""
        for key, _ in combatant.stats:
            if key in self.token_stats or key.startswith(self.token_stat_prefixes):
                continue
            from engine.errors import CommandRejected

            played = ", ".join((*self.token_stats, *(f"{p}*" for p in self.token_stat_prefixes)))
            raise CommandRejected(
                "bad_scene",
                f"token {combatant.id!r}: {self.title} plays no stat {key!r} "
                f"(it plays: {played or 'none'})",
            )

    def initiative(
        self, combatants: Sequence[Combatant], tray: DiceTray, groups: Sequence[Sequence[str]]
    ) -> Initiative:
        """The acting order and scores, rolling on ``tray``.  The members of each group
        share one roll and one score, and come out next to each other."""
        raise NotImplementedError

    def newcomer(self, combat: Combat, combatant: Combatant, tray: DiceTray) -> int:
        """The score a combatant joining a running fight takes (the core places it after
        everyone with that score or more).  Default: its own roll of :meth:`initiative`."""
        return dict(self.initiative([combatant], tray, ()).scores)[combatant.id]

    def newcomer_ahead(
        self,
        combat: Combat,
        newcomer: Combatant,
        score: int,
        rival: Sequence[Combatant],
        tray: DiceTray,
    ) -> bool:
        """Whether a newcomer tied at ``score`` goes ahead of ``rival`` (one combatant, or
        a GM's group, already at that count) by the game's tie rule, rolling on ``tray``.
        The core asks of each rival at the count in turn, down the order, and places the
        newcomer before the first it beats: those already placed keep their order.
        Default: never (after everyone already at its count)."""
        return False

    def new_fight_state(self, combat: Combat) -> Any:
        """The fight-wide state when the fight starts."""
        return self.fight_state() if self.fight_state is not None else None

    def fight_started(self, state: EncounterState) -> Result:
        """The fight is set up (order, states), before its first pass opens: fill in what
        needs the scene (its tokens in scene order)."""
        return state, []

    def joined(self, state: EncounterState, cid: str) -> Result:
        """``cid`` joined the running fight (its per-combatant state is made already)."""
        return state, []

    def stats_changed(self, state: EncounterState, cid: str) -> Result:
        """The GM changed ``cid``'s statistics (its token on the scene has the new ones,
        checked by :meth:`check_combatant`): bring what the ruleset keeps of them up to
        date.  The order stands unless this asks otherwise.  Default: nothing kept."""
        return state, []

    def new_combatant_state(self, combatant: Combatant) -> Any:
        """A combatant's state when it enters the fight (at the start, or joining)."""
        return self.combatant_state() if self.combatant_state is not None else None

    def surprise(self, aware: tuple[str, ...], everyone: tuple[str, ...]) -> bool:
        """Whether the fight opens with a surprise pass (only ``aware`` act, limited)."""
        return False

    # -- time -------------------------------------------------------------------------------

    @property
    def phases_per_turn(self) -> int:
        """Passes over the order per Turn or Round (Hero: 4 Phases; a Round: 1), as
        ``time_words`` declares."""
        return self.time_words.passes

    def clock(self, combat: Combat) -> Clock:
        """The fight's moment now, in the game's words."""
        return self.time_words.reading(combat.turn, combat.phase)

    def can_act(self, combat: Combat, cid: str) -> bool:
        """Whether ``cid`` can act at all now (not unconscious, not unaware ...): a held
        action's owner is asked only then."""
        return not combat.surprise or cid in combat.aware

    def limited(self, combat: Combat, cid: str) -> bool:
        """Whether ``cid``'s action now is a limited one (the surprise pass, say)."""
        return combat.surprise

    def skip_reason(self, combat: Combat, cid: str) -> str | None:
        """Why ``cid`` is skipped though its count came up (it keeps its place), or None."""
        return None if self.can_act(combat, cid) else "cannot act"

    def idle_reason(self, combat: Combat, cid: str) -> str | None:
        """Why ``cid`` takes no action in the current pass at all, naming the rule, or
        None (``ask_options`` tells it so when its count has not come, and lists every
        action with it).  Default: :attr:`unaware_rule` for the unaware in a surprise
        pass, else :meth:`skip_reason`."""
        if combat.surprise and cid not in combat.aware:
            return self.unaware_rule
        return self.skip_reason(combat, cid)

    def count_reached(self, state: EncounterState, cid: str) -> Result:
        """``cid``'s count came up, whether or not it acts (things that last "until your
        next action" end here)."""
        return state, []

    def cut_in(
        self, state: EncounterState, cid: str
    ) -> tuple[EncounterState, list[Any], str | None]:
        """Before ``cid`` acts: someone who acts now instead (a delay "just before" it),
        or None.  The walk moves that one to just before ``cid`` (``initiative_order``)
        and starts its action."""
        return state, [], None

    def start_acting(self, state: EncounterState, cid: str) -> Result:
        """``cid`` begins to act (reset its action budget here)."""
        return state, []

    def pass_started(self, state: EncounterState) -> Result:
        """A new pass over the order opens (reset what lasts one pass here)."""
        return state, []

    def pass_ended(self, state: EncounterState) -> tuple[EncounterState, list[Any], str | None]:
        """The pass over the order is done: someone who still acts now, or None.  A
        prompt opened here (see :func:`engine.prompts.open_prompt`) holds the walk until
        it is answered (:meth:`prompt_answered`, which goes on with the clock requests
        ``ClosePass()`` or ``ActNow(who)`` from :mod:`engine.clock`, handed to
        :func:`engine.turns.settle`: its caller does not settle them yet)."""
        return state, [], None

    def turn_ended(self, state: EncounterState) -> Result:
        """The last pass of a Turn (a Round) is done, before the next opens."""
        return state, []

    # -- movement ---------------------------------------------------------------------------

    def plan_move(self, ctx: Context, mode: str, *, cost: float, steps: int) -> MovePlan:
        """Check a move of ``mode`` costing ``cost`` over ``steps`` cells and charge it,
        or raise ``CommandRejected`` with the rule it breaks."""
        left = self.movement_left(ctx.combat, ctx.token)
        if cost > left + 1e-9:
            from engine.errors import CommandRejected

            raise CommandRejected("over_budget", f"the move costs {cost:g}, {left:g} left")
        return MovePlan(ctx.combat, mode)

    def movement_left(self, combat: Combat, combatant: Combatant) -> float:
        """How far ``combatant`` may still move now."""
        return combatant.movement

    def move_exempt(self, ctx: Context, mode: str) -> tuple[str, ...]:
        """Threateners that get no attack of opportunity as this move begins."""
        return ()

    def check_flight(self, ctx: Context, mode: str, rise: float) -> None:
        """Refuse (``illegal_move``, naming the rule) a move of ``mode`` that changes
        ``ctx.token``'s height by ``rise`` in all (ups and downs), which the game says
        it cannot make (a flight).  The move's cost already counts the height
        in three dimensions (:mod:`engine.gridless_board`), charged as :meth:`plan_move`
        says.  By default no token changes height in a move."""
        from engine.errors import CommandRejected

        raise CommandRejected(
            "illegal_move",
            f"{self.title} gives {ctx.token.id!r} no way to change its height in a move",
        )

    def provokes(self, combat: Combat, mover: Combatant, mode: str) -> bool:
        """Whether moving this way can provoke attacks of opportunity at all."""
        return False

    def threatens(self, combat: Combat, threatener: Combatant, target: Combatant) -> bool:
        """Whether ``threatener`` can make attacks of opportunity against ``target`` now."""
        return False

    def opportunity_available(
        self, combat: Combat, threatener: Combatant, target: Combatant
    ) -> bool:
        """Whether ``threatener`` still has an attack of opportunity against ``target``."""
        return False

    def opportunity_attack(
        self, ctx: Context, target: Combatant, rolls: tuple[int, ...] | None, answer: Any
    ) -> OpportunityAttack:
        """Resolve an accepted attack of opportunity by ``ctx.token`` on ``target``."""
        raise NotImplementedError

    # -- prompts ----------------------------------------------------------------------------

    def prompt_answered(
        self, state: EncounterState, prompt: Prompt, accept: bool, actor: str
    ) -> Result:
        """A prompt of one of the ruleset's own kinds was answered by ``actor`` (or its
        deadline passed: ``accept`` False, ``actor`` ``system``)."""
        raise NotImplementedError(f"{self.name} opened no {prompt.kind!r} prompt")

    # -- an attack as part of a move ------------------------------------------------------

    def spared(self, ctx: Context) -> tuple[str, ...]:
        """Threateners that get no attack of opportunity from ``ctx.token``'s move at all
        (those it already attacked as part of its action, say)."""
        return ()

    def plan_move_attack(
        self,
        ctx: Context,
        combat: Combat,
        target: Combatant,
        maneuver: Any,
        rolls: tuple[int, ...] | None,
    ) -> Combat:
        """Check an attack ``ctx.token`` makes on ``target`` at the end of its move (a
        ``move`` naming ``attack``), given ``combat`` with the move charged; raise
        ``CommandRejected`` if it may not."""
        from engine.errors import CommandRejected

        raise CommandRejected("illegal_move", f"{self.title} makes no attack as part of a move")

    def move_attack(
        self,
        ctx: Context,
        target: Combatant,
        maneuver: Any,
        rolls: tuple[int, ...] | None,
    ) -> Result:
        """The attack a move ends in, now that ``ctx.token`` arrived within reach."""
        raise NotImplementedError

    # -- triggers ---------------------------------------------------------------------------

    def trigger_fired(self, ctx: Context, trigger: Trigger, by: str) -> Result:
        """``trigger`` (owned by ``ctx.token``) came, set off by ``by``, and its controller
        took it: the held action happens now."""
        raise NotImplementedError

    # -- effects and conditions ------------------------------------------------------------

    def condition_set(self, combat: Combat, cid: str, condition: str, on: bool) -> Combat:
        """The GM set (``on``) or cleared ``condition`` (one of ``vocabulary.conditions``)
        on ``cid`` with ``set_condition``.  Default: the fight's conditions record it,
        read by the ruleset with ``combat.has(cid, condition)``; a game that keeps the
        condition in its own combatant state stores it there instead."""
        return combat.with_condition(cid, condition, on)

    def effect_ended(self, state: EncounterState, effect: Effect) -> Result:
        """``effect`` just ended (the core already emitted ``effect_ended``)."""
        return state, []

    # -- the end of a fight -------------------------------------------------------------------

    def combat_ending(self, state: EncounterState) -> list[Any]:
        """The GM is ending the fight (``end_combat``): the events of whatever this
        ruleset still holds open (held, readied and delayed actions, its own lasting
        things), each ending.  ``state`` is the fight with its prompts, paused move,
        interjection and timed effects already closed; the fight is dropped after."""
        return []

    # -- vocabulary -------------------------------------------------------------------------

    @classmethod
    def words(cls) -> frozenset[str]:
        """Every word this ruleset owns but :data:`SHARED_WORDS` (for the architecture
        test)."""
        vocab = cls.vocabulary
        kinds = {str(getattr(e, "kind", "")) for e in vocab.events}
        return frozenset(
            {
                *cls.actions,
                *cls.move_modes,
                *vocab.conditions,
                *vocab.resources,
                *kinds,
                *vocab.other,
            }
            - {""}
            - SHARED_WORDS
        )


# -- the registry -----------------------------------------------------------------------------

_REGISTRY: dict[str, Ruleset] = {}
_R = TypeVar("_R", bound=type)


def register(cls: _R) -> _R:
    """Class decorator: make a ruleset findable by its ``name``."""
    name: str = getattr(cls, "name")  # noqa: B009 (the Hero supplement is not a subclass yet)
    known = _REGISTRY.get(name)
    if known is not None and type(known).__qualname__ != cls.__qualname__:
        raise ValueError(f"ruleset {name!r} is registered twice")
    if getattr(cls, "trigger_pause", "before") not in ("before", "inside"):
        raise ValueError(f"ruleset {name!r}: trigger_pause must be 'before' or 'inside'")
    _REGISTRY[name] = cls()
    return cls


_LOADED: list[bool] = []


def load_all() -> None:
    """Import every ruleset in ``engine/rulesets/`` once (each registers itself).  Done at
    the first look-up, not on import, so a ruleset may import any core module."""
    if _LOADED:
        return
    _LOADED.append(True)
    import engine.rulesets as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name != "base" and not module.name.startswith("_"):
            importlib.import_module(f"{package.__name__}.{module.name}")


def find_ruleset(name: str) -> Ruleset:
    """The ruleset registered as ``name``; raises ``UnsupportedRuleset`` otherwise."""
    load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnsupportedRuleset(
            f"unsupported ruleset: {name!r} (known: {', '.join(sorted(_REGISTRY))})"
        ) from None


def ruleset_names() -> tuple[str, ...]:
    """Every registered ruleset name, sorted."""
    load_all()
    return tuple(sorted(_REGISTRY))


def registered() -> tuple[Ruleset, ...]:
    """Every registered ruleset."""
    load_all()
    return tuple(_REGISTRY[name] for name in ruleset_names())


def _decode_rules(combat: Combat) -> Combat:
    """Rebuild a decoded combat's ruleset state with the ruleset's own classes."""
    load_all()
    ruleset = _REGISTRY.get(combat.ruleset)
    if ruleset is None:
        return combat
    rules, per = combat.rules, combat.per_combatant
    fight, each = getattr(ruleset, "fight_state", None), getattr(ruleset, "combatant_state", None)
    if fight is not None and isinstance(rules, dict):
        rules = from_plain(fight, rules)
    if each is not None:
        per = tuple(
            (cid, from_plain(each, value) if isinstance(value, dict) else value)
            for cid, value in per
        )
    return replace(combat, rules=rules, per_combatant=per)


register_finisher(Combat, _decode_rules)


if TYPE_CHECKING:
    # mypy proves here that the seam's class is the core's view of a ruleset: a hook
    # whose signature drifts from engine.hooks fails the type check at this line.
    _SEAM_IS_THE_CORE_VIEW: type[RulesetHooks] = Ruleset
