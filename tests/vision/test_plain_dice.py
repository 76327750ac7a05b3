"""Plain letter dice (a Boggle-style tray) read from real photos: the split by roll is honoured,
``score --pieces dice --plain`` prints each die and the tray's rows, the rows follow the tray when
the photo is turned, a dice set settles M/W, a photo without dice is refused, a bad file is named."""

from __future__ import annotations

import json
import pathlib
import sys

import cv2
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from tabletop.cli import main
from tabletop.dicesets import parse_dice_set
from tabletop.errors import UserError
from vision.plaindice import (CROP, FACES, FACES_PATH, FIND_SIDE, FINDER_PATH, GRID_LOOK_OFF, LIGHT_TOP, MARGIN, SECOND_LOOK,
                             SECOND_SCALES, NoDiceFound, PlainDiceReader, _lattice, _lattice_axes, _lattice_axes_of,
                             _lattice_of_centres, brightest, even_sizes, evened, face_cut, face_cuts, fill_holes, finder_input,
                             forward_in_batches, grid_boxes, off_lattice, one_a_face, settle, tray_rows, zoom_window)
from vision.synth import realdice

pytestmark = pytest.mark.vision
ROOT = pathlib.Path(__file__).resolve().parents[2]
needs_photos = pytest.mark.skipif(not (realdice.DATA_DIR / "annotations.csv").is_file(),
                                  reason="the Boggle Boards photos are not beside the checkout")


@pytest.fixture(scope="module")
def photos():
    return realdice.load_photos()


@pytest.fixture(scope="module")
def reader():
    return PlainDiceReader()


# ---------------------------------------------------------------- the split


def test_the_split_file_parts_are_disjoint():
    split = realdice.load_split()
    parts = [set(split[p]) for p in realdice.SPLITS]
    assert all(not (a & b) for i, a in enumerate(parts) for b in parts[i + 1:])
    assert all(parts)


@needs_photos
def test_the_split_file_is_the_rule_and_keeps_each_roll_in_one_part(photos):
    split = realdice.load_split()
    assert split == realdice.make_split(photos)
    part_of = {name: part for part, names in split.items() for name in names}
    assert set(part_of) == {p.name for p in photos}
    for group in realdice.same_roll_groups(photos):
        assert len({part_of[name] for name in group}) == 1, group


