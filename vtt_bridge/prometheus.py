"""``/metrics`` in Prometheus's text exposition format, and the event loop's lag.

``prometheus-client`` writes the format (escaping, ``# HELP``/``# TYPE``, histogram
buckets, ``_total`` and ``_created``) so no scraper meets a home-made dialect. What the
hub counts as it serves lives in :class:`vtt_bridge.metrics.Metrics`: its labelled
counters and histograms are the library's own objects, in a registry of this server's;
the plain counters and the gauges are read from the hub when scraped
(:class:`HubCollector`), so nothing is counted twice. ``/metrics.json`` keeps the
bridge's JSON shape for the benchmarks and for humans with ``curl``.

Names follow Prometheus's conventions: a ``vtt_bridge_`` prefix, base units
(seconds), ``_total`` on counters. Each metric is listed in the operations guide with a
query for its dashboard.
"""

from __future__ import annotations

from collections.abc import Iterator

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from vtt_bridge.hub import Hub
from vtt_bridge.metrics import COUNTERS

#: Counters of :data:`COUNTERS` that another metric already says: by labels
#: (``commands``, ``refusals``) or as a histogram's ``_sum`` (``commit_rows``) and
#: ``_count`` (``commit_batches``).
SAID_ELSEWHERE = frozenset({"commands", "refusals", "commit_rows", "commit_batches"})


class HubCollector(Collector):
    """The hub's plain counters and its gauges, read at scrape time."""

    def __init__(self, hub: Hub) -> None:
        """Collect from ``hub``."""
        self.hub = hub

    def collect(self) -> Iterator[Metric]:
        """Every plain counter as ``vtt_bridge_<name>_total``, refusals by code, and the
        open connections, loaded tables and tables with someone joined."""
        metrics = self.hub.metrics
        for name in COUNTERS:
            if name not in SAID_ELSEWHERE:
                yield CounterMetricFamily(
                    f"vtt_bridge_{name}", f"{name.replace('_', ' ')}.", metrics.counts[name]
                )
        refusals = CounterMetricFamily(
            "vtt_bridge_refusals", "Messages refused, by error code.", labels=["code"]
        )
        for code, n in sorted(metrics.refusals.items()):
            refusals.add_metric([code], n)
        yield refusals
        yield GaugeMetricFamily(
            "vtt_bridge_connections_open", "WebSocket connections open.", metrics.connections_open
        )
        tables = self.hub.tables.values()
        yield GaugeMetricFamily("vtt_bridge_tables", "Tables loaded.", len(tables))
        yield GaugeMetricFamily(
            "vtt_bridge_tables_active",
            "Tables with at least one participant joined.",
            sum(1 for table in tables if table.sessions),
        )
        yield GaugeMetricFamily(
            "vtt_bridge_storage_failing",
            "1 while commits fail (a full disk), else 0.",
            int(self.hub.committer.storage_failure is not None),
        )


def register(hub: Hub) -> None:
    """Add the hub's collector to its metrics registry (once per hub)."""
    hub.metrics.registry.register(HubCollector(hub))


def exposition(hub: Hub) -> web.Response:
    """The registry in Prometheus's text format."""
    hub.metrics.flush()
    body = generate_latest(hub.metrics.registry)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
