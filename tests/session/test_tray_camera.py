"""Plain letter dice read by the camera: two steady reads of the same full grid become the word
grid's ``tray`` event (never one frame alone, never moving dice), a grid with an unsure face or
of the wrong size is reported to the host and not played, ``play --dice`` refuses a bad file
before anything is journaled, the real reader turns a real tray photo into the tray; letter dice
rolled from the box (``play letter-dice --dice``) become the ``roll`` event the same way."""

from __future__ import annotations

import numpy as np
import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop import pieces
from tabletop.session import Journal, Session, SimClock
from tabletop.session.devices.tray_input import PlainRollInput, TrayCameraInput
from vision.plaindice import NoDiceFound, PlainRead, ReadDie

GRID = ("TAPE", "SORL", "NIXU", "EDCH")


def plain_read(rows, confidence: float = 0.9) -> PlainRead:
    grid = tuple(tuple(row) for row in rows)
    dice = tuple(ReadDie(face, (10.0 * c, 10.0 * r), confidence, 0, (9.0, 9.0))
                 for r, row in enumerate(grid) for c, face in enumerate(row))
    return PlainRead(dice, grid)


class FakeReader:
    """The plain dice reader's interface: each read gives ``self.next`` (a read or an error)."""

    def __init__(self, read):
        self.next, self.reads, self.sets = read, 0, []

    def read(self, image, dice_set=None):
        self.reads += 1
        self.sets.append(dice_set)
        if isinstance(self.next, Exception):
            raise self.next
        return self.next


