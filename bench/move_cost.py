"""Measure the engine's CPU per ``move`` command on ``bench.bridge``'s scene, in-process.

``python -m bench.move_cost [--moves 500] [--rounds 40] [--json]``.  One table of
``bench.bridge`` (five tokens on a 20x20 square grid, no combat), every token moving
one square back and forth in turn, as the bridge's load does; per command the work the
bridge asks of the engine: the move handler (checks, the spatial index following the
last move, the path's resolution, the new token, scene, state and event) and the
command and its events turned into plain values for the log (``engine.to_plain``,
``engine.event_data``).  No sockets, no database, no protocol.

Three variants of the same moves, each on its own copy of the table, timed in
alternation (``--rounds`` rounds of ``--moves`` commands each, the order rotating) so
that a loaded machine slows them alike; per variant the median CPU per command
(``time.process_time``) and the paired ratios' medians:

* ``move_us``: the engine as it is;
* ``eager_us``: the same with the threat index kept up to date at every move
  (``SpatialCache(eager=True)``), as before the upkeep became lazy;
* ``floor_us``: the value work alone, the least any move costs here: the new token,
  scene, state and event and their plain values, no checks and no geometry.

``--json`` prints one object with those keys, ``ratio_eager`` (``move_us`` over
``eager_us``), ``ratio_floor`` and the run's parameters.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.serving import scene as bridge_scene
from engine import event_data, from_plain, to_plain
from engine.commands import LoadScene, Move, StartCombat
from engine.events import TokenPlaced
from engine.handlers import HANDLERS
from engine.model import EncounterState, Scene
from engine.spatial import SpatialCache

#: One move command's work: given the command's number, makes and applies it.
Mover = Callable[[int], None]


def table_scene() -> Scene:
    """``bench.bridge``'s scene as the engine holds it (stats as sorted pairs)."""
    plain = bridge_scene()
    for token in plain["tokens"]:
        token["stats"] = sorted(token["stats"].items())
    return from_plain(Scene, plain)


def command(scene: Scene, k: int) -> Move:
    """The ``k``-th move: each token in turn, one square down and back up (rows 1 and
    2 after the first move off row 0), as ``bench.bridge`` moves them."""
    token = scene.tokens[k % len(scene.tokens)]
    row = 1 + (k // len(scene.tokens)) % 2
    return Move(token.owner, token.id, ((token.x, row),))


def engine_mover(spatial: SpatialCache) -> Mover:
    """The bridge's per-command engine work, on a table of its own, with ``spatial``."""
    handle = HANDLERS[Move]
    scene = table_scene()
    state, _ = HANDLERS[LoadScene](EncounterState(), LoadScene("gm", scene), spatial)
    box = [state]

    def move(k: int) -> None:
        made = command(scene, k)
        box[0], events = handle(box[0], made, spatial)
        to_plain(made)
        for event in events:
            event_data(event)

    return move


def floor_mover() -> Mover:
    """The value work alone: new token, scene, state, event and their plain values."""
    scene = table_scene()
    box = [EncounterState(scene)]

    def move(k: int) -> None:
        made = command(scene, k)
        state = box[0]
        now = state.scene
        assert now is not None
        token = now.token(made.token)
        assert token is not None
        cell = made.path[-1]
        box[0] = state.with_scene(now.with_token(token.moved_to(cell)))
        to_plain(made)
        event_data(TokenPlaced(token.id, cell))

    return move


def combat_mover(spatial: SpatialCache) -> Mover:
    """A move in a fight (Hero, seed 000): the acting token steps one square off and,
    from the same Phase with it standing there, back, so every command charges the
    budget, walks the threat index past the others and follows a moved token."""
    handle = HANDLERS[Move]
    scene = table_scene()
    state, _ = HANDLERS[LoadScene](EncounterState(), LoadScene("gm", scene), spatial)
    state, _ = HANDLERS[StartCombat](state, StartCombat("gm", "hero-supplement", 13), spatial)
    assert state.combat is not None and state.scene is not None
    token = state.scene.token(state.combat.actor)
    assert token is not None
    here, there = token.cell, (token.x, token.y + 1)
    away = state.with_scene(state.scene.with_token(token.moved_to(there)))
    legs = [
        (state, Move(token.owner, token.id, (there,))),
        (away, Move(token.owner, token.id, (here,))),
    ]

    def move(k: int) -> None:
        start, made = legs[k % 2]
        _, events = handle(start, made, spatial)
        to_plain(made)
        for event in events:
            event_data(event)

    return move


def measure(moves: int, rounds: int) -> dict[str, Any]:
    """Time the variants in alternation (module docstring)."""
    variants: dict[str, Mover] = {
        "move": engine_mover(SpatialCache()),
        "eager": engine_mover(SpatialCache(eager=True)),
        "floor": floor_mover(),
        "combat": combat_mover(SpatialCache()),
        "combat_eager": combat_mover(SpatialCache(eager=True)),
    }
    names = list(variants)
    per_command: dict[str, list[float]] = {name: [] for name in names}
    done = 0
    for r in range(rounds + 1):
        numbers = range(done, done + moves)
        done += moves
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            run = variants[name]
            start = time.process_time()
            for k in numbers:
                run(k)
            took = time.process_time() - start
            if r:  # the first round warms up (caches, the first move off row 0)
                per_command[name].append(took / moves * 1e6)

    def median(name: str) -> float:
        return round(statistics.median(per_command[name]), 2)

    def ratio(a: str, b: str) -> float:
        pairs = zip(per_command[a], per_command[b], strict=True)
        return round(statistics.median(x / y for x, y in pairs), 3)

    return {
        "moves_per_round": moves,
        "rounds": rounds,
        "move_us": median("move"),
        "eager_us": median("eager"),
        "floor_us": median("floor"),
        "combat_move_us": median("combat"),
        "combat_eager_us": median("combat_eager"),
        "ratio_eager": ratio("move", "eager"),
        "ratio_floor": ratio("move", "floor"),
        "ratio_combat_eager": ratio("combat", "combat_eager"),
    }


def main() -> None:
    """Run the bench and print its figures (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=500, help="commands per round")
    parser.add_argument("--rounds", type=int, default=40, help="timed rounds per variant")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = measure(args.moves, args.rounds)
    if args.json:
        print(json.dumps(result))
        return
    print(f"engine CPU per move command, bench.bridge's scene ({args.rounds} rounds):")
    print(f"  this engine                 {result['move_us']:8.2f} us")
    print(f"  threat index kept eagerly   {result['eager_us']:8.2f} us")
    print(f"  value work alone (floor)    {result['floor_us']:8.2f} us")
    print(f"  ratio to eager upkeep       {result['ratio_eager']:8.3f}")
    print(f"  ratio to the floor          {result['ratio_floor']:8.3f}")
    print("a move in a Hero fight:")
    print(f"  this engine                 {result['combat_move_us']:8.2f} us")
    print(f"  threat index kept eagerly   {result['combat_eager_us']:8.2f} us")
    print(f"  ratio to eager upkeep       {result['ratio_combat_eager']:8.3f}")


if __name__ == "__main__":
    main()
