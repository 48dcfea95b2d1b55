"""Whether a scene can be played: ids unique, tokens on the grid and not overlapping,
walls and terrain on the scene, a grid the geometry can build."""

from __future__ import annotations

import math
from collections import deque

from engine.errors import CommandRejected
from engine.gridless_board import TOLERANCE, heights_meet
from engine.model import GRID_KINDS, Scene
from geometry import GeometryError, Grid, TerrainKind, cells_near_walls, reach_steps
from geometry.cost import most_walls_near, reach_box_side, reach_span, threat_cost_ms

#: The most grid cells a scene's walls may reach (each wall's bounding box, padded):
#: indexing the walls costs work and memory in proportion, at every load and restart,
#: so a scene of long walls across a huge map must not hold up the server.  A
#: 100 x 100 map walled everywhere reaches at most 10,000.
MAX_CELLS_NEAR_WALLS = 40_000

#: The most cells the scene's tokens' reach may span, summed over its tokens (each
#: token: its footprint grown by the grid steps its reach covers, squared): the spatial
#: index works out a token's threatened cells in proportion, up to 15 us a cell beside
#: walls, and one question can need every token of a crowded corner at once.  2,000
#: one-square tokens with two squares of reach span 50,000.
MAX_REACH_CELLS = 50_000

#: The most milliseconds working out one token's threatened cells may cost, as
#: :func:`geometry.cost.threat_cost_ms` prices it (its reach's cells, times the walls
#: that may stand within it): the index does it in one piece when the token is first
#: asked about and at each of its moves, so it is what one command about that token
#: may hold the server's one thread for.  Measured figures: ``docs/operations.md``,
#: "What a command may cost".
MAX_THREAT_MS = 5.0

# Every kind geometry prices, but "normal", which a region need not state.
TERRAIN_KINDS = tuple(k.value for k in TerrainKind if k is not TerrainKind.NORMAL)


#: The last scenes checked, by identity (a scene is an immutable value), each with
#: its refusal (None: playable).
_CHECKED: deque[tuple[Scene, CommandRejected | None]] = deque(maxlen=4)


def check_scene(scene: Scene) -> None:
    """Raise ``CommandRejected("bad_scene", ...)`` naming the first problem found.

    The last few scenes checked are remembered by identity (the very object) with
    their answer, and checking one again gives that answer at once: the bridge checks
    a large scene in pieces while it makes the frame ready, so the load's own check
    does not hold up the event loop a second time.  The check is a pure
    function of an immutable value, so the answer is the same either way."""
    for checked, refusal in _CHECKED:
        if checked is scene:
            if refusal is not None:
                raise CommandRejected(refusal.code, refusal.message)
            return
    try:
        _check_scene(scene)
    except CommandRejected as exc:
        _CHECKED.append((scene, exc))
        raise
    _CHECKED.append((scene, None))


def _check_scene(scene: Scene) -> None:
    if scene.grid.kind not in GRID_KINDS:
        raise CommandRejected("bad_scene", f"grid kind {scene.grid.kind!r} is not supported")
    if scene.grid.gridless:
        _check_gridless(scene)
        return
    try:
        grid = scene.grid.build()
    except (GeometryError, KeyError, ValueError) as exc:
        raise CommandRejected("bad_scene", f"grid: {exc}") from None
    seen: dict[tuple[int, int], str] = {}
    ids: set[str] = set()
    for token in scene.tokens:
        if token.id in ids:
            raise CommandRejected("bad_scene", f"token id {token.id!r} appears twice")
        ids.add(token.id)
        if type(token.x) is not int or type(token.y) is not int:
            raise CommandRejected(
                "bad_scene",
                f"token {token.id!r} at ({token.x:g}, {token.y:g}): a {scene.grid.kind} grid "
                "places tokens on whole cells (points are for gridless scenes)",
            )
        try:
            cells = grid.footprint(token.cell, token.size)
        except GeometryError as exc:
            raise CommandRejected("bad_scene", f"token {token.id!r}: {exc}") from None
        for cell in sorted(cells):
            if not grid.contains(cell):
                raise CommandRejected("bad_scene", f"token {token.id!r} covers off-grid {cell}")
            if cell in seen:
                raise CommandRejected(
                    "bad_scene", f"tokens {seen[cell]!r} and {token.id!r} overlap on {cell}"
                )
            seen[cell] = token.id
    spans = 0
    for token in scene.tokens:
        spans += (2 * reach_steps(grid, token.reach) + token.size) ** 2
    if spans > MAX_REACH_CELLS:
        raise CommandRejected(
            "bad_scene",
            f"the tokens' reach spans {spans:,} cells; at most {MAX_REACH_CELLS:,} "
            "(fewer tokens with a long reach, or a larger cell size)",
        )
    _check_walls(scene, grid.bounds())
    near = cells_near_walls(grid, [(wall.a, wall.b) for wall in scene.walls])
    if near > MAX_CELLS_NEAR_WALLS:
        raise CommandRejected(
            "bad_scene",
            f"the walls reach {near:,} cells of the grid; at most {MAX_CELLS_NEAR_WALLS:,} "
            "(split long walls across open ground, or use a smaller grid)",
        )
    _check_threat_costs(scene, grid)
    _check_terrain(scene, grid.bounds())


