"""SP Classic from the asker's phone: she takes her card, says the clue is read, recognises the
first hand and marks answers right or wrong from her own page, and only while the rules say she
asks; a Buzz button that would be ignored is disabled; the recognised player's page offers the
answer window every time (200 recognitions, with the table clock ticking and other hands going
up meanwhile), under a window name that stays the same while they do."""

from __future__ import annotations

import random
import threading
import time

import pytest
from starlette.testclient import TestClient

from rules.game import GameSetup
from tabletop.decks import builtin_deck
from tabletop.lexicons import builtin_lexicon
from tabletop.players.planner import best_placement
from tabletop.session import Journal, Session, TableClock
from tabletop.web import make_app

from .test_whole_games import close_all, open_pages, table, wait_until, write_from_the_page


#: how many recognitions the repetition test makes
LIMIT = 200


def api_table(players, rounds):
    session = Session.create(Journal(":memory:"), GameSetup("extradiction-sp", players, variant="classic", seed=7,
                             rounds=rounds), "extradiction-sp", lexicon=builtin_lexicon("en"), clock=TableClock(),
                             deck=builtin_deck("en").shuffled(7))
    app = make_app(session)
    return session, TestClient(app), app


def as_seat(session, seat):
    return {"X-Tabletop-Token": session.tokens["seats"][seat]}


def hands_up(session, players, timeout=5.0):
    """Wait until the phones' presses of ``players`` went through the press orderer (20 ms)."""
    deadline = time.monotonic() + timeout
    turn = session.game.turn
    while not all(p in turn.hands or p == turn.current or p in turn.done for p in players):
        assert time.monotonic() < deadline, f"the hands of {players} never went up"
        time.sleep(0.005)


def test_the_recognised_player_is_offered_the_answer_window_every_time():
    players = ("Ann", "Ben", "Cai", "Dee")
    session, client, app = api_table(players, rounds=30)
    stop = threading.Event()

    def ticker():                                        # the live table's clock
        while not stop.is_set():
            session.tick()
            time.sleep(0.02)

    def act(seat, key):
        reply = client.post("/api/seat/action", json={"key": key}, headers=as_seat(session, seat))
        assert reply.status_code == 200 and reply.json()["status"] == "accepted", (seat, key, reply.json())

    threading.Thread(target=ticker, daemon=True).start()
    rng = random.Random(11)
    recognitions = 0
    try:
        while recognitions < LIMIT:
            assert not session.game.over, f"the game ended after {recognitions} recognitions"
            asker = session.game.clue_asker()
            act(asker, "clue:0")
            act(asker, "clue-read")
            answerers = [p for p in players if p != asker]
            rng.shuffle(answerers)
            early = answerers[:rng.randint(2, 3)]
            late = answerers[len(early):]
            for p in early:
                assert client.post("/api/seat/buzz", json={}, headers=as_seat(session, p)).status_code == 200
            hands_up(session, early)
            pressed = list(early)                        # phones: each press waits in the orderer
            turn = session.game.turn
            while turn.phase.value == "answering" and recognitions < LIMIT:
                if not turn.hands:
                    coming = [p for p in pressed if p not in turn.done]   # pressed, still in the orderer
                    if not coming:
                        break
                    hands_up(session, coming)
                    continue
                act(asker, "recognise")
                recognitions += 1
                who = turn.current
                state = client.get("/api/seat/state", headers=as_seat(session, who)).json()
                offered = [w for w in state["windows"] if w["purpose"] == "answer" and w["seats"] == [who]]
                assert offered and offered[0]["deadline"] > state["now"], (recognitions, state["windows"])
                if late and rng.random() < 0.7:          # another hand goes up while she answers: a button
                    assert session.buzz(late.pop()).accepted             # on the buzzer box, at once
                right = rng.random() < 0.2
                entry = client.post("/api/seat/entry", json={"text": turn.answer if right else "zzz",
                                                             "window": offered[0]["id"]}, headers=as_seat(session, who))
                assert entry.status_code == 200, entry.json()    # the window she was offered still takes it
            turn = session.game.turn
            if turn.phase.value == "answering":          # the test stops mid-question
                break
            if turn.phase.value == "writing":
                act(turn.writer, "pass")
    finally:
        stop.set()
        app.state.phones.close()


