"""The generated parts of ``protocol/README.md``: every message's fields, read off the
protocol's declarations, and every event kind's body, read off the engine's and each
ruleset's event dataclasses, with a real example from the golden recordings.

A developer tool, outside the wheel: not in :mod:`protocol`, because the event half names
the engine and its rulesets, which the protocol may not import, and not in
:mod:`vtt_bridge`, because a server never runs it.  ``python -m tools.wiredocs --write``
rewrites the README between its ``<!-- generated: ... -->`` markers; without
``--write`` it prints them, and exits 1 if the README differs (what the test checks).
``--write`` also writes ``protocol/commands.py`` (:mod:`tools.wirestructs`).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import msgspec

import engine
import protocol
from protocol.server_messages import WS_URL_PATTERN
from protocol.text import CLEAN_PATTERN
from protocol.wire import Wire
from tools import eventstructs, wirestructs
from vtt_bridge import registry
from vtt_bridge.event_types import event_sources, register_event_bodies, shipped

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "protocol" / "README.md"
RECORDINGS = ROOT / "tests" / "recordings"
_NAMES = {2**53 - 1: "2**53-1", 2**63 - 1: "2**63-1", -(2**63 - 1): "-(2**63-1)"}


def _num(value: float) -> str:
    return _NAMES.get(int(value), f"{value:g}") if value == int(value) else f"{value:g}"


def _bounds(lo: Any, hi: Any, gt: Any = None) -> str:
    if gt is not None:
        return f" > {_num(gt)}" + (f", <= {_num(hi)}" if hi is not None else "")
    if lo is not None and hi is not None:
        return f" {_num(lo)}..{_num(hi)}"
    if lo is not None:
        return f" >= {_num(lo)}"
    return f" <= {_num(hi)}" if hi is not None else ""


def wire_type(kind: msgspec.inspect.Type) -> str:
    """A msgspec type as the README writes it."""
    m = msgspec.inspect
    if isinstance(kind, m.IntType):
        int64 = (kind.ge, kind.le) == (-(2**63 - 1), 2**63 - 1)
        return "int" if int64 else "int" + _bounds(kind.ge, kind.le)
    if isinstance(kind, m.FloatType):
        return "number" + _bounds(kind.ge, kind.le, kind.gt)
    if isinstance(kind, m.StrType):
        # Free text's pattern (no control or bidi characters, :mod:`protocol.text`) is
        # said once in the README's "Free text", not in every row.
        if kind.pattern == WS_URL_PATTERN:
            return "`ws://` or `wss://` URL" + _bounds(None, kind.max_length) + " chars"
        if kind.pattern and kind.pattern != CLEAN_PATTERN:
            return "id"
        return f"str{_bounds(kind.min_length, kind.max_length)} chars".replace("str chars", "str")
    if isinstance(kind, m.BoolType):
        return "bool"
    if isinstance(kind, m.NoneType):
        return "null"
    if isinstance(kind, m.LiteralType):
        return " or ".join(f'`"{v}"`' for v in kind.values)
    if isinstance(kind, m.UnionType):
        return ", or ".join(wire_type(t) for t in kind.types)
    if isinstance(kind, m.TupleType):
        return "[" + ", ".join(wire_type(t) for t in kind.item_types) + "]"
    if isinstance(kind, m.VarTupleType | m.ListType):
        items = _bounds(kind.min_length, kind.max_length).strip()
        return f"list of {wire_type(kind.item_type)}" + (f" ({items} items)" if items else "")
    if isinstance(kind, m.DictType):
        return "map"
    if isinstance(kind, m.StructType):
        return f"`{kind.cls.__name__}`"
    return "any"


def _summary(cls: type) -> str:
    # The docstring's first paragraph, in Markdown's backticks.
    first = (cls.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(first.split()).replace("``", "`").replace("|", "\\|")


def message_table(cls: type[Wire]) -> str:
    """One message's or spec's field table."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    title = f"`{cls.TYPE}`: `{cls.__name__}`" if hasattr(cls, "TYPE") else f"`{cls.__name__}`"
    rows = [f"#### {title}", "", _summary(cls), "", "| field | type | presence |", "|---|---|---|"]
    for field in info.fields:
        if field.name == "seq":
            continue
        if field.name in cls.LATER:
            value = field.default
            if value is msgspec.NODEFAULT:
                value = field.default_factory()
            default = json.dumps(msgspec.to_builtins(value))
            presence = f"optional (default `{default}`)"
        else:
            presence = "required"
        rows.append(f"| `{field.name}` | {wire_type(field.type)} | {presence} |")
    return "\n".join(rows) + "\n"


def _nested(classes: typing.Iterable[type[Wire]]) -> list[type[Wire]]:
    found: list[type[Wire]] = []

    def walk(kind: msgspec.inspect.Type) -> None:
        m = msgspec.inspect
        if isinstance(kind, m.StructType) and kind.cls not in found:
            found.append(kind.cls)  # type: ignore[arg-type]
            for f in kind.fields:
                walk(f.type)
        elif isinstance(kind, m.UnionType):
            for t in kind.types:
                walk(t)
        elif isinstance(kind, m.VarTupleType | m.ListType):
            walk(kind.item_type)

    for cls in classes:
        info = msgspec.inspect.type_info(cls)
        assert isinstance(info, msgspec.inspect.StructType)
        for f in info.fields:
            walk(f.type)
    return found


