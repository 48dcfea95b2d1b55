"""Tables made and archived on a running server by its operator: ``POST
/admin/create_table`` and ``/admin/archive_table`` behind the ops token, and ``vtt-bridge
create-table`` / ``archive-table --server`` sending them.  A table made so joins at
once; an archived one closes its members (1008, "table archived"), refuses joins with
``table_archived`` and keeps its log.  Both are idempotent; nobody without the server's
credential (a table's GM included) may send them."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import protocol
from bench.crash import free_port
from tests.bridge.conftest import Bridge, closed_with, running
from tests.scenario import scene_spec
from tests.wsclient import TableClient

OPS = "ops-s3cret-token"
ROOT = Path(__file__).resolve().parents[2]


async def post(
    bridge: Bridge, kind: str, body: Any, token: str | None = OPS
) -> tuple[int, dict[str, Any]]:
    """An operator request over HTTP; its status and JSON answer."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    url = bridge.server.make_url(f"/admin/{kind}")
    async with bridge.http.post(url, json=body, headers=headers) as response:
        return response.status, await response.json()


def tokens_of(answer: dict[str, Any]) -> dict[str, str]:
    return {t["participant"]: t["token"] for t in answer["tokens"]}


async def joined(bridge: Bridge, token: str) -> TableClient:
    client = await bridge.connect()
    welcome = await client.join(token)
    assert welcome.participant
    return client


async def test_a_table_made_by_the_operator_joins_at_once_and_a_retry_makes_no_second(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, ops_token=OPS) as bridge:
        body = {"name": "Friday", "players": ["alice", "bob"], "spectators": 1,
                "dice": "server", "request": "friday-1"}  # fmt: skip
        status, made = await post(bridge, "create_table", body)
        assert status == 200 and made["type"] == "table_created", made
        assert [(t["participant"], t["role"]) for t in made["tokens"]] == [
            ("gm", "gm"), ("alice", "player"), ("bob", "player"), ("spectator-1", "spectator"),
        ]  # fmt: skip
        table = bridge.hub.tables[made["table"]]
        assert (table.row.name, table.row.dice) == ("Friday", "server")
        gm = await joined(bridge, tokens_of(made)["gm"])
        seq = await gm.send(protocol.LoadScene, scene=scene_spec())
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        await joined(bridge, tokens_of(made)["alice"])
        # Sent again: the same table and tokens, nothing new stored.
        again = await post(bridge, "create_table", body)
        assert again == (200, made)
        assert len(await bridge.hub.committer.in_db(bridge.hub.store.tables)) == 1
        # The same request with other seats is refused, changing nothing.
        status, reused = await post(bridge, "create_table", {**body, "players": ["carol"]})
        assert (status, reused["code"], reused["path"]) == (409, "request_reused", "request")
        # Without a request, each is a new table.
        first = await post(bridge, "create_table", {"name": "Friday"})
        second = await post(bridge, "create_table", {"name": "Friday"})
        assert first[1]["table"] != second[1]["table"]
    async with running(tmp_path, ops_token=OPS) as bridge:  # after a restart too
        assert await post(bridge, "create_table", body) == (200, made)


async def test_the_same_request_sent_twice_at_once_makes_one_table(tmp_path: Path) -> None:
    async with running(tmp_path, ops_token=OPS) as bridge:
        body = {"name": "Saturday", "players": ["alice"], "request": "saturday"}
        first, second = await asyncio.gather(
            post(bridge, "create_table", body), post(bridge, "create_table", body)
        )
        assert first == second and first[0] == 200, (first, second)
        assert len(await bridge.hub.committer.in_db(bridge.hub.store.tables)) == 1
        assert list(bridge.hub.tables) == [first[1]["table"]]


async def test_who_may_not_make_tables_and_bad_requests_change_nothing(tmp_path: Path) -> None:
    body = {"name": "Friday", "players": ["alice"]}
    async with running(tmp_path) as bridge:  # no --ops-token: nobody may
        status, answer = await post(bridge, "create_table", body)
        assert (status, answer["code"]) == (403, "no_credential")
        assert not bridge.hub.tables
    async with running(tmp_path, ops_token=OPS) as bridge:
        gm_token = next(t.token for t in bridge.table("t", []).tokens.values())
        for token in (None, "wrong", gm_token):  # a table's GM token is no credential
            status, answer = await post(bridge, "create_table", body, token=token)
            assert (status, answer["code"]) == (401, "unauthorized")
        cases = [
            ({"name": "x", "players": ["gm"]}, 400, "reserved_participant", "players[0]"),
            ({"name": "x", "players": ["a", "a"]}, 400, "bad_value", "players[1]"),
            ({"name": "x", "dice": "everyone"}, 400, "bad_value", "dice"),
            ({"name": "x", "seats": 3}, 400, "unknown_field", "seats"),
            ({"players": ["a"]}, 400, "missing_field", "name"),
        ]
        for request, code, name, path in cases:
            status, answer = await post(bridge, "create_table", request)
            assert (status, answer["code"], answer["path"]) == (code, name, path), answer
        status, answer = await post(bridge, "drop_everything", {})
        assert (status, answer["code"]) == (404, "unknown_type")
        assert len(bridge.hub.tables) == 1


