"""Three table processes playing different games, through a real mosquitto, with a kill -9 of a
table, of the room service and of the broker, each mid-game: the room's final standings equal
the sum of the tables' own replays, with no event lost or counted twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from rules.record import replay
from tabletop.room.address import RoomAddress
from tabletop.room.service import RoomService
from tabletop.room.standings import leaderboard
from tabletop.session.core import Session, load_game_parts
from tabletop.session.journal import Journal
from tabletop.table.room_driver import write_script

from tests.room.conftest import free_port, wait_for

#: table -> (game, seconds between steps): each game lasts about 6-9 s
TABLES = {"1": ("letter-dice", 0.15), "2": ("extradiction-sp", 0.04), "3": ("extradiction", 0.25)}


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.getcwd()}


def _table(tmp_path, table: str, url: str) -> subprocess.Popen:
    game, pace = TABLES[table]
    return subprocess.Popen([sys.executable, "-m", "tabletop.table.room_driver", str(tmp_path / f"t{table}.sqlite"),
                             str(tmp_path / f"{game}.json"), url, table, str(pace)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())


def _room(tmp_path, broker_url: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "tabletop", "room", "serve", "club", "--broker", broker_url,
                             "--journal", str(tmp_path / "room.sqlite"), "--host", "127.0.0.1", "--port", str(port),
                             "--tables", "1,2,3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env())
    for line in proc.stdout:
        if line.startswith("room console:"):
            break
    return proc


def _kill(proc: subprocess.Popen) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def _snapshot(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/room", timeout=5) as answer:
        return json.load(answer)


def _own_replay(tmp_path, table: str):
    journal = Journal(tmp_path / f"t{table}.sqlite")
    session = Session.resume(journal, f"table-{table}")
    board, lexicon = load_game_parts(session.setup_data)
    result = replay(session.record(), board, lexicon)
    count = journal.count(f"table-{table}")
    journal.close()
    return session, result, count


@pytest.mark.slow
def test_kill_a_table_the_room_and_the_broker_and_lose_nothing(broker, tmp_path):
    for game, _pace in TABLES.values():
        write_script(tmp_path / f"{game}.json", game)
    url = f"{broker.url}/club"
    port = free_port()
    room = _room(tmp_path, broker.url, port)
    tables = {t: _table(tmp_path, t, url) for t in TABLES}
    try:
        for proc in tables.values():
            assert proc.stdout.readline().startswith("ready"), proc.stderr.read()
        time.sleep(1.5)
        _kill(tables["1"])                                   # a table dies mid-game ...
        time.sleep(0.5)
        tables["1"] = _table(tmp_path, "1", url)             # ... and resumes from its journal
        assert tables["1"].stdout.readline().startswith("ready")
        time.sleep(0.8)
        _kill(room)                                          # the room service dies ...
        time.sleep(0.8)
        broker.kill()                                        # ... then the broker, with what it kept for the room
        time.sleep(1.0)
        broker.start()                                       # the broker is started again ...
        time.sleep(0.5)
        room = _room(tmp_path, broker.url, port)             # ... and the room, from its own journal: it asks
        for table, proc in tables.items():
            line = ""
            while line.strip() != "done":
                line = proc.stdout.readline()
                assert line, f"table {table} stopped: {proc.stderr.read()[-2000:]}"
        own = {t: _own_replay(tmp_path, t) for t in TABLES}
        expected_entries = sum(count for _s, _r, count in own.values())
        try:
            wait_for(lambda: _snapshot(port)["counted"] == expected_entries, seconds=60, what="the room to catch up")
        except AssertionError:
            tables_seen = [{k: t.get(k) for k in ("table", "applied_seq", "table_seq", "waiting", "online")}
                           for t in _snapshot(port)["tables"]]
            raise AssertionError(f"the room has {tables_seen}; the tables journalled "
                                 f"{ {t: c for t, (_s, _r, c) in own.items()} }") from None
        snapshot = _snapshot(port)
        assert snapshot["refused"] == 0
        for table, proc in tables.items():
            proc.stdin.close()
            assert proc.wait(timeout=30) == 0, f"table {table}: {proc.stderr.read()[-2000:]}"
    finally:
        for proc in tables.values():
            if proc.poll() is None:
                _kill(proc)
        if room.poll() is None:
            room.terminate()
            room.wait(timeout=10)
    # the room's journal, read again: every table's game equals the table's own replay
    service = RoomService(RoomAddress.broker(broker.url, "club"), str(tmp_path / "room.sqlite"))
    try:
        assert service.replicas.keys() == {(t, f"table-{t}") for t in TABLES}
        for table, (session, result, count) in own.items():
            replica = service.replicas[(table, f"table-{table}")]
            assert replica.counted == count, f"table {table}: {replica.counted} entries counted of {count}"
            assert replica.totals == result.totals == session.game.totals
            assert replica.game.state() == session.game.state()
        board = leaderboard(service.replicas.values())
        for table, (session, result, _count) in own.items():
            lines = {s.player: s.points for s in board[session.setup.game]}
            assert lines == result.totals
        resends = [c for c in service.store.commands() if c["command"] == "resend"]
        print(f"{sum(r.counted for r in service.replicas.values())} entries counted once each; "
              f"the room asked for a gap {len(resends)} times")
        assert resends, "the broker's restart lost what it kept for the room: the room must have asked"
    finally:
        service.close()
