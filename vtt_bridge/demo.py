"""The demo table's scene, which ``vtt-bridge serve --demo`` loads into the empty demo table
so the table view has a fight to show: a 1 m square grid for the Hero System supplement
with a wall and a door, water and difficult ground, and tokens for the demo table's
participants (an ogre with 2 m reach beside the hero, so walking away provokes).

The scene is one file, ``static/view/demo-scene.json``, which the GM's page can also load
again (``/view/demo-scene.json``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

import engine
import protocol
from vtt_bridge.hub import Hub
from vtt_bridge.tables import Table
from vtt_bridge.translate import scene_from_spec

SCENE_FILE: Final = Path(__file__).resolve().parent / "static" / "view" / "demo-scene.json"
#: The ruleset the demo scene's stats are written for.
DEMO_RULESET: Final = "hero-supplement"


def demo_scene() -> protocol.SceneSpec:
    """The demo scene, checked as a ``load_scene`` from a client would be."""
    return protocol.SceneSpec.from_wire(json.loads(SCENE_FILE.read_text(encoding="utf-8")))


async def load_demo_scene(hub: Hub, table: Table, now_ms: int) -> bool:
    """Load the demo scene into ``table`` if nothing has happened there yet; whether it did."""
    if table.last_event() != -1:
        return False
    command = engine.LoadScene(engine.GM, scene_from_spec(demo_scene()))
    refused = await hub.apply_as_gm(table, command, now_ms)
    if refused is not None:
        raise RuntimeError(f"the demo scene was refused: {refused}")
    return True
