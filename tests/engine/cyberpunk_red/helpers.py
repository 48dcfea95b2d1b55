"""Builders for the Cyberpunk RED tests: tokens with CPR statistics, a scene on a 2 m
grid, its real spatial index, and an arena read from the tokens."""

from __future__ import annotations

from engine.model import Combatant, GridSpec, Scene, WallSpec
from engine.rulesets.cyberpunk_red.state import Arena, Vehicle
from engine.rulesets.cyberpunk_red.stats import fighter_from_token, is_vehicle
from engine.rulesets.cyberpunk_red.world import SceneWorld
from engine.spatial import build_index
from engine.tray import DiceTray

Stat = bool | int | float | str


def cpr(tid: str, x: int, y: int, *, ref: int = 6, move: int = 4, **stats: Stat) -> Combatant:
    """A Cyberpunk RED token on cell (x, y); ``stats`` keys use ``__`` for ``.``
    (``weapon__pistol=2`` is ``weapon.pistol``)."""
    pairs = {"ref": ref, "move": move, **{k.replace("__", "."): v for k, v in stats.items()}}
    return Combatant(
        tid,
        tid.title(),
        "gm",
        "a",
        x,
        y,
        reach=2.0,
        movement=0.0,
        stats=tuple(sorted(pairs.items())),
    )


def vehicle(tid: str, x: int, y: int) -> Combatant:
    """A vehicle token."""
    return Combatant(
        tid, tid.title(), "gm", "none", x, y, reach=2.0, movement=0.0, stats=(("vehicle", True),)
    )


def scene(*tokens: Combatant, walls: tuple[WallSpec, ...] = (), size: int = 12) -> Scene:
    """A ``size`` x ``size`` grid of 2 m squares, diagonals counting one."""
    return Scene(GridSpec(size, size, cell_size=2.0), tokens, walls)


def arena_of(s: Scene) -> Arena:
    """The arena read from ``s``'s tokens."""
    fighters = tuple(fighter_from_token(t) for t in s.tokens if not is_vehicle(t))
    vehicles = tuple(Vehicle(t.id) for t in s.tokens if is_vehicle(t))
    return Arena(tuple(sorted(fighters, key=lambda f: f.id)), vehicles)


def world_of(s: Scene) -> SceneWorld:
    """Reach and sight over ``s``'s real spatial index."""
    return SceneWorld(build_index(s), tuple(t.id for t in s.tokens))


def tray(seed: int = 1) -> DiceTray:
    """A dice tray drawing from ``seed``."""
    return DiceTray(seed, 0, "gm")
