"""``protocol/commands.py``, written from the engine's command declarations.

A command a client sends is declared once, as the engine's frozen dataclass
(``engine/commands.py``), and the server derives its wire struct from it
(:func:`vtt_bridge.derive.wire_command`).  The protocol may import nothing of ours
(``tests/test_architecture.py``: a client takes :mod:`protocol` alone), so for
``import protocol`` alone to give every message this tool writes each shipped derived
struct out as source, from the very struct the server would derive: its fields in
order, their wire types, defaults, ``LATER``, ``UNHASHED`` and checks, and the engine
dataclass's docstring.  Nobody edits the file; ``tests/test_wiredocs.py`` fails when it
differs from what this writes, and ``python -m tools.wiredocs --write`` rewrites it with
the README.

The commands written are the shipped rows' commands whose wire struct is derived
(``vtt_bridge/rows.py``: :func:`vtt_bridge.registry.command_row`), in the rows' order.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

import msgspec

import protocol
from protocol.text import CLEAN_PATTERN
from protocol.wire import TokenId, Wire
from vtt_bridge import derive, registry

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "protocol" / "commands.py"
#: The modules whose derived structs a written file holds itself (by name).
SAME_FILE = (derive.__name__, "vtt_bridge.event_types")
#: msgspec's constraints a derived field may carry, in the order they are written.
_CONSTRAINTS = ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern")

HEADER = '''"""The commands declared once, as the engine's dataclasses: their wire structs.

Written by ``python -m tools.wiredocs --write`` (``tools/wirestructs.py``) from the
engine's declarations (``engine/commands.py``, the scene's shapes in ``engine/model.py``):
each class is the struct the server derives from the engine command of the same name
(``vtt_bridge.derive.wire_command``) or the shape it carries (``wire_shape``: a
``Combatant`` is a ``TokenSpec``), its fields, bounds and docstring the engine's, its
checks beyond them ``protocol/shape_checks.py``'s.  Do not edit: change the engine's
dataclass and run the tool (``tests/test_wiredocs.py`` fails until then).  The protocol
may not import the engine, so the structs are written out for ``import protocol`` alone
to decode every message.
"""

from __future__ import annotations

{imports}


'''


class _Source:
    """What the rendered module imports, gathered while rendering."""

    def __init__(self, names: dict[str, set[str]] | None = None) -> None:
        self.names: dict[str, set[str]] = names or {
            "typing": {"Final"},
            "protocol.wire": {"ClientWire", "Wire"},
        }
        self.whole: set[str] = set()

    def use(self, module: str, name: str) -> str:
        """``name``, imported from ``module`` by the rendered module."""
        self.names.setdefault(module, set()).add(name)
        return name

    def use_module(self, module: str) -> str:
        """``module``, imported whole."""
        self.whole.add(module)
        return module

    def imports(self) -> str:
        """The rendered module's imports, grouped as ruff sorts them."""
        groups = [
            ["typing"],
            ["msgspec"],
            sorted(m for m in self.names if m.startswith("protocol")),
        ]
        lines = []
        for group in groups:
            block = [f"import {module}" for module in group if module in self.whole]
            block += [
                f"from {module} import {', '.join(sorted(self.names[module]))}"
                for module in group
                if module in self.names
            ]
            if block:
                lines.append("\n".join(block))
        return "\n\n".join(lines)


def _meta(meta: msgspec.Meta, source: _Source) -> str:
    parts = []
    for name in _CONSTRAINTS:
        value = getattr(meta, name)
        if value is None:
            continue
        if name == "pattern" and value == CLEAN_PATTERN:
            parts.append(f"pattern={source.use('protocol.text', 'CLEAN_PATTERN')}")
        else:
            parts.append(f"{name}={value!r}")
    return f"{source.use('msgspec', 'Meta')}({', '.join(parts)})"


