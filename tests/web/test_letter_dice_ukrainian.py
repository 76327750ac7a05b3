"""A whole letter-dice round in Ukrainian (``--language uk``), in Chromium: the seats at a phone's
size (390x844) and the scoreboard at a laptop's (1366x768) open in Ukrainian (the game's
language: the switch shows УК), a word accepted, one refused and one undone, all said in
Ukrainian; the sand runs out and the scoreboard reveals the round in Ukrainian; switching one
page to EN changes that page alone."""

from __future__ import annotations

import re

import pytest

from tabletop.i18n import Catalogue

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def english_left(text: str) -> list[str]:
    """The pages' English sentences (the catalogue's, longer than a word) still in ``text``."""
    pages = Catalogue.load("uk").pages
    return [english for english, ukrainian in pages.items()
            if english != ukrainian and "{" not in english and " " in english and english in text]


def seat_page(browser, server, session, seat):
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.url}/seat?token={session.tokens['seats'][seat]}")
    page.wait_for_selector(f"#seat:has-text('{seat}')")
    page.wait_for_selector(".langswitch button.on")
    return page


def send(page, row, word):
    page.select_option("#row", str(row))
    page.fill("#text", word)
    page.click("#send")


def test_a_whole_round_in_ukrainian(dice_table_uk, browser):
    session, server = dice_table_uk
    board = browser.new_context(**LAPTOP).new_page()
    pages = {seat: seat_page(browser, server, session, seat) for seat in ("Ann", "Ben")}
    ann, ben = pages["Ann"], pages["Ben"]
    try:
        board.goto(server.url + "/")
        board.wait_for_selector(".langswitch button.on")
        for page in (board, ann, ben):                                    # the game's language, by default
            assert page.inner_text(".langswitch button.on") == "УК"
            assert page.evaluate("document.documentElement.lang") == "uk"
        assert board.inner_text("#phase") == "Раунд 1 з 4: киньте кубики."
        session.submit({"type": "roll", "faces": ["К", "І", "Т", "Р", "А", "К", "*", "О"]})
        board.wait_for_selector("#log li:has-text('Перевертайте пісочний годинник!')")
        assert "Джокер" in board.inner_text("#log")

        ann.wait_for_selector("#form:not([hidden])")
        assert ann.inner_text("#send") == "Надіслати" and ann.inner_text("#cross") == "Закреслити цей рядок"
        assert ann.inner_text("#prompt") == "Раунд 1: напишіть до 3 слів, по одному в рядку (уже 0)."
        assert ann.locator("#row option").first.inner_text() == "рядок 1: 3 літери, 1 очко"
        send(ann, 1, "кіт")                                               # accepted
        ann.wait_for_selector("#msg.ok:has-text('Слово гравця Ann для рядка 1 прийнято.')")
        ann.wait_for_selector("#mywords li[data-row='1']:has-text('КІТ')")
        assert ann.inner_text("#mine-dice h3").startswith("Ваші слова в цьому раунді")

        ben.wait_for_selector("#form:not([hidden])")
        send(ben, 1, "ракета")                                            # refused: too long for its row
        ben.wait_for_selector("#msg.error:has-text('слово заповнює свій рядок точно')")
        assert ben.inner_text("#msg") == ("У рядку 1 3 клітинки, а в РАКЕТА 6 літер: слово заповнює свій рядок "
                                          "точно.")
        send(ben, 3, "кора")                                              # accepted, then undone
        ben.wait_for_selector("#mywords li[data-row='3']:has-text('КОРА')")
        assert "Скасувати" == ben.inner_text("#mywords li[data-row='3'] button.undo")
        ben.click("#mywords li[data-row='3'] button.undo")
        ben.wait_for_selector("#msg:has-text('Рядок 3 гравця Ben знову вільний.')")
        ben.wait_for_selector("#mywords li[data-row='3']", state="detached")
        send(ben, 2, "рак")
        ben.wait_for_selector("#mywords li[data-row='2']:has-text('РАК')")

        board.wait_for_selector("#phase:has-text('пісок сиплеться')")
        assert board.inner_text("#phase") == "Раунд 1: пісок сиплеться. Слів поки що: Ann 1, Ben 1, Cai 0."
        session.clock.advance(61)                                         # the sand runs out
        session.tick()
        board.wait_for_selector("#reveal:not([hidden])")
        assert board.inner_text("#reveal h2") == "Відкриття слів"
        ann_row = board.text_content("#reveal tr[data-player='Ann']")
        assert "КІТ 1" in ann_row and "(немає слова: закреслено)" in ann_row
        assert "РАК 1" in board.text_content("#reveal tr[data-player='Ben']")
        assert "Найкращі слова, які дозволяв кидок" in board.inner_text("#reveal")
        assert re.search(r"Час минув! Раунд 1: нічия\. Рахунок: Ann 1, Ben 1, Cai 0\.", board.inner_text("#log"))
        ann.wait_for_selector("#myreveal:not([hidden])")
        assert ann.inner_text("#myreveal h3") == "Раунд 1: у вас 1 очко (разом 1)"
        assert ann.inner_text("#prompt") == "Раунд 1 пораховано. Чекаємо наступного кидка."
        for page in (board, ann, ben):                                    # nothing of the pages left in English
            assert not english_left(page.inner_text("body")), english_left(page.inner_text("body"))

        ann.click(".langswitch button[data-lang='en']")                  # Ann switches her page to English...
        ann.wait_for_selector(".langswitch button.on:has-text('EN')")
        ann.wait_for_selector("#myreveal:not([hidden])")
        assert ann.inner_text("#myreveal h3") == "Round 1: you scored 1 point (total 1)"
        assert "(no word: crossed out)" in ann.inner_text("#myreveal")      # the rules' reasons too
        ann.reload()                                                      # ...and it stays so
        ann.wait_for_selector(".langswitch button.on:has-text('EN')")
        ben.reload()                                                      # the other pages stay Ukrainian
        ben.wait_for_selector(".langswitch button.on:has-text('УК')")
        ben.wait_for_selector("#myreveal:not([hidden])")
        assert ben.inner_text("#myreveal h3") == "Раунд 1: у вас 1 очко (разом 1)"
        assert board.inner_text(".langswitch button.on") == "УК" and board.inner_text("#reveal h2") == "Відкриття слів"
    finally:
        for page in [*pages.values(), board]:
            page.context.close()
