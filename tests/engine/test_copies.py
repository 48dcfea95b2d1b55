"""``engine.copies``: a copier gives exactly what ``dataclasses.replace`` gives, for every
class and field it is asked about, and refuses the classes it cannot serve."""

from __future__ import annotations

import dataclasses

import pytest

from engine.combat_state import Combat, PendingMove
from engine.copies import copier, replace
from engine.model import Combatant, EncounterState, GridSpec, Scene
from engine.rulesets.hero.state import PhaseUsage


def test_a_copy_equals_replace_and_shares_the_unchanged_fields() -> None:
    combat = Combat("hero-supplement", ("a", "b"), (("a", 10), ("b", 8)), ("a",), turn=3)
    pending = PendingMove("a", ((0, 0), (1, 0)), 0, 1.0)
    copy = replace(combat, pending_move=pending, phase=7)
    assert copy == dataclasses.replace(combat, pending_move=pending, phase=7)
    assert type(copy) is Combat and copy is not combat
    assert copy.order is combat.order  # shared, as replace shares it
    state = EncounterState(Scene(GridSpec(4, 4)), seed=3, draws=2, combat=combat)
    assert replace(state, combat=copy, draws=5) == dataclasses.replace(state, combat=copy, draws=5)
    # Frozen as ever: a copy is a value like any other.
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.phase = 1  # type: ignore[misc]
    assert hash(copy) == hash(dataclasses.replace(combat, pending_move=pending, phase=7))


def test_every_field_of_every_move_path_class_is_copied() -> None:
    token = Combatant("t", "T", "p", "s", 1, 2, 2, 2.0, movement=6.0, stats=(("ocv", 5),))
    for cls, value in [(Combatant, token), (PhaseUsage, PhaseUsage())]:
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            new = object()  # a value no field holds
            copied = copier(cls, f.name)(value, new)
            assert getattr(copied, f.name) is new
            others = [g.name for g in dataclasses.fields(cls) if g.name != f.name]  # type: ignore[arg-type]
            assert all(getattr(copied, n) is getattr(value, n) for n in others)


def test_what_a_copier_cannot_serve_goes_through_replace_or_is_refused() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    with pytest.raises(TypeError, match="__post_init__"):
        copier(Checked, "n")
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), n=-1)  # the check still runs
    with pytest.raises(TypeError):
        replace(Checked(1), m=2)  # an unknown field, as dataclasses.replace says
    with pytest.raises(TypeError, match="slotted"):
        copier(dataclasses.make_dataclass("Loose", ["a"], frozen=True), "a")

    class Monster(Combatant):
        __slots__ = ()

    ogre = Monster("o", "Ogre", "gm", "monsters", 0, 0, movement=6.0)
    assert type(replace(ogre, x=3)) is Monster  # a subclass keeps its class
