"""Hypothesis strategies read off the protocol's declarations (msgspec's type info), so a
new message or field is generated without writing its strategy by hand."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from hypothesis import assume
from hypothesis import strategies as st

from protocol import ProtocolError, Wire
from protocol.text import CLEAN_PATTERN

#: Lists are kept short: the bounds matter, not the bulk.
MAX_ITEMS = 3
#: Characters free text may hold (:mod:`protocol.text`).
CLEAN_CHARACTERS = st.characters(
    exclude_categories=("Cc", "Cs"),
    exclude_characters="\u2028\u2029\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
    "\u2066\u2067\u2068\u2069",
)
JSON_LEAF = st.none() | st.booleans() | st.integers(-(2**63 - 1), 2**63 - 1) | st.text(max_size=8)
JSON_MAP = st.dictionaries(st.text(max_size=8), JSON_LEAF, max_size=3)


def for_type(kind: msgspec.inspect.Type) -> st.SearchStrategy[Any]:
    """Values of one declared type, within its bounds."""
    m = msgspec.inspect
    if isinstance(kind, m.IntType):
        lo = -(2**63 - 1) if kind.ge is None else kind.ge
        return st.integers(lo, 2**63 - 1 if kind.le is None else kind.le)
    if isinstance(kind, m.FloatType):
        lo = kind.gt if kind.gt is not None else kind.ge
        return st.floats(
            -1e9 if lo is None else lo,
            1e9 if kind.le is None else kind.le,
            exclude_min=kind.gt is not None,
            allow_nan=False,
            allow_infinity=False,
        )
    if isinstance(kind, m.StrType):
        if kind.pattern == CLEAN_PATTERN:
            return st.text(
                CLEAN_CHARACTERS,
                min_size=kind.min_length or 0,
                max_size=min(kind.max_length or 20, 20),
            )
        if kind.pattern:
            return st.from_regex(kind.pattern, fullmatch=True)
        return st.text(min_size=kind.min_length or 0, max_size=min(kind.max_length or 20, 20))
    if isinstance(kind, m.BoolType):
        return st.booleans()
    if isinstance(kind, m.NoneType):
        return st.none()
    if isinstance(kind, m.LiteralType):
        return st.sampled_from(kind.values)
    if isinstance(kind, m.UnionType):
        return st.one_of([for_type(t) for t in kind.types])
    if isinstance(kind, m.TupleType):
        return st.tuples(*(for_type(t) for t in kind.item_types))
    if isinstance(kind, m.VarTupleType | m.ListType):
        lo = kind.min_length or 0
        items = st.lists(for_type(kind.item_type), min_size=lo, max_size=max(lo, MAX_ITEMS))
        return items.map(tuple)
    if isinstance(kind, m.DictType) and not isinstance(kind.value_type, m.AnyType):
        return st.dictionaries(for_type(kind.key_type), for_type(kind.value_type), max_size=3)
    if isinstance(kind, m.DictType | m.AnyType):
        return JSON_MAP
    if isinstance(kind, m.StructType):
        # Deferred: a struct that holds itself (a param's list items) is built lazily.
        cls = kind.cls
        return st.deferred(lambda: for_struct(cls))
    raise NotImplementedError(kind)


@cache
def for_struct(cls: type[Wire]) -> st.SearchStrategy[Any]:
    """Instances of a declared struct (those its own ``check`` refuses are skipped)."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    fields = {f.name: for_type(f.type) for f in info.fields}

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        values = {name: draw(strategy) for name, strategy in fields.items()}
        try:
            return cls(**values)
        except ProtocolError:
            assume(False)

    return build()
