"""What the benchmarks share to turn measurements into numbers and lines: a rate's 95 % interval,
percentiles, the clock, a report line, and the progress log that ``--json`` silences.

The one module of :mod:`tabletop.benchmarks` that the others import (``tests/test_import_graph.py``
holds them to it); it imports nothing of the project, and no third-party package.

>>> [round(v, 3) for v in wilson(99, 100)]
[0.946, 0.998]
>>> percentile([4.0, 1.0, 3.0, 2.0], 0.5), percentile_lower([4.0, 1.0, 3.0, 2.0], 0.5)
(3.0, 2.0)
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Iterable


def wilson(right: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a proportion: how far a rate measured on ``total`` cases
    could be from the true one (112 words cannot tell 88 % from 92 %); ``(0, 1)`` for no case.

    >>> [round(v, 3) for v in wilson(9, 10)]
    [0.596, 0.982]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if total == 0:
        return (0.0, 1.0)
    p = right / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (float(centre - half), float(centre + half))


def percentile(samples: Iterable[float], q: float) -> float:
    """The sample at rank ``int(q * n)`` of the ``n`` samples sorted (0-based; the largest when
    that is past the end): the p95 and p99 of the rules and buzzer timings.

    >>> percentile(range(1, 101), 0.99), percentile(range(1, 101), 1.0), percentile([7.5], 0.95)
    (100, 100, 7.5)
    """
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def percentile_lower(samples: Iterable[float], q: float) -> float:
    """The sample at rank ``int(q * (n - 1))`` of the ``n`` samples sorted (NumPy's "lower"
    method): the p95 of the camera readers' milliseconds, the p99 of the phones' clock error.

    >>> percentile_lower(range(1, 101), 0.99), percentile_lower(range(1, 101), 0.95)
    (99, 95)
    """
    ordered = sorted(samples)
    return ordered[int(q * (len(ordered) - 1))]


def ms_since(start: float) -> float:
    """Milliseconds since ``start``, a :func:`time.perf_counter` reading.

    >>> 0 <= ms_since(time.perf_counter()) < 1000
    True
    """
    return (time.perf_counter() - start) * 1000


def us_since(start_ns: int) -> float:
    """Microseconds since ``start_ns``, a :func:`time.perf_counter_ns` reading.

    >>> 0 <= us_since(time.perf_counter_ns()) < 1_000_000
    True
    """
    return (time.perf_counter_ns() - start_ns) / 1000


def _silent(*args: Any, **kwargs: Any) -> None:
    """Says nothing (the progress log of a ``--json`` run)."""


def progress_log(quiet: bool) -> Callable[..., None]:
    """Where a benchmark says what it is doing: :func:`print`, or nowhere when ``quiet`` (``--json``
    prints one JSON object and nothing else).

    >>> progress_log(True)("reading photos ...")
    >>> progress_log(False) is print
    True
    """
    return _silent if quiet else print


def report_line(name: str, value: Any, target: str | None = None, fmt: str = "{:.4f}",
                ci: tuple[float, float] | None = None) -> None:
    """Print one line of a camera benchmark's report: what, the number (``fmt`` for a number,
    as it is otherwise), its target and its 95 % interval.

    >>> report_line("letters right (120)", 0.85, ">= 0.97", ci=(0.7753, 0.903))
      letters right (120)                              0.8500   target >= 0.97   95% 0.7753-0.9030
    >>> report_line("  written / read", "7 / 0")
        written / read                                  7 / 0
    """
    shown = fmt.format(value) if isinstance(value, (int, float)) else str(value)
    interval = f"   95% {ci[0]:.4f}-{ci[1]:.4f}" if ci is not None else ""
    print(f"  {name:<44} {shown:>10}" + (f"   target {target}" if target is not None else "") + interval)