def test_only_the_asker_may_recognise_and_judge_and_only_while_she_asks():
    session, client, app = api_table(("Ann", "Ben", "Cai"), rounds=2)
    try:
        asker = session.game.clue_asker()
        ben, cai = [p for p in ("Ann", "Ben", "Cai") if p != asker]
        assert client.post("/api/seat/action", json={"key": "clue:0"}, headers=as_seat(session, ben)).status_code == 403
        state = client.get("/api/seat/state", headers=as_seat(session, asker)).json()
        assert [a["key"] for a in state["actions"]][:1] == ["clue:0"] and "reads card" in state["actions"][0]["label"]
        assert client.get("/api/seat/state", headers=as_seat(session, ben)).json()["actions"] == []
        client.post("/api/seat/action", json={"key": "clue:1"}, headers=as_seat(session, asker))
        assert client.post("/api/seat/action", json={"key": "clue-read"}, headers=as_seat(session, ben)).status_code == 403
        client.post("/api/seat/action", json={"key": "clue-read"}, headers=as_seat(session, asker))
        assert client.post("/api/seat/action", json={"key": "recognise"}, headers=as_seat(session, asker)).json()[
            "status"] == "rejected"                                           # no hand is up yet
        session.buzz(ben)
        assert client.post("/api/seat/action", json={"key": "recognise"}, headers=as_seat(session, cai)).status_code == 403
        assert client.post("/api/seat/action", json={"key": "recognise"}, headers=as_seat(session, asker)).json()[
            "status"] == "accepted"
        assert client.post("/api/seat/action", json={"key": "answer-right"},
                           headers=as_seat(session, ben)).status_code == 403  # not his own answer
        assert client.post("/api/seat/action", json={"key": "answer-wrong"},
                           headers=as_seat(session, asker)).json()["status"] == "accepted"
        state = client.get("/api/seat/state", headers=as_seat(session, ben)).json()
        assert state["buzz"] and not state["buzz_ready"]                  # shown, but his press would be ignored
        assert client.post("/api/seat/buzz", json={}, headers=as_seat(session, ben)).status_code == 409
        assert client.get("/api/seat/state", headers=as_seat(session, cai)).json()["buzz_ready"]
        session.buzz(cai)
        client.post("/api/seat/action", json={"key": "recognise"}, headers=as_seat(session, asker))
        assert client.post("/api/seat/action", json={"key": "answer-right"},
                           headers=as_seat(session, asker)).json()["status"] == "accepted"
        assert session.game.turn.writer == cai
        assert client.post("/api/seat/action", json={"key": "answer-right"},
                           headers=as_seat(session, asker)).json()["status"] == "rejected"   # the question is over
        assert client.post("/api/seat/action", json={"key": "pass"}, headers=as_seat(session, asker)).status_code == 403
        assert client.post("/api/seat/action", json={"key": "pass"}, headers=as_seat(session, cai)).json()[
            "status"] == "accepted"
        assert {e.source for e in session.journal.entries(session.game_id) if e.kind == "event"} <= \
            {f"seat:{asker}", f"seat:{cai}", "phone", "buzzer", "console"}
    finally:
        app.state.phones.close()


@pytest.mark.browser
@pytest.mark.slow
def test_an_sp_classic_round_driven_from_the_askers_phone(tmp_path, browser):
    session, server = table(tmp_path, "classic", ("Ann", "Ben", "Cai"), rounds=1)
    host, seats = open_pages(browser, server, session)
    try:
        for turn in range(3):
            asker = session.game.clue_asker()
            first, second = [p for p in ("Ann", "Ben", "Cai") if p != asker][::1 if turn % 2 else -1]
            phone = seats[asker]
            phone.click("#actions button[data-key='clue:0']")              # she takes the card, reads clue 1
            phone.click("#actions button[data-key='clue-read']")
            seats[first].wait_for_selector("#buzz:not([hidden]):not([disabled])")
            seats[first].dispatch_event("#buzz", "pointerdown")
            phone.click("#actions button[data-key='recognise']")
            seats[first].wait_for_selector("#form:not([hidden])")          # the answer box, on his phone
            phone.click("#actions button[data-key='answer-wrong']")        # she heard a wrong answer
            wait_until(lambda: first in session.game.turn.done, f"{first}'s wrong answer")
            seats[first].wait_for_selector("#buzz[disabled]")              # shown, but a press would be ignored
            seats[second].wait_for_selector("#buzz:not([disabled])")
            seats[second].dispatch_event("#buzz", "pointerdown")
            phone.click("#actions button[data-key='recognise']")
            seats[second].wait_for_selector("#form:not([hidden])")
            phone.click("#actions button[data-key='answer-right']")
            wait_until(lambda: session.game.turn.writer == second, f"{second} writing")
            answer = session.game.turn.answer
            if best_placement(session.game, second, answer):
                write_from_the_page(seats[second], session, second, answer)
            else:
                seats[second].click("#actions button[data-key='pass']")      # nowhere to write it: he passes
                wait_until(lambda: session.game.turn.phase.value != "writing", f"{second}'s pass")
        wait_until(lambda: session.game.over, "the end of the round")
        events = [e for e in session.journal.entries("pages") if e.kind == "event"]
        assert not [e for e in events if e.source == "host"]                # the laptop never travelled
    finally:
        close_all(host, seats, server, session)
