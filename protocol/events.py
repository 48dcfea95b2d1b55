"""Every event kind's typed body: the events declared once, as the engine's dataclasses.

Written by ``python -m tools.wiredocs --write`` (``tools/eventstructs.py``) from the
engine's and the rulesets' event declarations (``engine/events.py``,
``engine/rulesets/<game>/events.py``): each class is the body the server derives from the
event of the same kind (``vtt_bridge.event_types.event_body``), its fields, types and
docstring the event's.  Do not edit: change the event's dataclass and run the tool
(``tests/test_wiredocs.py`` fails until then).  The protocol may not import the engine,
so the bodies are written out for ``import protocol`` alone to read every event's data
(``protocol/__init__.py`` registers :data:`BODIES`).
"""

from __future__ import annotations

from typing import Final, Literal

from protocol.server_messages import EventBody
from protocol.wire import Wire


class VttSpec(Wire, frozen=True, kw_only=True):
    """How the client's VTT places things on this grid, so it can send its own pixels.

    ``foundry``: ``grid_size`` pixels per cell (the scene's ``grid.size``), and the scene
    padding ``scene_x``/``scene_y`` (``canvas.dimensions.sceneX/Y``); a token position is
    its document's top-left ``x``/``y``.  ``owlbear``: ``grid_size`` is the grid's dpi,
    no padding; a position is the item's centre.  Foundry hex grids count cells from
    the canvas origin, so there ``scene_x``/``scene_y`` are ignored.

    ``hex_shape`` is the shape of hex tokens larger than one hex (``HEX_SHAPES``); null
    means the VTT's default: Foundry's ``"rectangle_1"`` (its ``TOKEN_SHAPES``
    default), Owlbear's ``"hexagon"`` (the bridge's own, Owlbear has no shapes).

    The VTT also decides how a dragged line breaks ties (:meth:`line_rule`).
    """

    kind: Literal["foundry", "owlbear"]
    grid_size: float
    scene_x: float
    scene_y: float
    hex_shape: (
        Literal[
            "hexagon",
            "ellipse_1",
            "ellipse_2",
            "trapezoid_1",
            "trapezoid_2",
            "rectangle_1",
            "rectangle_2",
        ]
        | None
    )


class GridSpec(Wire, frozen=True, kw_only=True):
    """The board: ``width`` x ``height`` cells of ``cell_size`` ``unit`` each (e.g. 5 ft).

    ``diagonal`` prices a diagonal step on a square grid (``one``, ``alternating``,
    ``euclidean``, ``none``, and Foundry's ``approximate``, ``rectilinear``,
    ``alternating_2``); ``offset`` says which rows or columns of a hex grid are shoved
    out (``odd`` or ``even``); ``vtt`` also sets the shape of large hex tokens.  A
    ``gridless`` scene is ``width`` x ``height`` cells in size but has no cells to stand
    on: it builds no grid (:attr:`gridless`; :mod:`engine.gridless_board`).  The wire
    names every field but the last three (``wire_order``: its order); the engine's
    defaults are for code that builds a grid itself.
    """

    width: int
    height: int
    cell_size: float
    unit: str
    kind: Literal["square", "hex_pointy", "hex_flat", "gridless"]
    diagonal: Literal[
        "one", "alternating", "euclidean", "none", "approximate", "rectilinear", "alternating_2"
    ]
    offset: Literal["odd", "even"]
    vtt: VttSpec | None


