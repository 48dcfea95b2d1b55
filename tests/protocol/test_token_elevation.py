"""A token's ``elevation`` on the wire: optional (0), any finite number within bounds,
carried through encoding and decoding."""

from __future__ import annotations

import json

import pytest

import protocol
from protocol import ProtocolError

TOKEN = {
    "id": "hero", "name": "Hero", "owner": "p1", "side": "heroes", "x": 1, "y": 1,
    "size": 1, "reach": 1.0, "movement": 6.0, "stats": {},
}  # fmt: skip


def test_elevation_is_optional_and_read() -> None:
    assert protocol.TokenSpec.from_wire(TOKEN).elevation == 0.0
    flying = protocol.TokenSpec.from_wire({**TOKEN, "elevation": 10})
    assert flying.elevation == 10.0
    assert protocol.TokenSpec.from_wire({**TOKEN, "elevation": -3.5}).elevation == -3.5


@pytest.mark.parametrize("bad", [1e12, "high", None])
def test_a_bad_elevation_is_refused_with_its_path(bad: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        protocol.TokenSpec.from_wire({**TOKEN, "elevation": bad})
    assert caught.value.path == "elevation"


def test_elevation_round_trips_in_load_scene() -> None:
    ground = protocol.TokenSpec.from_wire(TOKEN)
    scene = protocol.SceneSpec(
        grid=protocol.GridSpec(kind="square", cell_size=1.0, unit="m", width=5, height=5),
        tokens=(ground, protocol.TokenSpec.from_wire({**TOKEN, "id": "bird", "elevation": 4})),
    )
    frame = protocol.encode(protocol.LoadScene(seq=1, scene=scene), binary=False)
    tokens = json.loads(frame)["body"]["scene"]["tokens"]
    # A token on the ground is sent without it, so a server older than the field reads it.
    assert [t.get("elevation") for t in tokens] == [None, 4.0]
    assert protocol.decode_client(frame) == protocol.LoadScene(seq=1, scene=scene)
