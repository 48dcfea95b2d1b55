"""Free text refuses what would change how other members' screens show it."""

from __future__ import annotations

import json

import pytest

import protocol
from engine.params import FORBIDDEN_TEXT, ParamError, decode_params
from engine.rulesets.cyberpunk_red.action_spec import ObjectParams
from engine.rulesets.hero.params import NamedActionParams
from engine.rulesets.mutants_masterminds.actions import FreeParams
from protocol.text import FORBIDDEN_CLASS, first_forbidden

#: One of each kind the rule names, and its neighbours that are allowed.
FORBIDDEN = [
    "\x00", "\n", "\r", "\x1b", "\x7f", "\x85", "\x9f", "\u2028", "\u2029",
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
    "\u2069", "\u200e", "\u200f", "\u061c",
]  # fmt: skip
ALLOWED = [" ", "~", "\xa0", "é", "\u2027", "\u202f", "\u2065", "\u206a", "\u200d", "日本"]


def frame(message_type: str, body: dict[str, object]) -> str:
    return json.dumps({"v": 1, "type": message_type, "seq": 9, "body": body})


def refusal(text: str) -> protocol.ProtocolError:
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.decode_client(text)
    return refused.value


@pytest.mark.parametrize("bad", FORBIDDEN)
def test_names_labels_stats_and_units_refuse_forbidden_characters(bad: str) -> None:
    assert first_forbidden(f"ab{bad}c") == 2
    token = {"id": "t", "name": "Ann", "owner": "alice", "side": "pc", "x": 0, "y": 0}
    token |= {"size": 1, "reach": 5, "movement": 30, "stats": {}}
    grid = {"kind": "square", "cell_size": 5, "unit": "ft", "width": 10, "height": 10}
    cases = [
        (frame("join", {"token": "k", "last_event": None, "client": f"al{bad}"}), "body.client"),
        (frame("issue_token", {"participant": f"x{bad}", "role": "player"}), "body.participant"),
        (
            frame("load_scene", {"scene": {"grid": grid, "tokens": [token | {"name": bad}]}}),
            "body.scene.tokens[0].name",
        ),
        (
            frame(
                "load_scene",
                {"scene": {"grid": grid, "tokens": [token | {"stats": {"note": f"a{bad}"}}]}},
            ),
            "body.scene.tokens[0].stats.note",
        ),
        (
            frame("load_scene", {"scene": {"grid": grid | {"unit": f"f{bad}"}, "tokens": []}}),
            "body.scene.grid.unit",
        ),
    ]
    for text, path in cases:
        error = refusal(text)
        assert (error.code, error.path, error.seq) == ("bad_value", path, 9)
        assert f"U+{ord(bad):04X}" in error.detail


@pytest.mark.parametrize("good", ALLOWED)
def test_other_characters_are_free_text(good: str) -> None:
    message = protocol.decode_client(
        frame("issue_token", {"participant": f"a{good}", "role": "player"})
    )
    assert isinstance(message, protocol.IssueToken) and message.participant == f"a{good}"


@pytest.mark.parametrize("bad", FORBIDDEN)
def test_ruleset_text_parameters_refuse_them_too(bad: str) -> None:
    for cls, name in (
        (NamedActionParams, "detail"),
        (FreeParams, "what"),
        (ObjectParams, "object"),
    ):
        with pytest.raises(ParamError) as refused:
            decode_params(cls, {name: f"door{bad}"})
        assert (refused.value.code, refused.value.path) == ("bad_value", name)


def test_a_required_text_parameter_may_not_be_empty() -> None:
    with pytest.raises(ParamError) as refused:
        decode_params(ObjectParams, {"object": ""})
    assert (refused.value.code, refused.value.path) == ("bad_value", "object")
    assert decode_params(ObjectParams, {"object": "locker"}).object == "locker"


def test_the_engine_and_the_protocol_forbid_the_same_characters() -> None:
    # The engine may not import protocol, so it restates the class: compare them whole.
    for point in range(0x3000):
        char = chr(point)
        assert bool(FORBIDDEN_TEXT.search(char)) == (first_forbidden(char) is not None), hex(point)
    assert FORBIDDEN_TEXT.pattern == f"[{FORBIDDEN_CLASS}]"
