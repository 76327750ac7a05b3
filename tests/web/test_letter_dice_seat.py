"""Letter dice on a seat's phone: her own words this round listed, each undoable until the sand
runs out, a crossed-out row asked about first; after the sand her reveal and scores; a late word
refused with a sentence that says the sand ran out; the family filter on the reveal's best words."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.games import spec
from tabletop.session import Journal, Session, SimClock
from tabletop.web import make_app

from .test_letter_dice_pages import seat_page
from tests.web.conftest import DICE_WORDS as WORDS


def post_entry(client, session, seat, **entry):
    return client.post("/api/seat/entry", json=entry, headers={"X-Tabletop-Token": session.tokens["seats"][seat]})


@pytest.mark.browser
def test_her_words_undo_a_confirmed_cross_and_her_reveal(dice_table, browser):
    session, server = dice_table
    session.submit({"type": "roll", "faces": ["C", "A", "T", "E", "S", "R", "N", "*"]})
    ann, ben = seat_page(browser, server, session, "Ann"), seat_page(browser, server, session, "Ben")
    try:
        ann.wait_for_selector("#form:not([hidden])")
        ann.select_option("#row", "1")
        ann.fill("#text", "cat")
        ann.click("#send")
        ann.wait_for_selector("#mywords li[data-row='1']:has-text('CAT')")
        ann.click("#mywords li[data-row='1'] button.undo")              # a slip: she takes it back
        ann.wait_for_selector("#mywords li[data-row='1']", state="detached")
        assert 1 in session.game.free_rows("Ann")
        ann.select_option("#row", "6")
        ann.fill("#text", "crate")
        ann.click("#send")
        ann.wait_for_selector("#mywords li[data-row='6']:has-text('CRATE')")
        ann.select_option("#row", "12")
        ann.click("#cross")                                             # 10 points: she is asked first
        ann.wait_for_selector("#ask:not([hidden])")
        assert "Cross out row 12 (10 points)" in ann.inner_text("#asktext")
        ann.click("#askno")
        assert 12 in session.game.free_rows("Ann")
        ann.select_option("#row", "1")
        ann.click("#cross")
        ann.click("#askyes")
        ann.wait_for_selector("#mywords li[data-row='1']:has-text('crossed out')")
        ben.wait_for_selector("#form:not([hidden])")
        assert ben.locator("#mywords li").count() == 0 and "CRATE" not in ben.inner_text("body").upper()
        ben.select_option("#row", "2")
        ben.fill("#text", "tea")
        ben.click("#send")
        ben.wait_for_selector("#mywords li[data-row='2']")
        session.clock.advance(61)                                       # the sand runs out
        late = post_entry(TestClient(make_app(session)), session, "Ben", text="act", row=1)
        assert late.status_code == 409 and "the sand ran out" in late.json()["error"]
        session.tick()
        ann.wait_for_selector("#myreveal:not([hidden])")
        assert "Round 1: you scored 3 points" in ann.inner_text("#myreveal h3")
        assert "CRATE 3" in ann.inner_text("#myreveal tr[data-player='Ann']")
        assert "TEA 1" in ann.inner_text("#myreveal tr[data-player='Ben']")   # everyone's, after the reveal
        assert ann.inner_text("#prompt").startswith("Round 1 is scored")
        assert ann.locator("#mine-dice").is_hidden()
        ben.wait_for_selector("#myreveal:has-text('you scored 1 point')")
    finally:
        ann.context.close()
        ben.context.close()


def test_a_word_after_the_sand_is_refused_saying_so(tmp_path):
    session = Session.create(Journal(":memory:"), GameSetup("letter-dice", ("Ann", "Ben"), options={"sand_seconds": 60}),
                             "", lexicon=WORDS, clock=SimClock())
    client = TestClient(make_app(session))
    assert "not rolled yet" in post_entry(client, session, "Ann", text="cat", row=1).json()["error"]
    session.submit({"type": "roll", "faces": ["C", "A", "T", "E", "S", "R", "N", "*"]})
    session.clock.advance(61)                                            # run out, not yet ticked
    assert post_entry(client, session, "Ann", text="cat", row=1).json()["error"].startswith(
        "Too late: the sand ran out 1.0 s ago")
    session.tick()
    reply = post_entry(client, session, "Ann", text="cat", row=1)
    assert reply.status_code == 409 and reply.json()["error"] == (
        "The sand ran out: round 1's words are closed, Ann. Words wait for the next roll.")
    session.journal.close()


@pytest.mark.parametrize("option, shown", [({}, False), ({"family_filter": True}, False),
                                           ({"family_filter": False}, True)])
def test_the_family_filter_keeps_vulgar_words_off_the_reveal_unless_turned_off(option, shown):
    session = Session.create(Journal(":memory:"), GameSetup("letter-dice", ("Ann", "Ben"), options=option), "",
                             lexicon=Lexicon(["shit", "shot", "hots", "host", "tosh"]), clock=SimClock())
    session.submit({"type": "roll", "faces": ["S", "H", "I", "T", "O", "A", "E", "R"]})
    session.submit({"type": "end_round"})
    best = spec("letter-dice").table.summary(session.game)["reveal"][0]["best"][4]
    assert ("SHIT" in best) is shown and {"SHOT", "HOST"} <= set(best)
    session.journal.close()


def test_the_option_is_checked_like_every_other():
    from rules.errors import RecordFormatError
    from rules.games import new_game
    with pytest.raises(RecordFormatError):
        new_game(GameSetup("letter-dice", ("Ann", "Ben"), options={"family_filter": "maybe"}), None, WORDS)
