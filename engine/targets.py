"""Who an attack could reach now: melee reach and a ranged attack's line of sight, the
checks the rulesets' attacks make, asked over every candidate so ``ask_options`` offers
an attack only when one could be made (python-chess's ``legal_moves`` from ``is_legal``'s
own checks)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.model import Combatant, Scene
from engine.movement import in_reach
from engine.spatial import SpatialCache
from geometry import BlockMode


def sight_line_clear(
    spatial: SpatialCache, scene: Scene, viewer: Combatant, target: Combatant
) -> bool:
    """Whether the line between the centres of ``viewer``'s and ``target``'s footprints
    crosses no wall that blocks sight (a ranged attack's line of sight)."""
    if scene.grid.gridless:
        return spatial.board(scene).sees(viewer, target)
    index = spatial.index(scene)
    a = index.grid.footprint_center(viewer.cell, viewer.size)
    b = index.grid.footprint_center(target.cell, target.size)
    return not index.walls.segment_blocked(a, b, BlockMode.SIGHT)


def centre_distance(spatial: SpatialCache, scene: Scene, a: Combatant, b: Combatant) -> float:
    """The distance on the ground between the centres of ``a``'s and ``b``'s footprints
    (gridless: their discs) in the scene's unit: a ranged attack's range."""
    if scene.grid.gridless:
        return spatial.board(scene).distance(a, b)
    grid = spatial.index(scene).grid
    pa = grid.footprint_center(a.cell, a.size)
    pb = grid.footprint_center(b.cell, b.size)
    return math.dist(pa, pb)


def nothing_to_attack(
    spatial: SpatialCache, scene: Scene, attacker: Combatant, candidates: Iterable[Combatant]
) -> str | None:
    """Why ``attacker`` can attack none of ``candidates`` (none within its reach, none
    in line of sight), or None when one can be.  Reach is tried first: it is a set
    look-up, a sight line a walk of the wall tree."""
    others = [c for c in candidates if c.id != attacker.id]
    if any(in_reach(spatial, scene, attacker, c) for c in others):
        return None
    if any(sight_line_clear(spatial, scene, attacker, c) for c in others):
        return None
    return f"nothing to attack: no token within {attacker.id}'s reach or line of sight"
