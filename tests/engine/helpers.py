"""Builders for engine tests: tokens, scenes, and an encounter already in combat."""

from __future__ import annotations

import pytest

from engine import (
    Combatant,
    CommandRejected,
    Encounter,
    GridSpec,
    LoadScene,
    Scene,
    StartCombat,
)


def token(
    tid: str,
    x: int,
    y: int,
    *,
    owner: str = "gm",
    side: str | None = None,
    init: int = 10,
    ocv: int = 5,
    dcv: int = 5,
    reach: float = 1.0,
    movement: float = 6.0,
    size: int = 1,
    reflexes: bool | None = None,
    extra: dict[str, bool | int | float | str] | None = None,
) -> Combatant:
    """A Hero-supplement combatant; ``extra`` adds statistics (END, REC, flags ...)."""
    stats: list[tuple[str, bool | int | float | str]] = [("dcv", dcv), ("init", init), ("ocv", ocv)]
    if reflexes is not None:
        stats.append(("combat_reflexes", reflexes))
    stats += list((extra or {}).items())
    return Combatant(
        id=tid,
        name=tid.title(),
        owner=owner,
        side=side if side is not None else ("monsters" if owner == "gm" else "heroes"),
        x=x,
        y=y,
        size=size,
        reach=reach,
        movement=movement,
        stats=tuple(sorted(stats)),
    )


def fight(
    *tokens: Combatant, seed: int = 7, aware: tuple[str, ...] | None = None, size: int = 20
) -> Encounter:
    """An encounter with ``tokens`` on a ``size`` x ``size`` 1 m grid, combat started."""
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(GridSpec(size, size), tuple(tokens))))
    encounter.apply(StartCombat("gm", "hero-supplement", seed, aware))
    return encounter


def refused(encounter: Encounter, command: object, code: str) -> str:
    """Apply ``command``, expecting a ``code`` refusal that leaves the state unchanged."""
    before = encounter.state
    with pytest.raises(CommandRejected) as refusal:
        encounter.apply(command)  # type: ignore[arg-type]
    assert refusal.value.code == code, refusal.value.message
    assert encounter.state == before
    return refusal.value.message


def kinds(events: list[object]) -> list[str]:
    """The wire kinds of ``events``."""
    return [e.kind for e in events]  # type: ignore[attr-defined]
