"""Using Powers in a Phase (seed 002): the rules, as pure functions over values.

What a Segment is at this table
===============================
The 6E text counts Casual Use "once per Segment" (a 6E Segment is one second of a
12-Segment Turn).  The supplement this table plays has no Segments: its Turn is 4 Phases
of 3 seconds and every character acts in every Phase.  Here **a Segment is one Phase**:
the span from one Phase's first action to the next Phase's (the Surprise Phase is its own
Segment).  So "once per Segment" is once per Phase, counting uses out of one's own turn
in that Phase too, and "a single Power in a Segment" is one Power a Phase.  The records
that last a Phase (activated, deactivated, switched, used Casually) carry the Phase they
belong to and empty themselves when a new one opens, with no hook to forget.

The rules
=========
* STR added to an HA or HKA (at most the character's STR) pays its own END beside the
  Power's (1 per 10 STR, rounded as above).
* Several Powers in one Phase, given the time (an Attack Action ends the Phase), the END
  (refused with ``over_budget`` naming the shortfall, and nothing is paid) and the
  Framework points (the slots in use share the reserve).
* No offensive Power on oneself unless the GM allows it.
* Any amount from zero to full: a dice code up to the Power's dice, or points for a Power
  without dice; Advantages and Limitations always apply; Adders are optional and END is
  paid on the Active Points used including the Adders used (table option ``adder_end``
  ``all``: on all of them, the other reading of the text's Flight example).
* Turning a Power on or off and switching Framework slots are Zero Phase Actions; Extra
  Time and Only In Alternate Identity make activation a Full Phase (Extra Time longer
  than a Phase is the GM's to apply); not both on and off in one Phase, a Framework's
  slots switched once a Phase; Movement Powers exempt; ``gm_allows`` overrides.
* Attack-Action Powers (Aid, Healing): an Attack Roll (3d6 + OCV against 10 + DCV, the
  supplement's), no effect on a miss, and the Phase ends; END is paid either way (the
  Power was used).  With ``gm_allows`` (on oneself, a willing target) neither.
* Casual Use, a table option: attack Powers and STR only; half effect or less for the END
  of what is used; no time; once a Segment and one Power a Segment; against an object or
  to escape a Grab or Entangle, never a character; not with Concentration, Gestures or
  Extra Time; ``gm_allows`` lifts what the text lets the GM lift.
* Constant Powers pay END when turned on and at the start of each later Phase of their
  owner while on; one that cannot be paid goes off.
* Absolute Effect Rule: ``always_hits`` needs no roll; ``immune:<tag>`` on a target's
  Power stops any Power tagged ``<tag>``; ``always_kills`` is reported with the effect.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.errors import CommandRejected

from .effect import Effect, Roller, active_points, end_cost, resolve
from .sheet import DiceCode, Power, Sheet

#: A Phase of the fight: (Turn, Phase); Phase 0 is the Surprise Phase.  One Segment.
Now = tuple[int, int]

CASUAL_BARS = ("concentration", "gestures", "extratime")


class PowerRefused(CommandRejected):
    """A use of a Power the rules refuse; ``rule`` names the rule (``no_endurance``,
    ``casual_once``, ...) and nothing changed."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(code, message)
        self.rule = rule


def _no(rule: str, message: str, code: str = "illegal_action") -> PowerRefused:
    return PowerRefused(code, rule, message)


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The table's choices: Casual Use allowed, whether a +1 counts under the Standard
    Effect Rule, and whether unused Adders are paid for (``used`` or ``all``)."""

    casual_use: bool = False
    ser_plus_one: bool = True
    adder_end: str = "used"


@dataclass(frozen=True, slots=True)
class PowerState:
    """A character's Powers in the fight: which are on, what its Frameworks allocate, and
    what it did this Phase (``phase``) - the records a Segment limits."""

    on: tuple[str, ...] = ()
    allocated: tuple[tuple[str, int], ...] = ()  # slot -> points
    phase: tuple[int, int] = (0, 0)
    activated: tuple[str, ...] = ()
    deactivated: tuple[str, ...] = ()
    switched: tuple[str, ...] = ()
    casual: str = ""
    attacked: bool = False

    def at(self, now: Now) -> PowerState:
        """This state with the per-Phase records of ``now`` (emptied in a new Phase)."""
        if self.phase == now:
            return self
        return replace(
            self, phase=now, activated=(), deactivated=(), switched=(), casual="", attacked=False
        )

    def allocation(self, slot: str) -> int:
        """Points the slot's Framework has allocated to ``slot``."""
        return dict(self.allocated).get(slot, 0)


