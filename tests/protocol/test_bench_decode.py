"""bench.decode runs and reports every figure it promises (its numbers are not tested)."""

from __future__ import annotations

from bench.decode import measure


def test_decode_bench_reports_its_figures() -> None:
    figures = measure(rounds=20)
    for name in ("msgpack", "json"):
        assert set(figures[name]) == {
            "decode_us",
            "parse_us",
            "ratio_decode_parse",
            "encode_event_us",
        }
        assert figures[name]["decode_us"] > 0
