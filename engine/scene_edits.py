"""The GM's hand on a running fight's map: ``edit_scene`` replaces the walls and the
terrain without ending the fight (doors open and close with ``set_door``).

The edited scene passes the same checks a loaded one does (:func:`check_scene`: walls
and terrain on the scene, and the price of working out each token's threatened cells
beside the new walls, so an edit cannot make a question cost more than a load may).
The geometry the engine derives from the walls and terrain (the spatial index, its
threat and movement costs, :mod:`engine.spatial`) is keyed on them and rebuilt at the
next question, so nothing priced through the old walls is used again.

What is under way was priced through the old map, so an edit waits for it: refused
while a prompt is open (an attack of opportunity or a readied action whose exit point
the old walls placed) or a move is under way or suspended behind an out-of-turn action.
Between those, nothing in the fight holds geometry: a held action's area is cells, and
reach and sight are asked of the new map from then on.
"""

from __future__ import annotations

from engine.checks import Result, require_no_prompts, scene_of
from engine.commands import GM, EditScene
from engine.copies import replace
from engine.errors import CommandRejected
from engine.events import SceneEdited
from engine.model import EncounterState
from engine.scene_checks import check_scene
from engine.spatial import SpatialCache


def edit_scene(state: EncounterState, command: EditScene, spatial: SpatialCache) -> Result:
    """Replace the scene's walls and/or terrain (GM only), in a fight or out of one."""
    if command.actor != GM:
        raise CommandRejected("gm_only", f"only the GM edits the scene, not {command.actor!r}")
    scene = scene_of(state)
    if command.walls is None and command.terrain is None:
        raise CommandRejected("bad_scene", "edit_scene names no walls and no terrain")
    combat = state.combat
    if combat is not None:
        require_no_prompts(combat)
        suspended = combat.interjection is not None and combat.interjection.suspended
        if combat.pending_move is not None or suspended:
            raise CommandRejected(
                "illegal_action", "a move is under way through the old walls: edit after it"
            )
    edited = replace(
        scene,
        walls=scene.walls if command.walls is None else command.walls,
        terrain=scene.terrain if command.terrain is None else command.terrain,
    )
    check_scene(edited)
    return state.with_scene(edited), [SceneEdited(command.walls, command.terrain)]