@needs_photos
def test_training_never_reads_a_test_photo(monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_plain_dice
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    with pytest.raises(SystemExit):
        train_plain_dice.load("test")
    read: list[str] = []
    monkeypatch.setattr(train_plain_dice.cv2, "imread", lambda path: read.append(pathlib.Path(path).name))
    train_plain_dice.load("train")
    train_plain_dice.load("val")
    assert read and not set(read) & set(realdice.load_split()["test"])


def _training_script():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_plain_dice
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return train_plain_dice


def test_weighed_faces_are_drawn_more_often_and_the_rest_keep_their_proportions():
    script = _training_script()
    faces = [FACES.index(f) for f in "EEEEEEEEESSSSBBTT"]
    plain, weighed = script.draw_chances(faces), script.draw_chances(faces, ("S", "B"), 3.0)
    assert plain.sum() == pytest.approx(1.0) and weighed.sum() == pytest.approx(1.0)
    share = {f: (plain[[i for i, g in enumerate(faces) if g == FACES.index(f)]].sum(),
                 weighed[[i for i, g in enumerate(faces) if g == FACES.index(f)]].sum()) for f in "ESBT"}
    assert share["S"][1] / share["E"][1] == pytest.approx(3 * share["S"][0] / share["E"][0])
    assert share["T"][1] / share["E"][1] == pytest.approx(share["T"][0] / share["E"][0])


@pytest.mark.parametrize("tall", [0.0, 1.0])
def test_tall_cuts_make_only_flat_faces_boxes_taller(monkeypatch, tall):
    script = _training_script()
    sizes: list[tuple[float, float]] = []
    monkeypatch.setattr(script, "TALL_SHARE", tall)
    monkeypatch.setattr(script, "SPOIL", False)
    monkeypatch.setattr(script.pd, "face_cut", lambda grey, centre, size, angle, raw: sizes.append(size) or grey[:32, :32])
    grey, rng = np.zeros((64, 64), np.uint8), np.random.default_rng(3)
    for _ in range(40):
        script.jittered_cut(grey, (0, 0, 40, 20), 0.0, rng, jitter=0.0)      # flat: a die seen low
        script.jittered_cut(grey, (0, 0, 40, 40), 0.0, rng, jitter=0.0)      # square
    flat, square = sizes[0::2], sizes[1::2]
    assert all(s == pytest.approx((40, 40)) for s in square)
    assert all(20 - 1e-9 <= h <= 20 * np.e + 1e-9 and w == pytest.approx(40) for w, h in flat)
    assert any(h > 25 for _, h in flat) == (tall > 0)


@pytest.mark.parametrize("share", [0.0, 0.5, 1.0])
def test_finder_boxes_cut_found_dice_from_the_readers_box_and_the_rest_from_their_labels(monkeypatch, share):
    from types import SimpleNamespace as NS

    script = _training_script()
    monkeypatch.setattr(script, "FINDER_SHARE", share)
    surest, other = NS(centre=(10.0, 10.0), size=(8.0, 6.0), confidence=0.9), NS(centre=(11.0, 9.0), size=(4.0, 4.0), confidence=0.5)
    stray = NS(centre=(70.0, 70.0), size=(5.0, 5.0), confidence=0.99)            # in no labelled box
    reader = NS(read=lambda image: NS(dice=[other, stray, surest]))
    photo = NS(dice=[NS(box=(0, 0, 20, 20)), NS(box=(30, 30, 40, 40))])
    found = script.finder_boxes(reader, [(None, photo)])
    assert found == [(6.0, 7.0, 14.0, 13.0), None]                               # the surest read takes the box
    rng = np.random.default_rng(5)
    picked = [script.cut_box(photo.dice[0].box, found[0], rng) for _ in range(400)]
    from_finder = [jitter for box, jitter in picked if box == found[0]]
    assert all(jitter == script.FINDER_JITTER * script.JITTER for jitter in from_finder)
    assert len(from_finder) / len(picked) == pytest.approx(share, abs=0.08)
    assert all(script.cut_box(photo.dice[1].box, None, rng) == (photo.dice[1].box, script.JITTER) for _ in range(20))


@pytest.mark.parametrize("option, value, named", [
    ("--finder-boxes", "1.5", "1.5"),   # a share outside 0 to 1
    ("--weigh", "S,B9", "B9"),          # an unknown face
])
def test_a_bad_training_option_is_refused_naming_what_is_wrong(monkeypatch, capsys, option, value, named):
    script = _training_script()
    monkeypatch.setattr(sys, "argv", ["train_plain_dice.py", "faces", option, value])
    with pytest.raises(SystemExit):
        script.main()
    assert named in capsys.readouterr().err


def test_same_roll_groups_link_photos_of_one_roll():
    def photo(name, faces):
        return realdice.LabelledPhoto(name, tuple(realdice.LabelledDie(f, (0, 0, 1, 1)) for f in faces))
    groups = realdice.same_roll_groups([photo("a", "ABCDEFGHIJ"), photo("b", "STUVWXYZQQ"), photo("c", "ABCDEFGHIK")])
    assert groups == [("a", "c"), ("b",)]


# ---------------------------------------------------------------- reading a photo


#: a validation photo of a 4x4 tray seen from above (the validation photos were tuned on; the
#: test photos are read only by the benchmark)
TRAY = "aeb3587a5087"


def a_tray_photo(photos):
    """The validation photo :data:`TRAY`."""
    return next(p for p in realdice.photos_of("val", photos) if p.name.startswith(TRAY))


@needs_photos
def test_score_json_gives_each_die_and_the_trays_rows(photos, capsys):
    photo = a_tray_photo(photos)
    assert main(["score", str(photo.path()), "--pieces", "dice", "--plain", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["dice"]) == 16
    for die in out["dice"]:
        assert set(die) <= {"face", "center", "confidence", "candidates"}
        assert die["face"] in FACES + ("?",) and 0 <= die["confidence"] <= 1
        x, y = die["center"]
        assert 0 <= x < 416 and 0 <= y < 416
    assert len(out["grid"]) == 4 and all(len(row) == 4 for row in out["grid"])
    assert sorted(f for row in out["grid"] for f in row) == sorted(d["face"] for d in out["dice"])
    # the faces read are the labelled ones, nearly all
    labelled = sorted(d.face for d in photo.dice)
    read = sorted(d["face"] for d in out["dice"])
    assert sum(min(labelled.count(f), read.count(f)) for f in set(labelled)) >= 14


@needs_photos
@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE])
def test_the_rows_follow_the_tray_when_the_photo_is_turned(photos, reader, turn):
    """The rows of a turned photo hold the same dice as the photo's rows, turned: the grid is the
    tray's, however the camera looked at it (the quarter turn of the whole grid is the letters'
    upright when most of them share one, else the photo's top)."""
    photo = a_tray_photo(photos)
    image = cv2.imread(str(photo.path()))
    h, w = image.shape[:2]
    read, turned = reader.read(image), reader.read(cv2.rotate(image, turn))
    assert read.grid is not None and turned.grid is not None
    back = {cv2.ROTATE_90_CLOCKWISE: lambda x, y: (y, h - 1 - x), cv2.ROTATE_180: lambda x, y: (w - 1 - x, h - 1 - y),
            cv2.ROTATE_90_COUNTERCLOCKWISE: lambda x, y: (w - 1 - y, x)}[turn]
    centres = np.array([d.centre for d in read.dice])

    def which(die):             # the die of the first read at the turned read's die's place
        return int(np.argmin(np.linalg.norm(centres - np.array(back(*die.centre)), axis=1)))
    first = np.array(_indices(read))
    second = np.array([[which(turned.dice[i]) for i in row] for row in _indices(turned)])
    assert any(np.array_equal(np.rot90(first, k), second) for k in range(4))


def _indices(read):
    """The read's grid as indices of its dice."""
    grid = tray_rows([d.centre for d in read.dice], 0)
    assert grid is not None
    return grid


@needs_photos
def test_the_labelled_reader_still_reads_its_own_labels_by_default(photos, capsys):
    """--pieces dice without --plain or --dice is the printed-label reader, as before."""
    photo = a_tray_photo(photos)
    assert main(["score", str(photo.path()), "--pieces", "dice", "--json"]) == 3
    assert "dice seen" in capsys.readouterr().err