def type_source(hint: Any, source: _Source) -> str:
    """A derived field's wire type as Python source."""
    if hint == TokenId:
        return source.use("protocol.wire", "TokenId")
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        metas = [m for m in hint.__metadata__ if isinstance(m, msgspec.Meta)]
        assert len(metas) == len(hint.__metadata__) == 1, hint
        annotated = source.use("typing", "Annotated")
        return f"{annotated}[{type_source(args[0], source)}, {_meta(metas[0], source)}]"
    if hint is type(None):
        return "None"
    if hint is Any:
        return source.use("typing", "Any")
    if hint in (str, int, float, bool):
        return typing.cast(type, hint).__name__
    if origin is Literal:
        return f"{source.use('typing', 'Literal')}[{', '.join(repr(a) for a in args)}]"
    if origin in (types.UnionType, typing.Union):
        return " | ".join(type_source(a, source) for a in args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"tuple[{type_source(args[0], source)}, ...]"
    if origin is tuple:
        return f"tuple[{', '.join(type_source(a, source) for a in args)}]"
    if origin is dict:
        return f"dict[{type_source(args[0], source)}, {type_source(args[1], source)}]"
    if isinstance(hint, type) and issubclass(hint, Wire) and hint.__module__ in SAME_FILE:
        # A shape derived from the engine's (the scene's, an event's): in the same file.
        return hint.__name__
    if isinstance(hint, type) and issubclass(hint, Wire):
        # One of the protocol's own shapes (an Owlbear image grid): imported, as it is.
        name: str = hint.__name__
        assert getattr(protocol, name, None) is hint, hint
        return source.use(hint.__module__, name)
    raise TypeError(f"no source for {hint!r}: teach tools.wirestructs.type_source")


def _default(value: Any, source: _Source) -> str:
    if isinstance(value, msgspec._core.Factory):
        field = f"{source.use_module('msgspec')}.field"
        return f" = {field}(default_factory={value.factory.__name__})"
    return f" = {value!r}"


def _docstring(doc: str) -> str:
    assert '"""' not in doc and "\\" not in doc, "a docstring the tool can copy as it is"
    return f'    """{doc}"""'


def struct_source(command: type, source: _Source) -> str:
    """The class statement of ``command``'s derived wire struct."""
    wire = derive.wire_command(command)
    lines = [f"class {wire.__name__}(ClientWire, frozen=True, kw_only=True):"]
    lines += [_docstring(command.__doc__ or ""), "", f"    TYPE = {wire.TYPE!r}"]
    return _body_source(command, wire, lines, source)


def shape_source(shape: type, source: _Source) -> str:
    """The class statement of the engine dataclass ``shape``'s wire shape (a scene's
    grid, token, wall), extending its checks (``protocol.shape_checks``)."""
    wire = derive.wire_shape(shape)
    base = derive.shape_base(shape)
    based = "Wire" if base is Wire else source.use(base.__module__, base.__name__)
    lines = [f"class {wire.__name__}({based}, frozen=True, kw_only=True):"]
    lines += [_docstring(shape.__doc__ or ""), ""]
    return _body_source(shape, wire, lines, source)


def _body_source(cls: type, wire: type[Wire], lines: list[str], source: _Source) -> str:
    """The class body after its docstring: ``LATER``, ``UNHASHED``, fields, ``check``."""
    if wire.LATER:
        lines.append(f"    LATER = {wire.LATER!r}")
    if wire.UNHASHED:
        lines.append(f"    UNHASHED = {wire.UNHASHED!r}")
    hints = typing.get_type_hints(wire, include_extras=True)
    defaults = dict(
        zip(
            wire.__struct_fields__[len(wire.__struct_fields__) - len(wire.__struct_defaults__) :],
            wire.__struct_defaults__,
            strict=True,
        )
    )
    for name in wire.__struct_fields__:
        if name == "seq":
            continue
        # A kw-only struct keeps its own order (``wire_order``): a required field after
        # a defaulted one has msgspec's NODEFAULT in its slot, and no default written.
        given = defaults.get(name, msgspec.NODEFAULT)
        default = "" if given is msgspec.NODEFAULT else _default(given, source)
        lines.append(f"    {name}: {type_source(hints[name], source)}{default}")
    lines += _check_source(cls, source)
    return "\n".join(lines) + "\n"


def _check_source(command: type, source: _Source) -> list[str]:
    """The ``check`` the bridge's derivation gives (:func:`vtt_bridge.derive.field_checks`)."""
    checks = derive.field_checks(command)
    if not checks:
        return []
    based = derive.shape_base(command) is not Wire
    lines = ["", "    def check(self) -> None:"]
    doc = "Maps JSON-safe to their depth; no item twice in a list that must differ."
    lines.append(f'        """{doc}"""')
    for one in checks:
        name = one.name
        if one.kind == "json":
            json_safe = source.use("protocol.validate", "json_safe")
            lines.append(f"        if self.{name} is not None:")
            lines.append(f"            {json_safe}(self.{name}, {name!r}, max_depth={one.depth})")
        elif one.kind == "one_per":
            each = source.use("protocol.validate", "check_one_each")
            lines.append(f"        {each}(self.{name}, {name!r}, self.{one.per}, {one.what!r})")
        elif one.kind == "unique" and one.key:
            unique = source.use("protocol.shape_checks", "check_unique")
            ids = f"[item.{one.key} for item in self.{name} or ()]"
            lines.append(f"        {unique}({ids}, {one.what!r}, '{name}[{{}}].{one.key}')")
        elif one.kind == "unique":
            unique = source.use("protocol.shape_checks", "check_unique")
            lines.append(f"        {unique}(list(self.{name} or ()), {one.what!r}, '{name}[{{}}]')")
        else:
            unique = source.use("protocol.shape_checks", "check_unique")
            lines.append(f"        for i, items in enumerate(self.{name} or ()):")
            lines.append(
                f"            {unique}(list(items), {one.what!r}, f'{name}[{{i}}][{{{{}}}}]')"
            )
    if based:
        lines.append("        super().check()  # the shape's own checks, after its fields'")
    return lines


def derived_commands() -> list[type]:
    """The shipped rows' commands whose wire struct is derived, in the rows' order."""
    import vtt_bridge.rows  # noqa: F401  (the shipped rows)

    return [
        row.command for row in registry.rows() if row.command is not None and registry.derived(row)
    ]


def derived_shapes(commands: list[type]) -> list[type]:
    """The engine dataclasses the ``commands`` carry as derived wire shapes, each after
    the shapes it holds (a scene after its grid and tokens)."""
    found: list[type] = []

    def visit(hint: Any) -> None:
        for arg in get_args(hint):
            visit(arg)
        if (
            isinstance(hint, type)
            and dataclasses.is_dataclass(hint)
            and hint not in derive.WIRE_SHAPES
            and hint not in found
        ):
            for inner in typing.get_type_hints(hint, include_extras=True).values():
                visit(inner)
            found.append(hint)

    for command in commands:
        for inner in typing.get_type_hints(command, include_extras=True).values():
            visit(inner)
    return found


def render() -> str:
    """The whole of ``protocol/commands.py``."""
    source = _Source()
    commands = derived_commands()
    assert all(dataclasses.is_dataclass(c) for c in commands)
    shapes = derived_shapes(commands)
    classes = [shape_source(shape, source) for shape in shapes]
    classes += [struct_source(command, source) for command in commands]
    names = [derive.wire_command(command).__name__ for command in commands]
    registry_lines = [
        "",
        "#: Every derived shape, each after the shapes it holds.",
        "SHAPES: Final[tuple[type[Wire], ...]] = (",
        *(f"    {derive.shape_name(shape)}," for shape in shapes),
        ")",
        "",
        "#: Every derived command's wire struct, in the order ``protocol/README.md`` lists them.",
        "DERIVED: Final[tuple[type[ClientWire], ...]] = (",
        *(f"    {name}," for name in names),
        ")",
    ]
    text = HEADER.format(imports=source.imports()) + "\n\n".join(classes)
    return _formatted(text + "\n" + "\n".join(registry_lines) + "\n")


def _formatted(text: str, target: Path = TARGET) -> str:
    """``text`` as ``ruff format`` writes it under the project's settings (long types
    wrapped, double quotes), so the written file passes the same checks as the rest."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(target), "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout


def write() -> None:
    """Rewrite ``protocol/commands.py``."""
    TARGET.write_text(render(), encoding="utf-8")


def current() -> bool:
    """Whether ``protocol/commands.py`` is what :func:`render` writes."""
    return TARGET.read_text(encoding="utf-8") == render()
