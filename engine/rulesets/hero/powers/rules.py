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
  without dice.  Advantages and Limitations always apply (:func:`always_apply`: a use
  that leaves one out is refused, and ``power_used`` names them all); the END ones are
  :mod:`.endurance`'s.  Adders are optional, but "he must still pay END based on the
  Active Points of the Power used (with Adders)": END is figured with every Adder
  (Flight 40 m, x8 Noncombat, 50 Active Points, flown 40 m: 5 END).  The table option
  ``adder_end: "used"`` relaxes it to the Adders used (the text's "unless the GM rules
  otherwise").
* Turning Powers on and off, Framework slots and identity: :mod:`.activation`.
* Only In Alternate Identity: such a Power is refused outside the identity
  (:func:`identity_refusal`).
* Attack-Action Powers (Aid, Healing): an Attack Roll (3d6 + OCV against 10 + DCV, the
  supplement's, with the GM's ``ocv_modifier`` for circumstances), no effect on a miss,
  and the Phase ends; END is paid either way (the Power was used).  With ``gm_allows``
  (on oneself, a willing target) neither.  An ``ocv_modifier`` on a use with no Attack
  Roll is refused (it would be ignored).
* Casual Use: :mod:`.casual` (its checks, most fundamental first); half effect or less
  for the END of what is used; no time.
* The Standard Effect Rule is bought on the Power (``standard_dice``); a use asking for
  the other effect (``standard``) is refused: "he cannot switch back and forth"
  (:func:`standard_refusal`).
* Constant Powers pay END when turned on and at the start of each later Phase of their
  owner while on; one that cannot be paid goes off.
* Absolute Effect Rule: ``always_hits`` needs no roll; ``immune:<tag>`` on a target's
  Power stops any Power tagged ``<tag>``; ``always_kills`` is reported with the effect.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import CommandRejected

from .casual import casual_refusal
from .effect import Effect, Roller, active_points, end_cost, resolve
from .endurance import end_of, end_points
from .sheet import DiceCode, Power, Sheet, modifier_key

#: A Phase of the fight: (Turn, Phase); Phase 0 is the Surprise Phase.  One Segment.
Now = tuple[int, int]

#: The Limitation that keeps a Power to the character's alternate identity.
OIAI = "onlyinalternateidentity"


class PowerRefused(CommandRejected):
    """A use of a Power the rules refuse; ``rule`` names the rule (``no_endurance``,
    ``casual_once``, ...) and nothing changed."""

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(code, message)
        self.rule = rule


def refuse(rule: str, message: str, code: str = "illegal_action") -> PowerRefused:
    return PowerRefused(code, rule, message)


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The table's choices: Casual Use allowed, whether a +1 counts under the Standard
    Effect Rule, whether END is paid on all the Adders (``all``, the text's "Active Points
    of the Power used (with Adders)") or only on those used (``used``, a table's
    relaxation), and ``toggle_freely``: "as a campaign ground rule" a Power may be turned
    on and off in one Phase and a Framework's slots switched more than once."""

    casual_use: bool = False
    ser_plus_one: bool = True
    adder_end: str = "all"
    toggle_freely: bool = False


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
    alternate: bool = False

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
    ``object`` such as ``"door"``), Casually or not, with the GM's leave or not.
    ``advantages`` and ``limitations`` name those used (None: all; they always all
    apply), ``standard`` asks for the Standard Effect Rule or the dice (None: as the
    Power is bought), ``ocv_modifier`` is the GM's modifier to the Attack Roll."""

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
    advantages: tuple[str, ...] | None = None
    limitations: tuple[str, ...] | None = None
    standard: bool | None = None
    ocv_modifier: int = 0


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
    advantages: tuple[str, ...] = ()
    limitations: tuple[str, ...] = ()


def power_of(sheet: Sheet, name: str) -> Power:
    power = sheet.power(name)
    if power is None:
        known = ", ".join(p.name for p in sheet.powers) or "none"
        raise refuse("unknown_power", f"no Power {name!r} (has: {known})")
    return power