def test_a_photo_without_dice_is_refused(tmp_path, capsys):
    rng = np.random.default_rng(1)
    table = np.clip(rng.normal(120, 12, (600, 800, 3)) + np.array([10, 60, 110]), 0, 255).astype(np.uint8)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), cv2.GaussianBlur(table, (0, 0), 3))
    assert main(["score", str(path), "--pieces", "dice", "--plain"]) == 3
    assert "no dice found" in capsys.readouterr().err
    with pytest.raises(NoDiceFound):
        PlainDiceReader().read(np.full((300, 400), 90, np.uint8))


@pytest.mark.parametrize("content", [b"", b"\xff\xd8\xff\xe0 not really a jpeg", b"hello"])
def test_a_corrupt_photo_gets_a_clear_error(tmp_path, capsys, content):
    path = tmp_path / "dice.jpg"
    path.write_bytes(content)
    assert main(["score", str(path), "--pieces", "dice", "--plain"]) in (2, 3)
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("tabletop score:") and "dice.jpg" in err


@pytest.mark.parametrize("text, message", [
    ("dice = [", "not a TOML file"),
    ("name = 'box'", "has no dice"),
    ('dice = ["A A E E G"]', "die 1 has 5 faces, not 6"),
    ("dice = [3]", "die 1 must be a text"),
])
def test_a_bad_dice_set_gets_a_clear_error(tmp_path, capsys, text, message):
    box = tmp_path / "box.toml"
    box.write_text(text)
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((40, 40, 3), np.uint8))
    assert main(["score", str(photo), "--pieces", "dice", "--dice", str(box)]) == 2
    assert message in capsys.readouterr().err


def test_the_shipped_dice_set_reads():
    from tabletop.dicesets import load_dice_set

    dice = load_dice_set(ROOT / "examples" / "dice" / "classic-16.toml")
    assert len(dice) == 16 and all(len(d) == 6 for d in dice)
    assert all(face in FACES for die in dice for face in die)


# ---------------------------------------------------------------- settling and ordering


def probabilities(**faces: float) -> np.ndarray:
    p = np.full(len(FACES), 1e-4)
    for face, value in faces.items():
        p[FACES.index(face)] = value
    return p / p.sum()


def test_a_dice_set_settles_m_and_w():
    """An M read as a W (the bar hidden) is an M when the only W is on a die already taken."""
    box = parse_dice_set('dice = ["A B C D E M", "W X Y Z A B"]')
    probs = np.stack([probabilities(W=0.55, M=0.45), probabilities(W=0.9)])
    assert [s[0] for s in settle(probs, box) if s] == ["M", "W"]
    # without the second die's W, both could be the box's only M: the likelier one takes it
    assert [s[0] if s else None for s in settle(probs, box[:1])] == ["M", None]


@needs_photos
def test_reading_with_the_dice_set_keeps_faces_the_set_allows(photos, reader):
    photo = a_tray_photo(photos)
    image = cv2.imread(str(photo.path()))
    faces = [d.face for d in photo.dice]
    box = tuple((face, "A", "B", "C", "D", "E") for face in faces)       # a box made of this roll's faces
    read = reader.read(image, box)
    assert sorted(d.face for d in read.dice) == sorted(faces)


def test_unsure_faces_are_reported_not_guessed(reader, monkeypatch):
    image = np.full((200, 200, 3), 120, np.uint8)
    monkeypatch.setattr(reader, "find", lambda *_: [(50.0, 50.0, 30.0, 30.0, 0.9)])
    monkeypatch.setattr(reader, "classify", lambda *_: (probabilities(M=0.25, W=0.24, A=0.2, E=0.2, O=0.1)[None], np.full((1, 4), 0.25)))
    die = reader.read(image).dice[0]
    assert die.face == "?" and die.candidates == ("M", "W")
    assert die.to_json()["candidates"] == ["M", "W"]


def test_a_doubtful_face_is_looked_at_again_tighter_looser_and_turned(reader, monkeypatch):
    """A sure face is read once; a doubtful one is cut again a little tighter and looser, each
    cut turned each quarter, and the twelve readings averaged (the first look's reading of the
    cut as first cut, upright, one of them: it is not read again)."""
    looks: list[np.ndarray] = []

    def run(cuts):
        looks.append(cuts)
        probs = np.tile(probabilities(A=0.5, E=0.5), (len(cuts), 1))
        if len(looks) == 1:
            probs[0] = probabilities(E=1.0)                 # the first die is sure, the second doubtful
        else:
            probs[:5] = probabilities(A=1.0)                # five of the eleven second looks say A
        return probs, np.full((len(cuts), 4), 0.25)

    monkeypatch.setattr(reader, "_run", run)
    grey = np.random.default_rng(1).integers(0, 256, (200, 200)).astype(np.uint8)
    faces, _ = reader.classify(grey, [(50.0, 50.0, 30.0, 30.0), (120.0, 120.0, 30.0, 30.0)])
    turns = 1 + len(SECOND_SCALES)
    assert [len(c) for c in looks] == [2, 4 * turns - 1]
    assert not np.allclose(looks[1][0], looks[0][1])                         # a tighter cut first
    np.testing.assert_allclose(looks[1][turns - 1], np.rot90(looks[0][1], 1))    # then each cut turned
    np.testing.assert_allclose(looks[1][turns], np.rot90(looks[1][0], 1))
    assert faces[0, FACES.index("E")] == pytest.approx(1.0, abs=0.01)
    assert faces[1, FACES.index("A")] == pytest.approx((5 + 7 * 0.5) / 12, abs=0.01)
    assert faces[1, FACES.index("E")] == pytest.approx(7 * 0.5 / 12, abs=0.01)


