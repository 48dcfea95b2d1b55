"""Errors raised by the geometry package."""

from __future__ import annotations


class GeometryError(ValueError):
    """A geometric request that cannot be satisfied: an off-grid cell, a non-adjacent step.

    The message names the offending input so the caller can report it unchanged.
    """
