"""A new command is one module: this one.  ``taunt`` is declared once, as the engine's
dataclass with its bounds; its handler is beside it; its row derives the wire struct
and says who may send it, what it costs and an example.  Registered for the test only
(:func:`vtt_bridge.registry.registered`), it is played over a real server: decoded with
the declared bounds, refused by role, applied, logged, acknowledged and broadcast, read
back from the log after a restart, and unknown again once taken out."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar

import pytest

import protocol
from engine.checks import Result, controlled_token, scene_of
from engine.errors import CommandRejected
from engine.model import EncounterState
from engine.params import Length, Range, TokenRef
from engine.spatial import SpatialCache
from tests.bridge.conftest import running, table_fingerprint
from tests.wsclient import wire_data
from vtt_bridge import costs, permissions, registry, rows
from vtt_bridge.registry import MessageRow

# -- the command: declaration, handler, row ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Taunt:
    """``token`` taunts ``target`` with ``words``, as loud as ``volume`` (a test's toy)."""

    kind: ClassVar[str] = "taunt"
    actor: str
    token: TokenRef
    target: TokenRef
    words: Annotated[str, Length(1, 32)]
    volume: Annotated[int, Range(1, 3)] = 1


@dataclass(frozen=True, slots=True)
class Taunted:
    """``token`` taunted ``target``."""

    kind: ClassVar[str] = "taunted"
    token: str
    target: str
    words: str
    volume: int


def taunt(state: EncounterState, command: Taunt, spatial: SpatialCache) -> Result:
    """The mover must control ``token``; ``target`` must be on the scene."""
    token = controlled_token(state, command.actor, command.token)
    if scene_of(state).token(command.target) is None:
        raise CommandRejected("unknown_token", f"no token {command.target!r} to taunt")
    return state, [Taunted(token.id, command.target, command.words, command.volume)]


ROW = registry.command_row(
    Taunt,
    rows.command,
    roles=permissions.ACTORS,
    cost=1,
    example={"token": "hero", "target": "ogre", "words": "come here"},
    engine="unknown_token, not_your_token",
)
WIRE: Any = ROW.wire

# -- the tests ---------------------------------------------------------------------------

SCENE = protocol.SceneSpec.from_wire(
    {
        "grid": {"kind": "square", "cell_size": 1.0, "unit": "m", "width": 10, "height": 10},
        "tokens": [
            {"id": "hero", "name": "Hero", "owner": "alice", "side": "x", "x": 0, "y": 0,
             "size": 1, "reach": 1.0, "movement": 4.0, "stats": {}},
            {"id": "ogre", "name": "Ogre", "owner": "gm", "side": "y", "x": 3, "y": 0,
             "size": 1, "reach": 1.0, "movement": 4.0, "stats": {}},
        ],
    }
)  # fmt: skip


@pytest.fixture
def taunting() -> Iterator[MessageRow]:
    with registry.registered(ROW, taunt) as row:
        yield row


def test_the_row_holds_everything_and_the_wire_keeps_the_declared_bounds(
    taunting: MessageRow,
) -> None:
    assert registry.check_row(taunting) == []
    assert taunting.name == "taunt" and protocol.CLIENT_MESSAGE_TYPES["taunt"] is WIRE
    body = {"token": "hero", "target": "ogre", "words": ""}
    envelope = {"v": 1, "type": "taunt", "seq": 3, "body": body}
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.client_from_wire(envelope)
    assert (caught.value.code, caught.value.path) == ("bad_value", "body.words")
    envelope["body"] = {**body, "words": "hi", "volume": 4}
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.client_from_wire(envelope)
    assert (caught.value.code, caught.value.path) == ("bad_value", "body.volume")
    message = protocol.client_from_wire({**envelope, "body": {**body, "words": "hi"}})
    assert message.volume == 1  # a defaulted field is optional on the wire
    assert costs.extra_cost(message) == 1


async def test_the_toy_command_plays_over_a_real_server(
    taunting: MessageRow, tmp_path: Path
) -> None:
    async with running(tmp_path) as bridge:
        table = bridge.table("toy", ["alice", "bob"])
        gm = await bridge.member(table, "gm")
        alice, bob = await bridge.member(table, "alice"), await bridge.member(table, "bob")
        spectator = await bridge.member(table, "spectator-1")
        seq = await gm.send(protocol.LoadScene, scene=SCENE)
        assert isinstance(await gm.reply_to(seq), protocol.Ack)

        before = table_fingerprint(table)
        for client, code in ((bob, "not_your_token"), (spectator, "spectator")):
            seq = await client.send(WIRE, token="hero", target="ogre", words="hey")
            refused = await client.reply_to(seq)
            assert isinstance(refused, protocol.ErrorMessage) and refused.code == code
        seq = await alice.send(WIRE, token="hero", target="nobody", words="hey")
        refused = await alice.reply_to(seq)
        assert isinstance(refused, protocol.ErrorMessage) and refused.code == "unknown_token"
        assert table_fingerprint(table) == before  # refusals change nothing

        seq = await alice.send(WIRE, token="hero", target="ogre", words="over here", volume=3)
        ack = await alice.reply_to(seq)
        assert isinstance(ack, protocol.Ack) and ack.first_event == ack.last_event
        for member in (gm, bob, spectator):
            event = await member.event("taunted")
            assert event.index == ack.first_event
            assert wire_data(event) == {
                "token": "hero", "target": "ogre", "words": "over here", "volume": 3,
            }  # fmt: skip
        hub = bridge.hub
        logged = (await hub.committer.in_db(hub.store.log, table.id))[-1]
        assert logged.command == {
            "type": "taunt", "actor": "alice", "token": "hero", "target": "ogre",
            "words": "over here", "volume": 3,
        }  # fmt: skip
        state = table.encounter.state_hash()
    # Started again on the same log, the server reads the command back and agrees.
    async with running(tmp_path) as again:
        reloaded = again.hub.tables[table.id]
        assert reloaded.encounter.state_hash() == state
        assert again.hub.load_reports[table.id].divergences == []


def test_taken_out_the_command_is_unknown_again() -> None:
    with registry.registered(ROW, taunt):
        assert registry.row_for(WIRE(seq=1, token="a", target="b", words="c")) is ROW
    assert "taunt" not in protocol.CLIENT_MESSAGE_TYPES and ROW.wire not in registry.ROWS
    envelope = {"v": 1, "type": "taunt", "seq": 1, "body": {}}
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.client_from_wire(envelope)
    assert caught.value.code == "unknown_type"


def test_a_row_naming_no_role_is_refused_to_everyone() -> None:
    nobody = MessageRow(ROW.wire, "command", rows.command, example=ROW.example, command=Taunt)
    assert "no role may send it" in registry.check_row(nobody)
    with registry.registered(nobody, taunt):
        message = WIRE(seq=1, token="hero", target="ogre", words="hi")
        for role in ("gm", "player", "spectator", ""):
            refused = permissions.refusal(role, message)
            assert refused is not None and refused.code == "not_permitted", role


def test_a_second_command_under_a_taken_type_is_refused() -> None:
    twin = registry.command_row(
        Taunt, rows.command, roles=permissions.ACTORS, example=ROW.example
    )  # another struct derived from the same declaration, under the same type
    with registry.registered(ROW, taunt), pytest.raises(ValueError, match="already"):
        registry.register(twin)
    assert "taunt" not in protocol.CLIENT_MESSAGE_TYPES