def test_the_second_look_averages_what_each_turned_cut_reads_alone(reader):
    """The doubtful faces' second look, read in batches and with the first look's upright reading
    kept, is the mean of the twelve cuts each read alone by the network (to 1e-6)."""
    photo = cv2.imread(str(ROOT / "docs" / "img" / "camera-photo.jpg"), cv2.IMREAD_GRAYSCALE)
    assert photo is not None
    rng = np.random.default_rng(3)
    boxes = [(float(x), float(y), float(w), float(w)) for x, y, w in
             zip(rng.uniform(100, photo.shape[1] - 100, 6), rng.uniform(100, photo.shape[0] - 100, 6), rng.uniform(20, 90, 6))]
    doubtful = PlainDiceReader(second_look=1.01)            # every face doubtful: every face looked at again
    faces, _ = doubtful.classify(photo, boxes)

    def alone(cut):
        out = doubtful.faces.run(cut[None, None], ["faces"])[0]
        z = np.asarray(out, np.float64)[0]
        p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        p[FACES.index("QU")] += p[FACES.index("Q")]
        p[FACES.index("Q")] = 0.0
        return p

    for box, got in zip(boxes, faces):
        cx, cy, w, h = box
        cuts = [face_cuts(photo, [(cx, cy, w * s, h * s)])[0] for s in (1.0,) + SECOND_SCALES]
        want = np.mean([alone(np.rot90(c, k)) for k in range(4) for c in cuts], axis=0)
        np.testing.assert_allclose(got, want, atol=1e-6)


@pytest.mark.parametrize("n, size", [(1, 8), (8, 8), (9, 8), (20, 8), (20, 1), (5, 64)])
def test_a_batched_forward_equals_the_one_by_one_forward(reader, n, size):
    cuts = np.random.default_rng(n).normal(0, 1, (n, 1, 32, 32)).astype(np.float32)
    faces, turns = forward_in_batches(reader.faces, cuts, ["faces", "turns"], size)
    assert faces.shape == (n, len(FACES)) and turns.shape == (n, 4)
    for k in range(n):
        one_face, one_turn = reader.faces.run(cuts[k:k + 1], ["faces", "turns"])
        np.testing.assert_allclose(faces[k], np.asarray(one_face)[0], atol=1e-5)
        np.testing.assert_allclose(turns[k], np.asarray(one_turn)[0], atol=1e-5)


@pytest.mark.parametrize("n, size", [(0, 8), (3, 0)])
def test_a_batched_forward_refuses_an_empty_blob_or_batch(reader, n, size):
    with pytest.raises(ValueError, match="at least one"):
        forward_in_batches(reader.faces, np.zeros((n, 1, 32, 32), np.float32), ["faces", "turns"], size)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 6), rows=st.integers(2, 12), cols=st.integers(2, 12), scale=st.integers(0, 60), seed=st.integers(0, 99))
def test_evened_stack_is_each_cut_evened(n, rows, cols, scale, seed):
    """A stack of cuts evened at once is each cut evened alone, bit for bit (flat cuts all zero)."""
    cuts = (np.random.default_rng(seed).random((n, rows, cols)) * scale).astype(np.uint8)
    together = evened(cuts)
    for cut, got in zip(cuts, together):
        alone = cut.astype(np.float32) - cut.astype(np.float32).mean()
        spread = float(alone.std())
        want = alone / spread if spread > 2.0 else alone * 0.0
        assert got.dtype == np.float32 and got.tobytes() == want.astype(np.float32).tobytes()


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(2, 6), cols=st.integers(2, 6), tilt=st.floats(-30, 30), quarter=st.integers(0, 3),
       seed=st.integers(0, 1000))
def test_tray_rows_are_the_same_however_the_tray_lies(rows, cols, tilt, quarter, seed):
    """A tray at any angle, its letters turned as the tray is: the rows come out the same."""
    rng = np.random.default_rng(seed)
    names = [(r, c) for r in range(rows) for c in range(cols)]
    order = rng.permutation(len(names))
    angle = np.deg2rad(tilt + 90 * quarter)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    centres = [tuple(rot @ (np.array([names[i][1], names[i][0]], float) * 40 + rng.normal(0, 2, 2)) + 300)
               for i in order]
    grid = tray_rows(centres, quarter)
    assert grid is not None
    assert [[names[order[i]] for i in row] for row in grid] == [[(r, c) for c in range(cols)] for r in range(rows)]


def test_no_grid_for_dice_that_fill_no_grid():
    assert tray_rows([(0, 0), (10, 0), (0, 10)], 0) is None
    assert tray_rows([(0, 0), (10, 0), (0, 10), (10, 10), (50, 50)], None) is None


def test_parse_dice_set_errors_are_user_errors():
    with pytest.raises(UserError, match="die 2 has 7 faces"):
        parse_dice_set('dice = ["AAEEGN", "A B C D E F G"]', "box.toml")


# ---------------------------------------------------------------- a tray's missed dice, odd sizes


