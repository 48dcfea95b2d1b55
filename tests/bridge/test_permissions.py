"""Nobody acts where they do not belong: every command type, as every kind of sender.

Senders: the GM, the owning player (alice owns the hero), another player (bob), a
spectator, a connection that never joined, and a player of another table (carol).
Every refusal is a typed ``error`` and changes nothing at either table; the rightful
sender's command is then accepted.  A message type with no row in the permission table
is refused, and this file fails until it has a row (and a matrix entry).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import protocol
from engine.combat_state import Combat, Prompt
from engine.model import EncounterState
from tests.bridge.conftest import Bridge, closed_with, table_fingerprint
from tests.scenario import scene_body, scene_spec
from tests.wsclient import TableClient, wire_data
from vtt_bridge import permissions
from vtt_bridge.tables import Table

SENDERS = ("gm", "alice", "bob", "spectator-1", "nobody", "carol")


def matrix_scene() -> protocol.SceneSpec:
    body = scene_body()
    for token in body["tokens"]:
        token["stats"] = {**token["stats"], "end": 20, "stun": 20, "rec": 4}
    body["grid"]["vtt"] = {"kind": "foundry", "grid_size": 100}
    body["tokens"].append(
        {
            "id": "scout", "name": "Scout", "owner": "bob", "side": "heroes", "x": 0, "y": 0,
            "size": 1, "reach": 1.0, "movement": 6.0, "stats": {"ocv": 3, "dcv": 3, "init": 8},
        }
    )  # fmt: skip
    body["walls"] = [
        {"id": "door1", "a": [0.0, 11.0], "b": [1.0, 11.0], "blocks_move": True,
         "blocks_sight": True, "door": "closed"},
    ]  # fmt: skip
    return protocol.SceneSpec.from_wire(body)


# Which senders are refused, and with which codes.  Anyone not listed must succeed.
NOT_A_MEMBER = {"nobody": {"not_joined"}, "spectator-1": {"spectator"}}
OGRE_ONLY = {
    **NOT_A_MEMBER,
    "alice": {"not_your_token"},
    "bob": {"not_your_token"},
    "carol": {"no_scene"},
}
GM_ONLY = {
    **NOT_A_MEMBER,
    "alice": {"gm_only"},
    "bob": {"gm_only"},
    "carol": {"gm_only"},
}


@dataclass
class Case:
    """One row of the matrix: a message and who may not send it (with the codes)."""

    message: type[Any]
    body: dict[str, Any]
    refused: dict[str, set[str]]
    allowed: tuple[str, ...]
    reply: ClassVar[tuple[type[Any], ...]] = (
        protocol.Ack,
        protocol.TokenIssued,
        protocol.TokenRevoked,
        protocol.TokenList,
    )


def cases(issued_token: str, prompt: str) -> list[Case]:
    """The matrix, in the order it is played (each phase sets up the next)."""
    return [
        # Outside combat.
        Case(protocol.LoadScene, {"scene": matrix_scene()}, GM_ONLY, ("gm",)),
        Case(
            protocol.Move,
            {"token": "hero", "path": ((4, 6),)},
            {
                **NOT_A_MEMBER,
                "bob": {"not_your_token"},
                "carol": {"no_scene"},
            },
            ("alice", "gm"),
        ),
        Case(
            protocol.MovePoints,
            {"token": "hero", "points": ((400.0, 500.0),)},  # Foundry pixels of (4, 5)
            {**NOT_A_MEMBER, "bob": {"not_your_token"}, "carol": {"no_scene"}},
            ("alice", "gm"),
        ),
        Case(protocol.SetDoor, {"wall": "door1", "open": True}, GM_ONLY, ("gm",)),
        Case(
            ROLL_INITIATIVE,
            {"token": "hero", "rolls": None},  # no dice: the policy plays no part
            {**NOT_A_MEMBER, "bob": {"not_your_token"}, "carol": {"no_scene"}},
            ("alice", "gm"),
        ),
        Case(protocol.IssueToken, {"participant": "dave", "role": "player"}, GM_ONLY, ("gm",)),
        Case(
            protocol.ConfigureTable, {"dice": "gm", "prompt_timeout_ms": 30_000}, GM_ONLY, ("gm",)
        ),
        Case(protocol.RevokeToken, {"token": issued_token}, GM_ONLY, ("gm",)),
        Case(protocol.ListTokens, {"offset": 0}, GM_ONLY, ("gm",)),
        Case(
            protocol.StartCombat,
            {"ruleset": "hero-supplement", "aware": None, "seed": 7},
            GM_ONLY,
            ("gm",),
        ),
        # In combat: the hero acts first; its move provokes the GM's ogre.
        Case(
            protocol.Move,
            {"token": "hero", "path": ((4, 6), (4, 7))},
            {**NOT_A_MEMBER, "bob": {"not_your_token"}, "carol": {"no_scene"}},
            ("alice", "gm"),
        ),
        Case(
            protocol.AnswerPrompt,
            {"prompt": prompt, "accept": False, "rolls": None},
            {
                **NOT_A_MEMBER,
                "alice": {"not_your_prompt"},
                "bob": {"not_your_prompt"},
                "carol": {"no_combat"},
            },
            ("gm",),
        ),
        Case(
            protocol.SetCondition,
            {"token": "hero", "condition": "underwater", "on": False},
            GM_ONLY,
            ("gm",),
        ),
        Case(
            protocol.Act,
            {"token": "hero", "action": "set_vitals", "params": {"end": 0, "stun": 0}},
            {
                **NOT_A_MEMBER,
                "alice": {"gm_only"},
                "bob": {"not_your_token"},
                "carol": {"no_scene"},
            },
            ("gm",),
        ),
        Case(
            protocol.Act,
            {"token": "hero", "action": "drop_item", "params": {"detail": "torch"}},
            {**NOT_A_MEMBER, "bob": {"not_your_token"}, "carol": {"no_scene"}},
            ("alice", "gm"),
        ),
        Case(
            protocol.Act,
            {
                "token": "hero",
                "action": "attack",
                "params": {"target": "ogre", "ranged": True, "range": 20.0},
            },
            {**NOT_A_MEMBER, "bob": {"not_your_token"}, "carol": {"no_scene"}},
            ("alice", "gm"),
        ),
        Case(
            protocol.EndPhase,
            {"token": "hero"},
            {**NOT_A_MEMBER, "bob": {"not_your_token"}, "carol": {"no_scene"}},
            ("alice", "gm"),
        ),
        # The ogre delays, then takes its delayed action before the scout acts.
        Case(protocol.Act, {"token": "ogre", "action": "delay"}, OGRE_ONLY, ("gm",)),
        Case(protocol.Act, {"token": "ogre", "action": "take_delayed"}, OGRE_ONLY, ("gm",)),
        # The hero, having acted, aborts to a dodge: it gives up its next Phase's action.
        Case(
            protocol.Act,
            {
                "token": "hero",
                "action": "abort",
                "params": {"maneuver": {"name": "dodge", "dcv": 3}},
            },
            {**NOT_A_MEMBER, "bob": {"not_your_token"}, "carol": {"no_scene"}},
            ("alice", "gm"),
        ),
        Case(protocol.EndPhase, {"token": "ogre"}, OGRE_ONLY, ("gm",)),
        Case(
            protocol.Act,
            {
                "token": "scout",
                "action": "ready",
                "params": {"action": "attack", "area": [[11, 11]]},
            },
            {**NOT_A_MEMBER, "alice": {"not_your_token"}, "carol": {"no_scene"}},
            ("bob", "gm"),
        ),
        # The GM's tools of every game: an effect, a newcomer who then leaves.
        Case(protocol.SetEffect, {"name": "smoke", "token": None, "rounds": 1}, GM_ONLY, ("gm",)),
        Case(protocol.EndEffect, {"effect": "e1"}, GM_ONLY, ("gm",)),
        Case(protocol.JoinCombat, {"token": NEWCOMER}, GM_ONLY, ("gm",)),
        Case(SET_STATS, {"token": "imp", "stats": {"ocv": 4}}, GM_ONLY, ("gm",)),
        Case(EDIT_SCENE, {"terrain": []}, GM_ONLY, ("gm",)),
        Case(protocol.LeaveCombat, {"token": "imp", "remove": True}, GM_ONLY, ("gm",)),
        # Last: the fight ends.
        Case(protocol.CLIENT_MESSAGE_TYPES["end_combat"], {"reason": "done"}, GM_ONLY, ("gm",)),
    ]


SET_STATS: Any = protocol.CLIENT_MESSAGE_TYPES["set_stats"]
EDIT_SCENE: Any = protocol.CLIENT_MESSAGE_TYPES["edit_scene"]
ROLL_INITIATIVE: Any = protocol.CLIENT_MESSAGE_TYPES["roll_initiative"]
NEWCOMER = protocol.TokenSpec.from_wire(
    {
        "id": "imp", "name": "Imp", "owner": "gm", "side": "monsters", "x": 11, "y": 0,
        "size": 1, "reach": 1.0, "movement": 6.0, "stats": {"ocv": 3, "dcv": 3, "init": 9},
    }
)  # fmt: skip


async def reply(client: TableClient, message: type[Any], body: dict[str, Any]) -> Any:
    seq = await client.send(message, **body)
    found = await client.wait_for((*Case.reply, protocol.ErrorMessage), lambda m: m.ref == seq)
    return found


async def test_every_command_as_every_sender(bridge: Bridge) -> None:
    table = bridge.table("a", ["alice", "bob"])
    other = bridge.table("b", ["carol"])
    clients: dict[str, TableClient] = {
        name: await bridge.member(table, name) for name in ("gm", "alice", "bob", "spectator-1")
    }
    clients["carol"] = await bridge.member(other, "carol")
    clients["nobody"] = await bridge.connect()

    def fingerprints(tables: tuple[Table, ...] = (table, other)) -> list[tuple[Any, ...]]:
        return [table_fingerprint(t) for t in tables]

    # Warm up: the GM issues a token the revoke row will revoke.
    issued = await reply(clients["gm"], protocol.IssueToken, {"participant": "x", "role": "player"})
    assert isinstance(issued, protocol.TokenIssued)
    played: set[type[Any]] = set()
    prompt_id = "?"
    for case_index in range(len(cases("", ""))):
        case = cases(issued.token, prompt_id)[case_index]
        played.add(case.message)
        for sender in SENDERS:
            if sender not in case.refused:
                continue
            before = fingerprints()
            answer = await reply(clients[sender], case.message, case.body)
            assert isinstance(answer, protocol.ErrorMessage), (case.message, sender, answer)
            assert answer.code in case.refused[sender], (case.message, sender, answer)
            assert fingerprints() == before, (case.message, sender)
        assert set(case.refused) | set(case.allowed) == set(SENDERS), case.message
        # The first allowed sender sends it (and it is accepted); the others would pass
        # the permission table too (the GM may do anything: the engine's turn order and
        # budget still apply to it).
        for sender in case.allowed[1:]:
            role = "gm" if sender == "gm" else "player"
            assert permissions.refusal(role, case.message(seq=1, **case.body)) is None
        sender = case.allowed[0]
        answer = await reply(clients[sender], case.message, case.body)
        assert isinstance(answer, Case.reply), (case.message, sender, answer)
        if case.message is protocol.Move and table.committed.combat is not None:
            prompt = await clients["gm"].wait_for(protocol.Prompt)
            prompt_id = prompt.prompt
    assert played == {case.message for case in cases("", "")}


def test_every_command_row_is_in_the_matrix() -> None:
    rows = {cls for cls, rule in permissions.PERMISSIONS.items() if rule.kind != "session"}
    played = {case.message for case in cases("", "")}
    missing = sorted(c.__name__ for c in rows - played)
    assert not missing, f"add matrix entries to tests/bridge/test_permissions.py for {missing}"


async def test_session_messages_by_sender(bridge: Bridge) -> None:
    table = bridge.table("a", ["alice"])
    spectator = await bridge.member(table, "spectator-1")
    stranger = await bridge.connect()
    for client, ok in ((spectator, True), (stranger, False)):
        seq = await client.send(protocol.Ping)
        answer = await client.wait_for((protocol.Pong, protocol.ErrorMessage))
        assert isinstance(answer, protocol.Pong) is ok
        if not ok:
            assert answer.code == "not_joined" and answer.ref == seq
        seq = await client.send(protocol.Resync, after=-1)
        if not ok:
            answer = await client.reply_to(seq)
            assert answer.code == "not_joined"  # type: ignore[union-attr]
    seq = await spectator.send(protocol.Join, token="whatever", last_event=None)
    answer = await spectator.reply_to(seq)
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "already_joined"


def test_every_client_message_has_a_permission_row() -> None:
    missing = [
        cls.__name__
        for cls in protocol.CLIENT_MESSAGE_TYPES.values()
        if cls not in permissions.PERMISSIONS
    ]
    assert not missing, f"add rows to vtt_bridge/permissions.py for: {missing}"


@dataclass(frozen=True)
class Unlisted:
    """A message type nobody wrote a permission row for."""

    TYPE: ClassVar[str] = "unlisted"
    seq: int


def test_a_message_without_a_row_is_refused_for_everyone() -> None:
    message: Any = Unlisted(seq=1)
    for role in ("gm", "player", "spectator", ""):
        refused = permissions.refusal(role, message)
        assert refused is not None and refused.code == "not_permitted"


async def test_dice_policy(bridge: Bridge) -> None:
    table = bridge.table("dice", ["alice"], dice="server")
    gm = await bridge.member(table, "gm")
    alice = await bridge.member(table, "alice")
    scene = protocol.SceneSpec.from_wire(scene_body())
    assert isinstance(await reply(gm, protocol.LoadScene, {"scene": scene}), protocol.Ack)
    start = {"ruleset": "hero-supplement", "aware": None, "seed": 3}
    assert isinstance(await reply(gm, protocol.StartCombat, start), protocol.Ack)
    move = {"token": "hero", "path": ((3, 5), (2, 5))}
    assert isinstance(await reply(alice, protocol.Move, move), protocol.Ack)
    prompt = await gm.wait_for(protocol.Prompt)
    rolled = {"prompt": prompt.prompt, "accept": True, "rolls": (4, 5, 6)}
    before = table_fingerprint(table)
    answer = await reply(gm, protocol.AnswerPrompt, rolled)  # the server rolls here
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "dice_refused"
    answer = await reply(alice, protocol.AnswerPrompt, rolled)  # and players never
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "dice_refused"
    assert table_fingerprint(table) == before
    config = {"dice": "gm", "prompt_timeout_ms": None}
    assert isinstance(await reply(gm, protocol.ConfigureTable, config), protocol.Ack)
    answer = await reply(alice, protocol.AnswerPrompt, rolled)
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "dice_refused"
    assert isinstance(await reply(gm, protocol.AnswerPrompt, rolled), protocol.Ack)
    attack = await alice.event("attack_rolled")
    assert wire_data(attack)["dice"] == [4, 5, 6]


async def test_revoked_token_is_closed_and_cannot_rejoin(bridge: Bridge) -> None:
    table = bridge.table("rev", ["alice"])
    gm = await bridge.member(table, "gm")
    issued = await reply(gm, protocol.IssueToken, {"participant": "dave", "role": "player"})
    assert isinstance(issued, protocol.TokenIssued)
    dave = await bridge.connect()
    await dave.join(issued.token)
    revoked = await reply(gm, protocol.RevokeToken, {"token": issued.token})
    assert isinstance(revoked, protocol.TokenRevoked)
    assert await closed_with(dave.ws) == 1008
    again = await bridge.connect()
    await again.send(protocol.Join, token=issued.token, last_event=None)
    error = await again.wait_for(protocol.ErrorMessage)
    assert error.code == "bad_token"
    gm_token = next(t.token for t in table.tokens.values() if t.role == "gm")
    answer = await reply(gm, protocol.RevokeToken, {"token": gm_token})
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "unknown_join_token"
    answer = await reply(gm, protocol.IssueToken, {"participant": "gm", "role": "player"})
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "bad_value"


def tied_scene() -> protocol.SceneSpec:
    """The standard scene with the hero and the ogre both at INIT 10."""
    body = scene_body()
    for token in body["tokens"]:
        token["stats"] = {**token["stats"], "init": 10}
    return protocol.SceneSpec.from_wire(body)


async def test_the_table_supplies_the_initiative_tie_breaks_under_the_dice_policy(
    bridge: Bridge,
) -> None:
    table = bridge.table("tie", ["alice"], dice="server")
    gm = await bridge.member(table, "gm")
    assert isinstance(await reply(gm, protocol.LoadScene, {"scene": tied_scene()}), protocol.Ack)
    start = {"ruleset": "hero-supplement", "aware": None, "seed": 3, "rolls": (2, 5)}
    before = table_fingerprint(table)
    answer = await reply(gm, protocol.StartCombat, start)  # the server rolls here
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "dice_refused"
    assert table_fingerprint(table) == before
    config = {"dice": "gm", "prompt_timeout_ms": None}
    assert isinstance(await reply(gm, protocol.ConfigureTable, config), protocol.Ack)
    too_many = {**start, "rolls": (2, 5, 6)}
    answer = await reply(gm, protocol.StartCombat, too_many)
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "bad_rolls"
    assert isinstance(await reply(gm, protocol.StartCombat, start), protocol.Ack)
    rolled = await gm.event("dice_rolled")
    assert wire_data(rolled)["results"] == [2, 5] and wire_data(rolled)["source"] == "table"
    order = await gm.event("initiative_order")
    assert wire_data(order)["order"] == ["hero", "ogre"]  # scene order: ogre 2, hero 5


async def test_a_players_move_never_carries_dice(bridge: Bridge) -> None:
    table = bridge.table("movedice", ["alice"], dice="gm")
    gm = await bridge.member(table, "gm")
    alice = await bridge.member(table, "alice")
    assert isinstance(await reply(gm, protocol.LoadScene, {"scene": scene_spec()}), protocol.Ack)
    start = {"ruleset": "hero-supplement", "aware": None, "seed": 3}
    assert isinstance(await reply(gm, protocol.StartCombat, start), protocol.Ack)
    move = {"token": "hero", "path": ((4, 4),), "attack": "ogre", "rolls": (6, 6, 6)}
    before = table_fingerprint(table)
    answer = await reply(alice, protocol.Move, move)
    assert isinstance(answer, protocol.ErrorMessage) and answer.code == "dice_refused"
    assert table_fingerprint(table) == before


def test_under_players_a_prompt_answer_carries_dice_only_from_its_addressee() -> None:
    # An attack of opportunity addressed to alice: her dice are hers to give, bob's not.
    prompt = Prompt("p1", "attack_of_opportunity", "alice", "hero", "ogre", (3, 5), (3.5, 5.0))
    combat = Combat(
        ruleset="hero-supplement",
        order=("hero", "ogre"),
        scores=(("hero", 10), ("ogre", 9)),
        aware=("hero", "ogre"),
        prompts=(prompt,),
    )
    state = EncounterState(combat=combat)
    answer = protocol.AnswerPrompt(seq=1, prompt="p1", accept=True, rolls=(4, 5, 6))
    whose = permissions.dice_owner(state)
    assert whose(answer) == "alice"
    mine = permissions.field_refusal(
        "player", answer, "players", participant="alice", rolls_for=whose
    )
    assert mine is None
    theirs = permissions.field_refusal(
        "player", answer, "players", participant="bob", rolls_for=whose
    )
    assert theirs is not None and theirs.code == "dice_refused" and "'alice'" in theirs.message
    at_gm_table = permissions.field_refusal(
        "player", answer, "gm", participant="alice", rolls_for=whose
    )
    assert at_gm_table is not None and at_gm_table.code == "dice_refused"
