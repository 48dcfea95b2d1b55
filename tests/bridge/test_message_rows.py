"""The message table: every client message has one row, and the row says everything
about it (a declaration, a handler, who may send it, a cost, an example, and for a
command the engine command it becomes, with the same fields)."""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import re

import msgpack
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import protocol
from protocol.commands import DERIVED, SHAPES
from tests.bridge.test_wire_drift import readme_frames
from tests.protocol.strategies import for_struct
from tests.protocol_alone import protocol_alone
from vtt_bridge import derive, registry, rows
from vtt_bridge.derive import engine_fields, wire_command
from vtt_bridge.replies import message_digest

ROWS = registry.rows()
SLOW = [HealthCheck.filter_too_much, HealthCheck.too_slow]


def test_every_client_message_has_exactly_one_row() -> None:
    # Every decodable message has its row (the derived commands' structs are the
    # protocol's written copies, listed after the structs it declares by hand).
    assert sorted(row.name for row in ROWS) == sorted(protocol.CLIENT_MESSAGE_TYPES)
    assert all(protocol.CLIENT_MESSAGE_TYPES[row.name] is row.wire for row in ROWS)
    assert len({row.name for row in ROWS}) == len(ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_the_row_holds_a_declaration_handler_roles_cost_and_example(
    row: registry.MessageRow,
) -> None:
    assert row.wire.__doc__, "a declaration with a docstring"
    assert inspect.iscoroutinefunction(row.handle), "a handler"
    assert row.roles, "a role set"
    assert isinstance(row.cost, int) or callable(row.cost), "a cost"
    assert isinstance(row.price(protocol.client_from_wire(_envelope(row))), int)
    assert registry.check_row(row) == []


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_the_rows_example_is_the_one_the_readme_shows(row: registry.MessageRow) -> None:
    shown = [f["body"] for f in readme_frames() if f["type"] == row.name]
    assert row.example in shown


@pytest.mark.parametrize("row", [r for r in ROWS if r.kind == "command"], ids=lambda row: row.name)
def test_a_command_row_becomes_its_engine_command_field_by_field(
    row: registry.MessageRow,
) -> None:
    assert row.command is not None and row.command in engine.COMMAND_TYPES.values()
    message = protocol.client_from_wire(_envelope(row))
    table = _Table()
    command = row.to_command(message, "alice", table)
    assert type(command) is row.command and command.actor == "alice"
    plain = engine.to_plain(command)
    wire = message.to_body()
    for name in engine_fields(row.command, ("actor",)):
        if name == "seed" and wire.get(name) is None:
            assert plain[name] == table.seed  # the table's seed when the message names none
        elif name in ("scene", "token") and isinstance(wire.get(name), dict):
            continue  # nested shapes: read by field name too, compared by the goldens
        elif name in wire:
            assert plain[name] == wire[name], name


def test_protocol_alone_decodes_every_rows_message() -> None:
    # A Python client imports the protocol alone: no engine, no server, yet every row's
    # message decodes, from the very struct the row holds.
    assert protocol_alone("sorted(protocol.CLIENT_MESSAGE_TYPES)") == str(
        sorted(row.name for row in ROWS)
    )
    for row in ROWS:
        if registry.derived(row):
            assert getattr(protocol, row.wire.__name__) is row.wire, row.name


def test_the_protocols_copies_are_what_the_rows_derive() -> None:
    # Each written struct has the fields, types and defaults (type_info) the bridge derives
    # from its engine declaration (the tool's drift check compares the source too).
    for struct in DERIVED:
        row = registry.ROWS[struct]
        assert row.command is not None
        fresh = wire_command(row.command)
        assert struct.__struct_fields__ == fresh.__struct_fields__
        assert (struct.TYPE, struct.LATER, struct.UNHASHED) == (
            fresh.TYPE, fresh.LATER, fresh.UNHASHED
        )  # fmt: skip
        assert _shape(struct) == _shape(fresh)
        assert struct.__doc__ == row.command.__doc__


def test_the_protocols_scene_shapes_are_what_the_engine_declares() -> None:
    # The scene's shapes (grid, token, wall, scene) written into the protocol are the
    # shapes the bridge derives from the engine's dataclasses, checks included.
    declared = (engine.VttSpec, engine.GridSpec, engine.Combatant, engine.WallSpec)
    engine_shapes = {
        derive.shape_name(cls): cls for cls in (*declared, engine.TerrainSpec, engine.Scene)
    }
    assert sorted(struct.__name__ for struct in SHAPES) == sorted(engine_shapes)
    for struct in SHAPES:
        cls = engine_shapes[struct.__name__]
        fresh = derive.wire_shape(cls)
        assert _shape(struct) == _shape(fresh)
        assert (struct.LATER, struct.UNHASHED, struct.__doc__) == (
            fresh.LATER, fresh.UNHASHED, cls.__doc__
        )  # fmt: skip
        assert struct.__mro__[1] is derive.shape_base(cls)


def _shape(struct: type) -> str:
    """``struct``'s fields, types and defaults, nested structs by name (the written copy
    holds the written shapes, a fresh derivation fresh ones)."""
    info = repr(msgspec.inspect.type_info(struct).fields)  # type: ignore[attr-defined]
    return re.sub(r"<class '[\w.]+\.(\w+)'>", r"\1", info)


def test_the_shipped_rows_are_the_tables_rows() -> None:
    assert all(registry.ROWS[row.wire] is row for row in rows.SHIPPED)
    assert all(dataclasses.is_dataclass(row.command) for row in ROWS if row.command)


class _Table:
    """What a row reads of a table (the seed of a fight that names none)."""

    seed = 4242

    def combat_seed(self) -> int:
        return self.seed


def _envelope(row: registry.MessageRow) -> dict[str, object]:
    return {"v": protocol.PROTOCOL_VERSION, "type": row.name, "seq": 1, "body": row.example}


def test_a_fight_naming_no_seed_gets_the_tables() -> None:
    row = registry.ROWS[protocol.StartCombat]
    message = protocol.StartCombat(seq=1, ruleset="dnd5e", aware=None, seed=None)
    assert row.to_command(message, "gm", _Table()).seed == _Table.seed  # type: ignore[arg-type]
    chosen = protocol.StartCombat(seq=1, ruleset="dnd5e", aware=None, seed=7)
    assert row.to_command(chosen, "gm", _Table()).seed == 7  # type: ignore[arg-type]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
@settings(max_examples=20, deadline=None, suppress_health_check=SLOW)
@given(data=st.data())
def test_a_messages_digest_is_its_packed_builtin_body(
    row: registry.MessageRow, data: st.DataObject
) -> None:
    # Kept replies and logged acks hold digests made by ``msgpack.packb`` of the builtin
    # body: the encoder that writes it from the struct must give the very same bytes.
    message = data.draw(for_struct(row.wire))
    packed = msgpack.packb([message.TYPE, message.to_body()])
    assert message_digest(message) == hashlib.blake2b(packed, digest_size=12).hexdigest()


@pytest.mark.parametrize(
    ("kind", "body", "path"),
    [
        ("set_effect", {"name": "smoke\u202e", "token": None, "rounds": 2}, "body.name"),
        ("end_combat", {"reason": "fled\x07"}, "body.reason"),
        ("set_stats", {"token": "ganger2", "stats": {"ref\u2028": 7}}, "body.stats"),
        ("set_stats", {"token": "ganger2", "stats": {"label": "a\x00b"}}, "body.stats.label"),
    ],
)
def test_a_derived_commands_strings_refuse_what_a_name_refuses(
    kind: str, body: dict[str, object], path: str
) -> None:
    # A string a command declares is free text other members are shown, like a scene's
    # names and stats: no control or bidirectional formatting characters.
    envelope = {"v": protocol.PROTOCOL_VERSION, "type": kind, "seq": 1, "body": body}
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.client_from_wire(envelope)
    assert refused.value.code == "bad_value"
    assert refused.value.path == path
    assert "is not allowed in text" in str(refused.value)


@pytest.mark.parametrize(
    ("body", "code", "path"),
    [
        ({"prompt": "p1", "accept": True}, "missing_field", "body.rolls"),  # since version 1
        ({"prompt": "p1", "accept": True, "rolls": []}, "bad_value", "body.rolls"),
        ({"prompt": "p1", "accept": True, "rolls": [1] * 101}, "bad_value", "body.rolls"),
        (
            {"prompt": "p1", "accept": True, "rolls": None, "maneuver": {"a": {"b": {"c": {}}}}},
            "too_deep",
            "body.maneuver.a.b.c",
        ),
        (
            {"prompt": "p1", "accept": True, "rolls": None, "maneuver": [1]},
            "bad_type",
            "body.maneuver",
        ),
        ({"prompt": "", "accept": True, "rolls": None}, "bad_value", "body.prompt"),
    ],
)
def test_a_derived_answer_keeps_the_wires_first_shape(
    body: dict[str, object], code: str, path: str
) -> None:
    # ``answer_prompt`` is derived from the engine's declaration: ``rolls`` (a default,
    # yet on the wire since version 1) must be sent, the dice are 1..100, the manoeuvre
    # map nests at most three deep, and each refusal keeps its code and path.
    envelope = {"v": protocol.PROTOCOL_VERSION, "type": "answer_prompt", "seq": 1, "body": body}
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.client_from_wire(envelope)
    assert (refused.value.code, refused.value.path) == (code, path)


def test_a_derived_answer_leaves_out_only_its_later_field() -> None:
    wire = protocol.CLIENT_MESSAGE_TYPES["answer_prompt"]
    answer = wire(seq=1, prompt="p1", accept=True, rolls=None)
    assert answer.to_body() == {"prompt": "p1", "accept": True, "rolls": None}
    with_map = wire(seq=2, prompt="p1", accept=True, rolls=(3,), maneuver={"name": "set"})
    assert with_map.to_body()["maneuver"] == {"name": "set"}
    assert hash(with_map) == hash(wire(seq=2, prompt="p1", accept=True, rolls=(3,)))


@pytest.mark.parametrize(
    ("body", "code", "path", "words"),
    [
        # aware and seed are on the wire since version 1: sent, even null.
        ({"ruleset": "5e", "seed": None}, "missing_field", "body.aware", "missing field"),
        ({"ruleset": "5e", "aware": None}, "missing_field", "body.seed", "missing field"),
        (
            {"ruleset": "5e", "aware": ["a", "b", "a"], "seed": None},
            "bad_value",
            "body.aware[2]",
            "duplicate token id 'a'",
        ),
        (
            {"ruleset": "5e", "aware": None, "seed": 1, "groups": [["a"], ["b", "c", "b"]]},
            "bad_value",
            "body.groups[1][2]",
            "duplicate token id 'b'",
        ),
        (
            {"ruleset": "5e", "aware": None, "seed": 1, "rolls": [0]},
            "bad_value",
            "body.rolls[0]",
            "",
        ),
        ({"ruleset": "5e", "aware": None, "seed": 2**63}, "bad_value", "body.seed", ""),
    ],
)
def test_a_derived_start_keeps_the_wires_first_shape(
    body: dict[str, object], code: str, path: str, words: str
) -> None:
    # ``start_combat`` is derived from the engine's declaration and refuses as the hand
    # declaration did: the same codes, paths and words.
    envelope = {"v": protocol.PROTOCOL_VERSION, "type": "start_combat", "seq": 1, "body": body}
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.client_from_wire(envelope)
    assert (refused.value.code, refused.value.path) == (code, path)
    assert words in str(refused.value)


def test_a_derived_start_and_join_write_their_bodies_as_before() -> None:
    # The body's keys in the order version 1 wrote them (kept replies hold digests of
    # it), LATER fields left out at their default, the seed null for the table's.
    start = protocol.StartCombat(seq=1, ruleset="5e", aware=None, seed=None)
    assert list(start.to_body()) == ["ruleset", "aware", "seed"]
    assert registry.ROWS[protocol.StartCombat].to_command(start, "gm", _Table()).seed == 4242
    grouped = protocol.StartCombat(seq=2, ruleset="5e", aware=("a",), seed=3, groups=(("a",),))
    assert list(grouped.to_body()) == ["ruleset", "aware", "seed", "groups"]
    token = protocol.TokenSpec(
        id="g", name="G", owner="gm", side="x", x=1, y=1, size=1, reach=1, movement=6
    )
    join = protocol.JoinCombat(seq=3, token=token)
    assert list(join.to_body()) == ["token"]
    command = registry.ROWS[protocol.JoinCombat].to_command(join, "gm", _Table())
    assert command.token == engine.Combatant(
        id="g", name="G", owner="gm", side="x", x=1, y=1, size=1, reach=1.0, movement=6
    )
    assert command.ties == "game"  # not on the wire: an upgraded log's alone


def test_the_engines_token_bound_is_the_scenes() -> None:
    assert engine.commands.MAX_TOKENS == protocol.scene.MAX_TOKENS == engine.model.MAX_TOKENS
