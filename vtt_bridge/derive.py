"""One shape from another: engine values from wire structs, wire structs from engine
declarations.

The protocol may not import the engine nor the engine the protocol
(``tests/test_architecture.py``), so where a message has both shapes the bridge, which
imports both, makes one from the other instead of restating it:

- :func:`to_engine` reads a wire value as the engine type its field is declared with,
  by field name (a scene, a token spec, a move's cells), so no hand mapping lists the
  fields a third time.  Where the two spell a value differently the difference is
  written once, in :data:`SPELLED_OTHERWISE` (a token's ``stats`` are a map on the wire
  and sorted pairs in the engine; an Owlbear image grid's points are pairs on the wire).
- :func:`wire_command` makes a command's wire struct from its engine dataclass, as
  :mod:`vtt_bridge.event_types` makes event bodies: the dataclass's fields but
  ``actor``, in order, bounded as its ``Annotated`` marks say (:mod:`engine.params`'
  ``Range`` and ``Length`` (of a string, or of a list: its items), ``TokenRef`` and
  ``Id``), every
  field with a default optional on the wire (``LATER``) unless its metadata says
  ``{"later": False}`` (on the wire since version 1: sent, even null).  A field marked
  :class:`~engine.params.Json` is a map checked only as JSON-safe to its depth (by the
  struct's ``check``); a map is left out of ``hash()``.  A list marked
  :class:`~engine.params.Unique` (or whose lists are) refuses a repeated item, as the
  scene's ids do.  A field whose metadata says ``{"filled": True}`` may be null on the
  wire (the row's ``fill`` supplies it: a fight's seed); a class's ``wire_order`` keeps
  a message's order from before it was derived.  An engine type in
  :data:`WIRE_SHAPES` is carried as the protocol's own struct (an Owlbear image grid).
  Strings are bounded in one place, :func:`wire_text`.
- :func:`wire_shape` makes the wire shape of a nested engine dataclass (the scene's grid,
  tokens, walls, terrain) the same way: named as its ``wire_name`` says (a
  ``Combatant`` is a ``TokenSpec``), extending the protocol's checks its ``wire_base``
  names (:mod:`protocol.shape_checks`: a token on the grid, a wall's two ends), a field
  whose metadata says ``{"required": True}`` required on the wire though the engine
  gives it a default, pairs marked :data:`~engine.params.AS_MAP` a map.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

import msgspec
from msgspec import Meta

import protocol.shape_checks
from engine.params import (
    MAX_INT,
    MAX_ITEMS,
    AsMap,
    Ident,
    Json,
    Length,
    OnePer,
    Range,
    TokenRef,
    Unique,
)
from geometry.vtt_coords import OwlbearImageGrid
from protocol.actions import ImageGrid
from protocol.shape_checks import check_unique
from protocol.text import CLEAN_PATTERN
from protocol.validate import check_one_each, json_safe
from protocol.wire import ClientWire, TokenId, Wire

Convert = Callable[[Any], Any]

#: Engine types the wire spells otherwise, each read from its wire value by hand.
SPELLED_OTHERWISE: dict[type, Convert] = {
    OwlbearImageGrid: lambda image: OwlbearImageGrid(
        image.offset[0], image.offset[1], image.dpi, *image.scale
    ),
}


#: Engine types the wire carries as one of the protocol's own structs (an Owlbear image
#: grid is the geometry's value, spelled otherwise on the wire): a field of one is that.
WIRE_SHAPES: dict[type, type[Wire]] = {OwlbearImageGrid: ImageGrid}


# -- wire value -> engine value ---------------------------------------------------------


@functools.cache
def to_engine(hint: Any) -> Convert | None:
    """How to read a wire value as the engine type ``hint``; None when it already is one
    (numbers, strings, cells, maps of JSON values): those are passed as they are."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        return to_engine(args[0])
    if isinstance(hint, type) and hint in SPELLED_OTHERWISE:
        return SPELLED_OTHERWISE[hint]
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return struct_reader(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [to_engine(a) for a in args if a is not type(None)]
        found = [c for c in inner if c is not None]
        if not found:
            return None
        assert len(found) == 1, f"{hint!r}: one convertible type per union"
        one = found[0]
        return lambda value: None if value is None else one(value)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = to_engine(args[0])
        if item is not None:
            return lambda values: tuple(map(item, values))
        pair = get_args(args[0]) if get_origin(args[0]) is tuple else ()
        if len(pair) == 2 and pair[0] is str and pair[1] is not Ellipsis:
            # Sorted (name, value) pairs in the engine, a map on the wire.
            return lambda value: tuple(value.items()) if type(value) is dict else value
    return None


@functools.cache
def struct_reader(cls: type, skip: tuple[str, ...] = ()) -> Convert:
    """Read a wire struct as the engine dataclass ``cls`` by field name (``skip``: fields
    the wire does not carry, given first as positional arguments)."""
    hints = get_type_hints(cls)
    carried = engine_fields(cls, skip)
    fields = [f for f in dataclasses.fields(cls) if f.name in carried]
    names = [f.name for f in fields]
    steps = [(name, to_engine(hints[name])) for name in names]
    if all(step is None for _, step in steps) and not any(f.kw_only for f in fields):
        # The common case (a move): every field as it arrived, read in one C call.
        get = operator.attrgetter(*names) if len(names) > 1 else None

        def plain(value: Any, *first: Any) -> Any:
            if get is None:
                return cls(*first, *(getattr(value, n) for n in names))
            return cls(*first, *get(value))

        return plain

    def read(value: Any, *first: Any) -> Any:
        return cls(
            *first,
            **{n: getattr(value, n) if c is None else c(getattr(value, n)) for n, c in steps},
        )

    return read


def engine_fields(cls: type, skip: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The fields of the engine dataclass ``cls`` a wire struct must carry: all but
    ``skip`` and those marked ``metadata={"wire": False}`` (a field only an upgraded
    log sets, such as ``JoinCombat.ties``)."""
    return tuple(
        f.name
        for f in dataclasses.fields(cls)
        if f.name not in skip and f.metadata.get("wire", True)
    )


# -- engine declaration -> wire struct ---------------------------------------------------


def wire_text(length: Length) -> Any:
    """The wire type of a string bounded by ``length``: the one place a declared string
    becomes a wire string, so a rule every string keeps applies to each (no control or
    bidirectional formatting characters: :mod:`protocol.text`, as ``Name`` says)."""
    # No lower bound said when there is none (a token's name may be empty, as ever).
    lo = length.lo or None
    return Annotated[str, Meta(min_length=lo, max_length=length.hi, pattern=CLEAN_PATTERN)]


def wire_bound(hint: Any) -> Any:
    """An engine field's annotation as the wire checks it (see the module)."""
    extras: tuple[Any, ...] = ()
    if get_origin(hint) is Annotated:
        hint, *rest = get_args(hint)
        extras = tuple(rest)
    bound = next((e for e in extras if isinstance(e, Range)), None)
    length = next((e for e in extras if isinstance(e, Length)), None)
    origin, args = get_origin(hint), get_args(hint)
    if origin is dict and any(isinstance(e, Json) for e in extras):
        return dict[str, Any]  # its depth is checked by the struct's check()
    if any(isinstance(e, AsMap) for e in extras):
        return dict[str, Any]  # pairs in the engine; the shape's own check reads them
    if hint is TokenRef or (hint is str and any(isinstance(e, Ident) for e in extras)):
        return TokenId
    if hint is str:
        return wire_text(length or Length(0, 1024))
    if hint is bool or hint is type(None) or hint is Any or origin is Literal:
        return hint
    if hint is int or hint is float:
        lo, hi = (bound.lo, bound.hi) if bound else (-MAX_INT, MAX_INT)
        if bound is not None and bound.above:
            return Annotated[hint, Meta(gt=hint(lo), le=hint(hi))]
        return Annotated[hint, Meta(ge=hint(lo), le=hint(hi))]
    if origin in (types.UnionType, typing.Union):
        return functools.reduce(operator.or_, (wire_bound(_with(a, extras)) for a in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        if length is None or length.lo == 0:
            size = Meta(max_length=length.hi if length else MAX_ITEMS)
        else:
            size = Meta(min_length=length.lo, max_length=length.hi)
        return Annotated[tuple[wire_bound(args[0]), ...], size]  # type: ignore[misc]
    if origin is tuple:
        return tuple.__class_getitem__(tuple(wire_bound(a) for a in args))
    if origin is dict:
        return dict.__class_getitem__((wire_bound(args[0]), wire_bound(args[1])))
    if isinstance(hint, type) and hint in WIRE_SHAPES:
        return WIRE_SHAPES[hint]
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return wire_shape(hint)
    raise TypeError(f"no wire type for {hint!r}: teach vtt_bridge.derive.wire_bound")


def _with(hint: Any, extras: tuple[Any, ...]) -> Any:
    return Annotated[(hint, *extras)] if extras and hint is not type(None) else hint


def _fields(cls: type, skip: tuple[str, ...]) -> tuple[list[Any], tuple[str, ...]]:
    """msgspec's field list for ``cls`` (its defaults kept) and the defaulted names."""
    hints = get_type_hints(cls, include_extras=True)
    fields: list[Any] = []
    later = []
    for f in dataclasses.fields(cls):
        if f.name in skip or not f.metadata.get("wire", True):
            continue
        kind = wire_bound(hints[f.name])
        # A default makes a field LATER (clients may leave it out) unless it is marked
        # ``metadata={"later": False}``: on the wire since version 1, sent even null.
        optional = f.metadata.get("later", True)
        if f.metadata.get("required"):
            # The engine's default is for code building the value itself; the wire has
            # always required the field.
            fields.append((f.name, kind))
        elif f.metadata.get("filled"):
            # The engine's value is always there; a client may send null for the row's
            # ``fill`` to supply (a fight's seed: the table's).
            fields.append((f.name, kind | None, None))
            later.extend([f.name] if optional else [])
        elif f.default is not dataclasses.MISSING:
            # Pairs in the engine are a map on the wire, and so is their default.
            default = {} if f.default == () and _holds_map(kind) else f.default
            fields.append((f.name, kind, default))
            later.extend([f.name] if optional else [])
        elif f.default_factory is not dataclasses.MISSING:
            fields.append((f.name, kind, msgspec.field(default_factory=f.default_factory)))
            later.extend([f.name] if optional else [])
        else:
            fields.append((f.name, kind))
    order: tuple[str, ...] | None = getattr(cls, "wire_order", None)
    if order is not None:
        # A message that shipped before its declaration keeps its wire order (the order
        # its body is written in, so its bytes and digests stay the same).
        assert sorted(order) == sorted(f[0] for f in fields), f"{cls.__name__}.wire_order"
        fields.sort(key=lambda f: order.index(f[0]))
    else:
        # Required fields first: msgspec takes them in that order, keyword-only anyway.
        fields.sort(key=lambda f: len(f) == 3)
    return fields, tuple(later)


def shape_base(cls: type) -> type[Wire]:
    """The protocol's base of ``cls``'s wire shape: the checks its ``wire_base`` names
    (:mod:`protocol.shape_checks`), else :class:`~protocol.wire.Wire`."""
    name: str | None = getattr(cls, "wire_base", None)
    base: type[Wire] = Wire if name is None else getattr(protocol.shape_checks, name)
    return base


def shape_name(cls: type) -> str:
    """The wire name of ``cls``'s shape: its ``wire_name`` (a ``Combatant`` is a
    ``TokenSpec`` on the wire), else its own."""
    name: str = getattr(cls, "wire_name", cls.__name__)
    return name


@functools.cache
def wire_shape(cls: type) -> type[Wire]:
    """A nested engine dataclass as a wire struct (every defaulted field optional but
    those its metadata marks), extending its :func:`shape_base`."""
    fields, later = _fields(cls, ())
    base = shape_base(cls)
    namespace: dict[str, Any] = {"__doc__": cls.__doc__, "LATER": later}
    checks = field_checks(cls)
    if checks:
        namespace["check"] = _check_fields(checks, base)
    unhashed = tuple(f[0] for f in fields if _holds_map(f[1]))
    if unhashed:
        namespace["UNHASHED"] = unhashed
    struct = msgspec.defstruct(
        shape_name(cls), fields, bases=(base,), module=__name__, namespace=namespace,
        kw_only=True,
    )  # fmt: skip
    return typing.cast(type[Wire], struct)


@dataclass(frozen=True, slots=True)
class FieldCheck:
    """One check a derived struct's ``check`` runs on a field: ``json`` (a map, JSON-safe
    nested at most ``depth`` deep), ``unique`` (a list's items differ), ``unique_each``
    (each list inside the list: its items differ), ``one_per`` (one item per item of
    the field ``per``); ``what`` names an item, ``key`` the items' field that differs."""

    name: str
    kind: Literal["json", "unique", "unique_each", "one_per"]
    depth: int = 0
    what: str = ""
    per: str = ""
    key: str = ""


def _marks(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    """``hint`` without ``None`` or its ``Annotated`` layer, and its marks."""
    if get_origin(hint) in (types.UnionType, typing.Union):
        arms = [a for a in get_args(hint) if a is not type(None)]
        hint = arms[0] if len(arms) == 1 else hint
    if get_origin(hint) is Annotated:
        base, *marks = get_args(hint)
        inner, more = _marks(base)
        return inner, (*marks, *more)
    return hint, ()


def field_checks(cls: type) -> list[FieldCheck]:
    """The checks of ``cls``'s fields a wire type cannot say, in field order."""
    hints = get_type_hints(cls, include_extras=True)
    found = []
    for f in dataclasses.fields(cls):
        base, marks = _marks(hints[f.name])
        json = next((m for m in marks if isinstance(m, Json)), None)
        unique = next((m for m in marks if isinstance(m, Unique)), None)
        one_per = next((m for m in marks if isinstance(m, OnePer)), None)
        if one_per is not None:
            found.append(FieldCheck(f.name, "one_per", what=one_per.what, per=one_per.field))
        elif json is not None:
            found.append(FieldCheck(f.name, "json", depth=json.depth))
        elif unique is not None:
            found.append(FieldCheck(f.name, "unique", what=unique.what, key=unique.key))
        elif get_origin(base) is tuple and get_args(base)[1:] == (Ellipsis,):
            _, inner = _marks(get_args(base)[0])
            each = next((m for m in inner if isinstance(m, Unique)), None)
            if each is not None:
                found.append(FieldCheck(f.name, "unique_each", what=each.what))
    return found


def _check_fields(checks: list[FieldCheck], base: type[Wire] = Wire) -> Callable[[Any], None]:
    def check(self: Any) -> None:
        """Maps JSON-safe to their depth; no item twice in a list that must differ."""
        for one in checks:
            value = getattr(self, one.name)
            if one.kind == "json" and value is not None:
                json_safe(value, one.name, max_depth=one.depth)
            elif one.kind == "unique" and one.key:
                ids = [getattr(item, one.key) for item in value or ()]
                check_unique(ids, one.what, f"{one.name}[{{}}].{one.key}")
            elif one.kind == "unique":
                check_unique(list(value or ()), one.what, f"{one.name}[{{}}]")
            elif one.kind == "one_per":
                check_one_each(value, one.name, getattr(self, one.per), one.what)
            elif one.kind == "unique_each":
                for i, items in enumerate(value or ()):
                    check_unique(list(items), one.what, f"{one.name}[{i}][{{}}]")
        base.check(self)  # the shape's own checks, after its fields'

    return check


def _holds_map(kind: Any) -> bool:
    """Whether a wire type is a map (maybe nullable)."""
    if get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    if get_origin(kind) in (types.UnionType, typing.Union):
        return any(_holds_map(arm) for arm in get_args(kind))
    return get_origin(kind) is dict or kind is dict


def wire_command(cls: type, *, skip: tuple[str, ...] = ("actor",)) -> type[ClientWire]:
    """The client message of the engine command ``cls``: wire ``type`` its ``kind``,
    its fields but ``skip`` (the actor, which the connection gives), its docstring."""
    fields, later = _fields(cls, skip)
    kind: str = typing.cast(Any, cls).kind
    namespace: dict[str, Any] = {"__doc__": cls.__doc__, "TYPE": kind, "LATER": later}
    checks = field_checks(cls)
    if checks:
        namespace["check"] = _check_fields(checks)
    # Maps are compared but left out of hash() (a dict has none): a message stays a value.
    unhashed = tuple(f[0] for f in fields if _holds_map(f[1]))
    if unhashed:
        namespace["UNHASHED"] = unhashed
    struct = msgspec.defstruct(
        cls.__name__, fields, bases=(ClientWire,), module=__name__, namespace=namespace,
        kw_only=True,
    )  # fmt: skip
    return typing.cast(type[ClientWire], struct)
