"""``tabletop bench room`` runs (a short room: 4 tables for 3 s) and loses nothing."""

from __future__ import annotations

import pytest

from tabletop.benchmarks.room import measure, pi_tables


@pytest.mark.slow
def test_a_short_room_bench_counts_every_entry_and_times_the_page(broker):
    numbers = measure(4, 3.0, say=lambda *a: None)
    assert numbers["lost"] == 0 and numbers["counted"] == numbers["journalled"] > 0
    assert numbers["p50_ms"] is not None and 0 < numbers["p50_ms"] <= numbers["p99_ms"]
    assert numbers["page_updates"] > 0 and numbers["room_rss_mb"] > 10


def test_the_pi_estimate_scales_with_the_cost_per_entry():
    assert pi_tables(2.0) * 2 == pi_tables(1.0) and pi_tables(0.0) == 0
