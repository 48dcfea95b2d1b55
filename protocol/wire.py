"""The one place a message's shape is declared: msgspec structs, and what reads them.

Theory of operation. Every message and every nested spec is a frozen
:class:`msgspec.Struct` subclassing :class:`Wire`; its annotated fields *are* the wire
shape. Types carry the bounds (:data:`Seq`, :data:`TokenId`, :func:`text`, ``Literal``
choices), and msgspec's compiled validator checks them, so nothing else restates them:
reading a body (:func:`read`), writing one (:meth:`Wire.to_body`), the message tables in
``protocol/README.md`` (``python -m tools.wiredocs``) and the tests' strategies all
come from these declarations.

- A field with a default may be left out on the wire only when its class lists it in
  ``LATER`` (fields added after version 1 shipped); every other field must be present,
  even when null.  Client messages omit ``LATER`` fields still at their default when
  encoded, so older servers read them.
- ``check(self)`` holds what one field's type cannot say (``first_event <= last_event``,
  a token on the grid); it raises :class:`ProtocolError` with a path relative to the
  struct, and decoding prefixes the path of the struct in the frame.
- A value built in Python checks itself too: ``__post_init__`` runs the same validation
  over its builtin form (:func:`msgspec.to_builtins`), then stores the normalised fields
  (lists become tuples, ints in float fields become floats).

How to add a message (``protocol/README.md`` shows one): declare it as a ``ClientWire``
or ``ServerWire`` struct with a docstring, add it to the ``ClientMessage`` or
``ServerMessage`` union (the registries are read off them), run ``python -m
tools.wiredocs --write``, and give the README an example frame.  The server gives
each client message one row of its message table (``vtt_bridge/rows.py``); a command
declared as an engine dataclass is instead derived from it there, and once shipped
written into :mod:`protocol.commands` by the same tool (until then, and for a test's
toy command, added with :func:`protocol.messages.register_client_message`).
"""

from __future__ import annotations

import contextvars
import copy
import functools
import re
from typing import Annotated, Any, ClassVar, Final, Self, TypeVar

import msgspec
from msgspec import Meta

from protocol.errors import ProtocolError, join_path
from protocol.text import CLEAN_PATTERN, why_forbidden
from protocol.validate import (
    INT_MAX,
    INT_MIN,
    MAX_DEPTH,
    SEQ_MAX,
    check_seq,
    json_safe,
    key_segment,
    show,
)

#: The largest distance, size or pixel coordinate a message may carry.
MAX_MAGNITUDE: Final = 1e9

Seq = Annotated[int, Meta(ge=0, le=SEQ_MAX)]
#: An int64 (every message packs as msgpack without overflow).
Int = Annotated[int, Meta(ge=INT_MIN, le=INT_MAX)]
#: A finite number within :data:`MAX_MAGNITUDE`.
Float = Annotated[float, Meta(ge=-MAX_MAGNITUDE, le=MAX_MAGNITUDE)]
Length = Annotated[float, Meta(ge=0, le=MAX_MAGNITUDE)]
Positive = Annotated[float, Meta(gt=0, le=MAX_MAGNITUDE)]
#: A token id, a wall id, a word of a ruleset's vocabulary.
TokenId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
Cell = tuple[Int, Int]
Point = tuple[Float, Float]
#: A token's position: a whole cell on a grid, any point in the scene's unit on a
#: gridless scene (``3`` stays an int, ``3.5`` a float: a grid refuses the fractional).
Coordinate = Int | Float
#: A step of a ``move`` path: a cell on a grid, a waypoint in scene units gridless.
Waypoint = tuple[Coordinate, Coordinate]
Roll = Annotated[int, Meta(ge=1, le=1000)]
Rolls = Annotated[tuple[Roll, ...], Meta(min_length=1, max_length=100)]


#: Strings by length: a name (1..64), a long name (1..128), a label (0..128), prose.
#: Names and labels are free text other members are shown: no control or bidirectional
#: formatting characters (:mod:`protocol.text`).  Prose is the server's own.
Name = Annotated[str, Meta(min_length=1, max_length=64, pattern=CLEAN_PATTERN)]
LongName = Annotated[str, Meta(min_length=1, max_length=128, pattern=CLEAN_PATTERN)]
Label = Annotated[str, Meta(max_length=128, pattern=CLEAN_PATTERN)]
Prose = Annotated[str, Meta(max_length=1024)]
#: An event index, or -1 for "before any event".
EventIndex = Annotated[int, Meta(ge=-1, le=SEQ_MAX)]


