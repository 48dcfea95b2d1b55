"""Counters the bridge keeps, served on ``/metrics`` in Prometheus's text format
(:mod:`vtt_bridge.prometheus`) and as JSON on ``/metrics.json`` (what ``bench`` reads).

Plain numbers, no clock reads: the server measures latencies itself (with a monotonic
clock, outside the hub) and hands the figures in. The histograms are
``prometheus_client``'s own, in a registry of this server's (not the library's global
one), so every hub, and every test's server, counts apart.

The two labelled counters counted on every message and command (``messages`` and
``commands``) are counted as plain numbers and added to the library's counters when
``/metrics`` is scraped (:meth:`Metrics.flush`): the library's ``labels(...).inc()``
takes a lock and builds its label tuple per call, a microsecond and a half of every
command.  Each label's child is made when first counted, so its ``_created`` is when
that happened, as before.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any, TypeVar

from prometheus_client import CollectorRegistry, Histogram
from prometheus_client import Counter as PromCounter

#: Seconds: from a millisecond to ten seconds, finer where acknowledgements live.
LATENCY_BUCKETS = (
    0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
)  # fmt: skip
#: Commands in one group commit.
ROWS_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500)

LATENCY_WINDOW = 4096
#: The counters ``/metrics`` always lists, zero until something counts them (the README
#: documents each), so a scraper sees the same keys from the first request on.
COUNTERS = (
    "connections", "joins", "commands", "commands_committed", "refusals",
    "prompts_opened", "prompts_expired", "retransmits", "rate_limited", "join_timeouts",
    "origin_refused", "tokens_issued", "tokens_revoked", "snapshots", "commit_batches",
    "commit_rows", "replay_divergences", "tables_carried_forward", "connections_refused",
    "token_connections_refused", "commit_failures", "too_big", "handshakes_refused",
    "host_refused", "handshakes_abandoned", "tables_created", "tables_archived",
)  # fmt: skip


class Metrics:
    """Connections, commands, refusals, prompts, retransmissions and commit latency."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter(dict.fromkeys(COUNTERS, 0))
        self.refusals: Counter[str] = Counter()
        self.connections_open = 0
        self._commit_ms: deque[float] = deque(maxlen=LATENCY_WINDOW)
        self.commit_ms_max = 0.0
        self.registry = CollectorRegistry()
        self.messages = PromCounter(
            "vtt_bridge_messages",
            "Client messages decoded, by type.",
            ["type"],
            registry=self.registry,
        )
        self.commands = PromCounter(
            "vtt_bridge_commands",
            "Engine commands applied, by type and outcome (committed, refused, not_stored).",
            ["type", "outcome"],
            registry=self.registry,
        )
        self.ack_seconds = Histogram(
            "vtt_bridge_ack_seconds",
            "From a command's application to its acknowledgement (its commit included).",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "vtt_bridge_commit_seconds",
            "One group commit, fsync included.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.commit_rows = Histogram(
            "vtt_bridge_commit_rows",
            "Commands committed in one group commit.",
            buckets=ROWS_BUCKETS,
            registry=self.registry,
        )
        #: Per label(s), the library's child and what was counted since the last flush.
        self._messages: dict[str, _Tally] = {}
        self._commands: dict[tuple[str, str], _Tally] = {}
        self.loop_lag_seconds = Histogram(
            "vtt_bridge_event_loop_lag_seconds",
            "How late the event loop ran a timer: time every other table waited.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )

    def count(self, name: str, n: int = 1) -> None:
        """Add ``n`` to counter ``name``."""
        self.counts[name] += n

    def refused(self, code: str) -> None:
        """A message was refused with ``code``."""
        self.counts["refusals"] += 1
        self.refusals[code] += 1

    def commit(self, rows: int, ms: float) -> None:
        """One group commit of ``rows`` commands took ``ms`` milliseconds."""
        self.counts["commit_batches"] += 1
        self.counts["commit_rows"] += rows
        self._commit_ms.append(ms)
        self.commit_ms_max = max(self.commit_ms_max, ms)
        self.commit_seconds.observe(ms / 1000)
        self.commit_rows.observe(rows)

    def received(self, message_type: str) -> None:
        """A client message of ``message_type`` was decoded."""
        _count(self._messages, message_type, self.messages, message_type)

    def command_done(self, kind: str, outcome: str, seconds: float | None = None) -> None:
        """An engine command of ``kind`` ended ``outcome`` (``committed``, ``refused``,
        ``not_stored``); a committed one after ``seconds`` from its application."""
        _count(self._commands, (kind, outcome), self.commands, kind, outcome)
        if seconds is not None:
            self.ack_seconds.observe(seconds)

    def flush(self) -> None:
        """Add what was counted since the last flush to the library's labelled counters
        (before the registry is read)."""
        for tallies in (self._messages.values(), self._commands.values()):
            for tally in tallies:
                if tally.count:
                    tally.child.inc(tally.count)
                    tally.count = 0

    def snapshot(self) -> dict[str, Any]:
        """Every counter as a JSON-safe map."""
        window = sorted(self._commit_ms)

        def pct(p: float) -> float | None:
            if not window:
                return None
            return round(window[min(len(window) - 1, int(p * len(window)))], 3)

        return {
            "connections_open": self.connections_open,
            **dict(sorted(self.counts.items())),
            "refusals_by_code": dict(sorted(self.refusals.items())),
            "commit_ms": {"p50": pct(0.5), "p99": pct(0.99), "max": round(self.commit_ms_max, 3)},
        }


class _Tally:
    """A labelled counter's child and what was counted for it since the last flush."""

    __slots__ = ("child", "count")

    def __init__(self, child: PromCounter) -> None:
        self.child = child
        self.count = 0


K = TypeVar("K")


def _count(tallies: dict[K, _Tally], key: K, counter: PromCounter, *labels: str) -> None:
    """Count one under ``key``, making its tally (``counter``'s child for ``labels``)
    when first counted."""
    tally = tallies.get(key)
    if tally is None:
        tally = tallies[key] = _Tally(counter.labels(*labels))
    tally.count += 1
