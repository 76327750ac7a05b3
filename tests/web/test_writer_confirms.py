"""When the camera is unsure of a word, its writer settles it on their own phone: the best
readings as big buttons and a "something else" field; one tap plays it. The host sees only what
the writer disputes or leaves unanswered for WRITER_SECONDS."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.session.camera_reads import WRITER_SECONDS, CameraMove
from tabletop.web import WebServer, make_app

READ = {"type": "write", "text": "APPLF", "row": 6, "col": 2, "dir": "across", "confidence": 0.41}


def table(tmp_path):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("extradiction", ("Ann", "Ben"),
                                                                       variant="level3"),
                             "extradiction", board=load_board("extradiction"), lexicon=Lexicon(["apple", "ample"]),
                             clock=SimClock(), game_id="g")
    session.submit({"type": "clue", "player": "Ben", "answer": "apple"})
    session.submit({"type": "answer", "player": "Ann", "text": "apple"})
    session.camera_move(CameraMove(READ, session.clock.now(), sure=False, readings=("APPLF", "APPLE", "AMPLE")))
    return session


def seat_state(client, session, seat):
    return client.get("/api/seat/state", headers={"X-Tabletop-Token": session.tokens["seats"][seat]}).json()


def test_the_writer_is_offered_the_readings_and_the_host_waits(tmp_path):
    session = table(tmp_path)
    client = TestClient(make_app(session))
    offers = seat_state(client, session, "Ann")["readings"]
    assert offers == [{"read": offers[0]["read"], "readings": ["APPLF", "APPLE", "AMPLE"], "where": "C7",
                       "dir": "across"}]
    assert seat_state(client, session, "Ben")["readings"] == []
    assert session.host_view()["pending_reads"] == [] and session.host_view()["waiting_for_writers"] == 1
    session.clock.advance(WRITER_SECONDS)                 # the writer did not answer: the host decides
    assert [r["text"] for r in session.host_view()["pending_reads"]] == ["APPLF"]


def test_one_tap_plays_the_word_and_only_the_writer_may_tap(tmp_path):
    session = table(tmp_path)
    client = TestClient(make_app(session))
    read = seat_state(client, session, "Ann")["readings"][0]["read"]
    ben = client.post("/api/seat/reading", json={"read": read, "text": "APPLE"},
                      headers={"X-Tabletop-Token": session.tokens["seats"]["Ben"]})
    assert ben.status_code == 409 and "No reading of Ben's word" in ben.json()["error"]
    for bad in ({"read": read, "text": "AP9LE"}, {"read": "x", "text": "APPLE"}, {"read": read}):
        assert client.post("/api/seat/reading", json=bad,
                           headers={"X-Tabletop-Token": session.tokens["seats"]["Ann"]}).status_code == 400
    ann = client.post("/api/seat/reading", json={"read": read, "text": "APPLE"},
                      headers={"X-Tabletop-Token": session.tokens["seats"]["Ann"]}).json()
    assert ann["status"] == "accepted" and session.game.totals["Ann"] > 0
    assert session.pending_reads == [] and seat_state(client, session, "Ann")["readings"] == []
    assert [e.source for e in session.journal.entries("g") if e.kind == "event"][-1] == "camera+seat:Ann"


def test_a_word_the_rules_refuse_is_a_dispute_for_the_host_and_stays_one_on_resume(tmp_path):
    session = table(tmp_path)
    read = session.camera.for_writer("Ann")[0].seq
    refused = session.answer_reading("Ann", read, "AMPLE")   # not the card's word
    assert refused.status == "rejected"
    assert [r["disputed"] for r in session.host_view()["pending_reads"]] == [True]
    path = session.journal.path
    session.journal.close()
    again = Session.resume(Journal(path), "g", lexicon=Lexicon(["apple", "ample"]), clock=SimClock())
    assert [r["disputed"] for r in again.host_view()["pending_reads"]] == [True]
    assert again.camera.for_writer("Ann") == []


@pytest.mark.browser
def test_on_the_phone_three_choices_one_tap_the_word_scored(tmp_path, browser):
    session = table(tmp_path)
    server = WebServer(session).start()
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
        page.goto(f"{server.url}/seat?token={session.tokens['seats']['Ann']}")
        page.wait_for_selector(".readings .choice")
        choices = page.locator(".readings .choice")
        assert choices.all_inner_texts() == ["APPLF", "APPLE", "AMPLE"]
        box = choices.nth(1).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 300      # big enough for a thumb
        choices.nth(1).tap()
        page.wait_for_selector("#msg.ok")
        assert "APPLE" in page.inner_text("#msg") and session.game.turns[-1].text == "APPLE"
        page.wait_for_selector("#readings", state="hidden")
    finally:
        server.stop()
        session.journal.close()
