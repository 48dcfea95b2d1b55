"""Every recorded event in words, as the Python side renders it, for the JavaScript client.

``python -m tests.clients.word_vectors`` prints ``[{template, data, line}, ...]``: each
event of the golden recordings (``tests/recordings/``) with its ruleset's template and
:func:`engine.templates.render`'s line (token ids upper-cased as their "names"), one
vector per distinct line.  ``clients/js/test/words.test.js`` renders the same templates
with ``src/words.js`` and must give the same lines.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.describe import templates
from engine.rulesets.base import find_ruleset
from engine.templates import render

RECORDINGS = Path(__file__).parents[1] / "recordings"
#: Each golden recording's ruleset.
RECORDED = {
    "cpr_fight": "cyberpunk-red",
    "mm3e_fight": "mm3e",
    "hero_full_fight": "hero-supplement",
    "hero_powers_fight": "hero-supplement",
    "hero_aoo_foundation": "hero-supplement",
}


def recorded_events(text: str) -> Iterator[dict[str, Any]]:
    """Every ``event`` message's body in a recording, wherever a frame holds it."""

    def walk(value: Any) -> Iterator[dict[str, Any]]:
        if isinstance(value, dict):
            if value.get("type") == "event" and "body" in value:
                yield value["body"]
            for inner in value.values():
                yield from walk(inner)
        elif isinstance(value, list):
            for inner in value:
                yield from walk(inner)
        elif isinstance(value, str) and value[:1] in "{[":
            try:
                yield from walk(json.loads(value))
            except ValueError:
                return

    for line in text.splitlines():
        yield from walk(json.loads(line))


def vectors() -> list[dict[str, Any]]:
    """One ``{template, data, line}`` per distinct line of the recordings."""
    found: dict[str, dict[str, Any]] = {}
    for stem, ruleset in sorted(RECORDED.items()):
        words = templates(find_ruleset(ruleset))
        text = (RECORDINGS / f"{stem}.jsonl").read_text(encoding="utf-8")
        for event in recorded_events(text):
            template = words[event["kind"]]
            line = render(template, event["data"], str.upper)
            found.setdefault(line, {"template": template, "data": event["data"], "line": line})
    return list(found.values())


if __name__ == "__main__":
    json.dump(vectors(), sys.stdout)
