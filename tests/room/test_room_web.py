"""The room's web API: the page is public, the console needs its token, a bad request is
answered with a sentence, and a command while the broker is away says nothing was sent."""

from __future__ import annotations

from starlette.testclient import TestClient

from tabletop.room.address import RoomAddress
from tabletop.room.service import RoomService
from tabletop.room.web import make_app

from tests.room.test_refusals import LEGIT


def test_the_console_needs_its_token_and_answers_with_sentences(tmp_path):
    service = RoomService(RoomAddress("127.0.0.1", 1, "club"), str(tmp_path / "room.sqlite"))
    for topic, payload in LEGIT:
        service.handle(topic, payload)
    try:
        with TestClient(make_app(service, "secret")) as client:
            room = client.get("/api/room").json()
            assert room["room"] == "club" and room["tables"][0]["table"] == "1" and room["counted"] == len(LEGIT) - 1
            assert "<h1>Room" in client.get("/").text
            assert client.get("/console").status_code == 403
            assert client.get("/console?token=secret").status_code == 200
            assert client.post("/api/console/pause").status_code == 403
            assert client.post("/api/console/pause", headers={"X-Tabletop-Token": "nope"}).status_code == 403
            ok = {"X-Tabletop-Token": "secret"}
            assert client.post("/api/console/launch", headers=ok).status_code == 404
            assert client.post("/api/console/message", headers=ok, content=b"[1]").status_code == 400
            assert client.post("/api/console/message", headers=ok, content=b"x" * 20_000).status_code == 413
            answer = client.post("/api/console/message", headers=ok, json={"text": ""})
            assert answer.status_code == 400 and "1 to 500 characters" in answer.json()["error"]
            answer = client.post("/api/console/pause", headers=ok)
            assert answer.status_code == 400 and "not connected to the broker" in answer.json()["error"]
            answer = client.post("/api/console/seats", headers=ok, json={"kind": "swiss", "size": 99})
            assert answer.status_code == 400 and "'size'" in answer.json()["error"]
            assert client.get("/api/export.csv").status_code == 403
            csv = client.get("/api/export.csv?token=secret").text
            assert csv.splitlines()[0].startswith("game,player,points") and "letter-dice,Ann" in csv
            assert client.get("/api/export.json?token=secret").json()["letter-dice"][0]["games"] == 1
    finally:
        service.close()


def test_the_room_pages_speak_the_pages_language(tmp_path):
    service = RoomService(RoomAddress("127.0.0.1", 1, "club"), str(tmp_path / "room.sqlite"))
    for topic, payload in LEGIT:
        service.handle(topic, payload)
    try:
        with TestClient(make_app(service, "secret")) as client:
            assert client.get("/api/i18n").json()["language"] == "en"          # a room has no one game's language
            texts = client.get("/api/i18n?lang=uk").json()
            assert texts["language"] == "uk" and texts["pages"]["Leaderboard"] == "Таблиця лідерів"
            assert "T.t = " in client.get("/static/i18n.js").text and client.get("/static/app.py").status_code == 404
            snapshot = service.snapshot
            service.snapshot = lambda: {**snapshot(), "tables": [{**t, "status": "Round 2 of 4: roll the dice."}
                                                                 for t in snapshot()["tables"]]}
            english = client.get("/api/room").json()
            assert english["tables"][0]["status"] == "Round 2 of 4: roll the dice."
            ukrainian = client.get("/api/room", headers={"X-Tabletop-Language": "uk"}).json()
            assert ukrainian["tables"][0]["status"] == "Раунд 2 з 4: киньте кубики."
            assert ukrainian["tables"][0]["players"] == english["tables"][0]["players"]
            with client.websocket_connect("/ws?lang=uk") as ws:
                assert ws.receive_json()["tables"][0]["status"] == "Раунд 2 з 4: киньте кубики."
    finally:
        service.close()