class Combatant(Wire, frozen=True, kw_only=True, omit_defaults=True):
    """One token on the board: who owns it, which side it fights for, where it stands
    (cell ``x``, ``y`` of its top-left corner; on a gridless scene the point of its
    centre in the scene's unit, fractional allowed), how big it is (``size`` cells a
    side; gridless, a disc ``size`` cells across),
    its ``reach`` and ``movement`` in grid units, and free-form ``stats``; ``elevation``
    is the height of its base above the ground in the scene's unit (Foundry's token
    elevation; negative below it), 0 when left out: reach measures in three dimensions.

    ``stats`` is a map sorted by name (so equal stats compare and print alike); in
    Python it may also be given as ``(name, value)`` pairs.  It is left out of ``hash``.

    ``owner`` is the participant id of the controller (``"gm"`` for the GM's
    creatures); ``side`` groups allies (only other sides are enemies).  In the engine
    ``stats`` are sorted ``(name, value)`` pairs (:mod:`geometry.elevation` measures
    the reach).  ``movement`` must be given, by keyword (the wire requires it too): a
    token that silently could not move would be a worse surprise than an error.  On
    the wire a token spec (``TokenSpec``).
    """

    LATER = ("elevation",)
    id: str
    name: str
    owner: str
    side: str
    x: int | float
    y: int | float
    size: int
    reach: float
    movement: float
    stats: dict[str, bool | int | float | str]
    elevation: float = 0.0


class WallSpec(Wire, frozen=True, kw_only=True):
    """A wall segment from ``a`` to ``b``.  A window blocks movement but not sight; a door
    (``door`` "open" or "closed") blocks both while closed and neither while open.

    In the scene's distance unit; every field is on the wire since version 1."""

    id: str
    a: tuple[float, float]
    b: tuple[float, float]
    blocks_move: bool
    blocks_sight: bool
    door: Literal["none", "open", "closed"]


class TerrainSpec(Wire, frozen=True, kw_only=True):
    """A polygon of one terrain ``kind`` (3 to 256 vertices, not closed explicitly)."""

    kind: Literal["difficult", "water", "climbable", "gap", "impassable"]
    polygon: tuple[tuple[float, float], ...]


class Scene(Wire, frozen=True, kw_only=True):
    """A grid and the tokens on it. Token ids are unique and every token's ``x``, ``y``
    lies on the grid (whole cells; gridless, a point on the scene); wall ids are unique
    and every point lies on the scene.

    The map and everything on it; on the wire a scene spec (``SceneSpec``)."""

    grid: GridSpec
    tokens: tuple[Combatant, ...]
    walls: tuple[WallSpec, ...]
    terrain: tuple[TerrainSpec, ...]


class TimeUnit(Wire, frozen=True, kw_only=True):
    """One unit of a game's time: ``key`` on the wire (``"round"``), ``name`` as the
    game's text spells it (``"Round"``), ``seconds`` long; ``also`` other names the
    game's texts give the same unit (the Hero Powers' "Segment", which this table
    plays as one Phase)."""

    key: str
    name: str
    seconds: int
    also: tuple[str, ...]


class TimeWords(Wire, frozen=True, kw_only=True):
    """A ruleset's units of time, largest first, and its words for a surprise pass
    and for one combatant's share of a pass.

    ``units`` is one unit (a Round that is one pass over the order) or two (a Turn of
    passes, Hero's Phases): then the outer lasts a whole number of the inner, and that
    number is the ruleset's ``phases_per_turn``."""

    units: tuple[TimeUnit, ...]
    surprise: str
    action: str


class Clock(Wire, frozen=True, kw_only=True):
    """A moment of a fight in its game's words: ``at`` counts each unit, largest first
    (``{"round": 2}``, ``{"turn": 1, "phase": 3}``), and ``label`` says it as the
    game's table does ("Round 2", "Turn 1, Phase 3", "Surprise Round")."""

    at: dict[str, int]
    label: str


class SceneLoaded(EventBody, frozen=True, kw_only=True):
    """The scene was replaced; ``scene`` is the whole new scene."""

    KIND = "scene_loaded"
    VERSION = 8
    scene: Scene


class DoorChanged(EventBody, frozen=True, kw_only=True):
    """The door ``wall`` was opened (``open``) or closed."""

    KIND = "door_changed"
    VERSION = 1
    wall: str
    open: bool


class TokenPlaced(EventBody, frozen=True, kw_only=True, omit_defaults=True):
    """Outside combat, ``token`` was put on ``at`` (no budget, no provocation), at
    ``elevation`` when the move changed its height."""

    KIND = "token_placed"
    VERSION = 1
    LATER = ("elevation",)
    token: str
    at: tuple[int | float, int | float]
    elevation: float | None = None


