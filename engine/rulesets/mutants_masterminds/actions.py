"""The actions a Mutants & Masterminds combatant takes through ``act``, params declared once.

The text (seed 003) names no attack and no power; what an M&M table expects, as this
ruleset plays it:

- ``attack`` (standard action): a ``close`` attack on a target within the token's
  reach, or a ``ranged`` one on a target in line of sight (walls block it; range
  penalties are the table's); an attack check, d20 + attack bonus, against 10 + the
  target's Parry (``close``) or Dodge (``ranged``); a flat-footed target without Uncanny
  Dodge "can't use" them, so its defence counts 0 (seed 003, *Flat-Footed*: the text
  removes the bonus entirely).  Natural 20: hits, reported as a critical; natural 1:
  misses.  The hit is reported; the Toughness resistance check and what it inflicts are
  the table's.
- ``use_power`` (standard action): a power or effect on a token (or the scene) lasting a
  number of rounds; it ends just before the initiative count it began at (see
  :mod:`engine.effects`).  The GM can set the same with ``set_effect``.
- ``trade_down``: the standard action becomes a second move action.
- ``free_action``: reported, never limited.
- ``incapacitate`` (GM): an incapacitated combatant is skipped at its count, keeping it.

There are no reactions and no attacks of opportunity in this text: moving never
provokes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Literal

from engine.effects import start_effect
from engine.errors import CommandRejected
from engine.model import Combatant
from engine.movement import in_reach
from engine.params import DICE, Length, Range, TokenRef
from engine.rulesets.base import Context, NoParams, Result
from engine.rulesets.mutants_masterminds import turn
from engine.rulesets.mutants_masterminds.events import (
    AttackCheck,
    FreeActionTaken,
    Incapacitation,
    TradedDown,
)
from engine.rulesets.mutants_masterminds.state import Character, number
from engine.targets import nothing_to_attack, sight_line_clear


@dataclass(frozen=True, slots=True)
class AttackParams:
    """Attack ``target``: ``reach`` ``close`` (against Parry) or ``ranged`` (against
    Dodge), with attack ``bonus`` (None: the token's ``close_attack`` or
    ``ranged_attack``); ``rolls``: the table's own d20."""

    target: TokenRef
    reach: Literal["close", "ranged"] = "close"
    bonus: Annotated[int | None, Range(-50, 100)] = None
    rolls: Annotated[tuple[int, ...] | None, DICE] = None


@dataclass(frozen=True, slots=True)
class PowerParams:
    """Use power ``power`` on ``target`` (None: the scene) lasting ``rounds`` rounds."""

    power: Annotated[str, Length(1, 64)]
    rounds: Annotated[int, Range(1, 100)]
    target: TokenRef | None = None


@dataclass(frozen=True, slots=True)
class FreeParams:
    """A free action: ``what`` it is."""

    what: Annotated[str, Length(1, 200)]


@dataclass(frozen=True, slots=True)
class IncapacitateParams:
    """Set (``on``) or clear ``target``'s incapacitated condition."""

    target: TokenRef
    on: bool = True


def character_of(ctx: Context, cid: str | None = None) -> Character:
    """The M&M state of ``cid`` (default: the acting token)."""
    who = ctx.combat.state_of(cid or ctx.token.id)
    if not isinstance(who, Character):
        raise CommandRejected("not_in_combat", f"{cid or ctx.token.id!r} is not in the fight")
    return who


def standard_refusal(ctx: Context) -> str | None:
    """Why the acting token cannot take a standard action now."""
    return turn.standard_refusal(character_of(ctx), ctx.combat.surprise)


def attack_refusal(ctx: Context) -> str | None:
    """Why the acting token cannot attack now: no standard action, or no combatant
    within reach (close) nor in line of sight (ranged), the checks :func:`attack` makes."""
    why = standard_refusal(ctx)
    if why is not None:
        return why
    fighting = [t for t in ctx.scene.tokens if ctx.combat.state_of(t.id) is not None]
    nothing = nothing_to_attack(ctx.spatial, ctx.scene, ctx.token, fighting)
    if nothing is not None:
        raise CommandRejected("out_of_reach", nothing)
    return None


