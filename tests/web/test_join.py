"""Joining a seat by its QR code or short code: the code leads to the seat's page, survives a
resume, wrong codes are braked; in Chromium, the QR code on the scoreboard (decoded from a
screenshot with OpenCV) opens the seat on a phone, which finds its seat again after sleeping."""

from __future__ import annotations

import os
import pathlib

import cv2
import numpy as np
import pytest
from starlette.testclient import TestClient

from rules.game import GameSetup
from tabletop.session import Journal, Session
from tabletop.session.join_codes import ALPHABET, LENGTH, codes_of
from tabletop.web import make_app
from tabletop.web.join import WrongCodes

from .conftest import make_session

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_each_seat_has_its_own_short_code_kept_in_the_journal(tmp_path):
    session = make_session(tmp_path)
    codes = session.tokens["codes"]
    assert sorted(codes) == ["Ann", "Ben", "Cai"] and len(set(codes.values())) == 3
    assert all(len(c) == LENGTH and set(c) <= set(ALPHABET) for c in codes.values())
    again = Session.resume(session.journal, session.game_id)
    assert again.tokens["codes"] == codes
    session.journal.close()


def test_a_game_journaled_before_codes_gets_the_same_codes_after_every_resume(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    tokens = {"host": "h", "seats": {"Ann": "tokA", "Ben": "tokB"}}
    old = Session.create(journal, GameSetup("letter-dice", ("Ann", "Ben")), "", tokens=tokens, game_id="old")
    first = codes_of(old.tokens)
    assert codes_of(Session.resume(journal, "old").tokens) == first and len(set(first.values())) == 2
    journal.close()


def test_a_code_leads_to_its_seat_and_wrong_codes_are_braked(tmp_path):
    session = make_session(tmp_path)
    client = TestClient(make_app(session))
    code = session.tokens["codes"]["Ben"]
    reply = client.get(f"/join/{code.lower()}", follow_redirects=False)       # typed in lowercase
    assert reply.status_code == 303 and reply.headers["location"] == f"/seat?token={session.tokens['seats']['Ben']}"
    assert client.get(f"/qr/{code}.svg").headers["content-type"].startswith("image/svg")
    wrong = next(c for c in ("AAAAA", "BBBBB", "CCCCC") if c not in session.tokens["codes"].values())
    replies = [client.get(f"/join/{wrong}", follow_redirects=False) for _ in range(6)]
    assert [r.status_code for r in replies] == [404] * 5 + [429]
    assert "No seat has that code" in replies[0].text and "wait a minute" in replies[-1].text
    assert client.get(f"/join/{code}", follow_redirects=False).status_code == 429   # braked, even the right one
    assert client.get(f"/qr/{code}.svg").status_code == 429
    session.journal.close()


def test_the_brake_forgets_old_wrong_codes_and_counts_every_address():
    now = [0.0]
    guard = WrongCodes(per_client=2, overall=3, seconds=60.0, clock=lambda: now[0])
    guard.wrong("a")
    guard.wrong("a")
    assert not guard.allowed("a") and guard.allowed("b")
    guard.wrong("b")
    assert not guard.allowed("c")                                             # three wrong in all
    now[0] = 61.0
    assert guard.allowed("a") and guard.allowed("c")


def test_the_scoreboard_lists_only_seats_not_joined_yet_the_host_every_seat(tmp_path):
    session = make_session(tmp_path)
    client = TestClient(make_app(session))
    client.get("/api/seat/state", headers={"X-Tabletop-Token": session.tokens["seats"]["Ann"]})
    public = client.get("/api/join").json()
    assert [s["seat"] for s in public["seats"]] == ["Ben", "Cai"] and public["url"].endswith("/join")
    host = client.get("/api/join", headers={"X-Tabletop-Token": session.tokens["host"]}).json()
    assert [s["seat"] for s in host["seats"]] == ["Ann", "Ben", "Cai"]
    session.journal.close()


def decode_qr(png: bytes) -> str:
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return text


@pytest.mark.browser
def test_a_phone_scans_the_scoreboard_and_becomes_that_seat_even_after_sleeping(served, session, browser):
    board = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    phone = browser.new_context(**PHONE)
    try:
        board.goto(served.url + "/")
        board.wait_for_selector("#joinbox:not([hidden]) figure.join[data-seat='Ben'] img")
        board.wait_for_function("() => [...document.querySelectorAll('figure.join img')].every(i => i.complete && i.naturalWidth)")
        code = session.tokens["codes"]["Ben"]
        assert code in board.inner_text("figure.join[data-seat='Ben']")
        link = decode_qr(board.locator("figure.join[data-seat='Ben']").screenshot())
        if os.environ.get("TABLETOP_SHOTS"):
            board.screenshot(path=str(pathlib.Path(os.environ["TABLETOP_SHOTS"]) / "page-join-qr.png"), full_page=True)
        assert link == f"{served.url}/join/{code}"
        page = phone.new_page()
        page.goto(link)
        page.wait_for_selector("#seat:has-text('Ben')")
        assert page.evaluate("localStorage.getItem('tabletop-seat')") == session.tokens["seats"]["Ben"]
        board.wait_for_selector("figure.join[data-seat='Ben']", state="detached")   # joined: no longer offered
        page.close()                                                             # the phone sleeps...
        again = phone.new_page()
        again.goto(served.url + "/seat")                                         # ...and wakes on the bare page
        again.wait_for_selector("#seat:has-text('Ben')")
        form = phone.new_page()
        form.goto(served.url + "/join")
        assert "Ben" in form.inner_text("#again")
        form.fill("#code", session.tokens["codes"]["Cai"].lower())
        form.click("#go")
        form.wait_for_selector("#seat:has-text('Cai')")
    finally:
        board.context.close()
        phone.close()


@pytest.mark.browser
def test_the_host_console_shows_every_seats_code(served, session, browser):
    host = browser.new_context(**PHONE).new_page()
    try:
        host.goto(f"{served.url}/host?token={session.tokens['host']}")
        host.wait_for_selector("#joinbox figure.join[data-seat='Cai'] img")
        host.wait_for_function("() => [...document.querySelectorAll('figure.join img')].every(i => i.complete && i.naturalWidth)")
        figure = host.locator("figure.join[data-seat='Ann']")
        figure.scroll_into_view_if_needed()
        assert decode_qr(figure.screenshot()).endswith(f"/join/{session.tokens['codes']['Ann']}")
    finally:
        host.context.close()
