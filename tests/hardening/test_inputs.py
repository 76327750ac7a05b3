"""Nothing a player, a host or a network sends breaks the table (issue 12's cases, one by one)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest
from starlette.testclient import TestClient

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.errors import UserError
from tabletop.session import Journal, Session, SimClock
from tabletop.session.journal import GameLocked, JournalDamaged
from tabletop.table.live import console_command
from tabletop.session.refusals import BadEntry
from tabletop.web.app import MAX_BODY, make_app

WORDS = ["market", "penetrate", "cat"]


def new_session(path, game_id="g"):
    journal = Journal(path)
    return Session.create(journal, GameSetup("extradiction-sp", ("Ann", "Ben"), variant="speed"), "extradiction-sp",
                          lexicon=Lexicon(WORDS), clock=SimClock(), game_id=game_id)


def reopen(path, game_id="g"):
    return Session.resume(Journal(path), game_id, lexicon=Lexicon(WORDS), clock=SimClock())


@pytest.fixture
def table(tmp_path):
    session = new_session(tmp_path / "j.sqlite")
    client = TestClient(make_app(session))
    host = {"X-Tabletop-Token": session.tokens["host"]}
    seat = {"X-Tabletop-Token": session.tokens["seats"]["Ann"]}
    yield session, client, host, seat
    session.journal.close()


@pytest.mark.parametrize("event", [
    {"type": ["write"], "player": "Ann"},
    {"type": {"write": 1}},
    {"type": "pass", "player": "Ann", "t": "x"},
    {"type": "pass", "player": ["Ann"]},
    {"type": "write", "player": "Ann", "text": "CAT" * 1000, "row": 1, "col": 1, "dir": "across"},
    {"type": "write", "player": "Ann", "text": "CAT", "row": 10**30, "col": 1, "dir": "across"},
    {"type": "pass", "player": "Ann", "extra": {"deep": [1, 2]}},
])
def test_malformed_events_are_refused_and_never_journaled(table, event):
    session, client, host, _ = table
    before = session.journal.count("g")
    response = client.post("/api/host/event", json={"event": event}, headers=host)
    assert response.status_code == 400 and "Refused, not recorded" in response.json()["error"]
    assert session.journal.count("g") == before
    assert console_command(session, json.dumps(event)).startswith("Refused, not recorded")
    assert session.journal.count("g") == before


@pytest.mark.parametrize("raw", ['{"type": "pass", "player": "Ann", "t": Infinity}',
                                 '{"type": "pass", "player": "Ann", "t": NaN}',
                                 '{"type": "pass", "player": "Ann", "t": 1e999}'])
def test_non_finite_numbers_never_reach_the_journal(table, raw):
    session, client, host, _ = table
    response = client.post("/api/host/event", content='{"event": %s}' % raw, headers={**host, "content-type": "application/json"})
    assert response.status_code == 400
    assert session.journal.count("g") == 0
    assert client.get("/api/state").status_code == 200
    reply = console_command(session, raw)
    assert reply and "Traceback" not in reply and session.journal.count("g") == 0


@pytest.mark.parametrize("body", [{"seconds": 1e999}, {"seconds": -5}, {"seconds": "NaN"}, {"seconds": True},
                                  {"seconds": 30, "seats": ["Zed"]}, {"seconds": 30, "prompt": ["x"]}])
def test_host_window_numbers_are_checked(table, body):
    session, client, host, _ = table
    response = client.post("/api/host/window", content=json.dumps(body), headers={**host, "content-type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]
    assert session.journal.count("g") == 0 and not session.host_windows


def test_request_bodies_are_capped(table):
    session, client, host, seat = table
    big = json.dumps({"event": {"type": "pass", "player": "Ann", "note": "x" * (MAX_BODY + 10)}})
    assert client.post("/api/host/event", content=big, headers={**host, "content-type": "application/json"}).status_code == 413
    client.post("/api/host/window", json={"seconds": 60}, headers=host)
    huge = json.dumps({"text": "y" * (MAX_BODY * 2)})
    assert client.post("/api/seat/entry", content=huge, headers={**seat, "content-type": "application/json"}).status_code == 413
    long_entry = client.post("/api/seat/entry", json={"text": "z" * 500}, headers=seat)
    assert long_entry.status_code == 400 and "at most 200 characters" in long_entry.json()["error"]
    assert len(client.get("/api/state").content) < 20_000


def test_a_poisoned_old_journal_still_resumes_and_exports(tmp_path):
    path = tmp_path / "j.sqlite"
    session = new_session(path)
    session.submit({"type": "pass", "player": "Ann"})
    session.journal.close()
    db = sqlite3.connect(path)                     # what an older version let through
    db.execute("INSERT INTO entries (game_id, seq, kind, t, source, body, status) VALUES "
               "('g', 2, 'event', 1.0, 'host', '{\"type\": [\"write\"]}', 'pending')")
    db.execute("INSERT INTO entries (game_id, seq, kind, t, source, body, status) VALUES "
               "('g', 3, 'event', 1.0, 'host', 'not json at all', 'pending')")
    db.commit()
    db.close()
    again = reopen(path)
    assert [e.type for e in again.game.events] == ["pass"]
    assert any("entry 3" in w for w in again.resume_warnings)
    assert again.record().to_json()["events"][0]["type"] == "pass"


def test_journal_is_private(tmp_path):
    session = new_session(tmp_path / "j.sqlite")
    session.submit({"type": "pass", "player": "Ann"})
    mode = stat.S_IMODE(os.stat(tmp_path / "j.sqlite").st_mode)
    assert mode == 0o600


def test_one_process_per_game(tmp_path):
    session = new_session(tmp_path / "j.sqlite")
    lock = session.journal.lock_game("g")
    other = Journal(tmp_path / "j.sqlite")
    with pytest.raises(GameLocked, match=f"game g is being played by process {os.getpid()}"):
        other.lock_game("g")
    lock.release()
    other.lock_game("g").release()                 # free again (a crashed holder frees it too)


@pytest.mark.parametrize("offset", [0, 100, 1024, 4096, 8192])
def test_a_damaged_journal_is_reported_not_a_traceback(tmp_path, offset):
    path = tmp_path / "j.sqlite"
    session = new_session(path)
    for n in range(30):
        session.submit({"type": "pass", "player": "Ann" if n % 2 == 0 else "Ben"})
    session.journal.close()
    data = bytearray(path.read_bytes())
    for i in range(offset, min(len(data), offset + 64)):
        data[i] ^= 0xA5
    path.write_bytes(bytes(data))
    try:
        journal = Journal(path, create=False)
        journal.quick_check()
        journal.games()
        Session.resume(journal, "g", lexicon=Lexicon(WORDS), clock=SimClock())
    except UserError as error:                     # JournalDamaged, or "no game" when the set-up is gone
        assert str(error) and "Traceback" not in str(error)


def test_a_journal_that_is_not_a_database(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n" * 1000)
    with pytest.raises(JournalDamaged, match="cannot be used"):
        Journal(path, create=False)
    with pytest.raises(UserError, match="no journal at"):
        Journal(tmp_path / "nothere.sqlite", create=False)
    assert not (tmp_path / "nothere.sqlite").exists()
    with pytest.raises(UserError, match="is a folder"):
        Journal(tmp_path)


def test_submit_refuses_what_the_console_mistypes(tmp_path):
    session = new_session(tmp_path / "j.sqlite")
    with pytest.raises(BadEntry):
        session.submit({"type": "pass", "player": "Ann", "t": "x"})
    for line in ['{"type":"pass","player":"Ann","t":"x"}', "{", "[" * 5000, '{"type": 1}', "buzz", "draw",
                 "right", "\x00\x01", "{\"a\": NaN}"]:
        assert isinstance(console_command(session, line), str)
    assert session.journal.count("g") == 0


def test_export_all_saves_every_readable_game_and_names_the_rest(tmp_path, capsys):
    from tabletop.cli import main

    path = tmp_path / "j.sqlite"
    for game_id in ("one", "two"):
        session = new_session(path, game_id)
        session.submit({"type": "pass", "player": "Ann"})
        session.journal.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET setup = 'not json' WHERE id = 'two'")
    db.commit()
    db.close()
    out = tmp_path / "records"
    out.mkdir()
    assert main(["export", "--all", "-o", str(out), "--journal", str(path)]) == 0
    err = capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["one.json"]
    assert "game 'two': its set-up cannot be read" in err and "wrote 1 game record(s)" in err
    assert main(["export", "--all", "--journal", str(path)]) == 2           # no folder: a sentence
    assert "give a folder with -o DIR" in capsys.readouterr().err
