"""The scene as the Actions see it: reach and line of sight from geometry.

A :class:`SceneWorld` answers :class:`~.actions.World`'s questions from the core's
spatial index of the current scene: a token reaches the cells its ``reach`` covers from
its footprint's edge (:mod:`geometry.reach`; on a 2 m grid a reach of 2 m is the eight
neighbouring squares; between tokens at different elevations measured in three
dimensions, :mod:`geometry.elevation`), and sees another when a line between their cells' centres
clears every sight-blocking wall (:mod:`geometry.sight`).  A gridless scene has
:class:`GridlessWorld` instead, with the same answers from its board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from engine.gridless_board import TOLERANCE, GridlessBoard, centre, reach_radius
from geometry import HexGrid, SquareGrid, ThreatIndex
from geometry.elevation import threatened_at
from geometry.sight import creatures_see, creatures_seen

Cell = tuple[int, int]


class SceneWorld:
    """Reach and sight over one scene's :class:`~geometry.ThreatIndex`, whose tokens
    are ``tokens`` (the scene's ids, in its order)."""

    def __init__(
        self,
        index: ThreatIndex,
        tokens: tuple[str, ...],
        elevations: Mapping[str, float] | None = None,
    ) -> None:
        self.index = index
        self._tokens = tokens
        self._elevations = elevations or {}

    def _reach_at(self, a: str, b: str) -> frozenset[Cell]:
        """The cells ``a`` reaches against ``b``: in three dimensions when they stand at
        different elevations (:func:`geometry.elevation.threatened_at`)."""
        cells = self.index.threatened(a)
        up, other = self._elevations.get(a, 0.0), self._elevations.get(b, 0.0)
        if up == other:
            return cells
        tok, grid = self.index.token(a), self.index.grid
        assert isinstance(grid, SquareGrid | HexGrid)
        feet = grid.footprint(tok.origin, tok.size)
        return threatened_at(grid, feet, cells, tok.reach, up, other)

    def tokens(self) -> tuple[str, ...]:
        """Every token on the scene."""
        return self._tokens

    def is_token(self, token: str) -> bool:
        """Whether the scene has a token ``token``."""
        try:
            self.index.token(token)
        except ValueError:
            return False
        return True

    def cell(self, token: str) -> Cell:
        """Token ``token``'s (top-left) cell."""
        return self.index.token(token).origin

    def footprint(self, token: str) -> frozenset[Cell]:
        """Every cell under token ``token``."""
        tok = self.index.token(token)
        return self.index.grid.footprint(tok.origin, tok.size)

    def reaches_cell(self, token: str, cell: Cell) -> bool:
        """Whether ``cell`` is under ``token`` or within its reach."""
        return cell in self.footprint(token) or cell in self.index.threatened(token)

    def in_reach(self, a: str, b: str) -> bool:
        """Whether any cell of token ``b`` is within token ``a``'s reach."""
        return bool(self._reach_at(a, b) & self.footprint(b))

    def sees(self, a: str, b: str) -> bool:
        """Whether token ``a`` has line of sight to token ``b``."""
        ta, tb = self.index.token(a), self.index.token(b)
        return creatures_see(
            self.index.grid, self.index.walls, ta.origin, tb.origin, size_a=ta.size, size_b=tb.size
        )

    def within_reach(self, a: str) -> frozenset[str]:
        """Every token :meth:`in_reach` of token ``a``: those standing on a cell it
        threatens, found from its cells, not by asking about every token."""
        index = self.index
        near = frozenset(b for c in index.threatened(a) for b in index.occupants(c))
        if not self._elevations:
            return near
        return frozenset(b for b in near if self.in_reach(a, b))

    def seen_by(self, a: str) -> frozenset[str]:
        """Every token but ``a`` that ``a`` :meth:`sees`, all lines tested at once
        (:func:`geometry.sight.creatures_seen`, the same answers)."""
        index = self.index
        ta = index.token(a)
        others = [t for t in self._tokens if t != a]
        toks = [index.token(t) for t in others]
        seen = creatures_seen(
            index.grid, index.walls, ta.origin, [(t.origin, t.size) for t in toks], size_a=ta.size
        )
        return frozenset(t for t, yes in zip(others, seen, strict=True) if yes)


class GridlessWorld:
    """:class:`SceneWorld`'s answers on a gridless scene, over its
    :class:`~engine.gridless_board.GridlessBoard`: reach is the board's ball (three
    dimensions included), sight the line between centres.  A token's ``cell`` is the
    square of the scene's cell size under its centre (where a dropped weapon lies), and
    a cell is within reach when a one-cell token standing on it would be."""

    def __init__(self, board: GridlessBoard, tokens: tuple[str, ...]) -> None:
        self.board = board
        self._tokens = tokens

    def tokens(self) -> tuple[str, ...]:
        """Every token on the scene."""
        return self._tokens

    def is_token(self, token: str) -> bool:
        """Whether the scene has a token ``token``."""
        return token in self._tokens

    def cell(self, token: str) -> Cell:
        """The square (of the scene's cell size) under token ``token``'s centre."""
        x, y = centre(self.board.token(token))
        size = self.board.cell_size
        return (math.floor(x / size), math.floor(y / size))

    def reaches_cell(self, token: str, cell: Cell) -> bool:
        """Whether a one-cell token on ``cell`` would be within ``token``'s reach."""
        tok = self.board.token(token)
        size = self.board.cell_size
        middle = ((cell[0] + 0.5) * size, (cell[1] + 0.5) * size)
        return math.dist(centre(tok), middle) <= reach_radius(tok, 1, size) + TOLERANCE

    def in_reach(self, a: str, b: str) -> bool:
        """Whether token ``b`` is within token ``a``'s reach."""
        return self.board.in_reach(self.board.token(a), self.board.token(b))

    def sees(self, a: str, b: str) -> bool:
        """Whether token ``a`` has line of sight to token ``b``."""
        return self.board.sees(self.board.token(a), self.board.token(b))

    def within_reach(self, a: str) -> frozenset[str]:
        """Every other token :meth:`in_reach` of token ``a``."""
        return frozenset(b for b in self._tokens if b != a and self.in_reach(a, b))

    def seen_by(self, a: str) -> frozenset[str]:
        """Every token but ``a`` that ``a`` :meth:`sees`."""
        return frozenset(b for b in self._tokens if b != a and self.sees(a, b))
