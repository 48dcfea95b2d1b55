"""Who stands on each cell of a :class:`~geometry.index.ThreatIndex`.

One token a cell, as a scene at rest has it.  A token placed with ``shared`` may also
stand where others already do: a mover paused half-way through an ally's square (an
attack of opportunity as it leaves it) is on that square with the ally until it moves
on.  Such cells are rare, so they are kept apart from the one-token cells, which stay a
plain dict lookup.
"""

from __future__ import annotations

import bisect

from geometry.square import Cell


class Occupancy:
    """Cell -> the tokens standing on it, in id order: the same whatever order they
    came in, so an index updated move by move answers exactly as a fresh one."""

    def __init__(self) -> None:
        self._first: dict[Cell, str] = {}
        self._more: dict[Cell, list[str]] = {}  # cells with two or more tokens: all of them

    def first(self, cell: Cell) -> str | None:
        """The token on ``cell`` (the least id, if several), if any."""
        return self._first.get(cell)

    def on(self, cell: Cell) -> tuple[str, ...]:
        """Every token on ``cell``, in id order."""
        more = self._more.get(cell)
        if more is not None:
            return tuple(more)
        first = self._first.get(cell)
        return () if first is None else (first,)

    def other_than(self, cell: Cell, token_id: str) -> str | None:
        """A token on ``cell`` other than ``token_id``, if any."""
        first = self._first.get(cell)
        if first is None or first != token_id:
            return first
        more = self._more.get(cell)
        return None if more is None else next(t for t in more if t != token_id)

    def enter(self, cell: Cell, token_id: str) -> None:
        """``token_id`` stands on ``cell`` too (callers check whether it may)."""
        first = self._first.get(cell)
        if first is None:
            self._first[cell] = token_id
        elif first != token_id:
            more = self._more.setdefault(cell, [first])
            if token_id not in more:
                bisect.insort(more, token_id)
                self._first[cell] = more[0]

    def leave(self, cell: Cell, token_id: str) -> None:
        """``token_id`` no longer stands on ``cell``."""
        more = self._more.get(cell)
        if more is None:
            if self._first.get(cell) == token_id:
                del self._first[cell]
            return
        more.remove(token_id)
        self._first[cell] = more[0]
        if len(more) == 1:
            del self._more[cell]