async def test_archiving_closes_the_members_refuses_joins_and_keeps_the_log(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, ops_token=OPS) as bridge:
        _, made = await post(bridge, "create_table", {"name": "Sunday", "players": ["alice"],
                                                      "request": "sunday"})  # fmt: skip
        gm = await joined(bridge, tokens_of(made)["gm"])
        alice = await joined(bridge, tokens_of(made)["alice"])
        seq = await gm.send(protocol.LoadScene, scene=scene_spec())
        assert isinstance(await gm.reply_to(seq), protocol.Ack)
        logged = await bridge.hub.committer.in_db(bridge.hub.store.log, made["table"])
        closes = asyncio.gather(closed_with(gm.ws), closed_with(alice.ws))
        status, archived = await post(bridge, "archive_table", {"table": "Sunday"})
        assert (status, archived) == (200, {"type": "table_archived", "table": made["table"],
                                            "name": "Sunday", "closed": 2})  # fmt: skip
        assert list(await asyncio.wait_for(closes, 10)) == [1008, 1008]
        assert made["table"] not in bridge.hub.tables
        counts = bridge.hub.metrics.snapshot()
        assert (counts["tables_created"], counts["tables_archived"]) == (1, 1)
        late = await bridge.connect()
        await late.send(protocol.Join, token=tokens_of(made)["alice"], last_event=None)
        refused = await late.wait_for(protocol.ErrorMessage)
        assert (refused.code, refused.path) == ("table_archived", "body.token")
        assert "'Sunday' was archived" in refused.message
        # Idempotent: archived again, the same table, nobody left to close.
        again = await post(bridge, "archive_table", {"table": made["table"]})
        assert again == (200, {**archived, "closed": 0})
        status, answer = await post(bridge, "archive_table", {"table": "nothing"})
        assert (status, answer["code"]) == (404, "unknown_table")
        # Its request cannot make it again; its log is all there.
        status, answer = await post(bridge, "create_table", {"name": "Sunday",
                                    "players": ["alice"], "request": "sunday"})  # fmt: skip
        assert (status, answer["code"]) == (409, "table_archived")
        kept = await bridge.hub.committer.in_db(bridge.hub.store.log, made["table"])
        assert kept == logged and kept


@pytest.mark.parametrize("how", ["server", "database"])
async def test_the_command_line_makes_and_archives_tables_live(tmp_path: Path, how: str) -> None:
    async with running(tmp_path, ops_token=OPS, revocation_poll=0.05) as bridge:
        reach = (
            ["--server", str(bridge.server.make_url("/")), "--ops-token", OPS]
            if how == "server"
            else ["--db", str(bridge.config.database)]
        )
        code, out, err = await vtt_bridge("create-table", "Monday", "--player", "alice", *reach)
        assert code == 0, err
        tokens = {line.split()[1]: line.split()[-1] for line in out.splitlines()[1:]}
        alice = await joined(bridge, tokens["alice"])
        closing = asyncio.ensure_future(closed_with(alice.ws))
        code, out, err = await vtt_bridge("archive-table", "Monday", *reach)
        assert code == 0, err
        assert await asyncio.wait_for(closing, 10) == 1008
        late = await bridge.connect()
        await late.send(protocol.Join, token=tokens["gm"], last_event=None)
        assert (await late.wait_for(protocol.ErrorMessage)).code == "table_archived"
        if how == "server":  # a wrong credential is said, and nothing is made
            code, _, err = await vtt_bridge(
                "create-table", "Tuesday", *reach[:2], "--ops-token", "wrong"
            )
            assert code == 1 and "unauthorized" in err
            assert not [t for t in bridge.hub.tables.values() if t.row.name == "Tuesday"]


async def vtt_bridge(*args: str) -> tuple[int, str, str]:
    """The real command line in its own process: exit code, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "vtt_bridge", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_with_an_ops_port_only_that_listener_makes_tables(tmp_path: Path) -> None:
    # A real ``vtt-bridge serve`` with its operations on their own port: the main
    # address does not answer the operator's requests (404), the ops listener does.
    port, ops_port = free_port(), free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "vtt_bridge", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--ops-host", "127.0.0.1", "--ops-port", str(ops_port), "--ops-token", OPS],
        cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        async with aiohttp.ClientSession() as http:
            auth = {"Authorization": f"Bearer {OPS}"}
            body = {"name": "Wednesday"}
            for _ in range(600):  # until it listens
                try:
                    async with http.get(f"http://127.0.0.1:{ops_port}/healthz", headers=auth):
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
            main = f"http://127.0.0.1:{port}/admin/create_table"
            async with http.post(main, json=body, headers=auth) as response:
                assert response.status == 404
            code, out, err = await vtt_bridge(
                "create-table", "Wednesday", "--server", f"http://127.0.0.1:{ops_port}",
                "--ops-token", OPS,
            )  # fmt: skip
            assert code == 0, err
            gm_token = out.split()[-1]
            client = TableClient(await http.ws_connect(f"http://127.0.0.1:{port}/ws"))
            assert (await client.join(gm_token)).role == "gm"
            await client.close()
    finally:
        server.terminate()
        server.wait(30)
