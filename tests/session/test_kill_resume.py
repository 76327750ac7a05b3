"""Kill the session process at random points, resume it, and compare with an uninterrupted run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from tabletop.session import Journal, Session, SimClock
from tabletop.session.core import load_game_parts

KILLS = 50


def _driver(journal, script):
    return subprocess.Popen([sys.executable, "-m", "tabletop.session.driver", str(journal), str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _snapshot(journal_path, script):
    setup = json.loads(script.read_text())["setup"]
    board, lexicon = load_game_parts(setup)
    journal = Journal(journal_path)
    entries = [(e.seq, e.kind, e.body, e.status, e.result) for e in journal.entries("kill-test")]
    session = Session.resume(journal, "kill-test", board=board, lexicon=lexicon, clock=SimClock())
    snap = {"entries": entries, "state": session.game.state(), "record": session.record().to_json(),
            "status": journal.game("kill-test").status}
    journal.close()
    return snap


@pytest.mark.slow
def test_fifty_random_kills_lose_and_double_nothing(sp_script, tmp_path):
    reference = tmp_path / "reference.sqlite"
    proc = _driver(reference, sp_script)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    expected = _snapshot(reference, sp_script)
    steps = json.loads(sp_script.read_text())["steps"]
    assert len(expected["entries"]) == len(steps)
    assert expected["state"]["over"] and expected["status"] == "over"

    rng = random.Random(2026)
    kills, runs, pendings = 0, 0, 0
    while kills < KILLS:
        runs += 1
        journal = tmp_path / f"killed-{runs}.sqlite"
        while True:
            proc = _driver(journal, sp_script)
            line = proc.stdout.readline()          # "ready N pending=P": resumed, about to submit
            assert line.startswith("ready"), proc.stderr.read()
            pendings += int(line.split("pending=")[1])
            time.sleep(rng.uniform(0.0, 0.06))
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                kills += 1
                if kills >= KILLS:
                    proc = _driver(journal, sp_script)
                    proc.communicate(timeout=120)
                    break
            else:
                proc.communicate()
                assert proc.returncode == 0
                break
        assert _snapshot(journal, sp_script) == expected, f"run {runs} after {kills} kills differs"
    print(f"{kills} kills over {runs} games; {pendings} resumes found an event journaled but not yet applied")
