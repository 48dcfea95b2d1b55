"""The scene as the Actions see it: reach and line of sight from geometry.

A :class:`SceneWorld` answers :class:`~.actions.World`'s questions from the core's
spatial index of the current scene: a token reaches the cells its ``reach`` covers from
its footprint's edge (:mod:`geometry.reach`; on a 2 m grid a reach of 2 m is the eight
neighbouring squares; between tokens at different elevations measured in three
dimensions, :mod:`geometry.elevation`), and sees another when a line between their cells' centres
clears every sight-blocking wall (:mod:`geometry.sight`).
"""

from __future__ import annotations

from collections.abc import Mapping

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
