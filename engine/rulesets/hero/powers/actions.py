"""Powers as Hero actions on the wire (``act {token, action, params}``): use a Power,
turn one on or off, switch a Framework's slots; the GM sets the table's Power options.

Each action's params are declared once here; the rules are :mod:`.rules` (pure), and
this module only reads the fight (the Phase, END, the Phase budget), applies what the
rules return and reports it.  END lives in the Hero fight's vitals (``end`` statistic),
so the supplement's Post-Turn Recovery gives it back.  An Attack Action (an attack Power
used in earnest, or a Power that takes one, like Aid) takes the Phase's attack action and,
as seed 002 says, ends the character's Phase.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from engine.clock import Advance
from engine.errors import CommandRejected
from engine.params import DICE, Length, Range, TokenRef
from engine.rulesets.base import ActionSpec, Context, Result
from engine.rulesets.hero import budget
from engine.rulesets.hero.state import (
    ATTACK,
    FULL,
    Vitals,
    hero,
    limited_now,
    put,
    usage,
    with_usage,
)

from .activation import activate, change_identity, deactivate, switch, upkeep
from .events import (
    FrameworkSwitched,
    IdentityChanged,
    PowerOptionsSet,
    PowerToggled,
    PowerUpkeep,
    PowerUsed,
)
from .rules import PowerRefused, PowerState, TableOptions, Use, use_power
from .sheet import Sheet, sheet_of

PowerName = Annotated[str, Length(1, 48)]


@dataclass(frozen=True, slots=True)
class UsePowerParams:
    """Use ``power``: at ``dice`` (a Power with dice) or ``points`` (one without; None:
    full, or half when ``casual``), with the ``adders`` named (None: all), at a ``target``
    token or an ``object`` (a door, an Entangle: no statistics needed); ``casual`` for
    Casual Use, ``escape`` when it frees the character from a Grab or Entangle;
    ``str_added`` STR added to an HA or HKA; ``gm_allows`` (the GM only) lifts what the
    text lets the GM lift; ``rolls`` the table's dice for every roll, in order (Attack
    Roll 3d6, then the effect's dice, then a STUN Multiplier).  ``advantages`` and
    ``limitations`` name those used (None: all; a use leaving one out is refused: they
    always apply); ``standard`` asks for the Standard Effect Rule (true) or the dice
    (false; None: as the Power is bought, the only choice the text leaves);
    ``ocv_modifier`` (the GM only) an OCV modifier to the Attack Roll for circumstances."""

    power: PowerName
    dice: Annotated[str, Length(1, 16)] | None = None
    points: Annotated[int, Range(0, 10_000)] | None = None
    adders: tuple[PowerName, ...] | None = None
    target: TokenRef | None = None
    object: Annotated[str, Length(1, 64)] | None = None
    casual: bool = False
    escape: bool = False
    str_added: Annotated[int, Range(0, 1000)] = 0
    gm_allows: bool = False
    rolls: Annotated[tuple[int, ...] | None, DICE] = None
    advantages: tuple[PowerName, ...] | None = None
    limitations: tuple[PowerName, ...] | None = None
    standard: bool | None = None
    ocv_modifier: Annotated[int, Range(-50, 50)] = 0


@dataclass(frozen=True, slots=True)
class IdentityParams:
    """Change into the ``alternate`` identity or back to the ``true`` one."""

    identity: Literal["true", "alternate"]


@dataclass(frozen=True, slots=True)
class PowerParams:
    """Turn ``power`` on or off; ``gm_allows`` (the GM only) lifts the one-way rule."""

    power: PowerName
    gm_allows: bool = False


@dataclass(frozen=True, slots=True)
class SlotParams:
    """A Framework slot and the points it gets (None: all its Active Points)."""

    power: PowerName
    points: Annotated[int, Range(0, 10_000)] | None = None


@dataclass(frozen=True, slots=True)
class SwitchParams:
    """Allocate ``framework``'s reserve to ``slots`` (the others get none)."""

    framework: PowerName
    slots: tuple[SlotParams, ...] = ()
    gm_allows: bool = False


@dataclass(frozen=True, slots=True)
class PowerOptionsParams:
    """The table's Power options (seed 002 leaves each to the GM): Casual Use; a +1 under
    the Standard Effect Rule counting +1 (or +0); END on all the Adders (the text's) or
    only those used; ``toggle_freely``, "as a campaign ground rule", lifts the one-way
    rule of turning a Power on and off and the once-a-Phase Framework switch."""

    casual_use: bool = False
    ser_plus_one: bool = True
    adder_end: Literal["used", "all"] = "all"
    toggle_freely: bool = False


