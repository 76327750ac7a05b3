import pytest

from rules.squares import Square
from vision.reader import BoardReader
from vision.synth.scene import make_scene
from vision.tracker import Tracker

pytestmark = [pytest.mark.vision, pytest.mark.slow]
WORDS = ["CAT", "DOG", "TEA", "MAP", "PEN", "SEA"]


def frames_for(board, seed, word="TEA", row=5, col=4):
    letters = {Square(row, col + j): ch for j, ch in enumerate(word)}
    common = dict(seed=seed, tilt_deg=15, glare=False, blur=0.6, noise=2)
    empty = make_scene(board, {}, **common).frame
    partial = [make_scene(board, dict(list(letters.items())[:j]), hand=True, **common).frame for j in range(1, len(word) + 1)]
    done = make_scene(board, letters, **common).frame
    return empty, partial, done


@pytest.mark.parametrize("seed", range(3))
def test_never_emits_with_a_hand_and_never_twice(small_board, seed):
    empty, partial, done = frames_for(small_board, seed)
    tracker = Tracker(BoardReader(small_board, WORDS), still_seconds=0.4)
    script = [(empty, False)] * 4 + [(f, True) for f in partial for _ in range(5)] + [(done, False)] * 8 + [(done, False)] * 8
    events = []
    for i, (frame, hand) in enumerate(script):
        for det in tracker.feed(frame, i * 0.2):
            events.append((det, hand))
    assert [hand for _d, hand in events] == [False]
    det = events[0][0]
    assert det.to_event() == {"type": "write", "text": "TEA", "row": 5, "col": 4, "dir": "across",
                              "confidence": pytest.approx(det.confidence, abs=1e-3)}
    assert det.squares == (Square(5, 4), Square(5, 5), Square(5, 6))


def test_hand_resting_still_over_the_board_is_not_committed(small_board):
    empty, partial, _done = frames_for(small_board, 7)
    tracker = Tracker(BoardReader(small_board, WORDS), still_seconds=0.4)
    for i, frame in enumerate([empty] * 3 + [partial[-1]] * 20):
        assert tracker.feed(frame, i * 0.2) == []
    assert tracker.status == "hand"


def test_a_crossing_word_reports_the_whole_word(small_board):
    common = dict(seed=3, tilt_deg=10, glare=False, blur=0.5, noise=2)
    tea = {Square(5, 4): "T", Square(5, 5): "E", Square(5, 6): "A"}
    sea = {**tea, Square(4, 6): "M", Square(6, 6): "P"}  # MAP down through the A
    tracker = Tracker(BoardReader(small_board, WORDS))
    out = []
    for i, frame in enumerate([make_scene(small_board, tea, **common).frame] * 4 + [make_scene(small_board, sea, **common).frame] * 4):
        out += tracker.feed(frame, i * 0.3)
    assert [(d.text, d.start, d.direction.value) for d in out] == [("TEA", Square(5, 4), "across"), ("MAP", Square(4, 6), "down")]


def test_bad_frames_are_ignored(small_board):
    tracker = Tracker(BoardReader(small_board, WORDS))
    import numpy as np

    assert tracker.feed(np.zeros((5,), np.uint8), 0.0) == []
    assert tracker.feed(np.zeros((100, 100, 3), np.uint8), 0.1) == []
    assert tracker.feed(np.zeros((100, 100, 3), np.uint8), 1.0) == []
    assert tracker.status == "no board"


def test_a_pen_left_on_the_board_blocks_commits(small_board):
    common = dict(seed=9, tilt_deg=10, glare=False, blur=0.5, noise=2)
    letters = {Square(3, 3): "C", Square(3, 4): "A", Square(3, 5): "T"}
    tracker = Tracker(BoardReader(small_board, WORDS))
    frames = [make_scene(small_board, {}, **common).frame] * 3 + [make_scene(small_board, letters, pen=True, **common).frame] * 6
    assert [d for i, f in enumerate(frames) for d in tracker.feed(f, i * 0.3)] == []
    out = [d for i in range(6) for d in tracker.feed(make_scene(small_board, letters, frame_no=i, **common).frame, 3 + i * 0.3)]
    assert [d.text for d in out] == ["CAT"]


