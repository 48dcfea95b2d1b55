"""``protocol/events.py``, written from the engine's and the rulesets' event declarations.

Every event kind is declared once, as a frozen dataclass with a wire ``kind`` (the
engine's ``engine/events.py``, each game's ``engine/rulesets/<game>/events.py``), and the
server derives its typed body from it (:func:`vtt_bridge.event_types.event_body`).  The
protocol may import nothing of ours, so for ``import protocol`` alone to read every
event's ``data`` as its body this tool writes each shipped body out as source, from the
very struct the server derives: its fields in order, their types, ``KIND``, ``VERSION``,
``LATER`` and docstring.  Nobody edits the file; ``tests/test_wiredocs.py`` fails when it
differs from what this writes, and ``python -m tools.wiredocs --write`` rewrites it.
"""

from __future__ import annotations

import re
import typing
from typing import Any

import msgspec

from protocol.wire import Wire
from tools.wirestructs import ROOT, _default, _docstring, _formatted, _Source, type_source
from vtt_bridge import event_types

TARGET = ROOT / "protocol" / "events.py"

HEADER = '''"""Every event kind's typed body: the events declared once, as the engine's dataclasses.

Written by ``python -m tools.wiredocs --write`` (``tools/eventstructs.py``) from the
engine's and the rulesets' event declarations (``engine/events.py``,
``engine/rulesets/<game>/events.py``): each class is the body the server derives from the
event of the same kind (``vtt_bridge.event_types.event_body``), its fields, types and
docstring the event's.  Do not edit: change the event's dataclass and run the tool
(``tests/test_wiredocs.py`` fails until then).  The protocol may not import the engine,
so the bodies are written out for ``import protocol`` alone to read every event's data
(``protocol/__init__.py`` registers :data:`BODIES`).
"""

from __future__ import annotations

{imports}


'''


def _nested(struct: type, found: list[type]) -> None:
    """The structs ``struct``'s fields hold, each after those it holds, into ``found``."""

    def visit(hint: Any) -> None:
        for arg in typing.get_args(hint):
            visit(arg)
        if isinstance(hint, type) and issubclass(hint, Wire) and hint not in found:
            _nested(hint, found)
            found.append(hint)

    for hint in typing.get_type_hints(struct).values():
        visit(hint)


def _camel(kind: str) -> str:
    return "".join(word.capitalize() for word in re.split(r"[_-]", kind))


def bodies() -> list[tuple[str, type]]:
    """(the written class's name, the derived body) of every shipped event kind, in the
    order :func:`vtt_bridge.event_types.event_sources` gives them (the core's first); a
    class name two games share is each one's kind instead (``CprAttack``)."""
    derived = [event_types.derived_body(cls) for _, cls in event_types.event_sources()]
    names = [body.__name__ for body in derived]
    return [
        (_camel(body.KIND) if names.count(body.__name__) > 1 else body.__name__, body)
        for body in derived
    ]


def struct_source(name: str, struct: type, base: str, source: _Source) -> str:
    """The class statement of one written struct (an event body or a shape it holds)."""
    later: tuple[str, ...] = getattr(struct, "LATER", ())
    omit = ", omit_defaults=True" if later else ""
    lines = [f"class {name}({base}, frozen=True, kw_only=True{omit}):"]
    lines += [_docstring(struct.__doc__ or ""), ""]
    if hasattr(struct, "KIND"):
        kind, version = getattr(struct, "KIND"), getattr(struct, "VERSION")  # noqa: B009
        lines += [f"    KIND = {kind!r}", f"    VERSION = {version!r}"]
    if later:
        lines.append(f"    LATER = {later!r}")
    hints = typing.get_type_hints(struct, include_extras=True)
    for field in msgspec.structs.fields(struct):
        default = ""
        if field.default is not msgspec.NODEFAULT:
            default = _default(field.default, source)
        elif field.default_factory is not msgspec.NODEFAULT:
            default = _default(msgspec._core.Factory(field.default_factory), source)
        lines.append(f"    {field.name}: {type_source(hints[field.name], source)}{default}")
    return "\n".join(lines) + "\n"


def render() -> str:
    """The whole of ``protocol/events.py``."""
    source = _Source({"typing": {"Final"}, "protocol.wire": {"Wire"}})
    source.use("protocol.server_messages", "EventBody")
    written = bodies()
    shapes: list[type] = []
    for _, body in written:
        _nested(body, shapes)
    classes = [struct_source(s.__name__, s, "Wire", source) for s in shapes]
    classes += [struct_source(name, body, "EventBody", source) for name, body in written]
    registry_lines = [
        "",
        "#: Every shipped event kind's body, the core's first, then each game's.",
        "BODIES: Final[tuple[type[EventBody], ...]] = (",
        *(f"    {name}," for name, _ in written),
        ")",
    ]
    text = HEADER.format(imports=source.imports()) + "\n\n".join(classes)
    return _formatted(text + "\n" + "\n".join(registry_lines) + "\n", TARGET)


def write() -> None:
    """Rewrite ``protocol/events.py``."""
    TARGET.write_text(render(), encoding="utf-8")


def current() -> bool:
    """Whether ``protocol/events.py`` is what :func:`render` writes."""
    return TARGET.exists() and TARGET.read_text(encoding="utf-8") == render()
