"""The scene's spatial index, kept in step with the encounter's state.

Tokens are placed ``shared``: the engine keeps tokens apart itself (a scene is checked
when loaded, a move may not end on a token), except a mover paused while passing
through an ally's square, which the index must hold as it stands.

The state is a value and a new scene arrives with every move, but rebuilding the
geometry index (wall tree, blocked steps, terrain raster, every token's threatened
cells) per command would make resolving a move the slow part.  ``SpatialCache`` keeps
the index of the last scene it saw and, when the next scene differs only in token
positions or door states, moves those tokens and flips those doors in place; anything
else (a new grid, new walls, new tokens) rebuilds it.  The index it returns always
describes exactly the scene it was asked about, so the cache is invisible to results.

A gridless scene has no cells to index: :meth:`SpatialCache.board` answers for it
(:class:`engine.gridless_board.GridlessBoard`, kept in step the same way), and
:meth:`SpatialCache.index` refuses it with a typed error, so what only cells can play
says so instead of answering wrongly.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping

from shapely.geometry import Polygon

from engine.errors import CommandRejected
from engine.gridless_board import GridlessBoard
from engine.model import Combatant, Scene, TerrainSpec, WallSpec
from geometry import (
    Cell,
    Door,
    Grid,
    HexGrid,
    SquareGrid,
    TerrainKind,
    TerrainMap,
    TerrainRegion,
    ThreatIndex,
    Wall,
    WallSet,
)
from geometry.elevation import threatened_at


def _barrier(wall: WallSpec) -> Wall | Door:
    if wall.door == "none":
        return Wall(wall.a, wall.b, wall.blocks_move, wall.blocks_sight)
    return Door(wall.a, wall.b, wall.door == "open")


def _region(spec: TerrainSpec) -> TerrainRegion:
    return TerrainRegion(Polygon(spec.polygon), TerrainKind(spec.kind))


def threat_against(index: ThreatIndex, attacker: Combatant, elevation: float) -> frozenset[Cell]:
    """The cells ``attacker`` threatens against a token whose base is at ``elevation``.

    The index holds every token's threat on the ground; between two layers reach counts
    in three dimensions (:func:`geometry.elevation.threatened_at`, Foundry's ruler), which
    only ever removes cells.  Tokens at one elevation get the index's own set."""
    cells = index.threatened(attacker.id)
    return at_height(index.grid, attacker, attacker.cell, cells, elevation)


def at_height(
    grid: Grid, attacker: Combatant, origin: Cell, cells: frozenset[Cell], elevation: float
) -> frozenset[Cell]:
    """``cells``, what ``attacker`` threatens on the map from ``origin``, against a token
    whose base is at ``elevation``: all of them at its own height, else those within its
    reach in three dimensions."""
    if attacker.elevation == elevation:
        return cells
    assert isinstance(grid, SquareGrid | HexGrid)
    feet = grid.footprint(origin, attacker.size)
    return threatened_at(grid, feet, cells, attacker.reach, attacker.elevation, elevation)


def build_board(scene: Scene) -> GridlessBoard:
    """A fresh board of a gridless ``scene``: walls and doors, terrain, every token."""
    walls = WallSet({w.id: _barrier(w) for w in scene.walls})
    terrain = TerrainMap([_region(t) for t in scene.terrain]) if scene.terrain else None
    return GridlessBoard(scene, walls, terrain)


def build_index(scene: Scene, *, eager: bool = False) -> ThreatIndex:
    """A fresh index of ``scene``: grid, walls and doors, terrain, every token's threat
    (worked out when first asked, or at once and at every move with ``eager``)."""
    steps = index_in_steps(scene, eager=eager)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            index: ThreatIndex = done.value
            return index


#: Tokens :func:`index_in_steps` places between two of its pauses.
TOKENS_PER_STEP = 256


def index_in_steps(scene: Scene, *, eager: bool = False) -> Generator[None, None, ThreatIndex]:
    """:func:`build_index` in pieces: a generator that pauses (yields None) after the
    grid, walls and terrain, and after every :data:`TOKENS_PER_STEP` tokens, and
    returns the index.  A caller with other work to do between the pieces (the
    bridge's event loop, indexing a large scene it has just read) drives it; the index
    is the same as :func:`build_index`'s."""
    grid = scene.grid.build()
    walls = WallSet({w.id: _barrier(w) for w in scene.walls})
    terrain = TerrainMap([_region(t) for t in scene.terrain], grid=grid) if scene.terrain else None
    index = ThreatIndex(grid, walls, terrain, eager=eager)
    yield
    for placed, token in enumerate(scene.tokens, 1):
        index.add_token(token.id, token.cell, size=token.size, reach=token.reach, shared=True)
        if placed % TOKENS_PER_STEP == 0:
            yield
    return index


class SpatialCache:
    """The index of the most recent scene, updated incrementally (see the module docstring).
    ``eager`` keeps every token's threat worked out at every move
    (:class:`geometry.ThreatIndex`): the reference the lazy upkeep is tested and
    measured against (``bench/move_cost.py``)."""

    def __init__(self, *, eager: bool = False) -> None:
        self._scene: Scene | None = None
        self._index: ThreatIndex | None = None
        self._eager = eager
        self._board_scene: Scene | None = None
        self._board: GridlessBoard | None = None
        self._heights_of: tuple[Combatant, ...] | None = None
        self._heights: dict[str, float] = {}

    def board(self, scene: Scene) -> GridlessBoard:
        """A board describing exactly the gridless ``scene``: followed token by token
        while only tokens move, rebuilt when anything else changed."""
        last, board = self._board_scene, self._board
        if last is scene and board is not None:
            return board
        moved = None
        if board is not None and last is not None and last.walls is scene.walls:
            moved = _moved_tokens(last, scene) if _same_static(last, scene) else None
        if moved is None or board is None:
            board = build_board(scene)
        else:
            for token in moved:
                board.moved(token)
        self._board_scene, self._board = scene, board
        return board

    def index(self, scene: Scene) -> ThreatIndex:
        """An index describing exactly ``scene``; a gridless scene has none (the
        caller plays cells: refused, naming it)."""
        if scene.grid.gridless:
            raise CommandRejected(
                "illegal_action",
                "this counts cells, and a gridless scene has none: not playable gridless",
            )
        last, index = self._scene, self._index
        if last is scene and index is not None:
            return index
        moved = None
        if last is not None and index is not None and _same_static(last, scene):
            moved = _moved_tokens(last, scene)
        if moved is None:
            index = build_index(scene, eager=self._eager)
        else:
            assert index is not None
            if last is not None and last.walls is not scene.walls:
                for old, new in zip(last.walls, scene.walls, strict=True):
                    if old is not new and old.door != new.door:
                        index.set_door(new.id, new.door == "open")
            if len(moved) == 1:  # every move: re-index only what its threat changed
                index.move_token(moved[0].id, moved[0].cell, shared=True)
            else:
                # Lift every moved token before putting any down: two tokens trading
                # places must not collide half-way through the update.
                for token in moved:
                    index.remove_token(token.id)
                for token in moved:
                    index.add_token(
                        token.id, token.cell, size=token.size, reach=token.reach, shared=True
                    )
        self._scene, self._index = scene, index
        return index

    def adopt(self, scene: Scene, built: ThreatIndex | GridlessBoard) -> bool:
        """Take ``built``, made elsewhere from exactly ``scene`` by :func:`build_index`
        (a gridless scene: :func:`build_board`) and used by nothing since, as what
        :meth:`index` (:meth:`board`) would build on first use.  The bridge builds a
        loaded scene's index in pieces before applying the load.  Returns whether it
        was taken: not
        when it is of another kind than this cache keeps (``eager``)."""
        if isinstance(built, GridlessBoard):
            if not scene.grid.gridless:
                return False
            self._board_scene, self._board = scene, built
            return True
        if scene.grid.gridless or built.eager != self._eager:
            return False
        self._scene, self._index = scene, built
        return True

    def elevations(self, scene: Scene) -> Mapping[str, float]:
        """The elevation of every token of ``scene`` off the ground, by id (one on the
        ground is absent): read once per scene's tokens and followed move by move
        (:meth:`moved`), so a flight asks for a threatener's height without a pass over
        every token."""
        if self._heights_of is not scene.tokens:
            self._heights = {t.id: t.elevation for t in scene.tokens if t.elevation}
            self._heights_of = scene.tokens
        return self._heights

    def moved(self, before: Scene, after: Scene, token: Combatant) -> None:
        """Follow a move the engine has just made: ``after`` is ``before`` with ``token``
        standing somewhere else, nothing more.  When the index describes ``before``, the
        token moves in it and it describes ``after``, with no comparison of the two
        scenes (every move made one); otherwise nothing changes here, and the next
        :meth:`index` compares as usual."""
        if self._heights_of is before.tokens:  # followed, as the index is
            self._heights_of = after.tokens
            if token.elevation:
                self._heights[token.id] = token.elevation
            else:
                self._heights.pop(token.id, None)
        if self._scene is before and self._index is not None:
            self._index.move_token(token.id, token.cell, shared=True)
            self._scene = after
        elif self._board_scene is before and self._board is not None:
            self._board.moved(token)
            self._board_scene = after


def _same_static(last: Scene, scene: Scene) -> bool:
    # Successive states share the grid, wall and terrain tuples (``dataclasses.replace``
    # keeps references), so identity answers almost every time and the full comparison
    # runs only when something was really rebuilt.  Tokens: :func:`_moved_tokens`.
    if last.grid is not scene.grid and last.grid != scene.grid:
        return False
    if last.terrain is not scene.terrain and last.terrain != scene.terrain:
        return False
    if last.walls is not scene.walls and _walls_key(last) != _walls_key(scene):
        return False
    return len(last.tokens) == len(scene.tokens)


def _moved_tokens(last: Scene, scene: Scene) -> list[Combatant] | None:
    """The tokens of ``scene`` standing elsewhere than in ``last``, or None when a token
    changed in a way only a rebuild follows (another id, size or reach).  One pass: an
    unmoved token is the same object in both (every move keeps the others' references),
    so this runs per command at the cost of an identity test per token."""
    moved: list[Combatant] = []
    for old, new in zip(last.tokens, scene.tokens, strict=True):
        if old is new:
            continue
        if old.id != new.id or old.size != new.size or old.reach != new.reach:
            return None
        if old.x != new.x or old.y != new.y:
            moved.append(new)
    return moved


def _walls_key(scene: Scene) -> object:
    return tuple(
        (w.id, w.a, w.b, w.blocks_move, w.blocks_sight, w.door == "none") for w in scene.walls
    )