Bounds = tuple[float, float, float, float]


def _check_walls(scene: Scene, bounds: Bounds) -> None:
    left, top, right, bottom = bounds
    wall_ids: set[str] = set()
    for wall in scene.walls:
        if wall.id in wall_ids:
            raise CommandRejected("bad_scene", f"wall id {wall.id!r} appears twice")
        wall_ids.add(wall.id)
        if wall.a == wall.b:
            raise CommandRejected("bad_scene", f"wall {wall.id!r} has zero length")
        if wall.door not in ("none", "open", "closed"):
            raise CommandRejected("bad_scene", f"wall {wall.id!r}: door {wall.door!r}")
        for x, y in (wall.a, wall.b):
            if not (left <= x <= right and top <= y <= bottom):
                raise CommandRejected(
                    "bad_scene", f"wall {wall.id!r}: ({x:g}, {y:g}) is off the scene"
                )


def _check_terrain(scene: Scene, bounds: Bounds) -> None:
    left, top, right, bottom = bounds
    for region in scene.terrain:
        if region.kind not in TERRAIN_KINDS:
            raise CommandRejected("bad_scene", f"terrain kind {region.kind!r} is not known")
        if len(region.polygon) < 3:
            raise CommandRejected("bad_scene", "a terrain polygon needs at least 3 points")
        for x, y in region.polygon:
            if not (left <= x <= right and top <= y <= bottom):
                raise CommandRejected("bad_scene", f"terrain point ({x:g}, {y:g}) is off the scene")


def _check_gridless(scene: Scene) -> None:
    """A gridless scene: ids unique, every token's centre on the scene and no two discs
    overlapping (touching is fine; a flier wholly above another token is apart from it,
    each as tall as it is wide), walls and terrain on the scene.  Reach costs nothing
    to index there (a ball per token), so no reach or wall budget applies."""
    grid = scene.grid
    right, bottom = grid.width * grid.cell_size, grid.height * grid.cell_size
    ids: set[str] = set()
    for token in scene.tokens:
        if token.id in ids:
            raise CommandRejected("bad_scene", f"token id {token.id!r} appears twice")
        ids.add(token.id)
        if not (0 <= token.x <= right and 0 <= token.y <= bottom):
            raise CommandRejected(
                "bad_scene", f"token {token.id!r} at ({token.x:g}, {token.y:g}) is off the scene"
            )
    placed = sorted(scene.tokens, key=lambda t: t.x)
    for i, token in enumerate(placed):
        for other in placed[i + 1 :]:
            room = (token.size + other.size) * grid.cell_size / 2 - TOLERANCE
            if other.x - token.x >= room:
                break  # sorted by x: every later token is farther along
            top = token.elevation + token.size * grid.cell_size
            if math.dist(token.position, other.position) < room and heights_meet(
                token.elevation, top, other, grid.cell_size
            ):
                raise CommandRejected("bad_scene", f"tokens {token.id!r} and {other.id!r} overlap")
    _check_walls(scene, (0.0, 0.0, right, bottom))
    _check_terrain(scene, (0.0, 0.0, right, bottom))


def _check_threat_costs(scene: Scene, grid: Grid) -> None:
    """Refuse a token whose threat would cost more than :data:`MAX_THREAT_MS` to work
    out, wherever it moves (:mod:`geometry.cost`)."""
    # Walls that block reach now or may (a door closes): the rest never count.
    walls = [(w.a, w.b) for w in scene.walls if w.door != "none" or w.blocks_move or w.blocks_sight]
    shapes = {(t.size, t.reach) for t in scene.tokens}
    # Only shapes that could be past the limit among every wall of the scene need the
    # count of walls near them (the raster), which most scenes never build.
    spans = {shape: reach_span(grid, *shape) for shape in shapes}
    doubtful = [
        shape for shape in shapes if threat_cost_ms(grid, spans[shape], len(walls)) > MAX_THREAT_MS
    ]
    if not doubtful:
        return
    sides = {shape: reach_box_side(grid, *shape) for shape in doubtful}
    near = most_walls_near(grid, walls, sides.values())
    for token in scene.tokens:
        shape = (token.size, token.reach)
        if shape not in sides:
            continue
        walls_near = near[sides[shape]]
        cost = threat_cost_ms(grid, spans[shape], walls_near)
        if cost > MAX_THREAT_MS:
            among = f" among up to {walls_near:,} walls" if walls_near else ""
            raise CommandRejected(
                "bad_scene",
                f"token {token.id!r}: working out its reach of {token.reach:g} "
                f"{scene.grid.unit} ({spans[shape]:,} cells{among}) would cost about "
                f"{cost:,.1f} ms of the server's thread at each of its moves; at most "
                f"{MAX_THREAT_MS:g} ms (a shorter reach, fewer walls within it, or a "
                "larger cell size)",
            )
