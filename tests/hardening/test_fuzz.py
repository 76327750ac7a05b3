"""Random JSON and random bytes at every endpoint, random lines at the console: never a 500,
never an exit, and the game always resumes and exports afterwards."""

from __future__ import annotations

import json
import urllib.parse

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.session import Journal, Session, SimClock
from tabletop.table.live import console_command
from tabletop.web.app import make_app

WORDS = ["market", "penetrate", "cat", "at"]
POSTS = ["/api/host/event", "/api/host/draw", "/api/host/undo", "/api/host/pause", "/api/host/resume",
         "/api/host/confirm", "/api/host/discard", "/api/host/window", "/api/host/nonsense", "/api/seat/entry",
         "/api/seat/buzz", "/api/seat/action"]
GETS = ["/api/state", "/api/host/state", "/api/seat/state", "/api/board", "/", "/host", "/seat", "/join", "/api/join"]

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
events = st.fixed_dictionaries({"type": st.sampled_from(["write", "pass", "clue", "hand", "answer", "end", "time"]) | scalars},
                               optional={"player": st.sampled_from(["Ann", "Ben", "host"]) | scalars,
                                         "text": st.text(max_size=12) | scalars, "row": st.integers(-3, 25) | scalars,
                                         "col": st.integers(-3, 25) | scalars, "dir": st.sampled_from(["across", "down"]) | scalars,
                                         "t": st.floats(allow_nan=True, allow_infinity=True) | scalars,
                                         "correct": scalars, "seconds": scalars, "index": scalars})


def make(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "j.sqlite"
    session = Session.create(Journal(path), GameSetup("extradiction-sp", ("Ann", "Ben", "Cai"), variant="classic"),
                             "extradiction-sp", lexicon=Lexicon(WORDS), clock=SimClock(), game_id="fz")
    return path, session


def resumes_and_exports(path):
    journal = Journal(path)
    again = Session.resume(journal, "fz", lexicon=Lexicon(WORDS), clock=SimClock())
    json.dumps(again.record().to_json(), allow_nan=False)
    json.dumps(again.view(), allow_nan=False)
    journal.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(POSTS), st.one_of(json_values, events.map(lambda e: {"event": e}),
                                                              st.binary(max_size=200))), min_size=1, max_size=12))
def test_random_requests_never_break_the_table(tmp_path_factory, requests):
    path, session = make(tmp_path_factory)
    client = TestClient(make_app(session))
    tokens = {"/api/seat": session.tokens["seats"]["Ben"], "/api/host": session.tokens["host"]}
    for url, body in requests:
        headers = {"X-Tabletop-Token": next(t for prefix, t in tokens.items() if url.startswith(prefix))}
        if isinstance(body, bytes):
            response = client.post(url, content=body, headers=headers)
        else:
            response = client.post(url, content=json.dumps(body, allow_nan=True), headers=headers)
        assert response.status_code < 500, (url, body, response.text)
        if response.headers.get("content-type", "").startswith("application/json"):
            json.loads(response.text, parse_constant=lambda name: (_ for _ in ()).throw(AssertionError(name)))
    for url in GETS:
        assert client.get(url, headers={"X-Tabletop-Token": session.tokens["host"]}).status_code < 500
    session.journal.close()
    resumes_and_exports(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.text(max_size=40), json_values.map(lambda v: json.dumps(v, allow_nan=True)),
                          events.map(lambda e: json.dumps(e, allow_nan=True)),
                          st.sampled_from(["draw", "right", "wrong", "recognise", "clue-read", "undo", "pause",
                                           "resume", "buzz Ben", "buzz", "scores", "help", "{"])),
                min_size=1, max_size=15))
def test_random_console_lines_never_exit(tmp_path_factory, lines):
    path, session = make(tmp_path_factory)
    for line in lines:
        assert isinstance(console_command(session, line), str)
    session.journal.close()
    resumes_and_exports(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40))
def test_random_join_codes_never_break_the_table(tmp_path_factory, code):
    path, session = make(tmp_path_factory)
    client = TestClient(make_app(session))
    quoted = urllib.parse.quote(code, safe="")
    for url in (f"/join/{quoted}", f"/qr/{quoted}.svg"):
        assert client.get(url, follow_redirects=False).status_code in (303, 404, 429, 200, 307), (url, code)
    session.journal.close()


def test_the_phones_clock_ignores_what_is_not_a_ping(tmp_path_factory):
    path, session = make(tmp_path_factory)
    client = TestClient(make_app(session))
    with client.websocket_connect("/ws/clock") as ws:
        for junk in ["", "not json", "[1, 2]", '{"c": "x"}', '{"c": true}', "x" * 500, '{"c": NaN}']:
            ws.send_text(junk)
        ws.send_text('{"c": 12.5}')
        answer = ws.receive_json()
    assert answer["c"] == 12.5 and answer["s"] == session.clock.now()
    session.journal.close()
