"""An action's params as data a client can build a form from: read from their declaration.

:mod:`engine.params` reads a params dataclass's annotations to check a wire ``act``;
:func:`param_shapes` reads the same annotations into :class:`ParamShape` values (its
type, whether it is required, its default, its choices, its range, whether it holds the
table's dice), so a client offers exactly what the bridge will accept.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from engine.params import DICE, CellRef, Length, Range, TokenRef, _extras, _hints, _strip
from engine.serial import to_plain

ParamType = Literal[
    "boolean", "integer", "number", "string", "token", "cell", "choice", "list", "map"
]


@dataclass(frozen=True, slots=True)
class ParamShape:
    """One parameter (or a list's item, or a map's field): its ``type``; ``required``
    (no default); its ``default`` (plain, as the wire spells it) and whether it may be
    null (``nullable``); ``choices`` (a ``choice``'s words); ``min``/``max`` (a number's
    bounds, a string's length); ``dice`` (the table's own dice: the dice policy applies);
    ``items`` (a list's item) and ``fields`` (a map's fields); ``doc``."""

    name: str
    type: ParamType
    required: bool = True
    default: Any = None
    nullable: bool = False
    choices: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None
    dice: bool = False
    items: ParamShape | None = None
    fields: tuple[ParamShape, ...] = ()
    doc: str = ""


def param_shapes(cls: type) -> tuple[ParamShape, ...]:
    """The shape of each field of the params dataclass ``cls``, in declaration order."""
    hints = _hints(cls)
    shapes = []
    for f in dataclasses.fields(cls):
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if f.default is not dataclasses.MISSING:
            default: Any = to_plain(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = to_plain(f.default_factory())
        else:
            default = None
        doc = str(f.metadata.get("doc", ""))
        shape = _shape(f.name, hints[f.name], 0)
        shapes.append(dataclasses.replace(shape, required=required, default=default, doc=doc))
    return tuple(shapes)


def _shape(name: str, hint: Any, depth: int) -> ParamShape:
    extras = _extras(hint)
    hint = _strip(hint)
    origin = get_origin(hint)
    dice = DICE in extras
    bound = next((e for e in extras if isinstance(e, Range | Length)), None)
    low, high = (bound.lo, bound.hi) if bound is not None else (None, None)
    if origin in (Union, types.UnionType):
        options = [o for o in get_args(hint) if o is not type(None)]
        # Only ``X | None`` is declared today (engine.params allows more; a client
        # would then get the first option's shape, and the bridge still checks).
        inner = _shape(name, options[0], depth)
        nullable = len(options) < len(get_args(hint))
        return dataclasses.replace(
            inner,
            nullable=nullable or inner.nullable,
            dice=dice or inner.dice,
            min=low if low is not None else inner.min,
            max=high if high is not None else inner.max,
        )
    if origin is typing.Literal:
        return ParamShape(name, "choice", choices=tuple(str(w) for w in get_args(hint)))
    if hint is TokenRef:
        return ParamShape(name, "token")
    if hint == CellRef:
        return ParamShape(name, "cell")
    if origin is tuple:
        args = get_args(hint)
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
        items = None if item is Any else _shape("item", item, depth + 1)
        return ParamShape(name, "list", items=items, dice=dice, min=low, max=high)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return ParamShape(name, "map", fields=param_shapes(hint))
    kinds: dict[Any, ParamType] = {bool: "boolean", int: "integer", float: "number", str: "string"}
    return ParamShape(name, kinds[hint], min=low, max=high, dice=dice)