def messages_section() -> str:
    """Every client and server message, then every nested shape, as field tables."""
    # In the rows' order (a command derived from its engine declaration is registered
    # with its row, after the protocol's own messages, yet listed where its row is).
    client: list[type[Wire]] = [row.wire for row in registry.rows()]
    client += [c for c in protocol.CLIENT_MESSAGE_TYPES.values() if c not in client]
    server: list[type[Wire]] = list(protocol.SERVER_MESSAGE_TYPES.values())
    parts = ["### Client messages\n", *map(message_table, client)]
    parts += ["### Server messages\n", *map(message_table, server)]
    parts += ["### Shapes inside messages\n", *map(message_table, _nested(client + server))]
    return "\n".join(parts)


def event_type(hint: Any) -> str:
    """A Python type hint of an event field as the README writes it."""
    origin, args = get_origin(hint), get_args(hint)
    if hint in (str, int, float, bool):
        return {str: "str", int: "int", float: "number", bool: "bool"}[hint]
    if hint is type(None):
        return "null"
    if origin in (types.UnionType, typing.Union):
        return ", or ".join(event_type(a) for a in args)
    if origin is Literal:
        return " or ".join(f'`"{a}"`' for a in args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return f"list of {event_type(args[0])}"
    if origin is tuple:
        return "[" + ", ".join(event_type(a) for a in args) + "]"
    if origin is dict or hint is dict:
        return "map"
    if dataclasses.is_dataclass(hint):
        name = getattr(hint, "__name__", "map")
        return "token (as in a scene)" if hint is engine.Combatant else f"`{name}`"
    return "any"


def recorded_examples() -> dict[str, dict[str, Any]]:
    """The first ``event`` message of each kind in the golden recordings."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(RECORDINGS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            message = record.get("message") or {}
            if record.get("record") == "out" and message.get("type") == "event":
                body = message["body"]
                ordered = {"index": body["index"], "kind": body["kind"], "data": body["data"]}
                envelope = {"v": 1, "type": "event", "seq": message["seq"], "body": ordered}
                found.setdefault(body["kind"], envelope)
    return found


def events_section() -> str:
    """Every event kind: its ruleset, version, fields and a recorded example."""
    register_event_bodies()
    examples = recorded_examples()
    parts = []
    for source, cls in event_sources():
        hints = get_type_hints(cls)
        version = protocol.EVENT_BODIES[cls.kind].VERSION
        rows = [f"#### `{cls.kind}` ({source}, wire version {version})", "", _summary(cls), ""]
        rows += ["| field | type |", "|---|---|"]
        rows += [f"| `{f.name}` | {event_type(hints[f.name])} |" for f in dataclasses.fields(cls)]
        example = examples.get(cls.kind)
        if example is not None:
            rows += ["", "```json", json.dumps(example, ensure_ascii=False), "```"]
        parts.append("\n".join(rows) + "\n")
    vocab = ["#### Vocabulary per ruleset", "", "| ruleset | move modes | conditions |"]
    vocab.append("|---|---|---|")
    for ruleset in shipped():
        kind = type(ruleset)
        modes = ", ".join(f"`{m}`" for m in kind.move_modes)
        conditions = ", ".join(f"`{c}`" for c in kind.vocabulary.conditions) or "none"
        vocab.append(f"| `{kind.name}` | {modes} | {conditions} |")
    return "\n".join(parts) + "\n" + "\n".join(vocab) + "\n"


SECTIONS = {"messages": messages_section, "events": events_section}


def render(text: str) -> str:
    """``text`` (the README) with every generated section rewritten."""
    for name, build in SECTIONS.items():
        begin = f"<!-- generated: {name} (python -m tools.wiredocs --write) -->"
        end = f"<!-- end generated: {name} -->"
        pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise ValueError(f"{README} has no {begin} ... {end} markers")
        text = pattern.sub(lambda _: f"{begin}\n\n{build()}\n{end}", text)  # noqa: B023
    return text


def main(argv: list[str] | None = None) -> int:
    """``--write``: rewrite the README, ``protocol/commands.py``
    (:mod:`tools.wirestructs`) and ``protocol/events.py`` (:mod:`tools.eventstructs`);
    else exit 1 if any differs from the declarations."""
    args = sys.argv[1:] if argv is None else argv
    current = README.read_text(encoding="utf-8")
    wanted = render(current)
    if "--write" in args:
        wirestructs.write()
        eventstructs.write()
        README.write_text(wanted, encoding="utf-8")
        return 0
    stale = [README] if wanted != current else []
    stale += [] if wirestructs.current() else [wirestructs.TARGET]
    stale += [] if eventstructs.current() else [eventstructs.TARGET]
    for path in stale:
        print(f"{path} is out of date: run python -m tools.wiredocs --write")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
