"""The web API without a browser: tokens, seats, windows, the WebSocket."""

from __future__ import annotations

from starlette.testclient import TestClient

from tabletop.web import make_app


def client_for(session):
    return TestClient(make_app(session))


def test_host_api_needs_the_host_token(session):
    client = client_for(session)
    for token in ("", "wrong", session.tokens["seats"]["Ann"]):
        r = client.post("/api/host/event", json={"event": {"type": "end"}}, headers={"X-Tabletop-Token": token})
        assert r.status_code == 403 and "host" in r.json()["error"]
        assert client.get("/api/host/state", params={"token": token}).status_code == 403
    assert not session.game.over
    ok = client.post("/api/host/event", json={"event": {"type": "clue", "player": "Ann"}},
                     headers={"X-Tabletop-Token": session.tokens["host"]})
    assert ok.status_code == 200 and ok.json()["status"] == "accepted"
    refused = client.post("/api/host/event", json={"event": {"type": "clue", "player": "Ben"}},
                          headers={"X-Tabletop-Token": session.tokens["host"]})
    assert refused.status_code == 200 and refused.json()["status"] == "rejected"


def test_seat_api_knows_each_seat_and_refuses_others(session):
    client = client_for(session)
    assert client.get("/api/seat/state", params={"token": "nope"}).status_code == 403
    ben = session.tokens["seats"]["Ben"]
    state = client.get("/api/seat/state", params={"token": ben}).json()
    assert state["seat"] == "Ben" and state["windows"] == []
    r = client.post("/api/seat/entry", json={"text": "market"}, headers={"X-Tabletop-Token": ben})
    assert r.status_code == 409 and "Nothing for Ben" in r.json()["error"]
    for event in [{"type": "clue", "player": "Ann", "answer": "market"}, {"type": "clue_read", "player": "Ann"},
                  {"type": "hand", "player": "Ben"}, {"type": "recognise", "player": "Ann", "target": "Ben"}]:
        session.submit(event)
    state = client.get("/api/seat/state", params={"token": ben}).json()
    assert state["windows"][0]["purpose"] == "answer"
    cai = session.tokens["seats"]["Cai"]
    assert client.get("/api/seat/state", params={"token": cai}).json()["windows"] == []
    r = client.post("/api/seat/entry", json={"text": "market"}, headers={"X-Tabletop-Token": ben})
    assert r.status_code == 200 and r.json()["status"] == "accepted" and session.game.turn.writer == "Ben"
    session.clock.advance(40)                                 # the 30 s to write are over:
    late = client.post("/api/seat/entry", json={"text": "MARKET", "row": 9, "col": 6, "dir": "across"},
                       headers={"X-Tabletop-Token": ben})   # a late write is taken, open to challenge
    assert late.status_code == 200 and "may be challenged" in late.json()["message"]
    assert session.game.turns[-1].late


def test_websocket_sends_the_view_and_updates(session):
    client = client_for(session)
    with client.websocket_connect("/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["players"] == ["Ann", "Ben", "Cai"]
        session.submit({"type": "clue", "player": "Ann"})
        update = ws.receive_json()
        assert update["view"]["events"] == 1 and update["view"]["asker"] == "Ann"


def test_pages_and_board_are_served(session):
    client = client_for(session)
    for path in ("/", "/host", "/seat", "/static/common.js", "/static/style.css"):
        assert client.get(path).status_code == 200
    board = client.get("/api/board").json()
    assert board["rows"] == 19 and len(board["values"]) == 19


def test_the_host_can_make_the_reader_forget_a_players_hand(session):
    import base64

    client = client_for(session)
    host = {"X-Tabletop-Token": session.tokens["host"]}
    image = base64.b64encode(bytes(784)).decode("ascii")
    session.teach_hand("Ben", {"letters": "A", "images": [image]})
    refused = client.post("/api/host/forget-hand", json={"player": "Zed"}, headers=host)
    assert refused.status_code == 400 and "'Zed' does not play in this game (its players: Ann, Ben" in refused.json()["error"]
    for odd in ({"player": "B" * 5000}, {"player": ["Ben"]}, {}):         # long, not text, missing
        refused = client.post("/api/host/forget-hand", json=odd, headers=host)
        assert refused.status_code == 400 and "does not play in this game" in refused.json()["error"]
        assert len(refused.json()["error"]) < 200
    assert session.hand_letters("Ben") == 1
    done = client.post("/api/host/forget-hand", json={"player": "Ben"}, headers=host)
    assert done.status_code == 200 and "forgot Ben's handwriting" in done.json()["message"]
    assert session.hand_letters("Ben") == 0
