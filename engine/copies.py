"""Copies of frozen state values with a few fields changed, for the move path.

Every move makes a new token, scene and state (the state is a value).  A frozen
dataclass's ``__init__`` sets each field through ``object.__setattr__`` (its frozen
``__setattr__`` refuses), and ``dataclasses.replace`` adds a walk over the fields on
top: a ten-field token costs about 3 µs either way.  A copier made here for one class
and one set of fields is generated code that allocates the instance and sets each slot
through the class's own slot descriptors, about a quarter of that, with the same
result: the unchanged fields are shared (as ``replace`` shares them), the changed ones
set.  It skips ``__init__``, so it serves only classes with nothing to check there (no
``__post_init__``, refused when made) and values that are already checked.  A subclass
goes through ``dataclasses.replace``, which knows its fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def copier(cls: type[T], *changed: str) -> Callable[..., T]:
    """A function ``(value, *new) -> value of cls``: ``value`` with the fields named in
    ``changed`` set to ``new``, in that order (see the module docstring)."""
    names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or getattr(cls, "__slots__", None) != names:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} checks itself in __post_init__: build it")
    unknown = set(changed) - set(names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)}")
    scope: dict[str, Any] = {"cls": cls, "new": object.__new__, "replace": dataclasses.replace}
    scope.update({f"set_{n}": getattr(cls, n).__set__ for n in names})
    args = ", ".join(f"v_{n}" for n in changed)
    keywords = ", ".join(f"{n}=v_{n}" for n in changed)
    sets = "".join(
        f"    set_{n}(copy, v_{n})\n" if n in changed else f"    set_{n}(copy, value.{n})\n"
        for n in names
    )
    source = (
        f"def copy_{cls.__name__}(value, {args}):\n"
        f"    if type(value) is not cls:\n"
        f"        return replace(value, {keywords})\n"
        f"    copy = new(cls)\n"
        f"{sets}"
        f"    return copy\n"
    )
    exec(source, scope)  # our own field names, as dataclasses builds its own __init__
    made: Callable[..., T] = scope[f"copy_{cls.__name__}"]
    return made


#: (class, changed field names) -> its copier, or None where a class cannot have one.
_COPIERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any] | None] = {}


def replace(value: T, /, **changes: Any) -> T:
    """``dataclasses.replace(value, **changes)``, the same value, through a copier made
    once per class and set of fields (module docstring); a class a copier cannot serve
    (one that checks itself in ``__post_init__``) goes through ``dataclasses.replace``."""
    key = (type(value), tuple(changes))
    try:
        copy = _COPIERS[key]
    except KeyError:
        try:
            copy = copier(type(value), *changes)
        except TypeError:
            copy = None
        _COPIERS[key] = copy
    if copy is None:
        return dataclasses.replace(value, **changes)  # type: ignore[type-var]
    made: T = copy(value, *changes.values())
    return made
