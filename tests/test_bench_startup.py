"""`tabletop bench startup` runs the commands as fresh processes and prints what it measured."""

from __future__ import annotations

import argparse
import json

import pytest

from tabletop.benchmarks import startup as bench


def test_the_childs_report_lines_are_read_in_megabytes():
    err = "some warning\nPEAK_KB 2048\nFILE_KB 1024\nPEAK_KB 4096\n"
    assert bench._reported_mb(err, "PEAK_KB") == 4.0     # the last report counts
    assert bench._reported_mb(err, "FILE_KB") == 1.0
    assert bench._reported_mb("no report at all", "FILE_KB") == 0.0


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_quick_benchmark_measures_every_target(capsys):
    assert bench.run(argparse.Namespace(quick=True, json=True)) == 0
    out = json.loads(capsys.readouterr().out)
    results, targets = out["results"], out["targets"]
    assert set(targets) <= set(results)
    assert 0 < results["import_rules_ms"] and 0 < results["replay_s"] and 0 < results["score_s"]
    # Python alone is several MB resident; what was mapped from files is part of the peak
    assert 5 < results["score_mb"] and 0 <= results["score_file_mb"] <= results["score_mb"]
