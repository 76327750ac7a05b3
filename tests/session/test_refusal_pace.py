"""A seat that floods the table with refused entries is slowed down: at most MOST_REFUSALS are read
and journalled in REFUSALS_SECONDS; the rest are turned away unread (429 on the web), the host
sees how many, and the seat may enter again once the oldest refusal is old enough."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.session import Journal, Session, SimClock
from tabletop.session.entry_windows import MOST_REFUSALS, REFUSALS_SECONDS
from tabletop.session.refusals import TooManyRefusals
from tabletop.web import make_app


def test_a_flood_of_refused_words_is_turned_away_unjournalled():
    session = Session.create(Journal(":memory:"), GameSetup("letter-dice", ("Ann", "Ben")), "",
                             lexicon=Lexicon(["cat"]), clock=SimClock())
    now = [100.0]
    session.entry_windows._monotonic = lambda: now[0]
    session.submit({"type": "roll", "faces": ["C", "A", "T", "E", "S", "R", "N", "*"]})
    before = session.journal.count(session.game_id)
    client = TestClient(make_app(session))
    ann = {"X-Tabletop-Token": session.tokens["seats"]["Ann"]}
    codes = [client.post("/api/seat/entry", json={"text": "zzzzzzzzzz", "row": 1}, headers=ann).status_code
             for _ in range(80)]
    assert codes[:MOST_REFUSALS] == [200] * MOST_REFUSALS and set(codes[MOST_REFUSALS:]) == {429}
    assert session.journal.count(session.game_id) - before == MOST_REFUSALS
    assert session.host_view()["turned_away"] == {"Ann": 80 - MOST_REFUSALS}
    ben = {"X-Tabletop-Token": session.tokens["seats"]["Ben"]}
    assert client.post("/api/seat/entry", json={"text": "cat", "row": 1}, headers=ben).json()["status"] == "accepted"
    now[0] += REFUSALS_SECONDS + 0.1                   # the oldest refusals are old enough now
    assert client.post("/api/seat/entry", json={"text": "cat", "row": 1}, headers=ann).status_code == 200


def test_malformed_entries_count_too_and_the_refusal_says_when_to_try_again():
    session = Session.create(Journal(":memory:"), GameSetup("letter-dice", ("Ann", "Ben")), "",
                             lexicon=Lexicon(["cat"]), clock=SimClock())
    session.entry_windows._monotonic = lambda: 5.0
    for _ in range(MOST_REFUSALS):
        with pytest.raises(Exception):
            session.enter("Ann", {"text": "   "})           # nothing to enter: no round
    with pytest.raises(TooManyRefusals, match=r"Slow down: Ann's last \d+ entries were refused. Try again in 10 s."):
        session.enter("Ann", {"text": "cat", "row": 1})
