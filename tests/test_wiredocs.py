"""protocol/README.md's message tables and event list are what the declarations say:
regenerating them changes nothing (``python -m tools.wiredocs --write`` if not)."""

from __future__ import annotations

from typing import get_args

import engine
import protocol
from tools import wiredocs


def test_readme_matches_the_declarations() -> None:
    assert wiredocs.main([]) == 0, "run: python -m tools.wiredocs --write"


def test_every_message_and_event_kind_is_listed() -> None:
    text = wiredocs.README.read_text(encoding="utf-8")
    for kind in {*protocol.CLIENT_MESSAGE_TYPES, *protocol.SERVER_MESSAGE_TYPES}:
        assert f"#### `{kind}`:" in text, kind
    kinds = {cls.kind for cls in get_args(engine.events.Event)}
    kinds |= {e.kind for r in wiredocs.shipped() for e in type(r).vocabulary.events}
    for kind in kinds:
        assert f"#### `{kind}` (" in text, kind


def test_a_changed_declaration_is_caught() -> None:
    # The check bites: a README whose generated block lost a row differs.
    text = wiredocs.README.read_text(encoding="utf-8")
    stale = text.replace("| `batch` | bool | optional (default `false`) |\n", "", 1)
    assert stale != text and wiredocs.render(stale) != stale
