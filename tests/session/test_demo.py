"""`tabletop demo`: whole games on the simulated table, under a minute each, replayable records."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tabletop.cli import main

pytestmark = [pytest.mark.slow, pytest.mark.vision, pytest.mark.hardware]


def replay_json(path, capsys) -> dict:
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_sp_classic_demo_plays_a_whole_game_through_the_devices(tmp_path, capsys):
    from tabletop.table.demo import play_demo
    out = io.StringIO()
    record = tmp_path / "sp.json"
    report = play_demo("extradiction-sp", record=str(record), out=out, pace=0.0)
    text = out.getvalue()
    assert report.seconds < 60
    assert "scoreboard: http://" in text and "buzzer box: emulator on" in text and "mock pins" in text
    assert report.presses > 10 and report.sand_timer_starts > 10
    # most words come through the camera and the vision pipeline; the rest the host types in
    assert report.camera_writes >= 12 and report.camera_writes + report.host_writes == 21
    assert "is wrong" in text and "Challenge upheld" in text and "challenge fails" in text
    assert "Time is up: nobody answered right" in text and "seconds were up" in text
    assert "== Final: Scores: " in text and " wins." in text
    result = replay_json(record, capsys)
    assert result["totals"] == report.totals and sum(report.totals.values()) > 0
    assert len(result["turns"]) == 21                      # 3 players x 7 rounds


def test_demo_command_extradiction_level3(tmp_path, capsys):
    record = tmp_path / "x.json"
    proc = subprocess.run([sys.executable, "-m", "tabletop", "demo", "extradiction", "--record", str(record),
                           "--pace", "0"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "takes clue card 10 of 10" in proc.stdout and "same totals on replay" in proc.stdout
    final = next(line for line in proc.stdout.splitlines() if line.startswith("== Final: "))
    result = replay_json(record, capsys)
    for player, total in result["totals"].items():
        assert f"{player} {total}" in final
