"""The wire's own shape of an Owlbear image item's grid, which a ``move_points`` may
carry (the move itself is declared once as the engine's command, ``engine/commands.py``;
its wire struct is in :mod:`protocol.commands`).

A game's own actions are not here: they travel as ``act`` (:mod:`protocol.commands`),
declared in the game's folder.
"""

from __future__ import annotations

from protocol.wire import Point, Positive, Wire


class ImageGrid(Wire, frozen=True, kw_only=True):
    """An Owlbear image item's own grid (SDK ``Image.grid``: ``offset`` in image pixels,
    ``dpi`` image pixels per cell) and the item's ``scale``: the item's ``position`` is
    where the image's offset lies."""

    LATER = ("scale",)
    offset: Point
    dpi: Positive
    scale: tuple[Positive, Positive] = (1.0, 1.0)
