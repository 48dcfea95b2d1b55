"""The scene a table loads: grid, tokens and their stats (``load_scene``'s body).

Its shapes are declared once, as the engine's dataclasses, and written into
:mod:`protocol.commands` (``GridSpec``, ``TokenSpec``, ``SceneSpec``, and the walls and
terrain of :mod:`protocol.features`); what they check beyond their fields is in
:mod:`protocol.shape_checks`.  Here are the words and bounds a client reads, each read
off the written structs, so they are never stated twice.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Final, Literal, TypeAlias, get_args, get_origin

import msgspec

from protocol.commands import GridSpec, SceneSpec, TokenSpec
from protocol.shape_checks import MAX_GRID_AREA, MAX_STATS, check_unique


def words(struct: type, name: str) -> frozenset[str]:
    """The words the field ``name`` of ``struct`` may hold (its ``Literal``)."""
    hint = typing.get_type_hints(struct)[name]
    if get_origin(hint) in (types.UnionType, typing.Union):
        hint = next(arm for arm in get_args(hint) if get_origin(arm) is Literal)
    return frozenset(get_args(hint))


def bound(struct: type, name: str, limit: str = "max_length") -> Any:
    """The bound ``limit`` (msgspec's name: ``max_length``, ``le``) of ``struct``'s field
    ``name`` (of a list's, or a nullable field's)."""
    info = msgspec.inspect.type_info(struct)
    assert isinstance(info, msgspec.inspect.StructType)
    kind: Any = next(f.type for f in info.fields if f.name == name)
    if isinstance(kind, msgspec.inspect.UnionType):
        kind = next(t for t in kind.types if not isinstance(t, msgspec.inspect.NoneType))
    return getattr(kind, limit)


GRID_KINDS: Final = words(GridSpec, "kind")
DIAGONAL_RULES: Final = words(GridSpec, "diagonal")
HEX_OFFSETS: Final = words(GridSpec, "offset")
#: Foundry's ``CONST.GRID_DIAGONALS`` numbers (``grid.diagonals``) as diagonal rule names.
FOUNDRY_DIAGONALS: Final[dict[int, str]] = {
    0: "one",  # EQUIDISTANT
    1: "euclidean",  # EXACT
    2: "approximate",  # APPROXIMATE
    3: "rectilinear",  # RECTILINEAR
    4: "alternating",  # ALTERNATING_1
    5: "alternating_2",  # ALTERNATING_2
    6: "none",  # ILLEGAL
}
#: Most tokens in one scene, and cells a side of a grid.
MAX_TOKENS: Final[int] = bound(SceneSpec, "tokens")
MAX_GRID_CELLS: Final[int] = bound(GridSpec, "width", "le")
#: A stat value: flags, counters, modifiers and short labels.
StatValue: TypeAlias = bool | int | float | str

__all__ = [
    "DIAGONAL_RULES",
    "FOUNDRY_DIAGONALS",
    "GRID_KINDS",
    "HEX_OFFSETS",
    "MAX_GRID_AREA",
    "MAX_GRID_CELLS",
    "MAX_STATS",
    "MAX_TOKENS",
    "GridSpec",
    "SceneSpec",
    "StatValue",
    "TokenSpec",
    "bound",
    "check_unique",
    "words",
]
