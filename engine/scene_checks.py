"""Whether a scene can be played: ids unique, tokens on the grid and not overlapping,
walls and terrain on the scene, a grid the geometry can build."""

from __future__ import annotations

from engine.errors import CommandRejected
from engine.model import GRID_KINDS, Scene
from geometry import GeometryError, TerrainKind, cells_near_walls, reach_steps

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

# Every kind geometry prices, but "normal", which a region need not state.
TERRAIN_KINDS = tuple(k.value for k in TerrainKind if k is not TerrainKind.NORMAL)


def check_scene(scene: Scene) -> None:
    """Raise ``CommandRejected("bad_scene", ...)`` naming the first problem found."""
    if scene.grid.kind not in GRID_KINDS:
        raise CommandRejected("bad_scene", f"grid kind {scene.grid.kind!r} is not supported")
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
    left, top, right, bottom = grid.bounds()
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
    near = cells_near_walls(grid, [(wall.a, wall.b) for wall in scene.walls])
    if near > MAX_CELLS_NEAR_WALLS:
        raise CommandRejected(
            "bad_scene",
            f"the walls reach {near:,} cells of the grid; at most {MAX_CELLS_NEAR_WALLS:,} "
            "(split long walls across open ground, or use a smaller grid)",
        )
    for region in scene.terrain:
        if region.kind not in TERRAIN_KINDS:
            raise CommandRejected("bad_scene", f"terrain kind {region.kind!r} is not known")
        if len(region.polygon) < 3:
            raise CommandRejected("bad_scene", "a terrain polygon needs at least 3 points")
        for x, y in region.polygon:
            if not (left <= x <= right and top <= y <= bottom):
                raise CommandRejected("bad_scene", f"terrain point ({x:g}, {y:g}) is off the scene")
