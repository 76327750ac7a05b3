"""Buzz fairness against a cheater: a phone's stamp is believed only as far as the table measured it."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st
from starlette.testclient import TestClient

from tabletop.session.devices.phones import MAX_CLAIM, judge_stamp
from tabletop.web.app import make_app

START = [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
         {"type": "clue_read", "player": "Ann"}]


def synced(client, session, seat, trips=3):
    """``seat``'s page syncing its clock as the real page does: pings answered, probes echoed at once."""
    with client.websocket_connect(f"/ws/clock?token={session.tokens['seats'][seat]}") as ws:
        for i in range(trips):
            ws.send_json({"c": 1000.0 + i})
            answer, probe = ws.receive_json(), ws.receive_json()
            assert answer["c"] == 1000.0 + i and "p" in probe
            ws.send_json({"p": probe["p"]})
        ws.send_json({"c": 1.0})            # the last echo is handled before this ping is answered
        ws.receive_json()
        ws.receive_json()


def buzz(client, session, seat, t):
    return client.post("/api/seat/buzz", json={} if t is None else {"t": t},
                       headers={"X-Tabletop-Token": session.tokens["seats"][seat]})


@pytest.fixture
def table(session):
    app = make_app(session)
    client = TestClient(app)
    session.clock.advance(10)
    for event in START:
        session.submit(event)
    for seat in ("Ben", "Cai"):
        synced(client, session, seat)
    yield app, client
    app.state.phones.close()


@pytest.mark.parametrize("later", [0.1, 0.2, 0.3, 0.38])
def test_a_forged_early_stamp_never_beats_an_honest_press(session, table, later):
    app, client = table
    session.clock.advance(1.0)
    honest = buzz(client, session, "Ben", session.clock.now())
    session.clock.advance(later)
    forged = buzz(client, session, "Cai", session.clock.now() - 2.9)      # the cheat: "I pressed 2.9 s ago"
    assert honest.status_code == forged.status_code == 200
    assert "ordered_by" not in honest.json() and forged.json()["ordered_by"] == "arrival"
    app.state.phones.drain()
    assert session.game.turn.hands == ["Ben", "Cai"]
    assert "Cai's press was ordered by its arrival" in session.devices["phones"]


def test_an_honest_later_arriving_press_within_its_measured_allowance_still_wins(session, table):
    app, client = table
    allowance = app.state.phones.trips["Ben"].allowance()
    assert allowance is not None and allowance < 0.1          # loopback: a few ms and the slack
    session.clock.advance(1.0)
    pressed = session.clock.now()
    session.clock.advance(allowance / 2)
    buzz(client, session, "Cai", session.clock.now())          # Cai pressed later, arrives first
    buzz(client, session, "Ben", pressed)
    app.state.phones.drain()
    assert session.game.turn.hands == ["Ben", "Cai"]


def test_a_press_stamped_before_the_clue_was_read_is_not_first(session, table):
    app, client = table
    opened = session.clock.now()
    session.clock.advance(0.05)
    buzz(client, session, "Ben", session.clock.now())
    session.clock.advance(0.01)
    early = buzz(client, session, "Cai", opened - 2.0)
    assert early.json()["ordered_by"] == "arrival"
    app.state.phones.drain()
    assert session.game.turn.hands == ["Ben", "Cai"]
    assert app.state.phones.orderer.arbiter.opened_at == round(opened * 1_000_000)   # opens at the clue


def test_a_phone_never_timed_by_the_table_is_ordered_by_arrival(session):
    app = make_app(session)
    client = TestClient(app)
    for event in START:
        session.submit(event)
    session.clock.advance(1.0)
    answer = buzz(client, session, "Ben", session.clock.now() - 0.01)
    assert answer.json()["ordered_by"] == "arrival" and answer.json()["t"] == session.clock.now()
    app.state.phones.close()


def test_a_buzz_when_no_question_is_open_is_refused_and_records_nothing(session):
    app = make_app(session)
    client = TestClient(app)
    answer = buzz(client, session, "Ben", None)
    assert answer.status_code == 409 and "No question is open" in answer.json()["error"]
    assert "hand is up" not in answer.text
    session.submit(START[0])                                    # the clue is being read: still closed
    assert buzz(client, session, "Ben", None).status_code == 409
    session.submit(START[1])
    assert buzz(client, session, "Ann", None).status_code == 409  # the asker never buzzes
    assert app.state.phones.presses == 0 and session.game.turn.hands == []
    app.state.phones.close()


def test_an_echo_of_a_probe_never_sent_measures_nothing(session):
    app = make_app(session)
    client = TestClient(app)
    with client.websocket_connect(f"/ws/clock?token={session.tokens['seats']['Ben']}") as ws:
        for junk in [{"p": 99}, {"p": True}, {"p": "1"}, {"p": 1.0}]:
            ws.send_json(junk)
        ws.send_bytes(b"\x00binary")                            # ignored, the socket stays up
        ws.send_json({"c": 5})
        assert ws.receive_json()["c"] == 5
    assert app.state.phones.trips["Ben"].allowance() is None
    app.state.phones.close()


finite = st.floats(min_value=-1e6, max_value=1e6)


@given(stamped=st.one_of(st.none(), finite, st.sampled_from([float("nan"), float("inf")])), arrived=finite,
       allowance=st.one_of(st.none(), st.floats(min_value=0, max_value=MAX_CLAIM)),
       opened=st.one_of(st.none(), finite))
def test_a_believed_stamp_is_within_the_allowance_and_after_the_opening(stamped, arrived, allowance, opened):
    stamp = judge_stamp(stamped, arrived, allowance, opened)
    assert stamp.t <= arrived + 1e-9
    if stamp.doubted:
        assert stamp.t == arrived
    else:
        assert allowance is not None and arrived - stamp.t <= allowance + 1e-9
        assert opened is None or stamp.t >= opened
