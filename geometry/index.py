"""A live index of a scene: tokens, their threatened cells, walls, terrain; resolves moves.

Resolving a move must never be the slow part of a turn, so nothing here is rebuilt per
query:

* walls sit in one ``STRtree`` (:class:`~geometry.walls.WallSet`) and the steps they
  block are precomputed (:class:`~geometry.steps.StepBlocker`); a door toggle refreshes
  only the steps and threatened cells around that door;
* each token's threatened cells are kept in a reverse map ``cell -> ids of the areas
  covering it``; moving a token removes its old cells from the map and adds the new ones;
* but a token's threatened cells are computed only when first needed: a token is placed
  *deferred*, registered under the :data:`~geometry.steps.TILE`-cell tiles its threat
  can reach (its footprint grown by the steps its reach spans), and every question
  about cells (a move's path, ``areas_at``) first works out the deferred tokens of
  those cells' tiles.  The walls' blocked steps are worked out per tile the same way
  (:class:`~geometry.steps.StepBlocker`).  So loading a scene of hundreds of tokens
  costs little, and the first command after it pays only for the part of the map it
  touches, never for the whole map at once: one message's work stays bounded;
* a move defers the moved token again: its cells stay indexed as they were (*stale*),
  it is registered under the tiles of both its old and its new threat, and the first
  question about those tiles brings it up to date, re-indexing only the cells its
  threat left or entered.  So moves nobody asks about (every move outside combat:
  :meth:`ThreatIndex.resolve_move` with ``areas=False``) cost a position update, not a
  threat.  Where areas were asked about since the last move (in a fight every move
  asks), a move brings the threat up to date at once instead: it will be asked about
  again, and deferring would cost more than it saves;
* the answers are exactly an eager index's (``eager=True``, which works every threat
  out as it is placed or moved; property tests compare them);
* trigger areas (a readied or held action's "when someone comes through that door") are
  registered in the same map.

:meth:`ThreatIndex.resolve_move` then costs one set lookup per step for walls, one dict
lookup per footprint cell for areas, and work proportional to the crossings found,
whatever the number of tokens and walls.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from itertools import pairwise
from typing import NamedTuple

from geometry.coverage import NO_COVER, Coverage
from geometry.door_refresh import rethreatened_many
from geometry.errors import GeometryError
from geometry.grid import Grid
from geometry.occupancy import Occupancy
from geometry.path import AreaExit, Crossing, CrossingKind, translate
from geometry.reach import reach_steps, threatened_cells
from geometry.square import Cell, DiagonalRule, Point, SquareGrid, diagonal_costs
from geometry.steps import TILE_SHIFT, StepBlocker
from geometry.terrain import TerrainMap
from geometry.walls import BlockMode, WallSet

_LEAVE = CrossingKind.LEAVE
_ENTER = CrossingKind.ENTER
#: A rectangle of tiles, ``tx0, ty0, tx1, ty1`` inclusive.
Box = tuple[int, int, int, int]
_new = tuple.__new__  # a named tuple from its fields' tuple, skipping its __new__


class Token(NamedTuple):
    """A creature on the map: ``size`` cells across, anchored at ``origin``, with ``reach``.

    A named tuple rather than a frozen dataclass, as :class:`MoveResolution`: every move
    makes one, and a tuple is built in a fraction of the time.
    """

    token_id: str
    origin: Cell
    size: int = 1
    reach: float = 1.0


class MoveResolution(NamedTuple):
    """Everything the engine needs about one move, computed in one pass.

    ``cost`` is the whole path's cost (terrain included); ``blocked_step`` the first step
    a wall blocks (None if none); ``end_occupied`` whether the final footprint overlaps
    another token; ``crossings`` every enter/leave of every area in path order;
    ``exits`` per area the first step that moves out of one of its cells (attacks of
    opportunity), in path order.  A named tuple, built with ``tuple.__new__`` as
    :class:`~geometry.path.Crossing` is: a frozen dataclass cost several times as much,
    once per move.
    """

    cost: float
    blocked_step: int | None
    end_occupied: bool
    crossings: tuple[Crossing, ...]
    exits: tuple[AreaExit, ...]

    @property
    def legal(self) -> bool:
        """No wall in the way and a free cell at the end (the budget is the engine's call)."""
        return self.blocked_step is None and not self.end_occupied


class ThreatIndex:
    """Tokens, threatened cells, trigger areas and walls of one scene, kept up to date."""

    def __init__(
        self,
        grid: Grid,
        walls: WallSet | None = None,
        terrain: TerrainMap | None = None,
        *,
        eager: bool = False,
    ) -> None:
        self.grid = grid
        #: Work out each token's threat as it is placed or moved, not when first asked:
        #: the reference the lazy index is tested and measured against.
        self.eager = eager
        self.walls = walls if walls is not None else WallSet()
        self.terrain = terrain
        self.blocker = StepBlocker(grid, self.walls, BlockMode.MOVE)
        self._tokens: dict[str, Token] = {}
        self._areas: dict[str, frozenset[Cell]] = {}
        self._cover = Coverage(grid)
        self._occupancy = Occupancy()
        #: Tokens whose threat is not worked out yet, or not since they moved: id -> the
        #: tiles their threat may reach now (``tx0, ty0, tx1, ty1``, inclusive); and
        #: tile -> the ids registered there (those tiles and their stale area's).
        self._deferred: dict[str, Box] = {}
        self._deferred_at: dict[tuple[int, int], set[str]] = {}
        #: Deferred tokens whose cells are still indexed as they were where they last
        #: were worked out (module docstring): id -> the tiles of those cells.
        self._stale: dict[str, Box] = {}
        #: Whether areas were asked about since the last move (:meth:`move_token`).
        self._read = False
        #: The tiles each deferred token is registered under in ``_deferred_at``.
        self._registered: dict[str, tuple[tuple[int, int], ...]] = {}
        self._last_tile = ((grid.width - 1) >> TILE_SHIFT, (grid.height - 1) >> TILE_SHIFT)
        self._steps: dict[float, int] = {}  # reach -> reach_steps(grid, reach)
        #: A square grid's diagonal step after an even and an odd number of diagonals.
        self._diagonal_costs: tuple[float, float] | None = None

    # -- tokens and areas -------------------------------------------------------------------

    def has_token(self, token_id: str) -> bool:
        """Whether ``token_id`` is a token here (not another area, nor unknown)."""
        return token_id in self._tokens

    def token(self, token_id: str) -> Token:
        """The token ``token_id``."""
        try:
            return self._tokens[token_id]
        except KeyError:
            raise GeometryError(f"unknown token {token_id!r}") from None

    def add_token(
        self,
        token_id: str,
        origin: Cell,
        *,
        size: int = 1,
        reach: float = 1.0,
        shared: bool = False,
    ) -> None:
        """Place a new token and index the cells it threatens.  Only with ``shared`` may
        it stand where another token stands (see :mod:`geometry.occupancy`)."""
        if token_id in self._tokens or token_id in self._areas:
            raise GeometryError(f"id {token_id!r} is already in the index")
        self._place(Token(token_id, origin, size, reach), shared)

    def move_token(self, token_id: str, origin: Cell, *, shared: bool = False) -> None:
        """Move a token.  Its threat is worked out again when first asked about (module
        docstring); then only the cells it left or entered are re-indexed.  Only with
        ``shared`` may it stop where another token stands."""
        old = self.token(token_id)
        occupancy = self._occupancy
        if old.size == 1:  # almost every token: no footprint sets
            self._footing_one(token_id, origin, shared)
            occupancy.leave(old.origin, token_id)
            occupancy.enter(origin, token_id)
            box = self._box((origin,), old.reach)
        else:
            cells = self._footing(token_id, origin, old.size, shared)
            for c in self.grid.footprint(old.origin, old.size):
                occupancy.leave(c, token_id)
            for c in cells:
                occupancy.enter(c, token_id)
            box = self._box(cells, old.reach)
        moved = _new(Token, (token_id, origin, old.size, old.reach))
        self._tokens[token_id] = moved
        deferred = self._deferred.get(token_id)
        if deferred is not None:
            if deferred != box:  # a short move usually stays within the same tiles
                self._unregister(token_id)
                self._deferred[token_id] = box
                self._register(token_id)
            return
        read, self._read = self._read, False
        if self.eager or read:
            # Someone asked about areas since the last move (a fight asks at every
            # move): they will again, so bring the threat up to date now, which costs
            # less than deferring it and working it out on the next question.
            before, after = self._areas[token_id], self._threat_of(moved)
            self._cover.remove(token_id, before - after)
            self._cover.add(token_id, after - before)
            self._areas[token_id] = after
            return
        self._stale[token_id] = self._box(self.grid.footprint(old.origin, old.size), old.reach)
        self._deferred[token_id] = box
        self._register(token_id)

    def remove_token(self, token_id: str) -> None:
        """Take a token off the map."""
        self._unplace(self.token(token_id))

    def add_area(self, area_id: str, cells: Iterable[Cell]) -> None:
        """Register a trigger area (a readied action's zone) under ``area_id``."""
        if area_id in self._tokens or area_id in self._areas:
            raise GeometryError(f"id {area_id!r} is already in the index")
        self._index_area(area_id, frozenset(cells))

    def remove_area(self, area_id: str) -> None:
        """Forget a trigger area."""
        if area_id not in self._areas or area_id in self._tokens:
            raise GeometryError(f"unknown area {area_id!r}")
        self._unindex_area(area_id)

    def threatened(self, token_id: str) -> frozenset[Cell]:
        """The cells token ``token_id`` threatens now."""
        self.token(token_id)
        self._read = True
        if token_id in self._deferred:
            self._work_out(token_id)
        return self._areas[token_id]

    def area(self, area_id: str) -> frozenset[Cell]:
        """The cells of area ``area_id`` (a token's threatened cells or a trigger area)."""
        self._read = True
        if area_id in self._deferred:
            self._work_out(area_id)
        try:
            return self._areas[area_id]
        except KeyError:
            raise GeometryError(f"unknown area {area_id!r}") from None

    def areas_at(self, cell: Cell) -> frozenset[str]:
        """The ids of every area covering ``cell``."""
        self._read = True
        if self._deferred:
            self._work_out_cells((cell,))
        return self._cover.at(cell)[1]

    def work_out_everything(self) -> None:
        """Work out every deferred threat and every wall's blocked steps now, as an
        eager index would have on building (for measuring moves on a ready index)."""
        for token_id in sorted(self._deferred):
            self._work_out(token_id)
        self.blocker.prepare(0, 0, self.grid.width - 1, self.grid.height - 1)

    @property
    def deferred(self) -> int:
        """How many tokens' threats are not worked out yet (module docstring)."""
        return len(self._deferred)

    def occupant(self, cell: Cell) -> str | None:
        """The token standing on ``cell`` (the first there, if several), if any."""
        return self._occupancy.first(cell)

    def occupants(self, cell: Cell) -> tuple[str, ...]:
        """Every token standing on ``cell``."""
        return self._occupancy.on(cell)

    def set_door(self, wall_id: str, is_open: bool) -> None:
        """Open or close a door; refresh the blocked steps and threats around it."""
        self.walls.set_door(wall_id, is_open)
        self.blocker.refresh([wall_id])
        door = minx, miny, maxx, maxy = self.walls.bounds(wall_id)
        s = self.grid.cell_size
        near: list[Token] = []
        for tok in self._tokens.values():
            if tok.token_id in self._deferred:
                continue  # worked out later, against the walls as they are then
            # Only tokens whose reach box overlaps the door can change what they threaten.
            cx, cy = self.grid.footprint_center(tok.origin, tok.size)
            r = tok.reach + (tok.size + 1) * s
            if cx + r >= minx and cx - r <= maxx and cy + r >= miny and cy - r <= maxy:
                near.append(tok)
        if not near:
            return
        # Of theirs only the cells whose reach lines may meet the door are tested again,
        # all the tokens' together (geometry.door_refresh), and only what changed is
        # re-indexed, each cell's ids sorted once: a crowd around a door, not n threats.
        afters = rethreatened_many(
            self.grid,
            self.walls,
            door,
            [(t.origin, t.size, t.reach, self._areas[t.token_id]) for t in near],
        )
        changes = []
        for tok, after in zip(near, afters, strict=True):
            before = self._areas[tok.token_id]
            if after != before:
                changes.append((tok.token_id, before - after, after - before))
                self._areas[tok.token_id] = after
        self._cover.update_many(changes)

    def _threat_of(self, tok: Token) -> frozenset[Cell]:
        return threatened_cells(self.grid, tok.origin, tok.size, tok.reach, walls=self.walls)

    def _footing(self, token_id: str, origin: Cell, size: int, shared: bool) -> frozenset[Cell]:
        """The cells a token at ``origin`` covers, once checked: on the grid, and free
        of other tokens unless ``shared``.  Raises before anything changes."""
        cells = self.grid.footprint(origin, size)
        for c in cells:
            self.grid.require(c)
            other = None if shared else self._occupancy.other_than(c, token_id)
            if other is not None:
                raise GeometryError(f"token {token_id!r} at {origin} overlaps {other!r}")
        return cells

    def _footing_one(self, token_id: str, cell: Cell, shared: bool) -> None:
        """:meth:`_footing` of a one-cell token, without building its footprint."""
        self.grid.require(cell)
        other = None if shared else self._occupancy.other_than(cell, token_id)
        if other is not None:
            raise GeometryError(f"token {token_id!r} at {cell} overlaps {other!r}")

    def _place(self, tok: Token, shared: bool = False) -> None:
        cells = self._footing(tok.token_id, tok.origin, tok.size, shared)
        self._tokens[tok.token_id] = tok
        for c in cells:
            self._occupancy.enter(c, tok.token_id)
        if self.eager:
            self._index_area(tok.token_id, self._threat_of(tok))
        else:
            self._defer(tok)

    def _unplace(self, tok: Token) -> None:
        for c in self.grid.footprint(tok.origin, tok.size):
            self._occupancy.leave(c, tok.token_id)
        if tok.token_id in self._deferred:
            self._undefer(tok.token_id)
            if self._stale.pop(tok.token_id, None) is not None:
                self._unindex_area(tok.token_id)
        else:
            self._unindex_area(tok.token_id)
        del self._tokens[tok.token_id]

    # -- threats worked out when first needed (module docstring) ------------------------------

    def _box(self, feet: Collection[Cell], reach: float) -> Box:
        """The tiles a threat may reach from footprint ``feet``: the footprint grown by
        the grid steps ``reach`` spans (one step moves a cell's column and row by at
        most one, on square and hex grids alike), within the grid's tiles."""
        k = self._steps.get(reach)
        if k is None:
            k = self._steps[reach] = reach_steps(self.grid, reach)
        shift = TILE_SHIFT
        if len(feet) == 1:
            ((x0, y0),) = feet
            x1, y1 = x0, y0
        else:
            x0, y0 = min(c[0] for c in feet), min(c[1] for c in feet)
            x1, y1 = max(c[0] for c in feet), max(c[1] for c in feet)
        last_x, last_y = self._last_tile
        tx0, ty0 = (x0 - k) >> shift, (y0 - k) >> shift
        tx1, ty1 = (x1 + k) >> shift, (y1 + k) >> shift
        return (
            tx0 if tx0 > 0 else 0,
            ty0 if ty0 > 0 else 0,
            tx1 if tx1 < last_x else last_x,
            ty1 if ty1 < last_y else last_y,
        )

    def _register(self, token_id: str) -> None:
        """Register a deferred token under the tiles of its box and of its stale cells'."""
        tx0, ty0, tx1, ty1 = self._deferred[token_id]
        if tx0 == tx1 and ty0 == ty1:  # most tokens: one tile
            tiles: tuple[tuple[int, int], ...] = ((tx0, ty0),)
        else:
            tiles = tuple((x, y) for x in range(tx0, tx1 + 1) for y in range(ty0, ty1 + 1))
        stale = self._stale.get(token_id)
        if stale is not None and stale != self._deferred[token_id]:
            sx0, sy0, sx1, sy1 = stale
            more = {(x, y) for x in range(sx0, sx1 + 1) for y in range(sy0, sy1 + 1)}
            tiles = (*tiles, *(more - set(tiles)))
        self._registered[token_id] = tiles
        at = self._deferred_at
        for tile in tiles:
            ids = at.get(tile)
            if ids is None:
                at[tile] = {token_id}
            else:
                ids.add(token_id)

    def _unregister(self, token_id: str) -> None:
        at = self._deferred_at
        for tile in self._registered.pop(token_id):
            ids = at[tile]
            ids.discard(token_id)
            if not ids:
                del at[tile]

    def _defer(self, tok: Token) -> None:
        """Register ``tok``'s threat as not worked out, under every tile it may reach."""
        self._deferred[tok.token_id] = self._box(
            self.grid.footprint(tok.origin, tok.size), tok.reach
        )
        self._register(tok.token_id)

    def _undefer(self, token_id: str) -> None:
        self._unregister(token_id)
        del self._deferred[token_id]

    def _work_out(self, token_id: str) -> None:
        """Compute and index the threat of a deferred token; a stale one re-indexes only
        the cells its threat left or entered since it was last worked out."""
        self._undefer(token_id)
        after = self._threat_of(self._tokens[token_id])
        if self._stale.pop(token_id, None) is None:
            self._index_area(token_id, after)
            return
        before = self._areas[token_id]
        self._cover.remove(token_id, before - after)
        self._cover.add(token_id, after - before)
        self._areas[token_id] = after

    def _work_out_cells(self, cells: Iterable[Cell]) -> None:
        """Work out every deferred token that may threaten one of ``cells``.  Those
        never worked out (a fresh scene's) are indexed together
        (:meth:`~geometry.coverage.Coverage.add_many`): in a crowd one question can
        need hundreds, whose areas overlap on every cell."""
        at = self._deferred_at
        shift = TILE_SHIFT
        fresh: list[tuple[str, frozenset[Cell]]] = []
        for tile in {(c[0] >> shift, c[1] >> shift) for c in cells}:
            ids = at.get(tile)
            if ids:
                for token_id in sorted(ids):
                    if token_id in self._stale:
                        self._work_out(token_id)  # moved: re-index only what changed
                        continue
                    self._undefer(token_id)
                    area = self._threat_of(self._tokens[token_id])
                    self._areas[token_id] = area
                    fresh.append((token_id, area))
        if fresh:
            self._cover.add_many(fresh)

    def _index_area(self, area_id: str, cells: frozenset[Cell]) -> None:
        self._areas[area_id] = cells
        self._cover.add(area_id, cells)

    def _unindex_area(self, area_id: str) -> None:
        self._cover.remove(area_id, self._areas.pop(area_id))

    # -- resolving a move -------------------------------------------------------------------

    def resolve_move(
        self,
        token_id: str,
        path: Sequence[Cell],
        *,
        crossings: bool = True,
        areas: bool = True,
    ) -> MoveResolution:
        """Cost, wall check, and every area crossing and first exit of moving along ``path``.

        ``path[0]`` must be the token's current origin; each later entry is one legal step
        on.  The token's own threatened area is ignored.  Raises :class:`GeometryError` for
        an off-grid position or a non-adjacent step; walls and occupied end cells are
        reported, not raised, so the engine can explain a refusal.  ``crossings=False``
        leaves ``crossings`` empty and builds only the exits, which is all a move's
        attacks of opportunity need.  ``areas=False`` leaves both empty and works out no
        threat at all: a move nobody may interrupt (outside combat) needs only the cost,
        the walls and the end cell.
        """
        tok = self.token(token_id)
        if len(path) < 2:
            raise GeometryError("a path needs a start cell and at least one step")
        if path[0] != tok.origin:
            raise GeometryError(f"path starts at {path[0]}, token {token_id!r} is at {tok.origin}")
        grid = self.grid
        size = tok.size
        if size == 1:
            for c in path:
                if not grid.contains(c):
                    raise GeometryError(f"cell {c} is off the {grid.width}x{grid.height} grid")
            cost, blocked_step = self._cost_and_walls(path, None)
            if areas:
                self._read = True
                if self._deferred:
                    self._work_out_cells(path)
                found, exits = self._cover.scan(token_id, path, crossings=crossings)
            else:
                found, exits = (), ()
            last = self._occupancy.other_than(path[-1], token_id)
            return _new(MoveResolution, (cost, blocked_step, last is not None, found, exits))
        feet = [grid.footprint(p, size) for p in path]
        for p, f in zip(path, feet, strict=True):
            for c in f:
                if not grid.contains(c):
                    raise GeometryError(f"position {p} puts cell {c} off the grid")
        cost, blocked_step = self._cost_and_walls(path, feet)
        if not areas:
            end_occupied = any(self._occupancy.other_than(c, token_id) for c in feet[-1])
            return MoveResolution(cost, blocked_step, end_occupied, (), ())
        self._read = True
        if self._deferred:
            self._work_out_cells(frozenset().union(*feet))
        ins = [self._ids_under(f) for f in feet]
        outs = [self._ids_under(f - g) for f, g in pairwise(feet)]
        centres = [grid.footprint_center(p, size) for p in path]
        points = [((p[0] + q[0]) / 2, (p[1] + q[1]) / 2) for p, q in pairwise(centres)]
        found, exits = self._large_events(token_id, ins, outs, points, feet)
        if not crossings:
            found = ()
        end_occupied = any(self._occupancy.other_than(c, token_id) for c in feet[-1])
        return MoveResolution(cost, blocked_step, end_occupied, found, exits)

    def _ids_under(self, cells: frozenset[Cell]) -> frozenset[str]:
        get = self._cover.cells.get
        return frozenset().union(*(get(c, NO_COVER)[1] for c in cells))

    def _cost_and_walls(
        self, path: Sequence[Cell], feet: list[frozenset[Cell]] | None
    ) -> tuple[float, int | None]:
        grid = self.grid
        blocked = self.blocker.blocked
        terrain = self.terrain if self.terrain is not None and self.terrain.priced else None
        if feet is None and terrain is None and isinstance(grid, SquareGrid):
            return self._square_cost_and_walls(grid, path)
        cost = 0.0
        diagonals = 0
        blocked_step: int | None = None
        for i in range(len(path) - 1):
            a, b = path[i], path[i + 1]
            step = grid.step_cost(a, b, diagonals_before=diagonals)
            if grid.detours(a, b) is not None:
                diagonals += 1
            if feet is None:
                if blocked_step is None and blocked(a, b):
                    blocked_step = i
                if terrain is not None:
                    step *= terrain.multiplier(b)
            else:
                if blocked_step is None and any(
                    blocked(f, g) for f, g in translate(grid, feet[i], a, b).items()
                ):
                    blocked_step = i
                if terrain is not None:
                    step *= terrain.footprint_multiplier(feet[i + 1])
            cost += step
        return cost, blocked_step

    def _square_cost_and_walls(
        self, grid: SquareGrid, path: Sequence[Cell]
    ) -> tuple[float, int | None]:
        # The common case (one-square mover, no terrain) inlined: it is most of the work
        # of a quiet move, so no method call per step.
        blocker = self.blocker
        if blocker.lazy:
            blocker.prepare_cells(path)
        blocked = blocker.blocked_set
        s = grid.cell_size
        costs = self._diagonal_costs
        if costs is None:
            even, odd = diagonal_costs(grid.diagonal)
            costs = self._diagonal_costs = (s * even, s * odd)
        diag_costs = costs
        no_diagonals = grid.diagonal is DiagonalRule.NONE
        cost = 0.0
        diagonals = 0
        blocked_step: int | None = None
        a = path[0]
        for i in range(1, len(path)):
            b = path[i]
            dx, dy = b[0] - a[0], b[1] - a[1]
            if dx and dy:
                if no_diagonals or dx * dx != 1 or dy * dy != 1:
                    raise GeometryError(f"step from {a} to {b} is not between adjacent cells")
                cost += diag_costs[diagonals & 1]
                diagonals += 1
            elif dx * dx + dy * dy == 1:
                cost += s
            else:
                raise GeometryError(f"step from {a} to {b} is not between adjacent cells")
            if blocked_step is None and (a, b) in blocked:
                blocked_step = i - 1
            a = b
        return cost, blocked_step

    def _large_events(
        self,
        token_id: str,
        ins: list[frozenset[str]],
        outs: list[frozenset[str]],
        points: list[Point],
        feet: list[frozenset[Cell]],
    ) -> tuple[tuple[Crossing, ...], tuple[AreaExit, ...]]:
        # A footprint of several cells.  ins[i]: areas under the footprint at position i;
        # outs[i]: areas of the cells the footprint steps off at step i.
        found: list[Crossing] = []
        exits: list[AreaExit] = []
        append_found, append_exit = found.append, exits.append
        exited = {token_id}
        new = tuple.__new__
        prev = ins[0]
        for i in range(len(ins) - 1):
            now = ins[i + 1]
            off = outs[i]
            if not off and not now and not prev:
                continue
            point = points[i]
            if off:
                fresh = off - exited
                if fresh:
                    exited |= fresh
                    for area_id in sorted(fresh) if len(fresh) > 1 else fresh:
                        cell = min((feet[i] - feet[i + 1]) & self._areas[area_id])
                        append_exit(new(AreaExit, (area_id, i, cell, point)))
            if now != prev:
                left = prev - now
                if left:
                    for area_id in sorted(left) if len(left) > 1 else left:
                        if area_id != token_id:
                            append_found(new(Crossing, (area_id, _LEAVE, i, point)))
                entered = now - prev
                if entered:
                    for area_id in sorted(entered) if len(entered) > 1 else entered:
                        if area_id != token_id:
                            append_found(new(Crossing, (area_id, _ENTER, i, point)))
            prev = now
        return tuple(found), tuple(exits)
