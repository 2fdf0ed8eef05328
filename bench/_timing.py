"""Timing one callable many times: the samples, their median, their quickest."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def samples_ms(fn: Callable[[], object], runs: int, *, warm: bool = False) -> list[float]:
    """Milliseconds per call over ``runs`` calls (one untimed call first when ``warm``)."""
    if warm:
        fn()  # caches, page cache
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def median_ms(fn: Callable[[], object], runs: int, *, warm: bool = False) -> float:
    return statistics.median(samples_ms(fn, runs, warm=warm))


def best_ms(fn: Callable[[], object], runs: int) -> float:
    """The quickest call: the cost when the machine is not busy with other work."""
    return min(samples_ms(fn, runs))
