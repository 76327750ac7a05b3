"""A phone as the camera: a photo of the board uploaded from the host console or a seat page is
read, and its new word is offered to the host for confirmation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from starlette.testclient import TestClient

from rules.squares import Square
from tabletop.session.camera_reads import WRITER_SECONDS
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
    assert "MARKET" in body["message"] and "Ben confirms it on their own page" in body["message"]
    assert session.seat_view("Ben")["readings"][0]["readings"][0] == "MARKET"     # offered to its writer first
    session.clock.advance(WRITER_SECONDS)                                          # then to the host
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
    page.wait_for_selector(".readings .choice:has-text('MARKET')")      # Ben, who wrote it, confirms it
    page.click(".readings .choice:has-text('MARKET')")
    page.wait_for_function("document.querySelector('#msg').textContent.includes('MARKET')")
    assert session.game.totals["Ben"] > 0


def test_a_scanned_word_its_writer_leaves_is_confirmed_on_the_host_console(served, session, page, tmp_path):
    for event in BEN_WRITES:
        session.submit(event)
    client = TestClient(make_app(session))
    assert _post(client, _photo(session), session.tokens["host"]).status_code == 200
    session.clock.advance(WRITER_SECONDS)
    page.goto(f"{served.url}/host?token={session.tokens['host']}")
    page.wait_for_selector("#reads .read:has-text('MARKET')")
    page.click("#reads .read button:has-text('Confirm')")
    page.wait_for_function("document.querySelector('#msg').textContent.includes('MARKET')")
    assert session.game.totals["Ben"] > 0


def test_a_huge_declared_photo_is_refused_from_its_header_with_a_sentence(session):
    """A 0.9 MB PNG of 30000x30000 once made the table allocate 5.3 GB; 50000x50000 gave a 500."""
    import time

    from tests.vision.test_imagegate import png_header_of

    client = TestClient(make_app(session))
    for width, says in [(30000, "declares 900 megapixels"), (50000, "declares 2,500 megapixels"),
                        (9000, "is 9000x9000 pixels")]:
        started = time.perf_counter()
        reply = _post(client, png_header_of(width, width, bytes(1000)), session.tokens["host"])
        assert reply.status_code == 422 and says in reply.json()["error"]
        assert time.perf_counter() - started < 1.0
    assert session.pending_reads == []


def test_twenty_uploads_at_once_decode_at_most_two_at_a_time(session, monkeypatch):
    import threading
    import time

    from vision import imagegate

    real, running, most, lock = cv2.imdecode, [0], [0], threading.Lock()

    def counted(buf, flags):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.02)
        with lock:
            running[0] -= 1
        return real(buf, flags)

    monkeypatch.setattr(cv2, "imdecode", counted)
    for event in BEN_WRITES:
        session.submit(event)
    app = make_app(session)
    noise = cv2.imencode(".png", np.random.default_rng(2).integers(0, 255, (300, 400, 3), np.uint8))[1].tobytes()
    statuses: list[int] = []

    def upload():
        statuses.append(_post(TestClient(app), noise, session.tokens["host"]).status_code)

    threads = [threading.Thread(target=upload) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert statuses == [422] * 20 and most[0] <= imagegate.DECODERS


def test_a_scanned_word_the_rules_refuse_gives_way_to_the_next_best_reading(tmp_path):
    """The reader's best reading (APPLF) is no word; its next best (APPLE) is what the rules take,
    so that is offered, and the host is told why; with no acceptable reading, the first is
    offered with the rules' reason. Squares are named as printed (C7)."""
    from types import SimpleNamespace

    from rules.game import GameSetup
    from rules.lexicon import Lexicon
    from rules.placement import infer_write
    from rules.squares import Direction, Square
    from tabletop.resources import load_board
    from tabletop.session import Journal, Session, SimClock
    from tabletop.session.devices.photo_scan import PhotoScanner
    from vision.tracker import WriteDetection

    session = Session.create(Journal(":memory:"), GameSetup("extradiction", ("Ann", "Ben"), variant="level3"),
                             "extradiction", board=load_board("extradiction"), lexicon=Lexicon(["apple", "ample"]),
                             clock=SimClock())
    session.submit({"type": "clue", "player": "Ben", "answer": "apple"})
    session.submit({"type": "answer", "player": "Ann", "text": "apple"})
    grid = session.game.state()["grid"]

    def detection(text):
        write = infer_write(grid, {Square(6, 2 + k): ch for k, ch in enumerate(text)})
        return WriteDetection(write, (0.6,) * len(text), 0.6, 1.0)

    scanner = PhotoScanner(session)
    best = detection("APPLF")
    read = SimpleNamespace(words=[SimpleNamespace(direction=Direction.ACROSS, squares=best.write.squares,
                                                  alternatives=[("AMPLF", 0.2), ("APPLE", 0.1)])])
    event, note = scanner._best_reading(best, read, "Ann")
    assert event["text"] == "APPLE" and "the next-best reading, APPLE, is offered instead" in note
    assert "APPLF" in note
    read.words[0].alternatives = [("AMPLF", 0.2)]
    event, note = scanner._best_reading(best, read, "Ann")
    assert event["text"] == "APPLF" and note.startswith("The rules would refuse APPLF:") and note.endswith("The host decides.")
    assert session.game.events[-1].type == "answer"                       # trying readings changed nothing