class CombatStarted(EventBody, frozen=True, kw_only=True):
    """A fight began under ``ruleset``; ``surprise`` says whether a surprise pass comes
    first; ``time`` is the game's units of time and their names (what a client labels
    the fight's moments and a combatant's action with).

    The dice seed is not here: events reach players, and a known seed predicts every
    roll.  It is logged with the ``StartCombat`` command on the server instead.
    """

    KIND = "combat_started"
    VERSION = 7
    ruleset: str
    surprise: bool
    aware: tuple[str, ...]
    time: TimeWords


class DiceRolled(EventBody, frozen=True, kw_only=True):
    """Dice were rolled for ``purpose``; ``source`` is ``"seeded"`` or ``"table"``."""

    KIND = "dice_rolled"
    VERSION = 1
    purpose: str
    sides: int
    results: tuple[int, ...]
    source: str
    by: str


class InitiativeOrder(EventBody, frozen=True, kw_only=True):
    """The order combatants act in, highest first, with each one's score."""

    KIND = "initiative_order"
    VERSION = 1
    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]


class PassStarted(EventBody, frozen=True, kw_only=True):
    """A new pass through the initiative order began at ``clock`` (a Cyberpunk RED or
    M&M Round, a Hero Phase); ``surprise``: it is the surprise pass."""

    KIND = "pass_started"
    VERSION = 7
    clock: Clock
    surprise: bool


class CombatantActs(EventBody, frozen=True, kw_only=True):
    """It is now ``combatant``'s action; ``limited`` means one attack or one move only."""

    KIND = "combatant_acts"
    VERSION = 7
    combatant: str
    clock: Clock
    limited: bool
    movement: float


class CombatantDone(EventBody, frozen=True, kw_only=True):
    """``combatant`` finished its action."""

    KIND = "combatant_done"
    VERSION = 7
    combatant: str
    clock: Clock


class MoveStarted(EventBody, frozen=True, kw_only=True, omit_defaults=True):
    """``token`` set out from ``start`` along ``path``, moving by ``mode`` (the
    ruleset's movement kind, e.g. ``combat``, ``step``, ``withdraw``, ``noncombat``), so
    every client can tell a withdraw, a 1 m step or a noncombat move apart; a flight's
    ``elevations`` at each waypoint (null otherwise)."""

    KIND = "move_started"
    VERSION = 2
    LATER = ("elevations",)
    token: str
    start: tuple[int | float, int | float]
    path: tuple[tuple[int | float, int | float], ...]
    mode: str
    elevations: tuple[float, ...] | None = None


class MoveInterrupted(EventBody, frozen=True, kw_only=True, omit_defaults=True):
    """``token`` stopped on ``at``, about to cross ``exit_point``, because of ``by``
    (gridless: ``at`` is the point it stopped on, the exit point itself; a flight's
    ``elevation`` there)."""

    KIND = "move_interrupted"
    VERSION = 1
    LATER = ("elevation",)
    token: str
    at: tuple[int | float, int | float]
    exit_point: tuple[float, float]
    by: str
    elevation: float | None = None


class PromptOpened(EventBody, frozen=True, kw_only=True):
    """A prompt waits for ``controller``'s answer."""

    KIND = "prompt_opened"
    VERSION = 1
    prompt: str
    prompt_kind: str
    controller: str
    attacker: str
    target: str
    at: tuple[int | float, int | float]
    exit_point: tuple[float, float]


class PromptClosed(EventBody, frozen=True, kw_only=True):
    """A prompt was answered: ``outcome`` is accepted, declined or expired."""

    KIND = "prompt_closed"
    VERSION = 1
    prompt: str
    outcome: str
    by: str


class MoveCompleted(EventBody, frozen=True, kw_only=True, omit_defaults=True):
    """``token`` arrived on ``at``; ``cost`` is the whole move's (terrain and diagonals
    included, charged when it started), ``movement_left`` what the Phase has left; a
    flight's ``elevation`` where it landed (null otherwise)."""

    KIND = "move_completed"
    VERSION = 1
    LATER = ("elevation",)
    token: str
    at: tuple[int | float, int | float]
    cost: float
    movement_left: float
    elevation: float | None = None


