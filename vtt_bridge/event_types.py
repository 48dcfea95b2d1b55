"""Every event kind's typed body, made from its one declaration and given to the protocol.

The engine and each ruleset declare their events once, as frozen dataclasses with a wire
``kind`` (``engine/events.py``, ``engine/rulesets/<game>/events.py``).  The protocol may
not import them (``tests/test_architecture.py``), so the bridge, which imports both,
makes of each a :class:`protocol.EventBody`: a msgspec struct with the dataclass's
fields, in its order (the order the server writes them, so a decoded event re-encodes to
the same bytes), typed as the wire carries them, and registers it
(:func:`register_event_bodies`, run when ``vtt_bridge`` is imported).  The shipped
kinds' bodies are written into :mod:`protocol.events` by ``python -m tools.wiredocs
--write`` (``tools/eventstructs.py``), so ``import protocol`` alone registers them and
the bridge registers those very structs; a kind only a test's game declares is derived
here.  :func:`protocol.decode_server` gives ``Event.data`` as its body; a kind nobody
registered stays a map.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints

import msgspec

import engine
import protocol
from engine.rulesets import registered
from protocol.events import BODIES
from protocol.wire import Wire

#: The wire version an event kind's body last changed in (``protocol.versions``); a
#: kind not listed has not changed since version 1.
CHANGED_IN = {
    "move_started": 2,
    "aborted": 2,
    "effect_started": 7,
    "effect_ended": 3,
    "combatant_joined": 8,
    "combatant_left": 3,
    "scene_loaded": 8,
    "power_used": 5,
    "power_options_set": 5,
    "identity_changed": 5,
    "combat_ended": 6,
    "combat_started": 7,
    "pass_started": 7,
    "combatant_acts": 7,
    "combatant_done": 7,
    "combatant_skipped": 7,
    "stats_changed": 8,
    "scene_edited": 8,
    "initiative_rolled": 8,
}
#: Engine fields the wire spells otherwise: a token's stats, sorted pairs in the
#: engine, are a map on the wire (``vtt_bridge.translate.tokens_stats_as_maps``).
WIRE_FIELDS: dict[tuple[type, str], Any] = {
    (engine.Combatant, "stats"): dict[str, bool | int | float | str],
}


def shipped() -> list[Any]:
    """The registered rulesets that ship (not the tests' toy games, when loaded)."""
    return [r for r in registered() if type(r).__module__.startswith("engine.")]


def event_sources() -> list[tuple[str, Any]]:
    """(ruleset, event class) for every event kind: the core's, then each ruleset's."""
    core: list[tuple[str, Any]] = [("core", cls) for cls in get_args(engine.events.Event)]
    games = [(type(r).name, e) for r in shipped() for e in type(r).vocabulary.events]
    seen: set[str] = set()
    out = []
    for source, cls in core + games:
        if cls.kind not in seen:  # a ruleset may reuse another's event class
            seen.add(cls.kind)
            out.append((source, cls))
    return out


def wire_hint(hint: Any) -> Any:
    """An engine field's type hint as the wire carries it: dataclasses become structs."""
    origin, args = get_origin(hint), get_args(hint)
    if hint in (str, int, float, bool, type(None)) or hint is Any or origin is Literal:
        return hint
    if origin in (types.UnionType, typing.Union):
        return functools.reduce(lambda a, b: a | b, map(wire_hint, args))
    if origin is tuple:
        return tuple.__class_getitem__(tuple(a if a is Ellipsis else wire_hint(a) for a in args))
    if origin is dict:
        return dict.__class_getitem__((args[0], wire_hint(args[1])))
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return wire_struct(hint)
    raise TypeError(f"no wire type for {hint!r}: teach vtt_bridge.event_types.wire_hint")


@functools.cache
def wire_struct(cls: type, base: type[Wire] = Wire, **namespace: Any) -> type[Wire]:
    """``cls``'s fields, in order, as a frozen :class:`~protocol.wire.Wire` struct whose
    every field is required, as every event field is on the wire; except those the class
    writes only when not at their default (``PLAIN_OMITS_DEFAULT``, :mod:`engine.serial`),
    optional and left out at their default, so a decoded event re-encodes the same."""
    hints = get_type_hints(cls)
    sparse = tuple(getattr(cls, "PLAIN_OMITS_DEFAULT", ()))
    fields: list[Any] = []
    for f in dataclasses.fields(cls):
        kind = WIRE_FIELDS.get((cls, f.name)) or wire_hint(hints[f.name])
        fields.append((f.name, kind, f.default) if f.name in sparse else (f.name, kind))
    namespace |= {"__doc__": cls.__doc__}
    if sparse:
        namespace |= {"LATER": sparse}
    struct = msgspec.defstruct(
        cls.__name__, fields, bases=(base,), module=__name__, namespace=namespace,
        kw_only=True, omit_defaults=bool(sparse),
    )  # fmt: skip
    return typing.cast(type[Wire], struct)


def event_body(cls: type) -> type[protocol.EventBody]:
    """The typed body of the engine event class ``cls``: the protocol's written copy of
    it when shipped (:mod:`protocol.events`, which ``import protocol`` registers), else
    derived here (a test's toy game)."""
    kind: str = cls.kind  # type: ignore[attr-defined]
    written = _WRITTEN.get(kind)
    return written if written is not None else derived_body(cls)


#: The protocol's written bodies (``tools/eventstructs.py``), by kind.
_WRITTEN = {body.KIND: body for body in BODIES}


def derived_body(cls: type) -> type[protocol.EventBody]:
    """The typed body derived from the engine event class ``cls`` (what the tool writes)."""
    version = CHANGED_IN.get(cls.kind, 1)  # type: ignore[attr-defined]
    body = wire_struct(cls, protocol.EventBody, KIND=cls.kind, VERSION=version)  # type: ignore[attr-defined]
    assert issubclass(body, protocol.EventBody)
    return body


def register_event_bodies() -> None:
    """Register every shipped event kind's body with the protocol (again: no change)."""
    for _, cls in event_sources():
        protocol.register_event_body(event_body(cls))
