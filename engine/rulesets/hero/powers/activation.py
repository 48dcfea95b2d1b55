"""Turning Powers on and off, switching a Framework's slots, and changing identity
(seed 002, *Activating Powers*), as pure functions over :class:`~.rules.PowerState`.

"Activating or 'turning on' a Power is a Zero Phase Action ... In some cases - such as
when a Power has the Limitations Extra Time or Only In Alternate Identity - activating a
Power may take longer (typically a Full Phase ...).  Turning a Power off and switching
slots in a Power Framework are also Zero Phase Actions."  "Unless the GM rules otherwise
a character may not both activate and deactivate a given power in a Phase (nor may he
switch slots in a Power Framework more than once in a Phase) ... (Movement Powers are a
common-sense exception ...).  However, the GM may choose to allow a character to do this
as a campaign ground rule, as a one-time thing in appropriate circumstances ...": the
one-time thing is a command's ``gm_allows``, the campaign ground rule the table's
``toggle_freely`` (``ground_rule`` here).

Only In Alternate Identity: the character has an identity (``PowerState.alternate``;
a token may start in its alternate one with the statistic ``identity: "alternate"``),
changed by :func:`change_identity`, a Zero Phase Action here: the text puts the longer
time on activating such a Power (a Full Phase, :func:`activation_time`), so the change
itself is not charged a second time.  Outside the identity such a Power is refused, used
or turned on (:func:`.rules.identity_refusal`); leaving the identity turns off those on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .effect import active_points
from .endurance import end_of, end_points
from .rules import OIAI, Now, PowerState, identity_refusal, power_of, refuse
from .sheet import Power, Sheet, modifier_key


def change_identity(
    sheet: Sheet, state: PowerState, alternate: bool, *, now: Now
) -> tuple[PowerState, tuple[str, ...]]:
    """Into the alternate identity (``alternate``) or back to the true one: the new state
    and the Powers that went off (those Only In Alternate Identity, leaving it)."""
    state = state.at(now)
    if state.alternate == alternate:
        which = "alternate" if alternate else "true"
        raise refuse("identity", f"the character is already in his {which} identity")
    off: tuple[str, ...] = ()
    if not alternate:
        off = tuple(
            p.name for p in sheet.powers
            if p.name in state.on and any(modifier_key(m.name) == OIAI for m in p.limitations)
        )  # fmt: skip
    state = replace(state, alternate=alternate, on=tuple(n for n in state.on if n not in off))
    return state, off


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
    sheet: Sheet,
    state: PowerState,
    name: str,
    *,
    now: Now,
    end: int,
    gm_allows: bool = False,
    ground_rule: bool = False,
) -> tuple[PowerState, int, str]:
    """Turn a constant Power on: the new state, the END paid, the time taken.
    ``ground_rule``: the table's ``toggle_freely`` (on and off in one Phase)."""
    state = state.at(now)
    power = power_of(sheet, name)
    identity_refusal(power, state)
    if power.duration != "constant":
        raise refuse("instant", f"{name} is used, not turned on")
    if name in state.on:
        raise refuse("already", f"{name} is already on")
    if name in state.deactivated and power.kind != "movement" and not (gm_allows or ground_rule):
        raise refuse(
            "on_off", f"{name} was turned off this Phase: not on again unless the GM allows"
        )
    time = activation_time(power)
    if time not in ("zero", "full_phase") and not gm_allows:
        raise refuse("time", f"{name} takes {time} to turn on: the GM applies that")
    if power.framework and state.allocation(name) < _full_ap(power):
        raise refuse("framework", f"{power.framework} has not allocated {name}", "over_budget")
    cost = _full_end(power)
    if cost > end:
        raise refuse("no_endurance", f"{name} costs {cost} END; has {end}", "over_budget")
    state = replace(state, on=tuple(sorted({*state.on, name})), activated=(*state.activated, name))
    return state, cost, time


def deactivate(
    sheet: Sheet,
    state: PowerState,
    name: str,
    *,
    now: Now,
    gm_allows: bool = False,
    ground_rule: bool = False,
) -> PowerState:
    """Turn a Power off (a Zero Phase Action)."""
    state = state.at(now)
    power = power_of(sheet, name)
    if name not in state.on:
        raise refuse("already", f"{name} is not on")
    if name in state.activated and power.kind != "movement" and not (gm_allows or ground_rule):
        raise refuse(
            "on_off", f"{name} was turned on this Phase: not off again unless the GM allows"
        )
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
    ground_rule: bool = False,
) -> PowerState:
    """Allocate a Framework's reserve among its slots (None: a slot's full points);
    slots left out lose their points, and a constant one of them goes off."""
    state = state.at(now)
    frame = sheet.framework(framework)
    if frame is None:
        raise refuse("unknown_power", f"no Power Framework {framework!r}")
    if framework in state.switched and not (gm_allows or ground_rule):
        raise refuse("switch_twice", f"{framework}'s slots were switched this Phase already")
    slots = {p.name: p for p in sheet.slots(framework)}
    wanted: dict[str, int] = {}
    for name, points in allocation:
        if name not in slots:
            raise refuse("unknown_power", f"{name!r} is not a slot of {framework}")
        full = _full_ap(slots[name])
        wanted[name] = full if points is None else points
        if not 0 <= wanted[name] <= full:
            raise refuse("framework", f"{name} takes 0..{full} points, not {points}", "over_budget")
    if sum(wanted.values()) > frame.pool:
        raise refuse(
            "framework",
            f"{framework} has {frame.pool} points; {sum(wanted.values())} asked",
            "over_budget",
        )
    off = [n for n in state.on if n in slots and wanted.get(n, 0) < _full_ap(slots[n])]
    for name in off:
        state = deactivate(
            sheet, state, name, now=now, gm_allows=gm_allows, ground_rule=ground_rule
        )
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
        cost = _full_end(power)
        if paid + cost <= end:
            paid += cost
        else:
            dropped.append(power.name)
    state = replace(state, on=tuple(n for n in state.on if n not in dropped))
    return state, paid, tuple(dropped)


def _full_ap(power: Power) -> int:
    return active_points(power, power.full_dice, sum(a.points for a in power.adders))


def _full_end(power: Power) -> int:
    """The END of a constant Power on: its full Active Points with every Adder."""
    every = sum(a.points for a in power.adders)
    return end_of(power, end_points(power, power.full_dice, every))