def a_tray(rows: int, cols: int, tilt: float, rng: np.random.Generator, step: float = 40.0):
    """The true centres (row-major) of a tray's dice, turned ``tilt`` degrees, a little uneven."""
    angle = np.deg2rad(tilt)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return [tuple(rot @ np.array([c * step, r * step]) + 300 + rng.normal(0, 1, 2)) for r in range(rows) for c in range(cols)]


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(3, 6), cols=st.integers(3, 6), tilt=st.floats(-40, 40), seed=st.integers(0, 1000),
       share=st.floats(0.01, 0.25))
def test_fill_holes_puts_a_die_in_each_cell_the_finder_missed(rows, cols, tilt, seed, share):
    rng = np.random.default_rng(seed)
    centres = a_tray(rows, cols, tilt, rng)
    missed = set(rng.choice(len(centres), max(1, int(share * len(centres))), replace=False).tolist())
    # a whole row or column missed is beyond the grid the finds show (fill_holes counts rows and
    # columns by the gaps between finds, so a missing row inside the tray looks like none)
    assume(all(any(r * cols + c not in missed for c in range(cols)) for r in range(rows)))
    assume(all(any(r * cols + c not in missed for r in range(rows)) for c in range(cols)))
    found = [(x, y, 30.0, 30.0, 0.9) for i, (x, y) in enumerate(centres) if i not in missed]
    filled = fill_holes(found, lambda x, y: 0.2)
    assert filled[:len(found)] == found and len(filled) == len(centres)
    for x, y, w, h, score in filled[len(found):]:
        nearest = min(range(len(centres)), key=lambda i: np.hypot(centres[i][0] - x, centres[i][1] - y))
        assert nearest in missed and np.hypot(centres[nearest][0] - x, centres[nearest][1] - y) < 6
        assert (w, h, score) == (30.0, 30.0, 0.2)
    assert tray_rows([f[:2] for f in filled], 0) is not None


def test_fill_holes_leaves_a_cell_where_the_finder_saw_nothing_and_dice_in_no_grid():
    rng = np.random.default_rng(3)
    found = [(x, y, 30.0, 30.0, 0.9) for x, y in a_tray(4, 4, 10, rng)][1:]
    assert fill_holes(found, lambda x, y: 0.0) == found
    scattered = [(float(x), float(y), 30.0, 30.0, 0.9) for x, y in rng.uniform(0, 600, (12, 2))]
    assert fill_holes(scattered, lambda x, y: 1.0) == scattered


def test_even_sizes_gives_an_odd_find_the_trays_size():
    found = [(float(i), 0.0, 30.0 + i % 3, 30.0, 0.9) for i in range(8)] + [(9.0, 0.0, 45.0, 20.0, 0.9)]
    evened = even_sizes(found)
    assert evened[:8] == found[:8] and evened[8][2:4] == (31.0, 30.0)
    assert even_sizes(found[-3:]) == found[-3:]


def test_the_benchmark_lines_have_a_target_column_and_both_camera_sizes(capsys):
    from tabletop.benchmarks import plaindice

    rows = [{"photo": "a" * 20, "dice": 16, "found": 16, "matched": 16, "right": 15, "unsure": 1, "right_on_boxes": 16,
             "ms": 40.0, "ms_2mp": 60.0 + k, "ms_3mp": 70.0 + k, "cpu_ms_2mp": 50.0 + k, "cpu_ms_3mp": 55.0 + k,
             "errors": ["M->?"]} for k in range(3)]
    summary = plaindice.summary(rows)
    assert summary["faces_right"] == 15 / 16 and summary["faces_unsure"] == 1 / 16
    assert summary["ms_per_read_2mp"] == 61.0 and summary["ms_per_read_3mp"] == 71.0
    assert summary["cpu_ms_per_read_2mp"] == 51.0 and summary["cpu_ms_per_read_3mp"] == 56.0
    plaindice.print_lines({"splits": {"val": {"summary": summary, "photos": rows},
                                      "test": {"summary": summary, "photos": rows}}})
    out = capsys.readouterr().out
    assert "ms 3.1MP" in out and ">= 0.98, <= 100 ms" in out and "(tuned on)" in out
    assert out.count("M->?") == 3                      # the per-photo lines, of test only


# ---------------------------------------------------------------- the closer look, the grid's say


def _tray(n: int, step: float, origin: tuple[float, float], shear: float = 0.0, score: float = 0.9):
    return [(origin[0] + c * step + r * shear, origin[1] + r * step, 0.8 * step, 0.8 * step, score)
            for r in range(n) for c in range(n)]


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 6), st.floats(20.0, 60.0), st.floats(-0.2, 0.2), st.floats(0.3, 0.49),
       st.sampled_from(["side", "beyond", "twin"]))
def test_off_lattice_drops_a_weak_find_the_trays_grid_disowns_and_keeps_the_tray(n, step, shear, weak, where):
    tray = _tray(n, step, (100.0, 100.0), shear * step)
    spots = {"side": (100.0 + step * 1.5, 100.0 + step * (n - 0.5)),         # a side face below the last row
             "beyond": (100.0 + step, 100.0 - step),                         # a cloth's pattern above the tray
             "twin": (100.0 + step + 0.1 * step, 100.0 + step)}             # a second find on a die
    stray = (*spots[where], 0.8 * step, 0.8 * step, weak)
    assert off_lattice(tray + [stray]) == tray
    hole = tray[n + 1]                                   # a die the finder was unsure of stays
    unsure = (*hole[:4], weak)
    assert off_lattice([f for f in tray if f != hole] + [unsure])[-1] == unsure


