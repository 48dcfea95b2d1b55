"""A scene is priced at load by what each token's threat will cost to work out
(``geometry.cost``: its reach's cells, times the most walls a box of its reach holds
anywhere on the map), and refused with ``bad_scene`` past ``MAX_THREAT_MS``, naming the
token, the figures and the limit, with nothing changed.  Issue 22's probe: a 110 m reach
among 600 walls, then accepted, cost about 1 s a move."""

from __future__ import annotations

import re

from engine import Encounter, GridSpec, LoadScene, Move, Scene, StartCombat, WallSpec
from engine.commands import JoinCombat
from engine.scene_checks import MAX_THREAT_MS
from geometry import SquareGrid
from geometry.cost import most_walls_near, reach_box_side, reach_span, threat_cost_ms
from tests.engine.helpers import refused, token


def lattice(count: int, step: int = 9) -> tuple[WallSpec, ...]:
    """``count`` one-square walls on a lattice ``step`` squares apart around (200, 200)."""
    side = int(count**0.5 + 0.999)
    walls = []
    for i in range(side * side):
        if len(walls) == count:
            break
        x, y = (
            200 - side * step // 2 + (i % side) * step,
            200 - side * step // 2 + (i // side) * step,
        )
        walls.append(WallSpec(f"w{i}", (float(x), float(y)), (x + 1.0, float(y))))
    return tuple(walls)


def cluster(prefix: str, count: int, x0: int, y0: int) -> tuple[WallSpec, ...]:
    """``count`` short walls packed into the square at (x0, y0)."""
    return tuple(
        WallSpec(
            f"{prefix}{i}",
            (x0 + 0.1 * (i % 10), y0 + 0.1 * (i // 10 % 10)),
            (x0 + 0.1 * (i % 10) + 0.05, y0 + 0.1 * (i // 10 % 10)),
        )
        for i in range(count)
    )


def ms_in(message: str) -> float:
    """The figure of 'would cost about N ms' in a refusal."""
    found = re.search(r"would cost about ([\d,.]+) ms", message)
    assert found is not None, message
    return float(found.group(1).replace(",", ""))


def test_the_probes_long_reach_among_walls_is_refused_at_load() -> None:
    tower = token("tower", 200, 200, reach=110.0)
    scout = token("scout", 201, 200, owner="alice")
    scene = Scene(GridSpec(400, 400), (tower, scout), lattice(600))
    encounter = Encounter()
    message = refused(encounter, LoadScene("gm", scene), "bad_scene")
    assert message.startswith("token 'tower': working out its reach of 110 m (48,841 cells")
    assert f"at most {MAX_THREAT_MS:g} ms" in message
    assert ms_in(message) > 100 * MAX_THREAT_MS  # about a second: the probe's figure
    assert encounter.state.scene is None


def test_a_refused_scene_leaves_the_loaded_one_in_place() -> None:
    encounter = Encounter()
    first = Scene(GridSpec(40, 40), (token("hero", 5, 5, owner="alice"),))
    encounter.apply(LoadScene("gm", first))
    long_reach = Scene(GridSpec(400, 400), (token("tower", 200, 200, reach=40.0),))
    message = refused(encounter, LoadScene("gm", long_reach), "bad_scene")
    # No wall at all: the cells alone are past the limit (6,561 of them).
    assert "(6,561 cells)" in message and "walls" not in message.split("(")[1]
    assert encounter.state.scene == first


def test_the_same_reach_loads_without_the_walls_and_moves() -> None:
    # Reach 9 m: 361 cells, priced under the limit in the open; among the lattice's
    # walls (up to a dozen of them within one of its boxes) past it.
    open_ground = Scene(GridSpec(400, 400), (token("tower", 200, 200, reach=9.0),))
    encounter = Encounter()
    encounter.apply(LoadScene("gm", open_ground))
    encounter.apply(Move("gm", "tower", ((200, 199),)))
    assert encounter.threat("tower").token == "tower"
    walled = Scene(GridSpec(400, 400), (token("tower", 200, 200, reach=9.0),), lattice(600, 4))
    message = refused(Encounter(), LoadScene("gm", walled), "bad_scene")
    assert "(361 cells among up to " in message and ms_in(message) > MAX_THREAT_MS


def test_walls_are_counted_within_one_reach_box_not_across_the_map() -> None:
    # A one-square token beside 600 walls packed in one square: 9 cells, 600 walls, past
    # the limit.  The same 600 walls in two heaps of 300 far apart: no box of the
    # token's reach holds more than 300 of them, which the limit allows.
    grid = GridSpec(400, 400)
    hero = token("hero", 100, 100, owner="alice")
    heap = Scene(grid, (hero,), cluster("a", 600, 300, 300))
    message = refused(Encounter(), LoadScene("gm", heap), "bad_scene")
    assert "(9 cells among up to 600 walls)" in message
    heaps = Scene(grid, (hero,), cluster("a", 300, 300, 300) + cluster("b", 300, 20, 300))
    encounter = Encounter()
    encounter.apply(LoadScene("gm", heaps))
    assert encounter.state.scene == heaps


def test_walls_that_block_nothing_are_not_counted() -> None:
    # Neither movement nor sight: such a wall never cuts a reach line; a door may close.
    grid = GridSpec(400, 400)
    hero = token("hero", 100, 100, owner="alice")
    inert = tuple(
        WallSpec(w.id, w.a, w.b, blocks_move=False, blocks_sight=False)
        for w in cluster("a", 600, 300, 300)
    )
    encounter = Encounter()
    encounter.apply(LoadScene("gm", Scene(grid, (hero,), inert)))
    doors = tuple(
        WallSpec(w.id, w.a, w.b, blocks_move=False, blocks_sight=False, door="open")
        for w in cluster("a", 600, 300, 300)
    )
    refused(Encounter(), LoadScene("gm", Scene(grid, (hero,), doors)), "bad_scene")


def test_the_price_follows_the_cost_models_figures() -> None:
    # What the refusal says is threat_cost_ms of the figures it names.
    grid = SquareGrid(400, 400)
    span = reach_span(grid, 1, 110.0)
    walls = [((w.a), (w.b)) for w in lattice(600)]
    side = reach_box_side(grid, 1, 110.0)
    near = most_walls_near(grid, walls, [side])[side]
    assert near == 600  # the box of a 110 m reach holds the whole lattice
    tower = token("tower", 200, 200, reach=110.0)
    scene = Scene(GridSpec(400, 400), (tower,), lattice(600))
    message = refused(Encounter(), LoadScene("gm", scene), "bad_scene")
    assert f"({span:,} cells among up to {near:,} walls)" in message
    assert ms_in(message) == round(threat_cost_ms(grid, span, near), 1)


def test_a_long_reach_newcomer_is_refused_when_it_joins_the_fight() -> None:
    # Joining places a token on the scene: the same price, the same refusal.
    encounter = Encounter()
    hero = token("hero", 5, 5, owner="alice")
    ogre = token("ogre", 30, 30)
    encounter.apply(LoadScene("gm", Scene(GridSpec(400, 400), (hero, ogre), lattice(40, 4))))
    encounter.apply(StartCombat("gm", "hero-supplement", 1))
    giant = token("giant", 60, 60, reach=20.0)
    message = refused(encounter, JoinCombat("gm", giant), "bad_scene")
    assert message.startswith("token 'giant': working out its reach of 20 m (1,681 cells")
    small = token("imp", 60, 60, reach=1.0)
    encounter.apply(JoinCombat("gm", small))
    assert encounter.state.scene is not None and encounter.state.scene.token("imp") is not None