@pytest.fixture
def session(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.create(journal, GameSetup("word-grid", ("Ann", "Ben")), "",
                             lexicon=Lexicon(["tape", "sort"]), clock=SimClock(), game_id="grid")
    yield session
    journal.close()


STILL = np.full((120, 160, 3), 90, np.uint8)


def moving(n: int) -> np.ndarray:
    return np.random.default_rng(n).integers(0, 255, (120, 160, 3), dtype=np.uint8)


def watch(session, feed, frames) -> list:
    results = []
    for frame in frames:
        results += feed.feed(frame, session.clock.now())
        session.clock.advance(0.25)
    return results


def trays(session) -> list:
    return [e for e in session.journal.entries("grid") if e.body.get("type") == "tray"]


def test_two_steady_identical_reads_are_the_tray(session):
    reader = FakeReader(plain_read(GRID))
    feed = TrayCameraInput(session, None, reader=reader, dice_set=(("A",) * 6,) * 16)
    results = watch(session, feed, [moving(k) for k in range(3)] + [STILL] * 12)
    assert len(results) == 1 and results[0].accepted
    assert session.game.round.tray.rows() == [list(row) for row in GRID]
    (entry,) = trays(session)
    assert entry.source == "camera" and entry.body["grid"] == list(GRID) and entry.body["confidence"] == 0.9
    assert reader.sets[0] == (("A",) * 6,) * 16          # the box's dice reach the reader
    assert "read: T A P E" in session.devices["camera"]
    # the sand runs: the tray is not read again, and nothing more is played
    before = reader.reads
    assert watch(session, feed, [STILL] * 8) == [] and reader.reads == before


def test_one_still_frame_is_never_the_tray(session):
    reader = FakeReader(plain_read(GRID))
    feed = TrayCameraInput(session, None, reader=reader)
    # dice that never settle: every frame differs, nothing is read
    assert watch(session, feed, [moving(k) for k in range(12)]) == [] and reader.reads == 0
    # still just long enough for one read, then a hand: the read waits for a second and is forgotten
    assert watch(session, feed, [STILL] * 4 + [moving(99)] + [STILL] * 3) == []
    assert reader.reads == 1 and trays(session) == []


def test_two_reads_that_differ_are_not_played(session):
    reader = FakeReader(plain_read(GRID))
    feed = TrayCameraInput(session, None, reader=reader)
    assert watch(session, feed, [STILL] * 4) == [] and reader.reads == 1
    reader.next = plain_read(("TAPE", "SORL", "NIXU", "EDCE"))
    assert watch(session, feed, [STILL] * 3) == [] and reader.reads == 2 and trays(session) == []
    assert session.devices["camera"] == "reading the tray"


@pytest.mark.parametrize("read, said", [
    (plain_read(("TAP?", "SORL", "N?XU", "EDCH")), "2 faces unsure: the host types the tray or the dice are shaken again"),
    (plain_read(("TAPE", "SORL", "NIXU", "ED?H")), "1 face unsure: the host types the tray or the dice are shaken again"),
    (plain_read(("TAPES", "SORLA", "NIXUB", "EDCHC", "ABCDE")), "a 5x5 grid of dice, but the tray is 4x4"),
    (PlainRead(plain_read(GRID).dice[:7], None), "sees 7 dice but not in a full grid"),
    (NoDiceFound(), "no dice found in the photo"),
])
def test_a_read_the_game_cannot_trust_is_reported_and_not_played(session, read, said):
    feed = TrayCameraInput(session, None, reader=FakeReader(read))
    assert watch(session, feed, [STILL] * 16) == []
    assert trays(session) == [] and session.game.round is None
    assert said in session.devices["camera"]


def test_the_last_rounds_tray_still_lying_there_is_not_the_next(session):
    feed = TrayCameraInput(session, None, reader=FakeReader(plain_read(GRID)))
    assert len(watch(session, feed, [STILL] * 8)) == 1
    session.submit({"type": "end_round"}, source="host")
    assert watch(session, feed, [STILL] * 8) == [] and len(trays(session)) == 1
    assert "these are the dice already played" in session.devices["camera"]


def test_a_ukrainian_tray_is_left_to_the_host(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.create(journal, GameSetup("word-grid", ("Ann", "Ben"), language="uk"), "",
                             lexicon=Lexicon(["кіт"]), clock=SimClock(), game_id="grid")
    reader = FakeReader(plain_read(GRID))
    assert watch(session, TrayCameraInput(session, None, reader=reader), [STILL] * 8) == []
    assert reader.reads == 0 and "Latin letters only" in session.devices["camera"]
    journal.close()


def test_the_word_grid_reads_plain_dice_through_the_registry(session):
    kind = pieces.of_game("word-grid")
    assert kind is not None and kind.name == "plain-dice" and not kind.needs_board
    session.dice_set = (("A",) * 6,) * 16
    feed = kind.camera_input(session, None)
    assert isinstance(feed, TrayCameraInput) and feed.dice_set == session.dice_set


# ---------------------------------------------------------------- play --dice


def _play(tmp_path, *extra):
    from tabletop.cli import main

    return main(["play", "word-grid", "--players", "Ann,Ben", "--journal", str(tmp_path / "j.sqlite"),
                 "--port", "0", "--host", "127.0.0.1", "--no-voice", *extra])


@pytest.mark.parametrize("text, said", [
    ('dice = ["AB"]', "die 1 has 2 faces, not 6"),
    ("dice = [", "is not a TOML file"),
    ('dice = ["AAEEGN"]', "has 1 dice, and a 4x4 tray needs 16"),
])
def test_play_refuses_a_bad_dice_set_before_journaling(tmp_path, capsys, text, said):
    box = tmp_path / "box.toml"
    box.write_text(text, encoding="utf-8")
    assert _play(tmp_path, "--dice", str(box)) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "j.sqlite").exists()


def test_play_refuses_dice_for_a_game_without_plain_dice(tmp_path, capsys):
    from tabletop.cli import main

    code = main(["play", "questique", "--players", "Ann,Ben", "--journal", str(tmp_path / "j.sqlite"),
                 "--dice", "examples/dice/classic-16.toml"])
    err = capsys.readouterr().err
    assert code == 2 and "which the camera reads in" in err and "word-grid" in err and "not in questique" in err
    assert not (tmp_path / "j.sqlite").exists()


def test_play_refuses_more_letter_dice_than_a_roll_shows(tmp_path, capsys):
    from tabletop.cli import main

    box = tmp_path / "box.toml"
    box.write_text("dice = [" + ", ".join(['"AAEEGN"'] * 21) + "]", encoding="utf-8")
    code = main(["play", "letter-dice", "--players", "Ann,Ben", "--journal", str(tmp_path / "j.sqlite"),
                 "--dice", str(box)])
    assert code == 2 and "has 21 dice, and letter dice roll at most 20" in capsys.readouterr().err
    assert not (tmp_path / "j.sqlite").exists()


# ---------------------------------------------------------------- letter dice from the box


BOX = tuple(tuple(die) for die in ("CAAAAA", "AAAAAA", "TAAAAA", "EAAAAA"))


def plain_roll(faces, places=((5, 5), (40, 6), (4, 40), (41, 39)), confidence=0.8) -> PlainRead:
    return PlainRead(tuple(ReadDie(f, (float(x), float(y)), confidence, 0, (20.0, 20.0))
                           for f, (x, y) in zip(faces, places)))


@pytest.fixture
def dice_session(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.create(journal, GameSetup("letter-dice", ("Ann", "Ben"), options={"sand_seconds": 60}), "",
                             lexicon=Lexicon(["cat", "act"]), clock=SimClock(), game_id="grid")
    session.dice_set = BOX
    yield session
    journal.close()


def test_the_box_dice_at_rest_are_the_roll_in_reading_order(dice_session):
    session = dice_session
    feed = pieces.kind("dice").camera_input(session, None)
    assert isinstance(feed, PlainRollInput) and feed.dice_set == BOX
    feed.reader = reader = FakeReader(plain_roll(("C", "A", "T", "E")))
    results = watch(session, feed, [moving(1), moving(2)] + [STILL] * 8)
    assert len(results) == 1 and results[0].accepted and reader.sets[0] == BOX
    assert session.game.round.faces == ("C", "A", "T", "E")
    (entry,) = [e for e in session.journal.entries("grid") if e.body.get("type") == "roll"]
    assert entry.source == "camera" and entry.body["faces"] == ["C", "A", "T", "E"] and entry.body["confidence"] == 0.8


def test_dice_that_moved_between_the_two_reads_are_not_the_roll(dice_session):
    session = dice_session
    reader = FakeReader(plain_roll(("C", "A", "T", "E")))
    feed = PlainRollInput(session, None, reader=reader, dice_set=BOX)
    assert watch(session, feed, [STILL] * 4) == [] and reader.reads == 1
    reader.next = plain_roll(("C", "A", "T", "E"), places=((5, 5), (60, 6), (4, 40), (41, 39)))
    assert watch(session, feed, [STILL] * 3) == [] and reader.reads == 2 and session.game.round is None


@pytest.mark.parametrize("read, said", [
    (plain_roll(("C", "A", "T")), "the camera sees 3 dice, and the box has 4"),
    (plain_roll(("C", "?", "T", "E")), "1 face unsure: the host types the roll or the dice are rolled again"),
    (plain_roll(("C", "QU", "T", "E")), "a die shows QU, and letter dice take one letter a face"),
])
def test_a_roll_the_game_cannot_trust_is_reported_and_not_played(dice_session, read, said):
    feed = PlainRollInput(dice_session, None, reader=FakeReader(read), dice_set=BOX)
    assert watch(dice_session, feed, [STILL] * 16) == [] and dice_session.game.round is None
    assert said in dice_session.devices["camera"]


def test_without_a_box_letter_dice_keep_their_printed_labels(dice_session):
    from tabletop.session.devices import DiceCameraInput

    dice_session.dice_set = None
    assert isinstance(pieces.kind("dice").camera_input(dice_session, None), DiceCameraInput)


# ---------------------------------------------------------------- the real reader on a real tray


@pytest.mark.vision
def test_the_real_reader_turns_a_validation_tray_photo_into_the_tray(session):
    """A validation photo of a 4x4 tray the reader reads right (chosen by reading them), shown
    still to the camera: the tray event holds the dice it shows."""
    import cv2

    from vision.plaindice import default_reader
    from vision.synth import realdice

    if not (realdice.DATA_DIR / "annotations.csv").is_file():
        pytest.skip("the Boggle Boards photos are not beside the checkout")
    reader = default_reader()
    for photo in realdice.photos_of("val", realdice.load_photos()):
        if len(photo.dice) != 16:
            continue
        image = cv2.imread(str(photo.path()))
        read = reader.read(image)
        faces = sorted(f for row in read.grid or () for f in row)
        if faces == sorted(d.face for d in photo.dice) and all(len(f) == 1 for f in faces):
            break
    else:
        pytest.skip("no validation photo of a 4x4 tray that the reader reads right")
    feed = TrayCameraInput(session, None)
    results = watch(session, feed, [image] * 8)
    assert len(results) == 1 and results[0].accepted, session.devices.get("camera")
    assert sorted(session.game.round.tray.faces) == faces
    (entry,) = trays(session)
    assert entry.source == "camera" and 0 < entry.body["confidence"] <= 1