def test_a_letter_added_without_visible_motion_is_still_found(small_board):
    """Frames jump from one state to the next (a synthetic camera): the small change is noticed."""
    common = dict(seed=4, tilt_deg=10, glare=False, blur=0.5, noise=2)
    do = {Square(6, 5): "D", Square(6, 6): "O"}
    tracker = Tracker(BoardReader(small_board, WORDS))
    out = []
    for i in range(4):
        out += tracker.feed(make_scene(small_board, do, frame_no=i, **common).frame, i * 0.3)
    for i in range(4, 10):
        out += tracker.feed(make_scene(small_board, {**do, Square(6, 7): "G"}, frame_no=i, **common).frame, i * 0.3)
    assert [d.text for d in out][-1] == "DOG"


def test_a_lone_mark_is_no_word_until_its_neighbours_are_written(small_board):
    """A square written alone (a glare speck read as ink, or a word's first letter) is neither
    reported nor committed; once the rest of the word is there, the whole word is one write."""
    tracker = Tracker(BoardReader(small_board, WORDS), still_seconds=0.2)
    first = {Square(5, 4): "T"}
    whole = {Square(5, 4): "T", Square(5, 5): "E", Square(5, 6): "A"}
    emitted = []
    for i in range(6):
        emitted += tracker.feed(make_scene(small_board, first, seed=9, glare=False, frame_no=i).frame, 0.1 * i)
    assert emitted == [] and tracker.committed_rows[5][4] == "."
    for i in range(6, 12):
        emitted += tracker.feed(make_scene(small_board, whole, seed=9, glare=False, frame_no=i).frame, 0.1 * i)
    assert [(d.text, d.start, len(d.squares)) for d in emitted] == [("TEA", Square(5, 4), 3)]


def stub_read(rows):
    """A read of ``rows`` (every letter sure), without a frame: what :meth:`Tracker.commit` looks at."""
    import types

    import numpy as np

    states = np.array([[int(ch != ".") for ch in row] for row in rows])
    return types.SimpleNamespace(rows=rows, states=states, words=[], images={},
                                 confidence=np.ones(states.shape))


def stub_tracker(baseline):
    import types

    board = types.SimpleNamespace(rows=len(baseline), cols=len(baseline[0]))
    return Tracker(types.SimpleNamespace(board=board), baseline=baseline)


def test_a_commit_reports_the_whole_word_the_new_letters_make():
    tracker = stub_tracker(["......", "..AT..", "......"])
    (det,) = tracker.commit(stub_read(["......", ".MATE.", "......"]), 1.0)
    assert (det.text, det.start, det.squares, det.letters) == ("MATE", Square(1, 1), (Square(1, 1), Square(1, 4)), "ME")
    assert det.to_event() == {"type": "write", "text": "MATE", "row": 1, "col": 1, "dir": "across", "confidence": 1.0}
    assert tracker.commit(stub_read(["......", ".MATE.", "......"]), 2.0) == []          # nothing new


def test_a_single_new_letter_goes_the_way_it_touches_letters_across_first():
    tracker = stub_tracker(["......", "..AT..", "..N..."])
    (det,) = tracker.commit(stub_read(["......", "..AT..", "..NO.."]), 1.0)
    assert (det.text, det.direction.value) == ("NO", "across")                  # also under T: across first
    tracker = stub_tracker(["......", "..AT..", "......"])
    (det,) = tracker.commit(stub_read(["..O...", "..AT..", "......"]), 1.0)
    assert (det.text, det.start, det.direction.value) == ("OA", Square(0, 2), "down")


def test_words_written_apart_in_one_row_are_two_writes():
    tracker = stub_tracker(["......", "......", "......"])
    out = tracker.commit(stub_read(["......", "AB..CD", "......"]), 1.0)
    assert [(d.text, d.start) for d in out] == [("AB", Square(1, 0)), ("CD", Square(1, 4))]


def test_letters_on_both_sides_of_a_word_are_one_write():
    tracker = stub_tracker(["......", "..AT..", "......", "..O..."])
    out = tracker.commit(stub_read(["......", ".MATE.", "......", ".DOG.."]), 1.0)
    assert [(d.text, d.squares) for d in out] == [("MATE", (Square(1, 1), Square(1, 4))),
                                                  ("DOG", (Square(3, 1), Square(3, 3)))]


def test_an_l_of_new_letters_is_committed_but_no_write():
    tracker = stub_tracker(["......", "......", "......"])
    assert tracker.commit(stub_read(["AB....", ".C....", "......"]), 1.0) == []
    assert tracker.committed_rows[:2] == ["AB....", ".C...."]
    (det,) = tracker.commit(stub_read(["AB....", ".C....", ".D...."]), 2.0)   # the next write is read as usual
    assert (det.text, det.direction.value) == ("BCD", "down")
