"""The session is a core and parts that own their state and journal kinds: every kind the session
writes has exactly one replayer, the journal's docstring names them all, a resumed game gets
every part's state back, and a kind nobody knows is reported, never fatal."""

from __future__ import annotations

import base64

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.session import Journal, Session, SimClock, journal as journal_module
from tabletop.session.camera_reads import CameraMove

WORDS = ["market", "apple", "cat"]


def new(tmp_path):
    return Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("extradiction", ("Ann", "Ben"), variant="level3"),
                          "extradiction", lexicon=Lexicon(WORDS), clock=SimClock(), game_id="g")


def test_each_journal_kind_has_one_owner_and_the_journal_names_them_all():
    session = Session.create(Journal(":memory:"), GameSetup("extradiction", ("Ann",), variant="level3"),
                             "extradiction", lexicon=Lexicon(WORDS), clock=SimClock())
    kinds = set(session.replayers())
    assert kinds == {"event", "undo", "pause", "resume", "window", "entry", "hand-lesson", "hand-reset",
                     "camera-read", "camera-settled"}
    declared = [k for part in (session.core, session.hands, session.camera, session.entry_windows,
                               session.clue_cards, session.device_status) for k in part.kinds]
    assert sorted(declared) == sorted(kinds)               # each declared once, by the part that replays it
    for kind in kinds:
        assert f"``kind = '{kind}'``" in (journal_module.__doc__ or ""), kind


def test_a_resumed_game_gets_every_parts_state_back(tmp_path):
    session = new(tmp_path)
    image = base64.b64encode(bytes(784)).decode("ascii")
    session.teach_hand("Ann", {"letters": "A", "images": [image]})
    session.open_window(None, 30, "your words")
    session.enter("Ben", {"text": "apple"})
    session.pause()
    session.camera_move(CameraMove({"type": "write", "text": "CAT", "row": 7, "col": 5, "dir": "across"}, 2.0,
                                   sure=False))
    path = session.journal.path
    session.journal.close()
    again = Session.resume(Journal(path), "g", lexicon=Lexicon(WORDS), clock=SimClock())
    assert again.hand_letters("Ann") == 1 and again.paused
    assert [r["text"] for r in again.pending_reads] == ["CAT"]           # the unsure read still waits
    assert [e["text"] for e in again.host_windows[next(iter(again.host_windows))].entries["Ben"]] == ["apple"]
    assert again.resume_warnings == []


def test_a_kind_nobody_knows_is_reported_and_the_rest_resumes(tmp_path):
    session = new(tmp_path)
    session.submit({"type": "pass", "player": "Ann"})
    session.journal.append("g", "hologram", {"x": 1}, t=1.0, source="test")
    path = session.journal.path
    session.journal.close()
    again = Session.resume(Journal(path), "g", lexicon=Lexicon(WORDS), clock=SimClock())
    assert len(again.game.events) == 1
    assert any("'hologram'" in w and "skipped" in w for w in again.resume_warnings)


def test_pending_camera_reads_are_deduplicated_and_capped(tmp_path):
    from tabletop.session.camera_reads import MOST_PENDING

    session = new(tmp_path)
    write = {"type": "write", "text": "CAT", "row": 7, "col": 5, "dir": "across"}
    for t in range(5):                                  # the same read, scanned five times
        session.camera_move(CameraMove({**write, "confidence": 0.5 + t / 10}, float(t), sure=False))
    assert len(session.pending_reads) == 1
    for col in range(3 * MOST_PENDING):                 # many different reads: the newest are kept
        session.camera_move(CameraMove({**write, "col": col % 15, "row": col // 15}, 10.0 + col, sure=False))
    reads = session.pending_reads
    assert len(reads) == MOST_PENDING and reads[-1]["t"] == 10.0 + 3 * MOST_PENDING - 1


def test_the_hosts_answer_to_a_waiting_read_is_kept_on_resume(tmp_path):
    session = new(tmp_path)
    write = {"type": "write", "text": "CAT", "row": 7, "col": 5, "dir": "across"}
    for col in (5, 6, 7):
        session.camera_move(CameraMove({**write, "col": col}, 2.0, sure=False))
    session.discard_read(1)
    session.confirm_read(0)
    path = session.journal.path
    session.journal.close()
    again = Session.resume(Journal(path), "g", lexicon=Lexicon(WORDS), clock=SimClock())
    assert [r["col"] for r in again.pending_reads] == [7]
    events = [e for e in again.journal.entries("g") if e.kind == "event"]
    assert [(e.body["col"], e.source) for e in events] == [(5, "camera+host")]