class CombatantSkipped(EventBody, frozen=True, kw_only=True):
    """``combatant``'s INIT came up but it does not act (``aborted`` or ``cannot act``)."""

    KIND = "combatant_skipped"
    VERSION = 7
    combatant: str
    clock: Clock
    reason: str


class InterjectionEnded(EventBody, frozen=True, kw_only=True):
    """``combatant`` finished acting out of turn; the interrupted action goes on."""

    KIND = "interjection_ended"
    VERSION = 1
    combatant: str


class ConditionChanged(EventBody, frozen=True, kw_only=True):
    """The GM set (``on``) or cleared ``condition`` on ``combatant``."""

    KIND = "condition_changed"
    VERSION = 1
    combatant: str
    condition: str
    on: bool


class StatsChanged(EventBody, frozen=True, kw_only=True):
    """The GM changed statistics of ``combatant`` mid-fight: ``stats`` are the new
    values (name, value) of those it changed; ``order_kept`` says the initiative order
    and scores stand (each ruleset's guide says why)."""

    KIND = "stats_changed"
    VERSION = 8
    combatant: str
    stats: tuple[tuple[str, bool | int | float | str], ...]
    order_kept: bool


class SceneEdited(EventBody, frozen=True, kw_only=True):
    """The GM replaced the scene's ``walls`` and/or ``terrain`` (None: kept as they
    were); the grid and the tokens stay."""

    KIND = "scene_edited"
    VERSION = 8
    walls: tuple[WallSpec, ...] | None
    terrain: tuple[TerrainSpec, ...] | None


class InitiativeRolled(EventBody, frozen=True, kw_only=True):
    """``by`` rolled ``token``'s initiative dice before the fight: ``rolls`` (empty: taken
    back); the fight's start rolls with them."""

    KIND = "initiative_rolled"
    VERSION = 8
    token: str
    by: str
    rolls: tuple[int, ...]


class MoveStopped(EventBody, frozen=True, kw_only=True):
    """``token``'s move ended early on ``at``: ``reason`` (the GM said it cannot go on,
    or the way ahead is no longer open)."""

    KIND = "move_stopped"
    VERSION = 1
    token: str
    at: tuple[int | float, int | float]
    reason: str


class EffectStarted(EventBody, frozen=True, kw_only=True):
    """Effect ``effect`` (``name``) began on ``token`` (None: the scene), set by
    ``source``; it ends just before count ``count`` at the moment ``ends``, or when
    ended (``ends`` None)."""

    KIND = "effect_started"
    VERSION = 7
    effect: str
    name: str
    token: str | None
    source: str
    count: int
    ends: Clock | None


class EffectEnded(EventBody, frozen=True, kw_only=True):
    """Effect ``effect`` (``name``) ended: ``reason`` ``expired`` (its time ran out),
    ``ended`` (the GM or a rule ended it) or ``left`` (its token left the fight)."""

    KIND = "effect_ended"
    VERSION = 3
    effect: str
    name: str
    token: str | None
    reason: str


class CombatantJoined(EventBody, frozen=True, kw_only=True):
    """``combatant`` joined the running fight at count ``score``; the new order follows
    in an ``initiative_order`` event.  ``token`` is the newcomer as placed on the scene
    (the same shape as a ``scene_loaded`` scene's tokens), so every client can draw it."""

    KIND = "combatant_joined"
    VERSION = 8
    combatant: str
    score: int
    token: Combatant


class CombatantLeft(EventBody, frozen=True, kw_only=True):
    """``combatant`` left the fight (``removed``: off the scene too)."""

    KIND = "combatant_left"
    VERSION = 3
    combatant: str
    removed: bool


class CombatEnded(EventBody, frozen=True, kw_only=True):
    """The GM ended the fight (``reason``: the table's words, or None); the table moves
    freely again."""

    KIND = "combat_ended"
    VERSION = 6
    reason: str | None


class ActionDone(EventBody, frozen=True, kw_only=True):
    """``combatant`` took ``action`` (``cost``: ``action``, ``free`` or ``net``), on
    ``target`` and/or with ``item`` where it has one; ``note`` says what changed."""

    KIND = "cpr_action"
    VERSION = 1
    combatant: str
    action: str
    cost: str
    target: str | None
    item: str | None
    note: str


