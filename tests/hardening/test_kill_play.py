"""``kill -9`` of ``tabletop play`` itself (web server and console) while events arrive over HTTP:
every event the server acknowledged is in the journal after ``tabletop resume``."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from tabletop.session import Journal

KILLS = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(args: list[str], env: dict) -> tuple[subprocess.Popen, str, str]:
    """Start ``tabletop ARGS`` and wait for its host console link; return (process, base url, host token)."""
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = re.search(r"host console: (http://[^/]+)/host\?token=(\S+)", line)
        if found:
            threading.Thread(target=proc.stdout.read, daemon=True).start()      # keep the pipe drained
            return proc, found.group(1), found.group(2)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"tabletop {' '.join(args)} did not start: {proc.stdout.read()}")


def post(url: str, token: str, event: dict) -> dict | None:
    request = urllib.request.Request(f"{url}/api/host/event", data=json.dumps({"event": event}).encode(),
                                     headers={"X-Tabletop-Token": token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
        return None                                 # not acknowledged: the process died under it


@pytest.mark.slow
def test_kill_9_of_tabletop_play_loses_no_acknowledged_event(tmp_path):
    journal = tmp_path / "journal.sqlite"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TABLETOP_CONFIG"] = str(tmp_path / "none.toml")
    rng = random.Random(12)
    acknowledged: dict[int, dict] = {}
    proc, url, token = start(["play", "extradiction-sp", "--variant", "speed", "--players", "Ann,Ben",
                              "--journal", str(journal), "--port", str(free_port()), "--no-voice"], env)
    game_id = None
    n = 0
    for kill in range(KILLS + 1):
        stop = threading.Event()

        def feed() -> None:
            nonlocal n
            while not stop.is_set():
                n += 1
                event = {"type": "pass", "player": "Ann" if n % 2 else "Ben", "note": f"n{n}"}
                answer = post(url, token, event)
                if answer and "seq" in answer:
                    acknowledged[answer["seq"]] = answer["event"]

        feeder = threading.Thread(target=feed)
        feeder.start()
        time.sleep(rng.uniform(0.3, 1.0))
        if kill < KILLS:
            os.kill(proc.pid, signal.SIGKILL)
        stop.set()
        feeder.join()
        if kill == KILLS:
            proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        if game_id is None:
            game_id = Journal(journal).games()[-1].id
        if kill < KILLS:
            proc, url, token = start(["resume", game_id, "--journal", str(journal), "--port", str(free_port()),
                                      "--no-voice"], env)
    entries = {e.seq: e for e in Journal(journal).entries(game_id)}
    assert len(acknowledged) > 20
    for seq, event in acknowledged.items():
        assert seq in entries, f"acknowledged event {seq} was lost"
        assert entries[seq].body == event
    assert all(e.status in ("accepted", "rejected") for e in entries.values())   # resume settled every pending one