def _now(ctx: Context) -> tuple[int, int]:
    return ctx.combat.turn, ctx.combat.phase


def _mine(ctx: Context) -> PowerState:
    """The token's Power state; before its first use of Powers, its starting identity
    (the statistic ``identity``: ``"alternate"``, or the true identity)."""
    value = ctx.combat.state_of(ctx.token.id)
    if isinstance(value, PowerState):
        return value
    return PowerState(alternate=ctx.token.stat("identity") == "alternate")


def _options(ctx: Context) -> TableOptions:
    return hero(ctx.combat).power_options


def _conditions(ctx: Context) -> tuple[str, ...]:
    return ctx.combat.conditions_of(ctx.token.id)


def _end(ctx: Context) -> int:
    vitals = hero(ctx.combat).vitals_of(ctx.token.id)
    if vitals is None:
        raise CommandRejected("illegal_action", f"{ctx.token.id!r} has no END (an end stat)")
    return vitals.end


def _store(ctx: Context, powers: PowerState, paid: int) -> tuple[Any, int]:
    """The state with the Power state kept and ``paid`` END spent; and the END left."""
    combat = ctx.combat.with_state(ctx.token.id, powers)
    fight = hero(combat)
    left = 0
    vitals = []
    for v in fight.vitals:
        if v.combatant == ctx.token.id:
            v, left = Vitals(v.combatant, v.end - paid, v.stun), v.end - paid
        vitals.append(v)
    combat = put(combat, replace(fight, vitals=tuple(vitals)))
    return replace(ctx.state, combat=combat, draws=ctx.tray.draws), left


def _gm(ctx: Context, asked: bool) -> None:
    if asked and ctx.actor != "gm":
        raise CommandRejected("gm_only", "only the GM allows what the rules otherwise refuse")


def _sheet(ctx: Context) -> Sheet:
    return sheet_of(ctx.token)


def has_powers(ctx: Context) -> str | None:
    """Refusal: a character without Powers (nor STR) has nothing to use."""
    return None if _sheet(ctx).powers else f"{ctx.token.id!r} has no Powers"


def has_frameworks(ctx: Context) -> str | None:
    """Refusal: a character without a Framework has no slots to switch."""
    return None if _sheet(ctx).frameworks else f"{ctx.token.id!r} has no Framework"


def _dry(ctx: Context, request: Use) -> str | None:
    """Why ``request`` would be refused now, from the same rules ``use`` runs (its dice
    are stand-ins: nothing is rolled or kept)."""
    try:
        used = use_power(
            _sheet(ctx), _mine(ctx), request, now=_now(ctx), end=_end(ctx),
            actor=ctx.token.id, options=_options(ctx), conditions=_conditions(ctx),
            roll=lambda purpose, count, sides: (sides,) * count,
        )  # fmt: skip
        if used.ends_phase:
            _slot(ctx, ATTACK)
    except CommandRejected as refusal:
        return refusal.message
    return None


def power_choices(ctx: Context) -> list[tuple[str, str | None]]:
    """Each Power with why it cannot be used now: at full power, or else Casually."""
    out: list[tuple[str, str | None]] = []
    acting = ctx.combat.actor == ctx.token.id
    for power in _sheet(ctx).powers:
        if power.duration == "constant":
            continue
        why = _dry(ctx, Use(power.name, object="-")) if acting else "not its action"
        if why is not None and _dry(ctx, Use(power.name, object="-", casual=True)) is None:
            why = None  # Casually, at least
        out.append((power.name, why))
    return out


def on_choices(ctx: Context) -> list[tuple[str, str | None]]:
    """Each constant Power that is off, with why it cannot be turned on now."""
    return _toggles(ctx, on=False)


def off_choices(ctx: Context) -> list[tuple[str, str | None]]:
    """Each constant Power that is on, with why it cannot be turned off now."""
    return _toggles(ctx, on=True)


def _toggles(ctx: Context, *, on: bool) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    mine, sheet, now = _mine(ctx), _sheet(ctx), _now(ctx)
    free = _options(ctx).toggle_freely
    for power in sheet.powers:
        if power.duration != "constant" or (power.name in mine.on) != on:
            continue
        try:
            if on:
                deactivate(sheet, mine, power.name, now=now, ground_rule=free)
            else:
                activate(sheet, mine, power.name, now=now, end=_end(ctx), ground_rule=free)
            out.append((power.name, None))
        except CommandRejected as refusal:
            out.append((power.name, refusal.message))
    return out


