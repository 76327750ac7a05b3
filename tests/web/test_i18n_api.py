"""The pages' API in the page's language: messages, errors and views translated when the page
asks (X-Tabletop-Language, ?lang=), English otherwise; /api/i18n gives a page its texts and, when
it has chosen none, the game's language."""

from __future__ import annotations

from starlette.testclient import TestClient

from tabletop.web import make_app


def seat(session, name):
    return {"X-Tabletop-Token": session.tokens["seats"][name]}


def test_answers_in_the_pages_language(dice_table_uk):
    session, _ = dice_table_uk
    client = TestClient(make_app(session))
    session.submit({"type": "roll", "faces": ["К", "І", "Т", "Р", "А", "К", "*", "О"]})
    english = client.post("/api/seat/entry", json={"text": "кіт", "row": 1}, headers=seat(session, "Ann"))
    assert english.json()["message"] == "Ann's word for row 1 is in."           # no language asked: as the rules say
    ukrainian = client.post("/api/seat/entry", json={"text": "рак", "row": 2},
                            headers={**seat(session, "Ann"), "X-Tabletop-Language": "uk"})
    assert ukrainian.json()["message"] == "Слово гравця Ann для рядка 2 прийнято."
    refused = client.post("/api/seat/entry", json={"text": "", "row": 3},
                          headers={**seat(session, "Ann"), "X-Tabletop-Language": "uk"})
    assert refused.status_code == 400 and refused.json()["error"] == "Спершу щось напишіть."
    wrong = client.get("/api/seat/state?lang=uk", headers={"X-Tabletop-Token": "nope"})
    assert wrong.status_code == 403 and wrong.json()["error"].startswith("Токен цього місця неправильний")
    view = client.get("/api/state", headers={"X-Tabletop-Language": "uk"}).json()
    assert view["language"] == "uk" and view["title"] == "Кубики з літерами"
    assert view["status"] == "Раунд 1: пісок сиплеться. Слів поки що: Ann 2, Ben 0, Cai 0."
    assert client.get("/api/state", headers={"X-Tabletop-Language": "xx"}).json()["title"] == "Letter dice"
    with client.websocket_connect("/ws?lang=uk") as ws:
        assert ws.receive_json()["view"]["title"] == "Кубики з літерами"


def test_a_page_gets_its_texts_and_the_games_language(dice_table_uk):
    session, _ = dice_table_uk
    client = TestClient(make_app(session))
    chosen = client.get("/api/i18n").json()
    assert chosen["language"] == "uk" and chosen["pages"]["Cross this row out"] == "Закреслити цей рядок"
    assert client.get("/api/i18n?lang=en").json() == {**chosen, "language": "en", "pages": {}}


def test_an_english_games_pages_start_in_english(dice_table):
    session, _ = dice_table
    client = TestClient(make_app(session))
    assert client.get("/api/i18n").json()["language"] == "en"
    assert client.get("/api/i18n?lang=uk").json()["language"] == "uk"      # a page may still choose Ukrainian