def amount(power: Power, use: Use, options: TableOptions) -> tuple[DiceCode, int, int]:
    """The dice, Active Points used, and the points its END is figured on
    (:func:`.endurance.end_points`: with every Adder unless the table pays on those used)."""
    full = power.full_dice
    if power.dice:
        if use.points is not None:
            raise refuse("amount", f"{power.name} is used by its dice, not points")
        code = full if use.dice is None else _parse(use.dice)
        if use.casual and use.dice is None:
            code = DiceCode.of_thirds(full.thirds // 2)
        if code.thirds > full.thirds:
            raise refuse("amount", f"{power.name} has {full}; {code} is more than all of it")
        base = code
    else:
        if use.dice is not None:
            raise refuse("amount", f"{power.name} has no dice; say how many points to use")
        points = power.base_points if use.points is None else use.points
        if not 0 <= points <= power.base_points:
            raise refuse("amount", f"{power.name} has {power.base_points} points, not {points}")
        base = code = full
    chosen = {a.name for a in power.adders} if use.adders is None else set(use.adders)
    unknown = chosen - {a.name for a in power.adders}
    if unknown:
        raise refuse("amount", f"{power.name} has no Adder {sorted(unknown)[0]!r}")
    adders = sum(a.points for a in power.adders if a.name in chosen)
    all_adders = sum(a.points for a in power.adders)
    scaled = power if power.dice else replace(power, base_points=points)
    ap = active_points(scaled, base, adders)
    paid = end_points(scaled, base, adders if options.adder_end == "used" else all_adders)
    return code, ap, paid


def _parse(text: str) -> DiceCode:
    try:
        return DiceCode.parse(text)
    except ValueError as exc:
        raise refuse("amount", str(exc)) from None


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
    conditions: tuple[str, ...] = (),
) -> Used:
    """Use a Power (``end`` is the END the character has, ``conditions`` the ones the GM
    set on it); raise :class:`PowerRefused` naming the rule, the most fundamental first:
    the Power itself (unknown, or outside its identity), Casual Use's own rules, its
    duration, its Advantages and Limitations, the Standard Effect Rule, the target, the
    Phase's time, the amount, the Framework, the END."""
    state = state.at(now)
    power = power_of(sheet, use.power)
    identity_refusal(power, state)
    is_token = use.target is not None
    if use.casual:
        why = casual_refusal(
            power, casual_used=state.casual, target_is_token=is_token, escape=use.escape,
            gm_allows=use.gm_allows, allowed=options.casual_use, conditions=conditions,
        )  # fmt: skip
        if why:
            raise refuse("casual", why)
    elif use.escape:
        raise refuse("casual", "escape is a Casual Use's (with casual); a full use just attacks")
    if power.duration == "constant":
        raise refuse("constant", f"{power.name} is turned on and off, not used (activate it)")
    advantages, limitations = always_apply(power, use)
    standard_refusal(power, use)
    if use.target == actor and power.is_offensive and not use.gm_allows:
        raise refuse("self", f"{power.name} is offensive: not on oneself unless the GM allows")
    if not use.casual and state.attacked and power.kind == "attack":
        raise refuse("time", "the Phase's Attack Action is already spent", "over_budget")
    code, ap, paid = amount(power, use, options)
    if use.casual and code.thirds > power.full_dice.thirds // 2:
        half = DiceCode.of_thirds(power.full_dice.thirds // 2)
        raise refuse("casual", f"Casual Use is half effect or less: {power.name} at most {half}")
    if use.str_added:
        if not power.adds_str:
            raise refuse("amount", f"STR does not add to {power.name}")
        strength = sheet.power("STR")
        has = 0 if strength is None else active_points(strength, strength.full_dice, 0)
        if use.str_added > has:
            raise refuse("amount", f"STR {use.str_added} added, but the character has STR {has}")
        code = DiceCode.of_thirds(code.thirds + _str_thirds(power, use.str_added))
    if power.framework:
        held = state.allocation(power.name)
        if ap > held:
            raise refuse(
                "framework",
                f"{power.framework} has {held} points in {power.name}; using {ap} needs more",
                "over_budget",
            )
    cost = end_of(power, paid) + end_cost(use.str_added)  # STR added pays its own END
    if cost > end:
        raise refuse(
            "no_endurance", f"{power.name} at {code} costs {cost} END; has {end}", "over_budget"
        )
    attack_action = not use.casual and (power.attack_action or power.kind == "attack")
    waived = use.gm_allows and power.attack_action
    rolls_to_hit = attack_action and not waived and (is_token or power.attack_action)
    if use.ocv_modifier and not (rolls_to_hit and "always_hits" not in power.absolute):
        raise refuse("ocv_modifier", f"this use of {power.name} has no Attack Roll to modify")
    absolute = ""
    hit: bool | None = None
    if rolls_to_hit:
        if "always_hits" in power.absolute:
            hit, absolute = True, "always hits"
        else:
            total = sum(roll(f"{power.name} Attack Roll", 3, 6)) + ocv + use.ocv_modifier
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
    return Used(
        state, power.name, str(code), ap, cost, time, ends, hit, effect, absolute,
        advantages, limitations,
    )  # fmt: skip


def always_apply(power: Power, use: Use) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The Advantages and Limitations a use applies: all of them, every time (seed 002,
    *Full Power*: "A character must use all of a Power's Advantages and Limitations each
    time he uses the Power"; its Blast 10d6 "is always Armor Piercing, even if reduced to
    8d6").  A use naming some (``advantages``, ``limitations``) must name them all."""
    out: list[tuple[str, ...]] = []
    for word, asked, mods in (
        ("Advantage", use.advantages, power.advantages),
        ("Limitation", use.limitations, power.limitations),
    ):
        names = tuple(m.name for m in mods)
        if asked is not None:
            keys = {modifier_key(n): n for n in names}
            unknown = [a for a in asked if modifier_key(a) not in keys]
            if unknown:
                raise refuse("amount", f"{power.name} has no {word} {unknown[0]!r}")
            left = [n for k, n in keys.items() if k not in {modifier_key(a) for a in asked}]
            if left:
                raise refuse(
                    "always_apply",
                    f"a character must use all of a Power's Advantages and Limitations each "
                    f"time he uses the Power: {power.name} is always {left[0]}",
                )
        out.append(names)
    return out[0], out[1]


def standard_refusal(power: Power, use: Use) -> None:
    """Seed 002, *The Standard Effect Rule*: "If a character applies the Standard Effect
    Rule to a power, he cannot switch back and forth between the 'standard' effect and
    the rolled effect"; and the rule is applied to the Power as bought (a +0 Advantage),
    not asked for one use."""
    if use.standard is None:
        return
    if power.uses_ser and not use.standard:
        raise refuse(
            "standard_effect",
            f"{power.name} applies the Standard Effect Rule: a Power using the rule cannot "
            "switch back to the rolled effect",
        )
    if use.standard and not power.uses_ser:
        raise refuse(
            "standard_effect",
            f"{power.name} is not bought with the Standard Effect Rule (+0 Advantage): it "
            "is rolled, and cannot switch to the standard effect for one use",
        )


def identity_refusal(power: Power, state: PowerState) -> None:
    """A Power with Only In Alternate Identity is not used, nor turned on, outside it
    (the character's identity is :attr:`PowerState.alternate`, changed by
    :func:`change_identity`)."""
    oiai = next((m for m in power.limitations if modifier_key(m.name) == OIAI), None)
    if oiai is not None and not state.alternate:
        raise refuse(
            "identity",
            f"{power.name} has {oiai.name}: the character is in his true identity "
            "(change_identity first)",
        )


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
