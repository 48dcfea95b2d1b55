"""The committed pixel vectors are what :mod:`geometry.vtt_coords` computes today.

``clients/js/test/pixels.test.js`` checks the JavaScript mirror against
``clients/js/test/fixtures/vtt-coords.json``; this test checks that file against the
Python functions, so a change on the Python side that the fixture (and so the
JavaScript) does not follow fails here.  Regenerate with
``python -m tests.clients.pixel_vectors`` and make the JS test pass again.
"""

from __future__ import annotations

import json

from tests.clients.pixel_vectors import FIXTURE, vectors


def test_fixture_matches_the_python_functions() -> None:
    committed = json.loads(FIXTURE.read_text(encoding="utf-8"))
    fresh = json.loads(json.dumps(vectors()))
    assert committed["refusals"] == fresh["refusals"]
    assert len(committed["scenes"]) == len(fresh["scenes"])
    for old, new in zip(committed["scenes"], fresh["scenes"], strict=True):
        assert (old["scene"], old["args"]) == (new["scene"], new["args"])
        for was, now in zip(old["calls"], new["calls"], strict=True):
            assert was == now, f"{old['scene']}{old['args']}: {was} is now {now}"
        assert len(old["calls"]) == len(new["calls"])


def test_fixture_covers_every_conversion() -> None:
    methods = {
        (scene["scene"], call["method"]) for scene in vectors()["scenes"] for call in scene["calls"]
    }
    assert {m for _, m in methods} >= {
        "token_origin", "token_xy", "to_point", "from_point", "item_origin", "item_position",
        "center_px", "cell_at_px", "token_cell", "item_cell",
    }  # fmt: skip
    assert len({s for s, _ in methods}) == 4