class CprAttack(EventBody, frozen=True, kw_only=True):
    """An attack: d10 + ``base`` (the table's STAT + Skill) = ``total``; whether it hits
    (against the DV the table sets) and what a hit does stay the table's.  ``number`` is
    1 or 2 (the second attack of a split Action); ``held`` marks a fired Hold Action."""

    KIND = "cpr_attack"
    VERSION = 1
    attacker: str
    target: str
    weapon: str
    die: int
    base: int
    total: int
    number: int
    held: bool


class GrabContested(EventBody, frozen=True, kw_only=True):
    """A Grab's opposed roll: each side d10 + its base; ties go to the defender."""

    KIND = "cpr_grab"
    VERSION = 1
    attacker: str
    target: str
    attack_total: int
    defense_total: int
    success: bool
    item: str | None


class ActionHeld(EventBody, frozen=True, kw_only=True):
    """``holder`` holds ``action`` until ``trigger`` (``after_turn``, ``enters``,
    ``in_sight``) on ``token`` or ``area``; lost at the end of Round ``round``."""

    KIND = "cpr_action_held"
    VERSION = 1
    holder: str
    action: str
    trigger: str
    token: str | None
    area: tuple[tuple[int, int], ...]
    round: int


class HeldActionFired(EventBody, frozen=True, kw_only=True):
    """``holder``'s held action fired, interrupting, because ``by`` set off its trigger;
    ``at`` is where ``by`` was when it did: the square its move steps into (the area's,
    or the first in view) for ``enters`` and ``in_sight`` (gridless: the point where it
    came onto the area or into view), null for ``after_turn``."""

    KIND = "cpr_held_fired"
    VERSION = 1
    holder: str
    action: str
    by: str
    at: tuple[int | float, int | float] | None


class HeldActionLost(EventBody, frozen=True, kw_only=True):
    """``holder``'s held action is lost: ``reason`` (the Round ended, or it could not be
    carried out when it fired)."""

    KIND = "cpr_held_lost"
    VERSION = 1
    holder: str
    action: str
    reason: str


class QueueChanged(EventBody, frozen=True, kw_only=True):
    """The Initiative Queue shifted: ``why`` is ``driver`` (a driver started a vehicle)
    or ``newcomer`` (``combatant`` joined and rolled ``score``)."""

    KIND = "cpr_queue_changed"
    VERSION = 1
    why: str
    combatant: str
    order: tuple[str, ...]
    score: int | None


class AttackRolled(EventBody, frozen=True, kw_only=True):
    """An Attack Roll: ``total`` = sum(dice) + ocv against ``target_number``."""

    KIND = "attack_rolled"
    VERSION = 1
    attacker: str
    target: str
    attack: str
    dice: tuple[int, ...]
    ocv: int
    dcv: int
    total: int
    target_number: int
    hit: bool


class HoldDeclared(EventBody, frozen=True, kw_only=True):
    """``combatant`` delays (``hold`` "delay", maybe ``before`` someone) or readies an
    ``action`` against a trigger: ``trigger_by``'s action or entering ``area``."""

    KIND = "hold_declared"
    VERSION = 1
    combatant: str
    hold: str
    before: str | None
    action: str | None
    trigger_by: str | None
    area: tuple[tuple[int, int], ...]


class HoldLapsed(EventBody, frozen=True, kw_only=True):
    """``combatant``'s next action came before its delayed or readied action: it is gone."""

    KIND = "hold_lapsed"
    VERSION = 1
    combatant: str
    hold: str


class DelayTaken(EventBody, frozen=True, kw_only=True):
    """``combatant`` takes its delayed action now, just before ``before`` (None: at the end
    of the Phase, after everyone else): its INIT moves there."""

    KIND = "delay_taken"
    VERSION = 1
    combatant: str
    before: str | None


