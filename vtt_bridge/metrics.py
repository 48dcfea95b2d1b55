"""Counters the bridge keeps, served as JSON on ``/metrics``.

Plain numbers, no clock reads: the server measures commit latency itself (with a
monotonic clock, outside the hub) and hands the figures in.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

LATENCY_WINDOW = 4096
#: The counters ``/metrics`` always lists, zero until something counts them (the README
#: documents each), so a scraper sees the same keys from the first request on.
COUNTERS = (
    "connections", "joins", "commands", "commands_committed", "refusals",
    "prompts_opened", "prompts_expired", "retransmits", "rate_limited", "join_timeouts",
    "origin_refused", "tokens_issued", "tokens_revoked", "snapshots", "commit_batches",
    "commit_rows", "replay_divergences", "tables_carried_forward", "connections_refused",
    "token_connections_refused",
)  # fmt: skip


class Metrics:
    """Connections, commands, refusals, prompts, retransmissions and commit latency."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter(dict.fromkeys(COUNTERS, 0))
        self.refusals: Counter[str] = Counter()
        self.connections_open = 0
        self._commit_ms: deque[float] = deque(maxlen=LATENCY_WINDOW)
        self.commit_ms_max = 0.0

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