def _slot(ctx: Context, slot: str) -> None:
    reason = budget.refusal(ctx.token, usage(ctx.combat), slot, limited_now(ctx.combat))
    if reason:
        raise CommandRejected("over_budget", reason)


def use(ctx: Context, params: UsePowerParams) -> Result:
    """Use a Power (see :func:`.rules.use_power`).  Casual Use takes no time, so it may
    come at any moment (another's action too); any other use waits for one's own."""
    _gm(ctx, params.gm_allows)
    if params.ocv_modifier and ctx.actor != "gm":
        raise CommandRejected("gm_only", "only the GM gives a use an OCV modifier")
    if not params.casual and ctx.combat.actor != ctx.token.id:
        raise CommandRejected(
            "not_your_turn",
            f"it is {ctx.combat.actor!r}'s action: only Casual Use takes no time",
        )
    sheet, target_sheet = _sheet(ctx), None
    dcv = 0
    if params.target is not None:
        target = ctx.scene.token(params.target)
        if target is None:
            raise CommandRejected("unknown_token", f"no token {params.target!r}")
        target_sheet = sheet_of(target)
        if target.id != ctx.token.id and target.id in ctx.combat.order:
            dcv = ctx.ruleset.defense_value(ctx.combat, target)  # type: ignore[attr-defined]
    if params.rolls is not None:
        ctx.tray.supply = list(params.rolls)
    ocv = ctx.token.stat("ocv", 0)
    assert isinstance(ocv, int)
    request = Use(
        params.power, params.dice, params.points, params.adders, params.target,
        params.object, params.casual, params.escape, params.gm_allows, params.str_added,
        params.advantages, params.limitations, params.standard, params.ocv_modifier,
    )  # fmt: skip
    used = use_power(
        sheet, _mine(ctx), request, now=_now(ctx), end=_end(ctx), actor=ctx.token.id,
        options=_options(ctx), roll=ctx.tray.roll, ocv=ocv, dcv=dcv,
        target_sheet=target_sheet, conditions=_conditions(ctx),
    )  # fmt: skip
    _all_dice_used(ctx, sheet, params.power)
    if used.ends_phase:
        _slot(ctx, ATTACK)
    state, left = _store(ctx, used.state, used.end)
    effect = used.effect
    event = PowerUsed(
        ctx.token.id, used.power, params.casual, params.target, params.object, used.dice,
        used.active_points, used.end, left, used.time, used.hit,
        effect.dice if effect else (), effect.standard if effect else 0,
        effect.stun if effect else None, effect.body if effect else None,
        effect.points if effect else None, effect.multiplier if effect else None,
        used.absolute, used.advantages, used.limitations,
    )  # fmt: skip
    events: list[Any] = [*ctx.tray.events, event]
    if not used.ends_phase:
        return state, events
    combat = state.combat
    assert combat is not None
    spent = usage(combat)
    attacked = spent.attacked if params.target is None else (*spent.attacked, params.target)
    state = replace(
        state,
        combat=with_usage(
            combat, replace(spent, actions=(*spent.actions, ATTACK), attacked=attacked)
        ),
    )
    if combat.interjection is not None:
        return state, events  # a readied action: its own flow ends it
    return state, [*events, Advance()]


def _all_dice_used(ctx: Context, sheet: Sheet, name: str) -> None:
    """The table's dice were all needed; for a Power under the Standard Effect Rule, dice
    beyond those it rolls ask to roll its standard dice, which the rule refuses."""
    try:
        ctx.tray.require_supply_used()
    except CommandRejected as refusal:
        power = sheet.power(name)
        if power is None or not power.uses_ser:
            raise
        raise PowerRefused(
            refusal.code,
            "standard_effect",
            f"{refusal.message}: {name} applies the Standard Effect Rule to "
            f"{power.standard_dice} of its dice, which are not rolled (a Power using the "
            "rule cannot switch back to the rolled effect)",
        ) from None


def turn_on(ctx: Context, params: PowerParams) -> Result:
    """Turn a constant Power on (a Zero Phase Action; a Full Phase with Extra Time or Only
    In Alternate Identity)."""
    _gm(ctx, params.gm_allows)
    powers, paid, time = activate(
        _sheet(ctx), _mine(ctx), params.power, now=_now(ctx), end=_end(ctx),
        gm_allows=params.gm_allows, ground_rule=_options(ctx).toggle_freely,
    )  # fmt: skip
    if time == "full_phase":
        _slot(ctx, FULL)
    state, left = _store(ctx, powers, paid)
    if time == "full_phase":
        combat = state.combat
        assert combat is not None
        spent = usage(combat)
        state = replace(
            state, combat=with_usage(combat, replace(spent, actions=(*spent.actions, FULL)))
        )
    return state, [PowerToggled(ctx.token.id, params.power, True, paid, left, time)]


