"""Log-line templates: how an event (or a prompt) reads in words, declared once as text.

A ruleset declares a template per event kind (``engine/rulesets/<game>/words.py``, the
core's in :mod:`engine.words`); the server sends them in the ruleset's description and
every client renders an event's ``data`` with them, so no client words a game's events
by hand.  The language is small on purpose, so that a client in any language renders it
the same way (``clients/js/src/words.js`` is the JavaScript twin of :func:`render`):

* ``{field}``: the field's value.  A number as written (``2``, ``1.5``), true/false as
  ``yes``/``no``, a list as its items joined with ``", "``, null as ``none``, a moment
  of the fight (a clock, ``{at, label}``) as its label, in the game's words.
* ``{field:format}``, where format is one of :data:`FORMATS`: ``token`` (a token id
  shown as the token's name), ``tokens`` (a list of them, or of lists of them),
  ``sum`` (the sum of a list of numbers: a roll's dice), ``signed`` (``+3``, ``-1``,
  ``+0``), ``word`` (a game's word with ``_`` as spaces), ``cell`` (``(x, y)``),
  ``count`` (a list's length) and ``change`` (a ``[before, after]`` pair as
  ``before -> after``).
* ``{field?yes text|no text}``: one of two plain texts, by whether the field is true
  (a non-empty, non-null value).
* ``[ ... ]``: a part shown only when every field named inside it is neither null nor an
  empty list (an optional target, a held action's area).  Not nested.

Braces and brackets are the language's own: a template cannot show them as text.
:func:`problems` checks a template against the fields of its event, so a template can
never name a field its event does not carry (``tests/engine/test_describe.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: The formats a placeholder may name, each with what it reads.
FORMATS: Mapping[str, str] = {
    "token": "a token id, shown as the token's name",
    "tokens": "a list of token ids, shown as names",
    "sum": "a list of numbers, shown as their sum",
    "signed": "a number with its sign",
    "word": "a game's word, underscores as spaces",
    "cell": "a cell [x, y], shown as (x, y)",
    "count": "a list, shown as its length",
    "change": "a [before, after] pair, shown as before -> after",
}

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z]+)|\?([^{}\[\]|]*)\|([^{}\[\]|]*))?\}")
_SEGMENT = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True, slots=True)
class Placeholder:
    """One ``{...}`` of a template: the ``field``, its ``format`` (or ""), and for a
    choice the two texts (``yes``, ``no``)."""

    field: str
    format: str = ""
    yes: str | None = None
    no: str | None = None


def placeholders(template: str) -> list[Placeholder]:
    """Every placeholder of ``template``, in order."""
    return [
        Placeholder(m.group(1), m.group(2) or "", m.group(3), m.group(4))
        for m in _PLACEHOLDER.finditer(template)
    ]


def problems(template: str, fields: Mapping[str, str]) -> list[str]:
    """What is wrong with ``template`` for an event whose ``fields`` are name -> type in
    words (``"int"``, ``"tuple[int, ...]"``...): an unknown field or format, a stray
    brace or bracket.  Empty: nothing."""
    found = []
    for holder in placeholders(template):
        if holder.field not in fields:
            found.append(f"{{{holder.field}}} is no field of the event ({', '.join(fields)})")
        if holder.format and holder.format not in FORMATS:
            found.append(f"{{{holder.field}:{holder.format}}}: unknown format")
    # What is left once the placeholders and (unnested) segments' marks are gone must
    # hold no mark: a nested segment leaves its outer brackets behind.
    bare = _SEGMENT.sub("", _PLACEHOLDER.sub("", template))
    for mark in "{}[]":
        if mark in bare:
            found.append(f"a stray or nested {mark!r} (the language's own mark) in {template!r}")
    return found


Names = Callable[[str], str]


def render(template: str, data: Mapping[str, Any], name: Names = str) -> str:
    """``template`` filled from an event's ``data``; ``name`` gives a token id's name
    (default: the id itself)."""

    def segment(match: re.Match[str]) -> str:
        inner = match.group(1)
        for holder in placeholders(inner):
            if _absent(data.get(holder.field)):
                return ""
        return inner

    shown = _SEGMENT.sub(segment, template)
    return _PLACEHOLDER.sub(lambda m: _fill(m, data, name), shown)


def _absent(value: Any) -> bool:
    return value is None or (isinstance(value, list | tuple) and not value)


def _fill(match: re.Match[str], data: Mapping[str, Any], name: Names) -> str:
    value = data.get(match.group(1))
    if match.group(3) is not None:
        return match.group(3) if value and not _absent(value) else match.group(4)
    return show(value, match.group(2) or "", name)


def show(value: Any, format: str, name: Names = str) -> str:
    """One value in words, by ``format`` (see the module docstring)."""
    if format == "token":
        return "none" if value is None else name(str(value))
    if format == "tokens":
        return ", ".join(name(str(v)) for v in _flat(value or ()))
    if format == "sum":
        return _number(sum(value or ()))
    if format == "signed":
        return f"+{_number(value)}" if value >= 0 else _number(value)
    if format == "word":
        return "none" if value is None else str(value).replace("_", " ")
    if format == "cell":
        return f"({_number(value[0])}, {_number(value[1])})"
    if format == "count":
        return str(len(value or ()))
    if format == "change":
        return f"{_number(value[0])} -> {_number(value[1])}"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, list | tuple):
        return ", ".join(show(v, "", name) for v in value)
    if isinstance(value, Mapping) and "label" in value:
        return str(value["label"])  # a clock: the game's words for the moment
    return str(value)


def _flat(values: Any) -> list[Any]:
    # A list of groups of tokens (a tie's order) reads as one list of names.
    return [w for v in values for w in (_flat(v) if isinstance(v, list | tuple) else [v])]


def _number(value: float) -> str:
    # As JavaScript's String(n) writes it, for the values a fight has: 2, 1.5, -3.
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)
