"""Over HTTP: a seat entry whose row or column is not a whole number on the board is a 400 sentence."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tabletop.web.app import make_app

SP_WRITES = [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
             {"type": "clue_read", "player": "Ann"}, {"type": "hand", "player": "Ben"},
             {"type": "recognise", "player": "Ann", "target": "Ben"}, {"type": "answer", "player": "Ben", "text": "market"}]


@pytest.mark.parametrize("raw, says", [
    ('{"text": "market", "row": 1e400, "col": 6, "dir": "across"}', "row must be a whole number"),
    ('{"text": "market", "row": 9, "col": true, "dir": "across"}', "column must be a whole number, not True"),
    ('{"text": "market", "row": "4", "col": 6, "dir": "across"}', "row must be a whole number, not '4'"),
    ('{"text": "market", "row": 2.9, "col": 6, "dir": "across"}', "row must be a whole number, not 2.9"),
    ('{"text": "market", "row": 99, "col": 99, "dir": "across"}', "Row 100, column 100 (off the board"),
])
def test_a_seat_entry_with_a_bad_square_is_a_400_sentence(session, raw, says):
    for event in SP_WRITES:
        session.submit(event)
    client = TestClient(make_app(session))
    reply = client.post("/api/seat/entry", content=raw, headers={"X-Tabletop-Token": session.tokens["seats"]["Ben"],
                                                                 "Content-Type": "application/json"})
    assert reply.status_code == 400 and says in reply.json()["error"]
    assert len(session.game.events) == len(SP_WRITES)