def turn_off(ctx: Context, params: PowerParams) -> Result:
    """Turn a Power off (a Zero Phase Action)."""
    _gm(ctx, params.gm_allows)
    powers = deactivate(
        _sheet(ctx), _mine(ctx), params.power, now=_now(ctx), gm_allows=params.gm_allows,
        ground_rule=_options(ctx).toggle_freely,
    )  # fmt: skip
    state, left = _store(ctx, powers, 0)
    return state, [PowerToggled(ctx.token.id, params.power, False, 0, left, "zero")]


def switch_slots(ctx: Context, params: SwitchParams) -> Result:
    """Allocate a Framework's reserve (a Zero Phase Action, once a Phase)."""
    _gm(ctx, params.gm_allows)
    before = _mine(ctx)
    powers = switch(
        _sheet(ctx), before, params.framework, [(s.power, s.points) for s in params.slots],
        now=_now(ctx), gm_allows=params.gm_allows, ground_rule=_options(ctx).toggle_freely,
    )  # fmt: skip
    state, left = _store(ctx, powers, 0)
    events: list[Any] = [
        PowerToggled(ctx.token.id, name, False, 0, left, "switch")
        for name in before.on
        if name not in powers.on
    ]
    slots = {p.name for p in _sheet(ctx).slots(params.framework)}
    allocation = tuple((n, p) for n, p in powers.allocated if n in slots)
    return state, [*events, FrameworkSwitched(ctx.token.id, params.framework, allocation)]


def identity(ctx: Context, params: IdentityParams) -> Result:
    """Change identity (a Zero Phase Action, :mod:`.activation`); leaving the alternate
    one turns off its Powers Only In Alternate Identity."""
    sheet = _sheet(ctx)
    powers, off = change_identity(sheet, _mine(ctx), params.identity == "alternate", now=_now(ctx))
    state, left = _store(ctx, powers, 0)
    events: list[Any] = [PowerToggled(ctx.token.id, n, False, 0, left, "identity") for n in off]
    return state, [*events, IdentityChanged(ctx.token.id, params.identity)]


def set_options(ctx: Context, params: PowerOptionsParams) -> Result:
    """The GM sets the table's Power options for this fight."""
    options = TableOptions(
        params.casual_use, params.ser_plus_one, params.adder_end, params.toggle_freely
    )
    fight = replace(hero(ctx.combat), power_options=options)
    state = replace(ctx.state, combat=put(ctx.combat, fight))
    return state, [
        PowerOptionsSet(
            params.casual_use, params.ser_plus_one, params.adder_end, params.toggle_freely
        )
    ]


POWER_ACTIONS: dict[str, ActionSpec[Any]] = {
    "use_power": ActionSpec(
        "use_power", UsePowerParams, use, has_powers, when="any", choices=power_choices
    ),
    "power_on": ActionSpec("power_on", PowerParams, turn_on, has_powers, choices=on_choices),
    "power_off": ActionSpec("power_off", PowerParams, turn_off, has_powers, choices=off_choices),
    "switch_framework": ActionSpec("switch_framework", SwitchParams, switch_slots, has_frameworks),
    "change_identity": ActionSpec("change_identity", IdentityParams, identity, has_powers),
    "power_options": ActionSpec("power_options", PowerOptionsParams, set_options, when="gm"),
}


def phase_upkeep(state: Any, cid: str, token: Any) -> Result:
    """``cid``'s Phase begins: its constant Powers on cost their END (or go off)."""
    combat = state.combat
    powers = combat.state_of(cid)
    if not isinstance(powers, PowerState) or not powers.on or token is None:
        return state, []
    fight = hero(combat)
    vitals = fight.vitals_of(cid)
    end = 0 if vitals is None else vitals.end
    powers, paid, dropped = upkeep(
        sheet_of(token), powers, now=(combat.turn, combat.phase), end=end
    )
    combat = combat.with_state(cid, powers)
    left = end - paid
    if vitals is not None:
        fight = replace(
            fight,
            vitals=tuple(
                Vitals(cid, left, v.stun) if v.combatant == cid else v for v in fight.vitals
            ),
        )
    state = replace(state, combat=put(combat, fight))
    return state, [PowerUpkeep(cid, paid, left, dropped)]