class ReadiedActionTaken(EventBody, frozen=True, kw_only=True):
    """``combatant``'s readied action fires, interrupting ``trigger_by``; for the rest of
    the encounter it acts immediately ahead of ``trigger_by``."""

    KIND = "readied_action_taken"
    VERSION = 1
    combatant: str
    trigger_by: str
    action: str


class ActionTaken(EventBody, frozen=True, kw_only=True):
    """``combatant`` took the action ``action``, spending ``slot`` (None: a free action)."""

    KIND = "action_taken"
    VERSION = 1
    combatant: str
    action: str
    slot: str | None
    detail: str | None


class Aborted(EventBody, frozen=True, kw_only=True):
    """``combatant`` aborted to ``action`` (``defend``: the defensive ``maneuver``, DCV
    modifier ``dcv``; ``move``: a move action, taken now), giving up its action in
    ``gives_up`` (turn, phase)."""

    KIND = "aborted"
    VERSION = 2
    combatant: str
    maneuver: str | None
    dcv: int
    gives_up: tuple[int, int]
    action: str


class VitalsChanged(EventBody, frozen=True, kw_only=True):
    """The GM set ``combatant``'s current END and STUN."""

    KIND = "vitals_changed"
    VERSION = 1
    combatant: str
    end: int
    stun: int


class Recovered(EventBody, frozen=True, kw_only=True):
    """Post-Turn Recovery after Turn ``turn``: END and STUN as (before, after)."""

    KIND = "recovered"
    VERSION = 1
    combatant: str
    turn: int
    end: tuple[int, int]
    stun: tuple[int, int]


class PowerUsed(EventBody, frozen=True, kw_only=True):
    """``combatant`` used ``power`` at ``dice`` (``active_points``), paying ``end`` END
    (``end_left`` left), taking ``time`` (``none``: Casual, ``zero``, ``attack``: an
    Attack Action that ended the Phase).  ``hit`` is the Attack Roll's outcome (None: no
    roll); the effect as rolled or standard: ``rolled`` dice, ``standard`` dice, and the
    ``stun``, ``body`` or ``points`` counted (None: not counted, or no effect);
    ``absolute`` an Absolute Effect that applied; ``advantages`` and ``limitations`` the
    names of those that applied (all the Power's, every use).  Applying it stays the
    table's."""

    KIND = "power_used"
    VERSION = 5
    combatant: str
    power: str
    casual: bool
    target: str | None
    object: str | None
    dice: str
    active_points: int
    end: int
    end_left: int
    time: str
    hit: bool | None
    rolled: tuple[int, ...]
    standard: int
    stun: int | None
    body: int | None
    points: int | None
    stun_multiplier: int | None
    absolute: str
    advantages: tuple[str, ...]
    limitations: tuple[str, ...]


class PowerToggled(EventBody, frozen=True, kw_only=True):
    """``combatant`` turned ``power`` on (``on``) or off, paying ``end`` END, taking
    ``time`` (``zero``, ``full_phase``; ``switch``: a Framework switch took it off;
    ``identity``: leaving the alternate identity took it off)."""

    KIND = "power_toggled"
    VERSION = 1
    combatant: str
    power: str
    on: bool
    end: int
    end_left: int
    time: str


class FrameworkSwitched(EventBody, frozen=True, kw_only=True):
    """``combatant`` allocated ``framework``'s reserve: (slot, points) each."""

    KIND = "framework_switched"
    VERSION = 1
    combatant: str
    framework: str
    allocation: tuple[tuple[str, int], ...]


class PowerUpkeep(EventBody, frozen=True, kw_only=True):
    """``combatant``'s Phase began: its constant Powers on cost ``end`` END; ``dropped``
    went off for want of END."""

    KIND = "power_upkeep"
    VERSION = 1
    combatant: str
    end: int
    end_left: int
    dropped: tuple[str, ...]


class PowerOptionsSet(EventBody, frozen=True, kw_only=True):
    """The GM set the table's Power options."""

    KIND = "power_options_set"
    VERSION = 5
    casual_use: bool
    ser_plus_one: bool
    adder_end: str
    toggle_freely: bool


