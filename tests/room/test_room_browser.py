"""The room page and console in a real headless Chromium: three tables, a duplicate dice round
started from the console, the leaderboard updating, a table going offline and coming back."""

from __future__ import annotations

import pytest

from rules.game import GameSetup
from rules.letter_dice import best_words
from tabletop.room.address import RoomAddress
from tabletop.room.link import TableLink
from tabletop.room.service import RoomService
from tabletop.room.web import RoomServer
from tabletop.session.clock import SimClock
from tabletop.session.core import Session
from tabletop.session.journal import Journal

from tests.room.conftest import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _words(session: Session) -> None:
    """Each player writes one word the roll allows (Ann the same word at every table; Ben one
    of his own at table 3), then the sand runs out."""
    game = session.game
    faces = game.round.faces
    for k, player in enumerate(game.setup.players):
        row = game.free_rows(player)[0]
        length = game.sheet[row - 1][0]
        choices = best_words(game.lexicon, faces, length, limit=10) or [None]
        pick = choices[0] if player == "Ann" else choices[min(len(choices) - 1, int(session.game_id[-1]))]
        session.submit({"type": "word", "player": player, "row": row, "word": pick}, source=f"seat:{player}")
    session.clock.advance(game.sand_seconds + 1)
    session.tick()


def test_three_tables_a_duplicate_round_and_a_table_that_drops_out(broker, tmp_path, page):  # noqa: F811
    address = RoomAddress.broker(broker.url, "club")
    room = RoomService(address, str(tmp_path / "room.sqlite"), room_unique=True).start()
    server = RoomServer(room, token="secret").start()
    sessions = [Session.create(Journal(tmp_path / f"t{n}.sqlite"), GameSetup("letter-dice", ("Ann", "Ben"), seed=n),
                               "", clock=SimClock(), game_id=f"game-{n}") for n in (1, 2, 3)]
    links = [TableLink(s, address, str(n)).start() for n, s in zip((1, 2, 3), sessions)]
    try:
        wait_for(lambda: len(room.snapshot()["tables"]) == 3 and all(t["online"] for t in room.snapshot()["tables"]))
        page.goto(f"{server.url}/console?token=secret")
        for n in (1, 2, 3):
            page.wait_for_selector(f"#table-{n}[data-online='true']")
        wait_for(lambda: all(link.client.connected.is_set() for link in links))
        page.click("#roll")                                     # the same letters at every table
        page.wait_for_function("document.getElementById('answer').textContent.includes('faces')")
        wait_for(lambda: all(s.game.round is not None for s in sessions), what="the duplicate roll")
        faces = [tuple(s.game.round.faces) for s in sessions]
        assert faces[0] == faces[1] == faces[2]
        page.wait_for_selector("#rolls:has-text('Duplicate rolls')")
        for s in sessions:
            _words(s)
        ann = sum(s.game.totals["Ann"] for s in sessions)
        page.wait_for_selector(f"section[data-game='letter-dice'] tr[data-player='Ann'] td.points:text-is('{ann}')")
        # Ann wrote the same word at every table: it scores at each table, but nowhere in the room
        assert page.inner_text("section[data-game='letter-dice'] tr[data-player='Ann'] td.room-unique") == "0"
        assert int(page.inner_text("section[data-game='letter-dice'] tr[data-player='Ben'] td.room-unique")) > 0

        links[2].close()                                        # table 3's Wi-Fi drops
        page.wait_for_selector("#table-3[data-online='false']")
        assert "OFFLINE" in page.inner_text("#table-3")
        sessions[2].submit({"type": "roll", "faces": list(faces[0])})       # it plays on, offline
        _words(sessions[2])
        links[2] = TableLink(sessions[2], address, "3").start()  # and comes back: the outbox catches up
        page.wait_for_selector("#table-3[data-online='true']")
        ann = sum(s.game.totals["Ann"] for s in sessions)
        page.wait_for_selector(f"section[data-game='letter-dice'] tr[data-player='Ann'] td.points:text-is('{ann}')")
        seq = sessions[2].journal.count("game-3")
        page.wait_for_selector(f"#table-3 .seq:has-text('entries {seq} of {seq}')")
        board = {line["player"]: line["points"] for line in room.snapshot()["leaderboard"]["letter-dice"]}
        assert board == {p: sum(s.game.totals[p] for s in sessions) for p in ("Ann", "Ben")}
    finally:
        for link in links:
            link.close()
        server.stop()
        room.close()


def test_the_room_page_in_ukrainian_heads_its_live_view_in_ukrainian(broker, tmp_path, page):  # noqa: F811
    room = RoomService(RoomAddress.broker(broker.url, "club"), str(tmp_path / "room.sqlite")).start()
    server = RoomServer(room, token="secret").start()
    try:
        page.add_init_script("localStorage.setItem('tabletop-lang:/', 'uk')")  # the page's EN | УК switch, chosen
        page.goto(f"{server.url}/")
        page.wait_for_selector("#leaderboard", state="attached")  # empty until a table plays
        assert page.locator("h2").all_inner_texts() == ["Таблиця лідерів", "Столи"]
    finally:
        server.stop()
        room.close()