def test_off_lattice_keeps_a_weak_row_that_makes_the_tray_square():
    tray = _tray(4, 30.0, (50.0, 50.0))
    weak = [(x, y, w, h, 0.4) if y > 130 else (x, y, w, h, s) for x, y, w, h, s in tray]
    assert off_lattice(weak) == weak
    assert off_lattice(tray[:5]) == tray[:5]             # too few sure finds for a grid: all kept


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 6), st.floats(4.0, 14.0), st.floats(0.1, 0.9), st.floats(0.1, 0.9))
def test_zoom_window_holds_a_small_tray_with_the_photos_proportions(n, side, fx, fy):
    rows, cols = 1200, 1600
    step = side * cols / 384 / 0.8                      # dice of ``side`` pixels of the finder's input
    x0, y0 = fx * (cols - n * step), fy * (rows - n * step)
    tray = _tray(n, step, (x0 + step / 2, y0 + step / 2))
    window = zoom_window(tray, (rows, cols))
    assert window is not None
    left, top, right, bottom = window
    assert 0 <= left and 0 <= top and right <= cols and bottom <= rows
    assert all(left <= x <= right and top <= y <= bottom for x, y, *_ in tray)
    assert abs((right - left) / (bottom - top) - cols / rows) < 0.02
    assert (right - left) * 1.4 <= cols


def test_zoom_window_leaves_large_dice_and_lone_dice_alone():
    assert zoom_window(_tray(4, 300.0, (200.0, 200.0)), (1200, 1600)) is None
    assert zoom_window(_tray(4, 20.0, (200.0, 200.0))[:3], (1200, 1600)) is None


@needs_photos
def test_a_small_tray_far_off_is_found_by_the_closer_look(photos, reader):
    """The validation tray shrunk to a third in a photo three times as large: every die found."""
    photo = a_tray_photo(photos)
    image = cv2.imread(str(photo.path()))
    canvas = np.full((image.shape[0] * 3, image.shape[1] * 3, 3), 90, np.uint8)
    canvas[416:832, 416:832] = image
    small = cv2.resize(canvas, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_AREA)
    read = reader.read(small)
    boxes = [((x0 + 416) / 3, (y0 + 416) / 3, (x1 + 416) / 3, (y1 + 416) / 3) for x0, y0, x1, y1 in (d.box for d in photo.dice)]
    inside = sum(any(x0 <= d.centre[0] <= x1 and y0 <= d.centre[1] <= y1 for d in read.dice) for x0, y0, x1, y1 in boxes)
    assert inside == 16


@pytest.mark.parametrize("tilt", [0.002, 0.003, 0.004])
def test_the_rows_of_a_tray_in_steep_perspective(tilt):
    """Far rows narrower and closer together (the rows as gaps do not add up): the tray's four
    corners and the perspective between them still put each die in its cell."""
    flat = np.array([(x * 40.0 + 200, y * 40.0 + 200) for y in range(4) for x in range(4)], np.float32)
    warp = np.array([[1, 0, 0], [0, 1, 0], [0, tilt, 1]], np.float32)
    seen = cv2.perspectiveTransform(flat[None], warp)[0]
    assert tray_rows([(float(x), float(y)) for x, y in seen], None) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    moved = [(float(x), float(y)) for x, y in seen[:-1]] + [(float(seen[-1][0]) + 30, float(seen[-1][1]))]
    assert tray_rows(moved, None) is None                # a die off its cell: no rows


# ---------------------------------------------------------------- the grid's box for a doubtful face


def a_tray_in_perspective(k: int, tilt: float, turn: float, rng: np.random.Generator):
    """A k x k tray's cells seen in perspective (far rows smaller): each die's true centre, its
    face's upright box (the face 0.7 of its cell) and its cell's side, 40 px at the first row."""
    angle = np.deg2rad(turn)
    rot = np.array([[np.cos(angle), -np.sin(angle), 0], [np.sin(angle), np.cos(angle), 0], [0, 0, 1]])
    homography = np.array([[1, 0, 300], [0, 1, 300], [0, 0, 1]]) @ rot @ np.array([[40, 0, 0], [0, 40, 0], [0, tilt, 1]])
    dice = []
    for r in range(k):
        for c in range(k):
            x, y, z = homography @ np.array([c, r, 1.0])
            jac = (homography[:2, :2] * z - np.outer([x, y], homography[2, :2])) / z ** 2
            dice.append((x / z, y / z, 0.7 * (abs(jac[0, 0]) + abs(jac[0, 1])), 0.7 * (abs(jac[1, 0]) + abs(jac[1, 1])),
                         float(np.sqrt(abs(np.linalg.det(jac))))))
    return dice


@settings(max_examples=40, deadline=None)
@given(k=st.integers(4, 6), tilt=st.floats(-0.015, 0.015), turn=st.floats(-30, 30), seed=st.integers(0, 1000),
       off=st.floats(0.3, 0.45))
