"""The whole list of Actions, and the three questions asked of it: may this combatant
take that action now (and why not), what may it do, and do it.

:func:`refusal` is the one check; :func:`perform` runs it before applying and
:func:`choices` runs it to list options, so the answer to "may I" is the handler's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import CommandRejected
from engine.params import ParamError, decode_params
from engine.rulesets.cyberpunk_red.actions import ACTIONS, ActionSpec, Result, World
from engine.rulesets.cyberpunk_red.holding import HOLD
from engine.rulesets.cyberpunk_red.state import Arena, Fighter
from engine.tray import DiceTray

CATALOGUE: dict[str, ActionSpec] = {**ACTIONS, HOLD.name: HOLD}


@dataclass(frozen=True, slots=True)
class Choice:
    """One action in a combatant's options: its ``cost`` and, if it cannot be taken now,
    ``reason`` (None: it can)."""

    action: str
    cost: str
    does: str
    reason: str | None


def spec(name: str) -> ActionSpec:
    """The action ``name``; CommandRejected("illegal_action") when the list has none."""
    try:
        return CATALOGUE[name]
    except KeyError:
        raise CommandRejected(
            "illegal_action",
            f"{name!r} is not a Cyberpunk RED action (known: {', '.join(sorted(CATALOGUE))})",
        ) from None


def parse(name: str, data: dict[str, Any]) -> Any:
    """``data`` as the typed parameters of action ``name``; CommandRejected if they do not fit."""
    try:
        return decode_params(spec(name).params, data)
    except ParamError as exc:
        raise CommandRejected("illegal_action", str(exc)) from None


def refusal(arena: Arena, world: World, fighter: Fighter, name: str, params: Any) -> str | None:
    """Why ``fighter`` cannot take ``name`` with ``params`` (None: ask without) now, or None."""
    return spec(name).needs(arena, world, fighter, params)


def perform(
    arena: Arena, world: World, actor: str, name: str, params: Any, tray: DiceTray
) -> Result:
    """Take action ``name`` for ``actor``; CommandRejected (nothing changed) if it may not."""
    fighter = arena.fighter(actor)
    why = refusal(arena, world, fighter, name, params)
    if why is not None:
        raise CommandRejected("illegal_action", f"{actor} cannot {name.replace('_', ' ')}: {why}")
    return spec(name).apply(arena, world, fighter, params, tray)


def choices(arena: Arena, world: World, actor: str) -> tuple[Choice, ...]:
    """Every action on the list for ``actor`` now, each with why not (None: available)."""
    fighter = arena.fighter(actor)
    return tuple(
        Choice(s.name, s.cost, s.does, s.needs(arena, world, fighter, None))
        for s in CATALOGUE.values()
    )
