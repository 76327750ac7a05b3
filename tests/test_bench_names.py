"""``tabletop bench NAME`` offers exactly the modules of :mod:`tabletop.benchmarks` that can run:
each one it names has a ``run(args)``, and each it leaves out (the shared helpers and the parts
of another benchmark) has none."""

from __future__ import annotations

import importlib
import pkgutil

import tabletop.benchmarks as benchmarks
from tabletop.commands.bench import HELPERS, available


def test_every_benchmark_offered_runs_and_every_helper_is_left_out():
    names = {info.name for info in pkgutil.iter_modules(benchmarks.__path__)}
    assert set(HELPERS) <= names, f"HELPERS names no module: {set(HELPERS) - names}"
    assert set(available()) == names - set(HELPERS)
    for name in sorted(names):
        module = importlib.import_module(f"tabletop.benchmarks.{name}")
        assert callable(getattr(module, "run", None)) == (name not in HELPERS), name
    assert {"stats", "scenes"} <= set(HELPERS) and {"rules", "vision", "buzzers"} <= set(available())
