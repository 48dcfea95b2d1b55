"""``/metrics`` speaks Prometheus: scraped from a real server after real traffic and read
with ``prometheus_client``'s own parser, every figure is the traffic's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
from aiohttp.test_utils import TestServer
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

import protocol
from tests.bridge.conftest import Bridge
from tests.bridge.test_durability import crowd_scene
from vtt_bridge import Config, create_app


async def scrape(bridge: Bridge) -> tuple[str, dict[str, list[Sample]]]:
    """The content type and every sample of ``/metrics``, by metric family."""
    async with bridge.http.get(bridge.server.make_url("/metrics")) as response:
        assert response.status == 200
        text = await response.text()
        kind = response.headers["Content-Type"]
    types = [line.split()[2] for line in text.splitlines() if line.startswith("# TYPE ")]
    assert len(types) == len(set(types)), "every metric family is declared once"
    return kind, {f.name: f.samples for f in text_string_to_metric_families(text)}


def value(samples: list[Sample], name: str, **labels: str) -> float:
    """The one sample called ``name`` with exactly ``labels``."""
    found = [s.value for s in samples if s.name == name and s.labels == labels]
    assert len(found) == 1, (name, labels, samples)
    return found[0]


async def test_metrics_are_prometheus_text_and_count_the_traffic(tmp_path: Path) -> None:
    config = Config(database=tmp_path / "db.sqlite3")
    async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
        bridge = Bridge(server, http, config)
        table = bridge.table("t", ["alice"])
        gm = await bridge.member(table, "gm")
        alice = await bridge.member(table, "alice")
        loaded = await gm.reply_to(await gm.send(protocol.LoadScene, scene=crowd_scene(["alice"])))
        assert isinstance(loaded, protocol.Ack)
        moved = await alice.reply_to(
            await alice.send(protocol.Move, token="t-alice", path=((0, 1),))
        )
        assert isinstance(moved, protocol.Ack)
        # alice's move of the GM's token: the engine refuses it.
        refused = await alice.reply_to(
            await alice.send(protocol.Move, token="t-gm", path=((2, 1),))
        )
        assert isinstance(refused, protocol.ErrorMessage)
        await alice.send(protocol.Ping)
        await alice.wait_for(protocol.Pong)
        await asyncio.sleep(0.1)  # the loop-lag ticker wakes every 10 ms

        kind, families = await scrape(bridge)
        assert kind.startswith("text/plain; version=")

        commands = families["vtt_bridge_commands"]
        assert (
            value(commands, "vtt_bridge_commands_total", type="load_scene", outcome="committed")
            == 1
        )
        assert value(commands, "vtt_bridge_commands_total", type="move", outcome="committed") == 1
        assert value(commands, "vtt_bridge_commands_total", type="move", outcome="refused") == 1
        messages = families["vtt_bridge_messages"]
        assert value(messages, "vtt_bridge_messages_total", type="move") == 2
        assert value(messages, "vtt_bridge_messages_total", type="join") == 2
        assert value(messages, "vtt_bridge_messages_total", type="ping") == 1
        refusals = families["vtt_bridge_refusals"]
        assert value(refusals, "vtt_bridge_refusals_total", code=refused.code) == 1

        assert value(families["vtt_bridge_connections_open"], "vtt_bridge_connections_open") == 2
        assert value(families["vtt_bridge_connections"], "vtt_bridge_connections_total") == 2
        assert value(families["vtt_bridge_tables"], "vtt_bridge_tables") == 1
        assert value(families["vtt_bridge_tables_active"], "vtt_bridge_tables_active") == 1
        assert value(families["vtt_bridge_storage_failing"], "vtt_bridge_storage_failing") == 0
        assert value(families["vtt_bridge_joins"], "vtt_bridge_joins_total") == 2

        acks = families["vtt_bridge_ack_seconds"]
        assert value(acks, "vtt_bridge_ack_seconds_count") == 2  # the two committed commands
        buckets = [s for s in acks if s.name == "vtt_bridge_ack_seconds_bucket"]
        counts = [s.value for s in buckets]
        assert counts == sorted(counts) and buckets[-1].labels["le"] == "+Inf"
        rows = families["vtt_bridge_commit_rows"]
        assert value(rows, "vtt_bridge_commit_rows_sum") == 2
        commits = value(rows, "vtt_bridge_commit_rows_count")
        assert (
            value(families["vtt_bridge_commit_seconds"], "vtt_bridge_commit_seconds_count")
            == commits
        )
        lag = families["vtt_bridge_event_loop_lag_seconds"]
        assert value(lag, "vtt_bridge_event_loop_lag_seconds_count") >= 1

        async with http.get(server.make_url("/metrics.json")) as response:
            counters = await response.json()
        assert counters["commands_committed"] == 2 and counters["joins"] == 2


async def test_each_server_counts_apart(tmp_path: Path) -> None:
    """Two servers in one process (as in the tests, or a test harness) do not share a
    registry: the second starts from zero."""
    for n in range(2):
        config = Config(database=tmp_path / f"db{n}.sqlite3")
        async with TestServer(create_app(config)) as server, aiohttp.ClientSession() as http:
            bridge = Bridge(server, http, config)
            table = bridge.table("t", ["alice"])
            await bridge.member(table, "gm")
            _, families = await scrape(bridge)
            assert value(families["vtt_bridge_joins"], "vtt_bridge_joins_total") == 1
