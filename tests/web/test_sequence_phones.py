"""Sequence Letters from the phones alone, in Chromium at a phone's size: four children in two
teams, the table's own cards, no camera, no host typing. Each child sees her own cards, taps a
picture to put a chip on it (a Z or X card asks first), turns a dead card in from her page; the
host console shows no "Draw a card" and keeps the raw JSON folded away."""

from __future__ import annotations

import os
import pathlib
import random
import time

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.squares import Square
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PLAYERS = ("Ann", "Ben", "Cai", "Dee")


@pytest.fixture
def four(tmp_path):
    board = load_board("sequence-letters", required=("letters", "colors"))
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("sequence-letters", PLAYERS, seed=5,
                             options={"pieces": "virtual"}), "sequence-letters", board=board, lexicon=Lexicon([]),
                             clock=SimClock(), game_id="seq4")
    server = WebServer(session).start()
    yield session, server
    server.stop()
    session.journal.close()


def wait_until(condition, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.03)


def phone(browser, server, session, seat):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/seat?token={session.tokens['seats'][seat]}")
    page.wait_for_selector(f"#seat:has-text('{seat}')")
    return page


def shot(page, name):
    """A screenshot for the docs (docs/img) when TABLETOP_SHOTS names a folder."""
    folder = os.environ.get("TABLETOP_SHOTS")
    if folder:
        page.screenshot(path=str(pathlib.Path(folder) / name), full_page=True)


def name(row, col):
    return f"{chr(65 + col)}{row + 1}"


def test_a_whole_game_for_four_in_two_teams_from_the_phones(four, browser):
    # the children's own choice of picture (imported here: importing a game's table module at
    # collection would register it before the others, and the games' order is their discovery's)
    from tabletop.games.sequence_letters import choose_play

    session, server = four
    game = session.game
    pages = {seat: phone(browser, server, session, seat) for seat in PLAYERS}
    host = browser.new_context(**PHONE).new_page()
    rng = random.Random(2)
    try:
        host.goto(f"{server.url}/host?token={session.tokens['host']}")
        host.wait_for_selector("#console:not([hidden])")
        assert host.locator("#draw").is_hidden()                         # no clue deck in this game
        assert host.locator("#raw").is_hidden()                          # folded away under "advanced"
        host.click("#advanced summary")
        assert host.locator("#raw").is_visible()
        asked = dead_turned_in = 0
        for _ in range(120):
            if game.over:
                break
            player = game.whose_turn()
            page = pages[player]
            page.wait_for_selector("#pictures button.pic")
            page.wait_for_selector("#prompt:has-text('Tap a picture')")
            shown = page.locator("#cards .pcard").evaluate_all("els => els.map(e => e.dataset.card)")
            assert sorted(shown) == sorted(game.hands[player])             # her own cards, nobody else's
            if game.turn == 8:
                shot(page, "page-sequence-phone.png")
            dead = game.dead_cards(player)
            if dead and not game.dead_this_turn:
                page.click(f"#cards .pcard[data-card='{dead[0]}'] button.turnin")
                wait_until(lambda: game.dead_this_turn, f"{player}'s dead {dead[0]} turned in")
                dead_turned_in += 1
                page.wait_for_function("c => !document.querySelector(`#cards .pcard[data-card='${c}'].dead`)",
                                       arg=dead[0])
            move = choose_play(game, player, rng)
            assert move is not None
            square, card, turn = name(move["row"], move["col"]), move["card"], game.turn
            letter = game.board.cell("letters", Square(move["row"], move["col"]))
            if card in ("X", "Z") and (card == "X" or letter not in game.hands[player]):
                page.click(f"#pictures button[data-square='{square}']")     # the page asks about the X or Z
                page.wait_for_selector("#ask:not([hidden])")
                assert f"{card} card" in page.inner_text("#asktext")
                page.click("#askyes")
                asked += 1
            elif card in ("X", "Z"):
                page.click(f"#cards .pcard[data-card='{card}']")            # she chooses her Z first
                page.click(f"#pictures button[data-square='{square}']")
            else:
                page.click(f"#pictures button[data-square='{square}']")     # a tap plays her letter card
            wait_until(lambda: game.turn > turn or game.over, f"{player}'s {card} on {square}")
            assert game.plays[-1]["card"] == card and (game.plays[-1]["row"], game.plays[-1]["col"]) == \
                (move["row"], move["col"])
        assert game.over and game.winner in ("Ann+Cai", "Ben+Dee")
        for page in pages.values():
            page.wait_for_selector("#prompt:has-text('The game is over')")
        chips = pages["Ann"].locator("#pictures button.pic .chip").count()
        assert chips == len(game.chips)
        events = [e for e in session.journal.entries("seq4") if e.kind == "event"]
        assert events and all(e.source.startswith("seat:") for e in events)     # the phones alone
        assert not host.locator("#draw").is_visible()
    finally:
        for page in [host, *pages.values()]:
            page.context.close()


def test_a_tap_refuses_what_cannot_be_played_and_waits_for_the_turn(four, browser):
    session, server = four
    game = session.game
    player = game.whose_turn()
    other = next(p for p in PLAYERS if p != player)
    pages = {p: phone(browser, server, session, p) for p in (player, other)}
    try:
        pages[other].wait_for_selector("#pictures button.pic")
        pages[other].click("#pictures button[data-square='A1']")
        pages[other].wait_for_selector(f"#msg:has-text('Wait for your turn: {player} plays now')")
        missing = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWY" if c not in game.hands[player])
        where = next((r, c) for r, row in enumerate(game.board.layers["letters"]) for c, ch in enumerate(row)
                     if ch == missing)
        pages[player].wait_for_selector("#pictures button.pic")
        pages[player].click(f"#pictures button[data-square='{name(*where)}']")
        if "Z" in game.hands[player]:
            pages[player].wait_for_selector("#ask:not([hidden])")
            pages[player].click("#askno")
        else:
            pages[player].wait_for_selector(f"#msg:has-text('You have no {missing} card')")
        assert game.turn == 0 and not game.chips                        # nothing was played
    finally:
        for page in pages.values():
            page.context.close()


def test_with_real_cards_a_tap_plays_the_pictures_letter_and_the_page_offers_z_and_x(tmp_path):
    from starlette.testclient import TestClient

    from tabletop.web import make_app

    board = load_board("sequence-letters", required=("letters", "colors"))
    session = Session.create(Journal(":memory:"), GameSetup("sequence-letters", ("Ann", "Ben")), "sequence-letters",
                             board=board, lexicon=Lexicon([]), clock=SimClock())
    client = TestClient(make_app(session))
    ann = {"X-Tabletop-Token": session.tokens["seats"]["Ann"]}
    state = client.get("/api/seat/state", headers=ann).json()
    assert state["virtual"] is False and "cards" not in state and state["chips"] == "r"
    assert [w["purpose"] for w in state["windows"]] == ["play"] and len(state["squares"]) == 6
    reply = client.post("/api/seat/entry", json={"text": "a", "row": 0, "col": 0, "window": state["windows"][0]["id"]},
                        headers=ann).json()
    assert reply["status"] == "accepted" and session.game.chips == {Square(0, 0): 0}
    assert client.post("/api/seat/entry", json={"text": "Z", "row": 0, "col": 1}, headers=ann).status_code == 409
    assert client.post("/api/seat/entry", json={"text": "??", "row": 0, "col": 1},
                       headers={"X-Tabletop-Token": session.tokens["seats"]["Ben"]}).status_code == 400
    session.journal.close()