@example(k=4, tilt=0.0, turn=0.0, seed=527, off=0.3125)   # a corner find the first fit bent to (GRID_NEAR)
def test_grid_boxes_put_a_find_off_its_cell_back_on_it_at_the_trays_size(k, tilt, turn, seed, off):
    """A tray in perspective, its finds a little uneven in place and size, one find moved off its
    cell and cut too small: its grid box is on its cell at the tray's size there, and says how far
    off it was. (From 4x4: a homography through a 3x3 tray's nine finds can bend to one corner
    find a third of a cell off; along a row or column, a find nearer half a cell off is counted
    in the next one.)"""
    rng = np.random.default_rng(seed)
    dice = a_tray_in_perspective(k, tilt, turn, rng)
    found = [(x + rng.normal(0, 0.3), y + rng.normal(0, 0.3), w * rng.uniform(0.95, 1.05), h * rng.uniform(0.95, 1.05), 0.9)
             for x, y, w, h, _ in dice]
    odd = int(rng.integers(len(dice)))
    x, y, w, h, pitch = dice[odd]
    angle = np.deg2rad(turn + 45)                          # moved along its cell's diagonal
    found[odd] = (x + off * pitch * np.cos(angle), y + off * pitch * np.sin(angle), 0.6 * w, 0.6 * h, 0.9)
    boxes = grid_boxes(found)
    assert boxes is not None and len(boxes) == len(found)
    gx, gy, gw, gh, told = boxes[odd]
    assert np.hypot(gx - x, gy - y) < 0.1 * pitch
    assert abs(np.log(gw / w)) < 0.15 and abs(np.log(gh / h)) < 0.15
    assert told == pytest.approx(off, abs=0.12)
    assert all(b[4] < 0.12 for i, b in enumerate(boxes) if i != odd)


def test_grid_boxes_take_the_cells_proportions_for_a_tray_seen_low():
    """A tray seen low: its rows are flattened to 0.4 of its columns' spacing, and the finder gave
    every face a square box. The grid's boxes are as flat as the cells, the area the finds'."""
    found = [(100.0 + 40 * c, 100.0 + 16 * r, 20.0, 20.0, 0.9) for r in range(4) for c in range(4)]
    for x, y, w, h, off in grid_boxes(found):
        assert w / h == pytest.approx(1 / 0.4, rel=0.01) and w * h == pytest.approx(400, rel=0.01) and off < 0.01


def test_grid_boxes_need_a_grid():
    scattered = [(float(x), float(y), 30.0, 30.0, 0.9) for x, y in np.random.default_rng(5).uniform(0, 600, (12, 2))]
    assert grid_boxes(scattered) is None
    assert grid_boxes(scattered[:4]) is None


def test_a_doubtful_face_in_a_tray_is_read_again_from_its_grid_box(reader, monkeypatch):
    """A tray of 16: a die's find is off its cell and its face doubtful; it is read again from
    the grid's box, and the surer reading is kept. A sure face, and a doubtful one whose find is
    more than GRID_LOOK_OFF of a cell off its grid box, are not read again."""
    found = [(100.0 + 40 * c, 100.0 + 40 * r, 28.0, 28.0, 0.9) for r in range(4) for c in range(4)]
    found[5] = (148.0, 140.0, 20.0, 20.0, 0.9)             # 8 px (a fifth of a cell) off, cut small
    far = (GRID_LOOK_OFF + 0.1) * 40 / np.sqrt(2)
    found[15] = (220.0 + far, 220.0 + far, 28.0, 28.0, 0.9)   # further off than a grid look trusts
    first = np.tile(probabilities(E=1.0), (16, 1))
    first[5] = first[15] = probabilities(A=0.4, E=0.35, O=0.25)
    asked: list[list[tuple[float, float, float, float]]] = []

    def classify(grey, boxes):
        asked.append(list(boxes))
        return np.tile(probabilities(O=0.9, A=0.1), (len(boxes), 1)), np.full((len(boxes), 4), 0.25)

    monkeypatch.setattr(reader, "classify", classify)
    probs = reader._grid_look(np.zeros((400, 400), np.uint8), found, first)
    assert len(asked) == 1 and len(asked[0]) == 1
    cx, cy, w, h = asked[0][0]
    assert np.hypot(cx - 140, cy - 140) < 3 and 24 < w < 32 and 24 < h < 32
    assert [FACES[int(p.argmax())] for p in probs] == ["E"] * 5 + ["O"] + ["E"] * 9 + ["A"]
    assert first[5].max() < SECOND_LOOK


def test_a_surer_first_reading_is_kept_over_the_grid_look(reader, monkeypatch):
    found = [(100.0 + 40 * c, 100.0 + 40 * r, 28.0, 28.0, 0.9) for r in range(3) for c in range(3)]
    first = np.tile(probabilities(E=1.0), (9, 1))
    first[4] = probabilities(A=0.7, E=0.3)
    calls = iter([first, probabilities(O=0.5, A=0.5)[None]])
    monkeypatch.setattr(reader, "find", lambda *_: found)
    monkeypatch.setattr(reader, "classify", lambda grey, boxes: (next(calls), np.full((len(boxes), 4), 0.25)))
    assert reader.read(np.full((400, 400, 3), 120, np.uint8)).dice[4].face == "A"


