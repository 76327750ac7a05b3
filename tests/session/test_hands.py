"""The table learns each player's hand from their confirmed camera reads, journalled."""

import base64

import numpy as np
import pytest

from tabletop.session.refusals import EntryRefused
from tests.session.test_session import SP_TURN, new_session, reopen


def _lesson(letters: str, seed: int = 1) -> dict:
    rng = np.random.default_rng(seed)
    images = [rng.integers(0, 256, (28, 28), dtype=np.uint8) for _ in letters]
    return {"letters": letters, "images": [base64.b64encode(i.tobytes()).decode("ascii") for i in images]}


def _kinds(session) -> list[str]:
    return [e.kind for e in session.journal.entries(session.game_id)]


def test_a_lesson_is_journalled_kept_on_resume_and_forgotten_on_reset(tmp_path):
    session = new_session(tmp_path)
    session.teach_hand("Ben", _lesson("CAT"))
    session.teach_hand("Ben", _lesson("MAP", 2))
    assert _kinds(session) == ["hand-lesson", "hand-lesson"] and session.hand_letters("Ben") == 6
    session = reopen(session)
    assert session.hand_letters("Ben") == 6 and session.hand_lessons["Ben"][1] == _lesson("MAP", 2)
    session.reset_hand("Ben")
    session = reopen(session)
    assert session.hand_letters("Ben") == 0 and session.hand_resets["Ben"] == 1


@pytest.mark.parametrize("lesson", [{"letters": "CAT", "images": []}, {"letters": "", "images": []},
                                    {"letters": "CA", "images": ["x" * 5000, "y"]}, {"images": ["a"]}])
def test_a_malformed_lesson_is_refused_before_the_journal(tmp_path, lesson):
    session = new_session(tmp_path)
    with pytest.raises(EntryRefused, match="one image each"):
        session.teach_hand("Ben", lesson)
    with pytest.raises(EntryRefused, match="does not play"):
        session.reset_hand("Zed")
    assert _kinds(session) == []


def test_sure_and_confirmed_reads_teach_the_writer_and_discarded_ones_do_not(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN[:-1]:
        session.submit(event)
    read = {"type": "write", "text": "MARKET", "row": 9, "col": 6, "dir": "across", "confidence": 0.6, "t": 14.0}
    assert session.camera_read(read, needs_confirmation=True, lesson=_lesson("MARKET")) is None
    assert "lesson" not in session.pending_reads[0]
    session.discard_read(0)
    assert session.hand_letters("Ben") == 0
    session.camera_read(read, needs_confirmation=True, lesson=_lesson("MARKET"))
    assert session.confirm_read(0).accepted
    assert session.hand_letters("Ben") == 6 and _kinds(session)[-1] == "hand-lesson"


def test_a_refused_write_teaches_nothing(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN[:-1]:
        session.submit(event)
    off_board = {"type": "write", "text": "MARKET", "row": 9, "col": 40, "dir": "across", "confidence": 0.99, "t": 14.0}
    result = session.camera_read(off_board, needs_confirmation=False, lesson=_lesson("MARKET"))
    assert result is not None and not result.accepted
    assert session.hand_letters("Ben") == 0