# Set while msgspec builds structs from checked wire data ("read"), or the server builds
# one from its own ("trusted"), so __post_init__ runs only the cross-field checks
# instead of validating the struct a second time.
_DECODING: contextvars.ContextVar[str] = contextvars.ContextVar("decoding", default="")


def trusting() -> bool:
    """Whether the struct being built comes from :meth:`ServerWire.trusted`."""
    return _DECODING.get() == "trusted"


# What decoding checks before msgspec (which refuses unknown fields itself): required
# names, nested struct fields (each with whether it holds a list of them); and each
# LATER field's default.
_Plan = tuple[frozenset[str], dict[str, tuple[type["Wire"], bool]], dict[str, Any]]


def _enc(value: object) -> Any:
    raise TypeError(f"cannot send {show(value)}")


class Wire(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A wire shape: a frozen struct that checks itself when built (see the module)."""

    #: Fields added after version 1: they may be left out.
    LATER: ClassVar[tuple[str, ...]] = ()
    #: Fields left out of ``hash()`` (maps), still compared.
    UNHASHED: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        if not _DECODING.get():
            _check_built(self)
        self.check()

    def check(self) -> None:
        """Checks a single field's type cannot express; raise :class:`ProtocolError`."""

    def __hash__(self) -> int:
        names = self.__struct_fields__
        return hash(tuple(getattr(self, n) for n in names if n not in self.UNHASHED))

    @classmethod
    def from_wire(cls, value: object) -> Self:
        """Read this shape from JSON-safe data; errors carry paths relative to it."""
        return read(cls, value)


def _builtins(value: object) -> Any:
    # msgspec's own encoder turns structs and tuples into maps and lists in C; a msgpack
    # round trip is exact for every value a struct may hold.
    return msgspec.msgpack.decode(msgspec.msgpack.encode(value, enc_hook=_enc))


class ClientWire(Wire, frozen=True, kw_only=True):
    """A client -> server message: ``TYPE`` is its wire ``type``, ``seq`` the client's."""

    TYPE: ClassVar[str]
    seq: Seq

    def body(self) -> dict[str, Any]:
        """The wire body, ready for msgspec's encoders: every field but ``seq``;
        ``LATER`` ones only when set (so older servers read the rest)."""
        body = _trimmed(self)
        del body["seq"]
        return body

    def renumbered(self, seq: int) -> Self:
        """This message under another ``seq`` (a broadcast sends one event to every
        member, each under its own counter): a copy sharing the checked fields."""
        check_seq(seq)
        twin = copy.copy(self)
        msgspec.structs.force_setattr(twin, "seq", seq)
        return twin

    def to_body(self) -> dict[str, Any]:
        """The wire body as JSON-safe builtins."""
        body: dict[str, Any] = _builtins(self.body())
        return body


class ServerWire(ClientWire, frozen=True, kw_only=True):
    """A server -> client message; its body carries every field, nulls included."""

    @classmethod
    def trusted(cls, **fields: Any) -> Self:
        """Build a message the server makes itself from values already in wire form,
        without the re-validation a value built in Python gets (:func:`_check_built`:
        the JSON-safety scan, msgspec's conversion, the normalised copy), which costs
        more than the rest of sending an event; ``check()`` still runs.

        Only for fields that are exactly what that conversion would return: in range,
        ints where the type says int and floats where it says float, JSON-safe maps and
        lists (never tuples) inside ``Any``.  The hub builds ``ack`` and ``event`` this
        way; an event's ``data`` is the engine's own output, and
        ``tests/bridge/test_trusted_events.py`` holds every event the engine emits (random
        command sequences, every ruleset's golden fight) to equal its checked twin."""
        token = _DECODING.set("trusted")
        try:
            return cls(**fields)
        finally:
            _DECODING.reset(token)

    def body(self) -> dict[str, Any]:
        """The wire body: every field but ``seq``."""
        body = msgspec.structs.asdict(self)
        del body["seq"]
        return body


W = TypeVar("W", bound=Wire)


def _check_built(value: Wire) -> None:
    """Validate a struct built in Python as if it had arrived, and store its fields
    normalised (the checked twin's)."""
    wire = msgspec.to_builtins(value, builtin_types=(bytes, bytearray, memoryview))
    wire = json_safe(wire, "", max_depth=MAX_DEPTH - 1)
    twin = _convert(wire, type(value), present=False)
    for name in value.__struct_fields__:
        msgspec.structs.force_setattr(value, name, getattr(twin, name))


def read(cls: type[W], body: object, *, seq: int | None = None) -> W:
    """Read ``cls`` from checked JSON-safe data (a frame's body, with ``seq`` from the
    envelope for a message); errors carry paths relative to ``body``."""
    if type(body) is not dict:
        raise ProtocolError("bad_type", f"expected a map, got {show(body)}")
    if seq is not None:
        if "seq" in body:
            raise ProtocolError("unknown_field", "unknown field 'seq'", path="seq")
        body = {**body, "seq": seq}
    return _convert(body, cls, present=True)


def _convert(data: Any, cls: type[W], *, present: bool) -> W:
    if present:
        _check_present(data, cls, "")
    token = _DECODING.set("read")
    try:
        result: W = msgspec.convert(data, cls)
        return result
    except msgspec.ValidationError as exc:
        raise _refusal(exc, data) from None
    finally:
        _DECODING.reset(token)


@functools.cache
def _plan_of(cls: type[Wire]) -> _Plan:
    """What reading and writing need to know of the class, worked out once."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    required = frozenset(f.name for f in info.fields if f.name not in cls.LATER)
    nested = {f.name: t for f in info.fields if (t := _struct_in(f.type)) is not None}
    later = {f.name: _default(f) for f in info.fields if f.name in cls.LATER}
    return required, nested, later


def prepare(cls: type[Wire]) -> None:
    """Work out now what reading and writing ``cls`` and every struct it holds need
    (msgspec's type information and this module's plan of each), which the first
    message of a kind otherwise pays for: 0.5 to 1 ms a kind, on a server's loop."""
    seen: set[type[Wire]] = set()
    todo = [cls]
    while todo:
        kind = todo.pop()
        if kind in seen:
            continue
        seen.add(kind)
        _, nested, _ = _plan_of(kind)
        _trims(kind)
        msgspec.json.Decoder(kind)  # builds and keeps msgspec's information on the type
        todo.extend(inner for inner, _ in nested.values())


def _trimmed(value: Wire) -> dict[str, Any]:
    """``value``'s fields, its ``LATER`` ones only when set, and so on down every struct
    it holds (a token's ``elevation`` inside a ``load_scene``): what an older peer reads."""
    body = msgspec.structs.asdict(value)
    _, nested, later = _plan_of(type(value))
    for name, default in later.items():
        if body[name] == default:
            del body[name]
    for name, (inner, many) in nested.items():
        item = body.get(name)
        if item is None or not _trims(inner):
            continue
        body[name] = [_trimmed(i) for i in item] if many else _trimmed(item)
    return body


@functools.cache
def _trims(cls: type[Wire]) -> bool:
    """Whether a struct of ``cls`` can hold a ``LATER`` field, itself or deeper."""
    seen: set[type[Wire]] = set()
    todo = [cls]
    while todo:  # a walk, not recursion: a struct may hold itself (a param's items)
        kind = todo.pop()
        if kind in seen:
            continue
        seen.add(kind)
        _, nested, later = _plan_of(kind)
        if later:
            return True
        todo.extend(inner for inner, _ in nested.values())
    return False


def _default(field: msgspec.inspect.Field) -> Any:
    return field.default_factory() if field.default is msgspec.NODEFAULT else field.default


def _struct_in(kind: msgspec.inspect.Type, many: bool = False) -> tuple[type[Wire], bool] | None:
    # The struct a field holds, alone, nullable, or as the items of a list (``many``).
    if isinstance(kind, msgspec.inspect.StructType):
        return kind.cls, many  # type: ignore[return-value]
    if isinstance(kind, msgspec.inspect.UnionType):
        found = [s for t in kind.types if (s := _struct_in(t, many)) is not None]
        return found[0] if found else None
    if isinstance(kind, msgspec.inspect.VarTupleType | msgspec.inspect.ListType):
        return _struct_in(kind.item_type, True)
    return None


def _check_present(data: object, cls: type[Wire], path: str) -> None:
    """Missing fields, found before msgspec reads the values (a nullable field must
    still be present; msgspec alone would take its default)."""
    if type(data) is not dict:
        return  # msgspec reports the wrong type with its path
    required, nested, _ = _plan_of(cls)
    for name in required:
        if name not in data:
            raise ProtocolError(
                "missing_field", f"missing field {name!r}", path=join_path(path, name)
            )
    for name, (inner, many) in nested.items():
        value = data.get(name)
        if many and type(value) is list:
            for i, item in enumerate(value):
                _check_present(item, inner, f"{join_path(path, name)}[{i}]")
        elif not many:
            _check_present(value, inner, join_path(path, name))


_LOCATION = re.compile(r"^(.*) - at `\$(.*)`$", re.S)
_SEGMENT = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[\.\.\.\]")
# msgspec's name for each JSON kind: its Python type, and how an error says it.
_KINDS: Final = {
    "int": (int, "an integer"),
    "float": (float, "a number"),
    "int | float": (float, "a number"),  # a Coordinate: a cell or a gridless point
    "str": (str, "a string"),
    "bool": (bool, "a boolean"),
    "array": (list, "a list"),
    "object": (dict, "a map"),
    "null": (type(None), "null"),
}


def _refusal(exc: msgspec.ValidationError, data: Any) -> ProtocolError:
    """msgspec's refusal as a :class:`ProtocolError` with our code, path and wording."""
    match = _LOCATION.match(str(exc))
    text_, where = (match.group(1), match.group(2)) if match else (str(exc), "")
    path = where.lstrip(".")
    cause = exc.__cause__
    if isinstance(cause, ProtocolError):  # from a check(): its path is inside the struct
        cause.prefix(path)
        return cause
    got = re.search(r", got `(\w+)`$", text_)
    value, path = _locate(data, _SEGMENT.findall(where), got and got.group(1)) or (None, path)
    if found := re.match(r"Expected `([^`]+)`, got `[^`]+`$", text_):
        named = found.group(1)
        first = named.split("|")[0].strip()
        kind = _KINDS.get(named, _KINDS.get(first, (None, first)))[1]
        return ProtocolError("bad_type", f"expected {kind}, got {show(value)}", path=path)
    if found := re.match(r"Object (missing required|contains unknown) field `(.+)`$", text_):
        code = "missing_field" if found.group(1).startswith("missing") else "unknown_field"
        name = found.group(2)
        where = join_path(path, key_segment(name))
        return ProtocolError(code, f"{code.split('_')[0]} field {name!r}", path=where)
    if "matching regex '^[^" in text_:
        # Free text with a forbidden character; msgspec does not point at a map's key
        # or value, so the first such string in the data is the one it refused.
        flagged = (path, why_forbidden(value)) if isinstance(value, str) else _forbidden(data)
        if flagged is not None and flagged[1] is not None:
            return ProtocolError("bad_value", flagged[1], path=flagged[0])
    if found := re.match(r"Expected `([^`]+)` (.*?)(, got \d+)?$", text_):
        kind = _KINDS.get(found.group(1), (None, found.group(1)))[1]
        detail = f"expected {kind} {found.group(2)}, got {show(value)}"
        return ProtocolError("bad_value", detail, path=path)
    return ProtocolError("bad_value", f"{text_[0].lower()}{text_[1:]}", path=path)


def _forbidden(data: Any, path: str = "") -> tuple[str, str] | None:
    """(path, why) of the first string in ``data`` (a map's key or any value) that
    :func:`~protocol.text.why_forbidden` refuses, or None; a key is named in the why,
    at its map's path (the key itself is what may not be shown)."""
    if type(data) is str:
        why = why_forbidden(data)
        return None if why is None else (path, why)
    if type(data) is dict:
        for key, value in data.items():
            if type(key) is str and (why := why_forbidden(key)) is not None:
                return path, f"key {show(key)}: {why}"
            if found := _forbidden(value, join_path(path, key_segment(str(key)))):
                return found
    if type(data) is list:
        for i, item in enumerate(data):
            if found := _forbidden(item, f"{path}[{i}]"):
                return found
    return None


def _locate(data: Any, segments: list[tuple[str, str]], got: str | None) -> Any:
    """(the value msgspec's location points at, its path), or None.  msgspec writes a
    map's key as ``[...]``: it is the first key whose value there is the kind it ``got``."""
    if not segments:
        return None if got and _KINDS.get(got, (None,))[0] is not type(data) else (data, "")
    (name, index), rest = segments[0], segments[1:]
    if name or index:
        keys: list[Any] = [name or int(index)]
    else:
        keys = list(data) if type(data) is dict and got else []
    for key in keys:
        try:
            value, path = _locate(data[key], rest, got) or (None, None)
        except (KeyError, IndexError, TypeError):
            return None
        if path is not None:
            here = f"[{key}]" if index else key_segment(key)
            return value, join_path(here, path)
    return None