def trade_refusal(ctx: Context) -> str | None:
    """Why the acting token cannot trade its standard action down now."""
    return turn.trade_refusal(character_of(ctx), ctx.combat.surprise)


def free_refusal(ctx: Context) -> str | None:
    """Why the acting token cannot take a free action now (only if incapacitated)."""
    return turn.INCAPACITATED if character_of(ctx).incapacitated else None


def _store(ctx: Context, who: Character) -> Context:
    combat = ctx.combat.with_state(ctx.token.id, who)
    return replace(ctx, state=replace(ctx.state, combat=combat))


def attack(ctx: Context, params: AttackParams) -> Result:
    """An attack check against the target's defence, flat-footed or not."""
    target = ctx.scene.token(params.target)
    if target is None or target.id == ctx.token.id:
        raise CommandRejected("unknown_token", f"no target {params.target!r}")
    defender = character_of(ctx, target.id)
    out_of_reach(ctx, target, params.reach)
    defence = "parry" if params.reach == "close" else "dodge"
    bonus = params.bonus
    if bonus is None:
        bonus = number(ctx.token, f"{params.reach}_attack")
    rank = 0 if defender.defenceless(target) else number(target, defence)
    dc = 10 + rank
    purpose = f"attack: {ctx.token.id} on {target.id} ({params.reach}) d20 + {bonus} vs {dc}"
    (d20,) = ctx.tray.roll(purpose, 1, 20, params.rolls)
    total = d20 + bonus
    hit = d20 == 20 or (d20 != 1 and total >= dc)
    check = AttackCheck(
        ctx.token.id, target.id, params.reach, d20, bonus, total, defence, rank,
        defender.flat_footed, dc, hit, d20 == 20,
    )  # fmt: skip
    ctx = _store(ctx, turn.after_standard(character_of(ctx)))
    return ctx.state, [*ctx.tray.events, check]


def out_of_reach(ctx: Context, target: Combatant, reach: str) -> None:
    """Refuse a close attack on a target out of reach, a ranged one out of sight (range
    penalties are the table's: the text gives none)."""
    if reach == "close":
        if not in_reach(ctx.spatial, ctx.scene, ctx.token, target):
            raise CommandRejected("out_of_reach", f"{target.id!r} is not within reach")
        return
    if not sight_line_clear(ctx.spatial, ctx.scene, ctx.token, target):
        raise CommandRejected("out_of_reach", f"{target.id!r} is not in line of sight")


def use_power(ctx: Context, params: PowerParams) -> Result:
    """Start a power's effect lasting ``rounds`` rounds (a standard action)."""
    if params.target is not None and ctx.combat.state_of(params.target) is None:
        raise CommandRejected("unknown_token", f"{params.target!r} is not in the fight")
    ctx = _store(ctx, turn.after_standard(character_of(ctx)))
    combat, started = start_effect(
        ctx.combat, params.power, params.target, ctx.token.id, params.rounds, ctx.ruleset.time_words
    )
    return replace(ctx.state, combat=combat), [started]


def trade_down(ctx: Context, params: NoParams) -> Result:
    """The standard action becomes a second move action."""
    ctx = _store(ctx, replace(character_of(ctx), traded=True))
    return ctx.state, [TradedDown(ctx.token.id)]


def free_action(ctx: Context, params: FreeParams) -> Result:
    """A free action, reported."""
    return ctx.state, [FreeActionTaken(ctx.token.id, params.what)]


def incapacitate(ctx: Context, params: IncapacitateParams) -> Result:
    """The GM sets or clears a combatant's incapacitated condition."""
    who = character_of(ctx, params.target)
    combat = ctx.combat.with_state(params.target, who.with_condition("incapacitated", params.on))
    return replace(ctx.state, combat=combat), [Incapacitation(params.target, params.on)]