class IdentityChanged(EventBody, frozen=True, kw_only=True):
    """``combatant`` changed into its ``identity`` (``true`` or ``alternate``)."""

    KIND = "identity_changed"
    VERSION = 5
    combatant: str
    identity: str


class InitiativeCheck(EventBody, frozen=True, kw_only=True):
    """One initiative check at the start of the fight: ``combatants`` (a group makes one
    check for all of its members), the ``d20``, the ``modifier`` and the ``total``."""

    KIND = "initiative_check"
    VERSION = 1
    combatants: tuple[str, ...]
    d20: int
    modifier: int
    total: int


class InitiativeTie(EventBody, frozen=True, kw_only=True):
    """A tie at ``count`` settled ``by`` ``modifier`` (the higher initiative modifier goes
    first) or ``roll_off`` (a die each, highest first, again while still tied);
    ``order`` is who acts first among the tied, each entry a check's combatants."""

    KIND = "initiative_tie"
    VERSION = 1
    count: int
    by: str
    order: tuple[tuple[str, ...], ...]


class FlatFootedEnded(EventBody, frozen=True, kw_only=True):
    """``combatant``'s first regular turn began: it may use its Dodge and Parry again."""

    KIND = "flat_footed_ended"
    VERSION = 1
    combatant: str


class AttackCheck(EventBody, frozen=True, kw_only=True):
    """``attacker`` made a ``reach`` (``close`` or ``ranged``) attack check on ``target``:
    ``d20`` + ``bonus`` = ``total`` against ``dc`` = 10 + the ``defence`` rank it could
    use (``defence_rank``: 0 while it is ``flat_footed`` without Uncanny Dodge).  A
    natural 20 always hits and is a ``critical``; a natural 1 always misses.  What the
    hit does (the Toughness resistance check, conditions) is the table's."""

    KIND = "attack_check"
    VERSION = 1
    attacker: str
    target: str
    reach: str
    d20: int
    bonus: int
    total: int
    defence: str
    defence_rank: int
    flat_footed: bool
    dc: int
    hit: bool
    critical: bool


class TradedDown(EventBody, frozen=True, kw_only=True):
    """``combatant`` traded its standard action for a second move action."""

    KIND = "traded_down"
    VERSION = 1
    combatant: str


class FreeActionTaken(EventBody, frozen=True, kw_only=True):
    """``combatant`` took a free action, ``what`` it says (talking, dropping something)."""

    KIND = "free_action"
    VERSION = 1
    combatant: str
    what: str


class Incapacitation(EventBody, frozen=True, kw_only=True):
    """The GM set (``on``) or cleared ``combatant``'s incapacitated condition."""

    KIND = "incapacitation"
    VERSION = 1
    combatant: str
    on: bool


#: Every shipped event kind's body, the core's first, then each game's.
BODIES: Final[tuple[type[EventBody], ...]] = (
    SceneLoaded,
    DoorChanged,
    TokenPlaced,
    CombatStarted,
    DiceRolled,
    InitiativeOrder,
    PassStarted,
    CombatantActs,
    CombatantDone,
    MoveStarted,
    MoveInterrupted,
    PromptOpened,
    PromptClosed,
    MoveCompleted,
    CombatantSkipped,
    InterjectionEnded,
    ConditionChanged,
    StatsChanged,
    SceneEdited,
    InitiativeRolled,
    MoveStopped,
    EffectStarted,
    EffectEnded,
    CombatantJoined,
    CombatantLeft,
    CombatEnded,
    ActionDone,
    CprAttack,
    GrabContested,
    ActionHeld,
    HeldActionFired,
    HeldActionLost,
    QueueChanged,
    AttackRolled,
    HoldDeclared,
    HoldLapsed,
    DelayTaken,
    ReadiedActionTaken,
    ActionTaken,
    Aborted,
    VitalsChanged,
    Recovered,
    PowerUsed,
    PowerToggled,
    FrameworkSwitched,
    PowerUpkeep,
    PowerOptionsSet,
    IdentityChanged,
    InitiativeCheck,
    InitiativeTie,
    FlatFootedEnded,
    AttackCheck,
    TradedDown,
    FreeActionTaken,
    Incapacitation,
)