@dataclass(frozen=True, slots=True)
class Use:
    """What the character asks: a Power, how much (``dice`` or ``points``; None: full,
    or half when Casual), which Adders (None: all), at what (``target`` token, or an
    ``object`` such as ``"door"``), Casually or not, with the GM's leave or not."""

    power: str
    dice: str | None = None
    points: int | None = None
    adders: tuple[str, ...] | None = None
    target: str | None = None
    object: str | None = None
    casual: bool = False
    escape: bool = False
    gm_allows: bool = False
    str_added: int = 0


@dataclass(frozen=True, slots=True)
class Used:
    """The outcome: the new state, what was used (dice, Active Points), the END paid, the
    time it took (``none``, ``zero``, ``attack``), whether it ends the Phase, whether it
    hit (None: no roll), the effect (None: no effect), and any absolute property."""

    state: PowerState
    power: str
    dice: str
    active_points: int
    end: int
    time: str
    ends_phase: bool
    hit: bool | None
    effect: Effect | None
    absolute: str = ""


def _power(sheet: Sheet, name: str) -> Power:
    power = sheet.power(name)
    if power is None:
        known = ", ".join(p.name for p in sheet.powers) or "none"
        raise _no("unknown_power", f"no Power {name!r} (has: {known})")
    return power


def amount(power: Power, use: Use, options: TableOptions) -> tuple[DiceCode, int, int]:
    """The dice, Active Points used, and END-paying Active Points of ``use``."""
    full = power.full_dice
    if power.dice:
        if use.points is not None:
            raise _no("amount", f"{power.name} is used by its dice, not points")
        code = full if use.dice is None else _parse(use.dice)
        if use.casual and use.dice is None:
            code = DiceCode.of_thirds(full.thirds // 2)
        if code.thirds > full.thirds:
            raise _no("amount", f"{power.name} has {full}; {code} is more than all of it")
        base = code
    else:
        if use.dice is not None:
            raise _no("amount", f"{power.name} has no dice; say how many points to use")
        points = power.base_points if use.points is None else use.points
        if not 0 <= points <= power.base_points:
            raise _no("amount", f"{power.name} has {power.base_points} points, not {points}")
        base = code = full
    chosen = {a.name for a in power.adders} if use.adders is None else set(use.adders)
    unknown = chosen - {a.name for a in power.adders}
    if unknown:
        raise _no("amount", f"{power.name} has no Adder {sorted(unknown)[0]!r}")
    adders = sum(a.points for a in power.adders if a.name in chosen)
    all_adders = sum(a.points for a in power.adders)
    if power.dice:
        ap = active_points(power, base, adders)
        paid = ap if options.adder_end == "used" else active_points(power, base, all_adders)
    else:
        scaled = replace(power, base_points=points)
        ap = active_points(scaled, base, adders)
        paid = ap if options.adder_end == "used" else active_points(scaled, base, all_adders)
    return code, ap, paid


def _parse(text: str) -> DiceCode:
    try:
        return DiceCode.parse(text)
    except ValueError as exc:
        raise _no("amount", str(exc)) from None


def casual_refusal(
    power: Power, state: PowerState, use: Use, options: TableOptions, *, is_token: bool
) -> str | None:
    """Why ``power`` cannot be used Casually now (None: it can)."""
    if not options.casual_use:
        return "Casual Use is not one of this table's options"
    if power.kind != "attack":
        return f"{power.name} is a {power.kind} Power: only attacks and STR are used Casually"
    if not power.casual:
        return f"{power.name} cannot be used Casually"
    bar = next((m.name for m in power.limitations if _bar(m.name)), None)
    if bar is not None and not use.gm_allows:
        return f"{power.name} has {bar}: it is not used Casually unless the GM allows"
    if state.casual and not use.gm_allows:
        return f"already used {state.casual} Casually this Segment (a Phase at this table)"
    if is_token and not use.escape and not use.gm_allows:
        return "Casual Use never attacks a character: name an object, or escape a Grab"
    return None


def _bar(name: str) -> bool:
    key = name.replace(" ", "").replace("_", "").lower()
    return key in CASUAL_BARS


def use_power(
    sheet: Sheet,
    state: PowerState,
    use: Use,
    *,
    now: Now,
    end: int,
    actor: str,
    options: TableOptions,
    roll: Roller,
    ocv: int = 0,
    dcv: int = 0,
    target_sheet: Sheet | None = None,
) -> Used:
    """Use a Power (``end`` is the END the character has); raise :class:`PowerRefused`."""
    state = state.at(now)
    power = _power(sheet, use.power)
    if power.duration == "constant":
        raise _no("constant", f"{power.name} is turned on and off, not used (activate it)")
    is_token = use.target is not None
    if use.casual:
        why = casual_refusal(power, state, use, options, is_token=is_token)
        if why:
            raise _no("casual", why)
    if use.target == actor and power.is_offensive and not use.gm_allows:
        raise _no("self", f"{power.name} is offensive: not on oneself unless the GM allows")
    if not use.casual and state.attacked and power.kind == "attack":
        raise _no("time", "the Phase's Attack Action is already spent", "over_budget")
    code, ap, paid = amount(power, use, options)
    if use.casual and code.thirds > power.full_dice.thirds // 2:
        half = DiceCode.of_thirds(power.full_dice.thirds // 2)
        raise _no("casual", f"Casual Use is half effect or less: {power.name} at most {half}")
    if use.str_added:
        if not power.adds_str:
            raise _no("amount", f"STR does not add to {power.name}")
        strength = sheet.power("STR")
        has = 0 if strength is None else active_points(strength, strength.full_dice, 0)
        if use.str_added > has:
            raise _no("amount", f"STR {use.str_added} added, but the character has STR {has}")
        code = DiceCode.of_thirds(code.thirds + _str_thirds(power, use.str_added))
    if power.framework:
        held = state.allocation(power.name)
        if ap > held:
            raise _no(
                "framework",
                f"{power.framework} has {held} points in {power.name}; using {ap} needs more",
                "over_budget",
            )
    cost = end_cost(paid) + end_cost(use.str_added)  # STR added pays its own END
    if cost > end:
        raise _no(
            "no_endurance", f"{power.name} at {code} costs {cost} END; has {end}", "over_budget"
        )
    attack_action = not use.casual and (power.attack_action or power.kind == "attack")
    waived = use.gm_allows and power.attack_action
    absolute = ""
    hit: bool | None = None
    if attack_action and not waived and (is_token or power.attack_action):
        if "always_hits" in power.absolute:
            hit, absolute = True, "always hits"
        else:
            total = sum(roll(f"{power.name} Attack Roll", 3, 6)) + ocv
            hit = total >= 10 + dcv
    effect = None
    if hit is not False:
        guard = _immunity(power, target_sheet)
        if guard:
            absolute = guard
        else:
            effect = resolve(power, code, roll, plus_one_counts=options.ser_plus_one)
            if "always_kills" in power.absolute:
                absolute = "always kills"
    ends = attack_action and not waived
    state = replace(
        state,
        casual=power.name if use.casual else state.casual,
        attacked=state.attacked or ends,
    )
    time = "none" if use.casual else "attack" if ends else "zero"
    return Used(state, power.name, str(code), ap, cost, time, ends, hit, effect, absolute)


def _str_thirds(power: Power, strength: int) -> int:
    # 5 STR add 1d6 to a Hand Attack, one Damage Class (a third of a die) to an HKA.
    return strength // 5 * (1 if power.effect == "killing" else 3)


def _immunity(power: Power, target: Sheet | None) -> str:
    if target is None:
        return ""
    for guard in target.powers:
        for word in guard.absolute:
            if word.startswith("immune:") and word[7:] in power.tags:
                return f"{guard.name}: immune to {word[7:]}"
    return ""


# -- turning Powers on and off, switching Framework slots --------------------------------------


def activation_time(power: Power) -> str:
    """``zero`` (a Zero Phase Action) or ``full_phase`` (Extra Time, Only In Alternate
    Identity); Extra Time longer than a Phase gives its own ``detail``."""
    extra = power.limitation("Extra Time")
    if extra is not None:
        return extra.detail or "full_phase"
    if power.limitation("Only In Alternate Identity") is not None:
        return "full_phase"
    return "zero"


def activate(
    sheet: Sheet, state: PowerState, name: str, *, now: Now, end: int, gm_allows: bool = False
) -> tuple[PowerState, int, str]:
    """Turn a constant Power on: the new state, the END paid, the time taken."""
    state = state.at(now)
    power = _power(sheet, name)
    if power.duration != "constant":
        raise _no("instant", f"{name} is used, not turned on")
    if name in state.on:
        raise _no("already", f"{name} is already on")
    if name in state.deactivated and power.kind != "movement" and not gm_allows:
        raise _no("on_off", f"{name} was turned off this Phase: not on again unless the GM allows")
    time = activation_time(power)
    if time not in ("zero", "full_phase") and not gm_allows:
        raise _no("time", f"{name} takes {time} to turn on: the GM applies that")
    if power.framework and state.allocation(name) < _full_ap(power):
        raise _no("framework", f"{power.framework} has not allocated {name}", "over_budget")
    cost = end_cost(_full_ap(power))
    if cost > end:
        raise _no("no_endurance", f"{name} costs {cost} END; has {end}", "over_budget")
    state = replace(state, on=tuple(sorted({*state.on, name})), activated=(*state.activated, name))
    return state, cost, time


def deactivate(
    sheet: Sheet, state: PowerState, name: str, *, now: Now, gm_allows: bool = False
) -> PowerState:
    """Turn a Power off (a Zero Phase Action)."""
    state = state.at(now)
    power = _power(sheet, name)
    if name not in state.on:
        raise _no("already", f"{name} is not on")
    if name in state.activated and power.kind != "movement" and not gm_allows:
        raise _no("on_off", f"{name} was turned on this Phase: not off again unless the GM allows")
    return replace(
        state, on=tuple(n for n in state.on if n != name), deactivated=(*state.deactivated, name)
    )


def switch(
    sheet: Sheet,
    state: PowerState,
    framework: str,
    allocation: Sequence[tuple[str, int | None]],
    *,
    now: Now,
    gm_allows: bool = False,
) -> PowerState:
    """Allocate a Framework's reserve among its slots (None: a slot's full points);
    slots left out lose their points, and a constant one of them goes off."""
    state = state.at(now)
    frame = sheet.framework(framework)
    if frame is None:
        raise _no("unknown_power", f"no Power Framework {framework!r}")
    if framework in state.switched and not gm_allows:
        raise _no("switch_twice", f"{framework}'s slots were switched this Phase already")
    slots = {p.name: p for p in sheet.slots(framework)}
    wanted: dict[str, int] = {}
    for name, points in allocation:
        if name not in slots:
            raise _no("unknown_power", f"{name!r} is not a slot of {framework}")
        full = _full_ap(slots[name])
        wanted[name] = full if points is None else points
        if not 0 <= wanted[name] <= full:
            raise _no("framework", f"{name} takes 0..{full} points, not {points}", "over_budget")
    if sum(wanted.values()) > frame.pool:
        raise _no(
            "framework",
            f"{framework} has {frame.pool} points; {sum(wanted.values())} asked",
            "over_budget",
        )
    off = [n for n in state.on if n in slots and wanted.get(n, 0) < _full_ap(slots[n])]
    for name in off:
        state = deactivate(sheet, state, name, now=now, gm_allows=gm_allows)
    kept = tuple((n, p) for n, p in state.allocated if n not in slots)
    return replace(
        state,
        allocated=tuple(sorted(kept + tuple((n, p) for n, p in wanted.items() if p))),
        switched=(*state.switched, framework),
    )


def upkeep(
    sheet: Sheet, state: PowerState, *, now: Now, end: int
) -> tuple[PowerState, int, tuple[str, ...]]:
    """The owner's Phase begins: pay the END of each constant Power on (in the order the
    character lists them); those it cannot pay go off.  Returns the END paid and those."""
    state = state.at(now)
    paid, dropped = 0, []
    for power in sheet.powers:
        if power.name not in state.on:
            continue
        cost = end_cost(_full_ap(power))
        if paid + cost <= end:
            paid += cost
        else:
            dropped.append(power.name)
    state = replace(state, on=tuple(n for n in state.on if n not in dropped))
    return state, paid, tuple(dropped)


def _full_ap(power: Power) -> int:
    return active_points(power, power.full_dice, sum(a.points for a in power.adders))
