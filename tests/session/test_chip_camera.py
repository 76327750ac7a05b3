"""The camera over the Sequence Letters board: a chip put down is the play of that picture's
letter by the player whose turn it is, a chip taken off is an X, a hand over the board is no
play; and the demo's whole game goes through it."""

from __future__ import annotations

import io

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.squares import Square
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.session.devices import ChipCameraInput, SyntheticChipCamera

pytestmark = pytest.mark.vision
BOARD = load_board("sequence-letters", required=("letters", "colors"))


@pytest.fixture
def table(tmp_path):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("sequence-letters", ("Ann", "Ben")),
                             "sequence-letters", board=BOARD, lexicon=Lexicon([]), clock=SimClock(), game_id="seq")
    camera = SyntheticChipCamera(BOARD, seed=5)
    yield session, camera, ChipCameraInput(session, camera)
    session.journal.close()


def watch(session, camera, feed, frames):
    results = []
    for frame in frames:
        results += feed.feed(frame, session.clock.now())
        session.clock.advance(0.3)
    return results


def test_chips_put_down_and_taken_off_are_plays(table):
    session, camera, feed = table
    watch(session, camera, feed, [camera.read()] * 6)                     # the empty board, settled
    camera.show({Square(0, 1): "r"})                                       # Ann's chip on the balloon
    results = watch(session, camera, feed, [camera.hand_frame()] * 4 + [camera.read()] * 6)
    assert [r.event["card"] for r in results] == ["B"] and results[0].accepted
    assert session.journal.entries("seq")[-1].source == "camera"
    camera.show({})                                                        # Ben's X takes it off
    results = watch(session, camera, feed, [camera.hand_frame()] * 2 + [camera.read()] * 6)
    assert [(r.event["player"], r.event["card"]) for r in results] == [("Ben", "X")] and results[0].accepted
    assert session.game.chips == {}


def test_a_hand_held_over_the_board_is_no_play(table):
    session, camera, feed = table
    watch(session, camera, feed, [camera.read()] * 6)
    camera.show({Square(2, 2): "r"})
    assert watch(session, camera, feed, [camera.hand_frame()] * 12) == []
    assert "covered" in session.devices["camera"] or "moving" in session.devices["camera"]


@pytest.mark.slow
def test_the_demo_plays_every_chip_past_the_camera(tmp_path):
    from tabletop.table.demo import play_demo

    out = io.StringIO()
    report = play_demo("sequence-letters", seed=3, serve=False, buzzer_box=False, out=out,
                       record=str(tmp_path / "game.json"), journal_path=str(tmp_path / "j.sqlite"))
    plays = sum(1 for line in out.getvalue().splitlines() if " camera " in line and ("puts a chip" in line or " takes " in line))
    assert report.winner is not None and report.camera_writes == plays > 3
    assert report.replay_totals == report.totals
    # the last line says who won and how, not the chips counted (a tie in chips is no tie)
    assert f"== Final: {report.winner} wins with four in a row." in out.getvalue()


def test_the_table_says_each_play_whose_turn_and_a_refusal_slowly(table):
    from tabletop.announce import Announcer

    session, _, _ = table
    announcer = Announcer(session, voice=False)
    assert announcer.speed == 120
    session.submit({"type": "play", "player": "Ann", "card": "B", "row": 4, "col": 2}, source="host")
    session.submit({"type": "play", "player": "Ben", "card": "D", "row": 0, "col": 0}, source="host")
    assert announcer.spoken[:2] == ["B, bike! Ann puts a chip on the bike.", "Ben, it is your turn."]
    assert announcer.spoken[-1] == "That is the apple (A1); D is for duck or drum."
    announcer.close()


def test_a_chip_only_a_z_explains_waits_for_the_host(tmp_path):
    from rules.sequence_letters import SequenceLettersGame

    seed = next(s for s in range(200) if "Z" in SequenceLettersGame(
        GameSetup("sequence-letters", ("Ann", "Ben"), seed=s, options={"pieces": "virtual"}), BOARD, None).hands["Ann"])
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("sequence-letters", ("Ann", "Ben"), seed=seed,
                             options={"pieces": "virtual"}), "sequence-letters", board=BOARD, lexicon=Lexicon([]),
                             clock=SimClock(), game_id="seqz")
    try:
        hand = session.game.hands["Ann"]
        square = next(Square(r, c) for r in range(6) for c in range(8) if BOARD.cell("letters", Square(r, c)) not in hand)
        camera = SyntheticChipCamera(BOARD, seed=2)
        feed = ChipCameraInput(session, camera)
        watch(session, camera, feed, [camera.read()] * 6)
        camera.show({square: "r"})
        assert watch(session, camera, feed, [camera.read()] * 8) == []
        assert session.pending_reads and session.pending_reads[0]["card"] == "Z"
        result = session.confirm_read(0)
        entry = [e for e in session.journal.entries("seqz") if e.kind == "event"][-1]
        assert result.accepted and session.game.chips == {square: 0}
        assert entry.source == "camera+host" and entry.body["card"] == "Z"
    finally:
        session.journal.close()
