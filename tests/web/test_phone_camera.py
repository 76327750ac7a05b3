"""A phone as the table's camera (issue 27): the camera page in a real headless Chromium whose
camera is a video file (``--use-file-for-fake-video-capture``) rendered by the project's own
scene simulator, a hand writing a word, leaving, and the next player; and the page's socket
without a browser (the role, the image gate, the capture time, recording)."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from rules.squares import Square
from tabletop.session.clock import TableClock
from tabletop.session.devices.phone_camera import HEADER, camera_token
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, make_session

APPLE = {Square(6, 4 + i): ch for i, ch in enumerate("APPLE")}             # Ann's word, through the centre
STAR = {Square(4 + i, 4): ch for i, ch in enumerate("STAR")}               # Ben's, down through APPLE's A
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
FPS = 2
SIZE = (960, 540)


def _scene(board, letters, hand=False):
    from vision.synth.scene import render_scene

    frame = render_scene(board, letters, seed=3, tilt_deg=12, glare=False, hand=hand)
    return cv2.resize(frame, SIZE, interpolation=cv2.INTER_AREA)


def game_frames(board) -> list[tuple[str, np.ndarray, float]]:
    """The game as the camera sees it: (what, frame, seconds) — the empty board, Ann's hand writing
    APPLE, the board with APPLE, Ben's hand writing STAR, the board with both (held long, so the
    test ends before the video starts again)."""
    both = {**APPLE, **STAR}
    return [("empty", _scene(board, {}), 3), ("hand", _scene(board, APPLE, hand=True), 3),
            ("apple", _scene(board, APPLE), 4), ("hand", _scene(board, both, hand=True), 3),
            ("star", _scene(board, both), 30)]


def _session(tmp_path):
    return make_session(tmp_path, game="extradiction", variant="level3", players=("Ann", "Ben"), clock=TableClock())


def _camera_writes(session):
    return [(e.body["player"], e.body["text"], e.status) for e in session.journal.entries(session.game_id, "event")
            if e.source == "camera"]


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    from tabletop.resources import load_board
    from tabletop.games import spec

    game = spec("extradiction")
    board = load_board(game.board, required=game.rules.board_layers)
    from vision.synth.video import write_y4m

    path = tmp_path_factory.mktemp("camera") / "game.y4m"
    with open(path, "wb") as out:
        write_y4m(out, [(frame, seconds) for _, frame, seconds in game_frames(board)], fps=FPS)
    return path


@pytest.fixture(scope="module")
def camera_browser(video, browser):
    """A second Chromium from the same Playwright (one Playwright a process), whose camera plays ``video``."""
    camera = browser.browser_type.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS + [
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={video}"])
    yield camera
    camera.close()


@pytest.fixture
def table(tmp_path):
    from tabletop.web import WebServer

    session = _session(tmp_path)
    server = WebServer(session).start()
    yield session, server
    server.stop()
    session.journal.close()


def _phone(browser, url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url)
    return page


def _wait(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.mark.browser
@pytest.mark.vision
@pytest.mark.slow
def test_a_phone_streams_the_game_and_the_table_writes_each_word_once_never_from_a_hand(table, camera_browser):
    session, server = table
    link = server.links()["camera"]
    assert link.endswith(camera_token(session.tokens))
    page = _phone(camera_browser, link)
    try:
        page.wait_for_function("window.__camera.acks >= 3")
        assert page.evaluate("window.__camera.reply.role") == "active"
        _wait(lambda: session.game.totals["Ben"] > 0, 45, "Ben's STAR from the phone's frames")
        assert _camera_writes(session) == [("Ann", "APPLE", "accepted"), ("Ben", "STAR", "accepted")]
        assert session.pending_reads == []
        assert session.game.totals == {"Ann": 9, "Ben": 4}
        page.wait_for_selector("#word:has-text('STAR')")             # the page shows the last word read
        assert page.text_content("#seen") == "watching the board"
        assert "nothing is stored" in page.text_content("#privacy")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390        # fits the phone
        writes = [e for e in session.journal.entries(session.game_id, "event") if e.source == "camera"]
        assert writes[0].body["t"] < writes[1].body["t"] <= session.clock.now()
        assert "streaming" in session.devices["phone camera"]
        assert page.evaluate("window.__clock.samples") >= 3          # frames stamped on the table clock
        acks = page.evaluate("window.__camera.acks")
        page.evaluate("ws.close()")                                   # the Wi-Fi drops the connection
        page.wait_for_function("!window.__camera.connected")
        page.wait_for_function(f"window.__camera.connected && window.__camera.acks > {acks + 2}")   # back by itself
        assert _camera_writes(session) == [("Ann", "APPLE", "accepted"), ("Ben", "STAR", "accepted")]
    finally:
        page.context.close()


@pytest.mark.browser
@pytest.mark.vision
@pytest.mark.slow
def test_a_reload_keeps_the_role_a_second_phone_waits_and_the_host_switches(table, camera_browser):
    session, server = table
    link = server.links()["camera"]
    first = _phone(camera_browser, link)
    second = None
    try:
        first.wait_for_function("window.__camera.acks >= 2")
        first.reload()                                                # the same phone: it keeps the role
        first.wait_for_function("window.__camera.acks >= 2 && window.__camera.reply.role == 'active'")
        second = _phone(camera_browser, link)                         # another phone (its own id)
        second.wait_for_selector("#role:has-text('another camera is in use; the host can switch')")
        assert second.evaluate("window.__camera.sent") == 0           # it sends nothing while standing by
        _wait(lambda: "another camera is waiting" in session.devices.get("phone camera", ""), 15, "the host told")
        first.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                       "document.dispatchEvent(new Event('visibilitychange'))")   # the first phone sleeps
        _wait(lambda: "disconnected" in session.devices.get("phone camera", ""), 15, "the sleeping phone seen gone")
        assert first.evaluate("window.__camera.streaming") is False   # its camera is off
        host = _phone(camera_browser, f"{server.url}/host?token={session.tokens['host']}")
        host.wait_for_selector("#camerabox:not([hidden]) svg")       # the link as a QR code
        assert host.get_attribute("#cameralink", "href") == link
        host.click("#cameraswitch")
        host.wait_for_selector("#cameramsg:has-text('The camera is now the other phone')")
        second.wait_for_function("window.__camera.reply.role == 'active' && window.__camera.acks >= 2")
        assert second.is_hidden("#role")
        first.evaluate("Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
                       "document.dispatchEvent(new Event('visibilitychange'))")   # it wakes: now it waits
        first.wait_for_function("window.__camera.reply && window.__camera.reply.role == 'standby'")
        host.context.close()
    finally:
        first.context.close()
        if second is not None:
            second.context.close()


# -- the socket without a browser -------------------------------------------------------------------
def _jpeg(frame) -> bytes:
    return cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()


@pytest.fixture
def client(tmp_path):
    from starlette.testclient import TestClient

    from tabletop.web.app import make_app

    session = _session(tmp_path)
    app = make_app(session)
    yield session, app, TestClient(app)
    session.journal.close()


def test_a_wrong_token_is_refused_and_nothing_is_read(client):
    from starlette.websockets import WebSocketDisconnect

    session, app, http = client
    for token in ("", "wrong", session.tokens["host"], session.tokens["seats"]["Ann"]):
        with pytest.raises(WebSocketDisconnect) as refused:
            with http.websocket_connect(f"/ws/camera?token={token}&camera=x") as ws:
                ws.receive_json()
        assert refused.value.code == 4403
    assert app.state.station.links == []


def test_frames_pass_the_image_gate_and_a_bad_one_is_answered_not_read(client):
    session, app, http = client
    with http.websocket_connect(f"/ws/camera?token={camera_token(session.tokens)}&camera=one") as ws:
        assert ws.receive_json()["role"] == "active"
        ws.send_bytes(HEADER.pack(0.0) + b"not a jpeg at all")
        assert "not an image" in ws.receive_json()["error"]
        huge = cv2.imencode(".png", np.zeros((2100, 2100), np.uint8))[1].tobytes()      # 4.4 megapixels
        ws.send_bytes(HEADER.pack(0.0) + huge)
        assert "megapixels" in ws.receive_json()["error"]
        ws.send_bytes(b"\x00" * 4)
        assert ws.receive_json()["error"] == "That frame was empty."
        assert app.state.station.camera.frames == 0 and app.state.station.input is None   # nothing decoded was read


def test_a_frame_is_read_at_its_capture_time_never_later_than_it_arrived(client):
    session, app, http = client
    frame = _jpeg(_scene(session.board, {}))
    with http.websocket_connect(f"/ws/camera?token={camera_token(session.tokens)}&camera=one") as ws:
        ws.receive_json()
        stamp = session.clock.now() - 0.4
        ws.send_bytes(HEADER.pack(stamp) + frame)
        assert ws.receive_json()["t"] == pytest.approx(stamp, abs=1e-3)
        ws.send_bytes(HEADER.pack(session.clock.now() + 60) + frame)          # a stamp from the future
        assert ws.receive_json()["t"] <= session.clock.now()
        ws.send_bytes(HEADER.pack(float("nan")) + frame)                      # no clock yet: the arrival
        assert ws.receive_json()["t"] == pytest.approx(session.clock.now(), abs=0.5)


def test_frames_are_dropped_unless_the_host_records_them(client, tmp_path):
    from tabletop.session import host_commands

    session, app, http = client
    frame = _jpeg(_scene(session.board, {}))
    with http.websocket_connect(f"/ws/camera?token={camera_token(session.tokens)}&camera=one") as ws:
        ws.receive_json()
        ws.send_bytes(HEADER.pack(float("nan")) + frame)
        assert ws.receive_json()["recording"] is False
        assert not list(tmp_path.glob("camera-*"))
        reply = host_commands.run(session, "camera-record", {"on": True})
        assert "Recording" in reply.message
        for _ in range(3):
            ws.send_bytes(HEADER.pack(float("nan")) + frame)
            assert ws.receive_json()["recording"] is True
        host_commands.run(session, "camera-record", {"on": False})
        ws.send_bytes(HEADER.pack(float("nan")) + frame)
        ws.receive_json()
    kept = sorted((tmp_path / f"camera-{session.game_id}").glob("*.jpg"))
    assert [p.read_bytes() for p in kept] == [frame] * 3


def test_the_host_cannot_switch_to_a_camera_that_is_not_there(client):
    from tabletop.session import host_commands
    from tabletop.session.refusals import BadEntry

    session, app, http = client
    with pytest.raises(BadEntry, match="No other camera page is open"):
        host_commands.run(session, "camera-switch", {})
    with pytest.raises(BadEntry, match="true or false"):
        host_commands.run(session, "camera-record", {"on": "yes"})


def test_the_host_gets_the_camera_link_as_a_qr_code(client):
    session, app, http = client
    assert http.get("/api/host/camera").status_code == 403
    body = http.get("/api/host/camera", headers={"X-Tabletop-Token": session.tokens["host"]}).json()
    assert body["link"].endswith(f"/camera?token={session.tokens['camera']}")
    assert body["qr"].startswith("<svg") and "no phone camera yet" in body["status"]


def test_a_game_journalled_before_the_camera_token_gets_one_from_its_host_token(tmp_path):
    from tabletop.session import Journal, Session

    session = _session(tmp_path)
    assert session.tokens["camera"] and camera_token(session.tokens) == session.tokens["camera"]
    old = {"host": "h0st", "seats": {"Ann": "a"}}                       # the set-up of an older journal
    assert camera_token(old) == camera_token(dict(old)) not in ("", "h0st", "a")
    resumed = Session.resume(Journal(tmp_path / "journal.sqlite"), session.game_id)
    assert camera_token(resumed.tokens) == camera_token(session.tokens)   # a resumed game keeps its link


def test_without_a_camera_page_the_host_commands_say_so(tmp_path):
    from tabletop.session import host_commands
    from tabletop.session.refusals import BadEntry

    session = _session(tmp_path)                                          # no pages served for it
    with pytest.raises(BadEntry, match="no camera page"):
        host_commands.run(session, "camera-record", {"on": True})


@pytest.mark.vision
@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["questique", "letter-dice", "sequence-letters"])
def test_tiles_dice_and_chips_are_read_from_the_phone_as_from_a_wired_camera(game_id):
    """The same socket feeds each game's own camera input: Questique's tiles put down, the
    letter dice rolled, a Sequence Letters chip put down (frames of the simulated twins, JPEG as
    the page sends them)."""
    from starlette.testclient import TestClient

    from tabletop.session.devices import SyntheticChipCamera, SyntheticDiceCamera, SyntheticTileCamera
    from tabletop.web.app import make_app
    from tests.table.test_live_camera import _first_write, _session as game_session

    from rules.game import GameSetup
    from rules.lexicon import Lexicon
    from tabletop.session import Journal, Session

    if game_id == "questique":
        session = game_session(game_id)
    elif game_id == "sequence-letters":
        from tabletop.resources import load_board

        session = Session.create(Journal(":memory:"), GameSetup("sequence-letters", ("Ann", "Ben")), "sequence-letters",
                                 board=load_board("sequence-letters", required=("letters", "colors")),
                                 lexicon=Lexicon([]), clock=TableClock())
    else:
        session = Session.create(Journal(":memory:"), GameSetup("letter-dice", ("Ann", "Ben"), language="uk"), "",
                                 lexicon=Lexicon(["кіт", "рак"]), clock=TableClock())
    http = TestClient(make_app(session))
    with http.websocket_connect(f"/ws/camera?token={camera_token(session.tokens)}&camera=one") as ws:
        ws.receive_json()

        def stream(frame, seconds):
            data, replies = _jpeg(frame), []
            until = session.clock.now() + seconds
            while session.clock.now() < until:
                ws.send_bytes(HEADER.pack(float("nan")) + data)
                replies.append(ws.receive_json())
                time.sleep(0.05)
            return replies

        if game_id == "questique":
            camera = SyntheticTileCamera(session.board, seed=4)
            planned = _first_write(session)
            stream(camera.read(), 1.5)                                    # the empty board
            dr, dc = (0, 1) if planned["dir"] == "across" else (1, 0)
            camera.show({Square(planned["row"] + k * dr, planned["col"] + k * dc): ch
                         for k, ch in enumerate(planned["text"])})
            stream(camera.hand_frame(), 0.3)                              # a hand putting the tiles down
            replies = stream(camera.read(), 3.0)
            if session.pending_reads:                                     # a tile read unsure: the host confirms
                session.confirm_read(0)
            assert [(t.player, t.text) for t in session.game.turns] == [(planned["player"], planned["text"])]
            assert replies[-1]["corners"] is not None and replies[-1]["word"]
        elif game_id == "sequence-letters":
            camera = SyntheticChipCamera(session.board, seed=5)
            stream(camera.read(), 2.0)                                    # the empty board, settled
            camera.show({Square(0, 1): "r"})                              # Ann's chip on the balloon
            stream(camera.hand_frame(), 0.3)
            replies = stream(camera.read(), 2.5)
            assert session.game.chips == {Square(0, 1): 0}                # Ann's (the first side's) chip
            assert "balloon" in replies[-1]["word"]
        else:
            camera = SyntheticDiceCamera(seed=3)
            faces = ("А", "Ї", "Є", "К", "П", "Ш", "Ґ", "*")
            camera.roll(faces)
            stream(camera.read(), 0.6)                                    # tumbling
            camera.settle()
            replies = stream(camera.read(), 3.0)
            assert session.game.round.faces == faces                      # the roll, read from the phone
            assert replies[-1]["word"]
            assert "point the camera at the board" not in " ".join(replies[-1]["hints"])


def test_the_camera_page_is_served_over_https_with_the_tables_own_certificate(tmp_path):
    """A phone's browser gives the camera only to a secure page: the live table serves the
    pages over HTTPS too, and the camera link points there."""
    import json
    import ssl
    import urllib.request

    from websockets.sync.client import connect

    from tabletop.web import WebServer

    session = _session(tmp_path)
    server = WebServer(session, tls_folder=tmp_path / "tls").start()
    try:
        assert server.secure, server.tls_problem
        link = server.links()["camera"]
        assert link.startswith(f"https://127.0.0.1:{server.secure_port}/camera?token=")
        trusting = ssl.create_default_context(cafile=str(next((tmp_path / "tls").glob("*.crt"))))
        with urllib.request.urlopen(link, context=trusting, timeout=10) as answer:   # the certificate names 127.0.0.1
            assert b"Table camera" in answer.read()
        frame = _jpeg(_scene(session.board, {}))
        wss = link.replace("https://", "wss://").replace("/camera?", "/ws/camera?") + "&camera=one"
        with connect(wss, ssl=trusting) as ws:
            assert json.loads(ws.recv(timeout=5))["role"] == "active"
            ws.send(HEADER.pack(float("nan")) + frame)
            assert json.loads(ws.recv(timeout=10))["status"]
        assert list((tmp_path / "tls").glob("*.key"))[0].stat().st_mode & 0o077 == 0     # the key is private
    finally:
        server.stop()
        session.journal.close()
