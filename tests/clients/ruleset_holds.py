"""``python -m tests.clients.ruleset_holds``: each shipped ruleset's held actions as the
bridge describes them (each ``rulesets`` entry's ``holds``), as JSON by ruleset name,
for the JavaScript client's tests that fold recorded sessions without a bridge."""

from __future__ import annotations

import json

import msgspec

import vtt_bridge.rows  # noqa: F401  (every shipped message and ruleset registered)
from vtt_bridge.describing import ruleset_list


def holds_by_ruleset() -> dict[str, object]:
    """Each ruleset's ``holds`` (None: it has none), from the ``rulesets`` message."""
    plain = msgspec.to_builtins(ruleset_list(None).body())
    return {entry["name"]: entry["holds"] for entry in plain["rulesets"]}


if __name__ == "__main__":
    print(json.dumps(holds_by_ruleset()))
