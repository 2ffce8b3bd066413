"""Latency figures the benchmarks print: nearest-rank percentiles of timings in seconds,
reported in milliseconds (bench_watch, bench_fresh, bench_mcp_http)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank ``share`` percentile (0.5: the median) of a non-empty sequence."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary_ms(seconds: Sequence[float], decimals: int = 1) -> dict[str, Any]:
    """``n``, p50, p95 and max in milliseconds (rounded to ``decimals``); ``{"n": 0}`` for none."""
    if not seconds:
        return {"n": 0}
    return {
        "n": len(seconds),
        "p50_ms": round(1000 * percentile(seconds, 0.5), decimals),
        "p95_ms": round(1000 * percentile(seconds, 0.95), decimals),
        "max_ms": round(1000 * max(seconds), decimals),
    }
