"""Questique from the phones: a word typed in lowercase is letter tiles (phones capitalise as they
like), a blank is typed with a ``?`` before its letter, and a player exchanges the tiles she
chose on her rack."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from rules.squares import Square
from tabletop.web import WebServer, make_app

from .test_questique_page import session_for

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def enter(client, session, seat, **entry):
    return client.post("/api/seat/entry", json=entry, headers={"X-Tabletop-Token": session.tokens["seats"][seat]})


def test_lowercase_is_letters_and_a_question_mark_makes_a_blank(tmp_path):
    session = session_for(tmp_path, ("Ann", "Ben"), pieces="virtual", first="Ann")
    session.game.supply.racks["Ann"] = list("CAT?XYZ")
    session.game.supply.racks["Ben"] = list("CAT?XYZ")
    client = TestClient(make_app(session))
    reply = enter(client, session, "Ann", text="cat", row=4, col=3, dir="across")
    assert reply.json()["status"] == "accepted", reply.json()
    assert not session.game.blanks and session.game.supply.racks["Ann"].count("?") == 1
    assert enter(client, session, "Ben", text="c?at?", row=14, col=13, dir="across").status_code == 400
    reply = enter(client, session, "Ben", text="c?at", row=14, col=13, dir="across")
    assert reply.json()["status"] == "accepted", reply.json()
    assert session.game.blanks == {Square(14, 14)} and "?" not in session.game.supply.racks["Ben"]
    session.journal.close()


@pytest.mark.browser
def test_a_word_in_lowercase_then_an_exchange_of_chosen_tiles_from_the_phones(tmp_path, browser):
    session = session_for(tmp_path, ("Ann", "Ben"), pieces="virtual", first="Ann")
    session.game.supply.racks["Ann"] = list("CATXYZQ")
    server = WebServer(session).start()
    pages = {}
    try:
        for seat in ("Ann", "Ben"):
            pages[seat] = browser.new_context(**PHONE).new_page()
            pages[seat].goto(f"{server.url}/seat?token={session.tokens['seats'][seat]}")
        ann, ben = pages["Ann"], pages["Ben"]
        ann.wait_for_selector("#form:not([hidden])")
        ann.fill("#text", "cat")                                       # the phone did not capitalise it
        ann.click("#tapboard button[data-square='D5']")
        ann.click("#send")
        ann.wait_for_selector("#msg.ok")
        assert session.game.grid[Square(4, 3)] == "C" and not session.game.blanks
        ben.wait_for_selector("#swap:not([hidden])")
        rack = list(session.game.supply.racks["Ben"])
        bag = len(session.game.supply.bag)
        ben.click("#rack span >> nth=0")
        ben.click("#rack span >> nth=2")
        ben.wait_for_selector("#exchange:has-text('Exchange 2 tiles')")
        ben.click("#exchange")
        ben.wait_for_selector("#msg:has-text('exchanges tiles')")
        assert session.game.whose_turn() == "Ann" and len(session.game.supply.bag) == bag
        assert len(session.game.supply.racks["Ben"]) == len(rack)
        kept = sorted(rack[1:2] + rack[3:])
        now = list(session.game.supply.racks["Ben"])
        for tile in kept:                                              # the tiles he did not choose stay
            now.remove(tile)
        assert len(now) == 2
        ben.wait_for_selector("#swap", state="hidden")                 # not his turn any more
    finally:
        for page in pages.values():
            page.context.close()
        server.stop()
        session.journal.close()
