"""A phone as the camera: a photo of the board uploaded from the host console or a seat page is
read, and its new word is offered to the host for confirmation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from starlette.testclient import TestClient

from rules.squares import Square
from tabletop.web import make_app
from vision.synth.scene import make_scene

pytestmark = pytest.mark.vision

#: the SP turn up to Ben's write: he answered MARKET and now writes it
BEN_WRITES = [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
              {"type": "clue_read", "player": "Ann"}, {"type": "hand", "player": "Ben"},
              {"type": "recognise", "player": "Ann", "target": "Ben"}, {"type": "answer", "player": "Ben", "text": "market"}]


def _photo(session, word: str = "MARKET", row: int = 9, col: int = 6, seed: int = 4) -> bytes:
    letters = {Square(row, col + k): ch for k, ch in enumerate(word)}
    frame = make_scene(session.board, letters, seed=seed, tilt_deg=18, glare=False).frame
    return cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def _post(client, data: bytes, token: str):
    return client.post("/api/scan", content=data, headers={"X-Tabletop-Token": token, "Content-Type": "image/jpeg"})


def test_a_photo_from_a_seat_offers_its_new_word_to_the_host(session):
    for event in BEN_WRITES:
        session.submit(event)
    client = TestClient(make_app(session))
    reply = _post(client, _photo(session), session.tokens["seats"]["Ben"])
    assert reply.status_code == 200, reply.json()
    body = reply.json()
    assert body["status"] == "offered" and [w["text"] for w in body["words"]] == ["MARKET"]
    assert "MARKET" in body["message"] and "host confirms" in body["message"]
    pending = session.host_view()["pending_reads"]
    assert [(r["text"], r["row"], r["col"], r["player"]) for r in pending] == [("MARKET", 9, 6, "Ben")]
    assert len(session.game.events) == len(BEN_WRITES)        # nothing reaches the rules before the host
    assert session.confirm_read(0).accepted and session.game.totals["Ben"] > 0
    assert session.hand_letters("Ben") == 6                  # the confirmed word teaches Ben's hand


@pytest.mark.parametrize("what, status, says", [
    ("text", 422, "not a photo"),
    ("noise", 422, "board is not in the photo"),
    ("empty board", 422, "No new word"),
    ("huge", 413, "too large"),
    ("no token", 403, "token is wrong or missing"),
])
def test_a_photo_that_cannot_be_used_says_why_and_changes_nothing(session, what, status, says):
    for event in BEN_WRITES:
        session.submit(event)
    client = TestClient(make_app(session))
    data = {"text": b"these are not the pixels you are looking for",
            "noise": cv2.imencode(".png", np.random.default_rng(1).integers(0, 255, (600, 800, 3), np.uint8))[1].tobytes(),
            "empty board": _photo(session, word=""),
            "huge": bytes(16 * 1024 * 1024),
            "no token": _photo(session)}[what]
    reply = _post(client, data, "" if what == "no token" else session.tokens["host"])
    assert reply.status_code == status and says in reply.json()["error"]
    assert session.pending_reads == [] and len(session.game.events) == len(BEN_WRITES)


def test_a_game_not_read_from_photos_says_so(tmp_path):
    from tests.web.conftest import make_session

    session = make_session(tmp_path, game="sequence-letters", variant=None, players=("Ann", "Ben"))
    reply = _post(TestClient(make_app(session)), b"\xff\xd8 whatever", session.tokens["host"])
    assert reply.status_code == 422 and "not read from a phone's photo" in reply.json()["error"]


@pytest.mark.browser
def test_the_scan_button_uploads_a_photo_and_the_read_word_is_offered(served, session, page, tmp_path):
    for event in BEN_WRITES:
        session.submit(event)
    photo = tmp_path / "board.jpg"
    photo.write_bytes(_photo(session))
    page.goto(f"{served.url}/seat?token={session.tokens['seats']['Ben']}")
    page.wait_for_selector("#scan")
    assert page.get_attribute("#scanfile", "accept") == "image/*" and page.get_attribute("#scanfile", "capture") is not None
    page.set_input_files("#scanfile", str(photo))
    page.wait_for_function("document.querySelector('#scanmsg').textContent.includes('MARKET')", timeout=30_000)
    host = page.context.new_page()
    host.goto(f"{served.url}/host?token={session.tokens['host']}")
    host.wait_for_selector("#reads .read:has-text('MARKET')")
    host.click("#reads .read button:has-text('Confirm')")
    host.wait_for_function("document.querySelector('#msg').textContent.includes('MARKET')")
    assert session.game.totals["Ben"] > 0