def test_the_networks_run_by_onnx_runtime_give_opencv_dnns_outputs(reader):
    """The reader runs its networks with ONNX Runtime (faster on them, issue 24's tenth round); its
    outputs are OpenCV's dnn's, which ran them before."""
    rng = np.random.default_rng(0)
    cuts = rng.normal(0, 1, (5, 1, 32, 32)).astype(np.float32)
    photo = rng.random((1, 3, 384, 384)).astype(np.float32)
    for path, net, x, names in ((FACES_PATH, reader.faces, cuts, ["faces", "turns"]), (FINDER_PATH, reader.finder, photo, ["maps"])):
        other = cv2.dnn.readNetFromONNX(str(path))
        other.setInput(x)
        for a, b in zip(net.run(x, names), other.forward(names)):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=1e-3)


# ---------------------------------------------------------------- the same reads for less (the seventh round)


@settings(max_examples=60, deadline=None)
@given(cx=st.floats(-5.0, 105.0), cy=st.floats(-5.0, 105.0), w=st.floats(2.0, 90.0), h=st.floats(2.0, 90.0),
       seed=st.integers(0, 99))
def test_an_upright_face_cut_is_the_turning_formulas_cut_to_the_bit(cx, cy, w, h, seed):
    """The upright cut's matrix, written down, is the one the turning formula multiplies out at 0°."""
    grey = np.random.default_rng(seed).integers(0, 256, (100, 100), dtype=np.uint8)
    sx, sy = w * MARGIN / CROP, h * MARGIN / CROP
    a = np.diag([sx, sy]) @ np.array([[np.cos(0.0), -np.sin(0.0)], [np.sin(0.0), np.cos(0.0)]])
    offset = np.array((cx, cy)) - a @ np.array([(CROP - 1) / 2, (CROP - 1) / 2])
    matrix = np.hstack([a, offset[:, None]]).astype(np.float64)
    expected = cv2.warpAffine(grey, matrix, (CROP, CROP), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(face_cut(grey, (cx, cy), (w, h), raw=True), expected)
    assert np.array_equal(face_cut(grey, (cx, cy), (w, h)), evened(expected))


def _one_a_face_pair_by_pair(found):
    """keep_tray's first step as it was at a765528: the finds' distances one pair at a time."""
    kept = []
    for f in sorted(found, key=lambda f: -f[4]):
        if all(np.hypot(f[0] - k[0], f[1] - k[1]) > 0.4 * max(k[2], k[3]) for k in kept):
            kept.append(f)
    return kept


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 300), st.floats(0, 300), st.floats(5, 40), st.floats(5, 40), st.floats(0.3, 1.0)),
                max_size=40))
@example([(0.0, 0.0, 10.0, 10.0, 0.9), (4.0, 0.0, 10.0, 10.0, 0.5), (4.0000001, 0.0, 10.0, 10.0, 0.4)])
def test_one_a_face_keeps_what_it_kept_when_it_measured_pair_by_pair(found):
    assert one_a_face(found) == _one_a_face_pair_by_pair(found)


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(3, 6), cols=st.integers(3, 6), tilt=st.floats(-30, 30), seed=st.integers(0, 1000))
def test_the_kept_grid_is_the_grid_worked_out_afresh_and_cannot_be_changed(rows, cols, tilt, seed):
    rng = np.random.default_rng(seed)
    t = np.radians(tilt)
    found = [(float(100 + 30 * (c * np.cos(t) - r * np.sin(t)) + rng.normal(0, 1)),
              float(100 + 30 * (c * np.sin(t) + r * np.cos(t)) + rng.normal(0, 1)), 20.0, 20.0, 0.9)
             for r in range(rows) for c in range(cols)]
    centres = tuple((f[0], f[1]) for f in found)
    fresh = _lattice_of_centres.__wrapped__(centres)
    kept = _lattice(found)
    assert (fresh is None) == (kept is None)
    if kept is not None:
        assert all(np.array_equal(a, b) for a, b in zip(fresh, kept))
        with pytest.raises(ValueError):
            kept[0][0, 0] = 1.0
    pts = np.array(centres)
    axes = _lattice_axes(pts)
    assert np.array_equal(axes, _lattice_axes_of.__wrapped__(pts.tobytes()))
    assert not axes.flags.writeable


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(10, 900), cols=st.integers(10, 900), level=st.integers(0, 255), seed=st.integers(0, 99))
def test_the_finders_input_is_the_photo_transposed_and_brightened(rows, cols, level, seed):
    photo = np.random.default_rng(seed).integers(0, level + 1, (rows, cols, 3), dtype=np.uint8)
    small = photo
    if min(rows, cols) > 2 * FIND_SIDE:
        small = cv2.resize(small, (2 * FIND_SIDE, 2 * FIND_SIDE), interpolation=cv2.INTER_LINEAR)
    small = cv2.resize(small, (FIND_SIDE, FIND_SIDE), interpolation=cv2.INTER_AREA)
    expected = np.ascontiguousarray(small.transpose(2, 0, 1), np.float32)
    expected /= 255.0
    counts = np.cumsum(np.bincount(small.ravel(), minlength=256))
    top = int(np.searchsorted(counts, 0.995 * counts[-1]))
    assert brightest(small) == top
    if top < LIGHT_TOP:
        expected *= LIGHT_TOP / max(top, 12)
    assert np.array_equal(finder_input(photo), expected)
    assert np.array_equal(finder_input(photo[1:, 1:]), finder_input(np.ascontiguousarray(photo[1:, 1:])))
