"""The camera commands end to end, including the acceptance path: someone renders handwriting
into the sidecar's boxes of our printed PNG, photographs it in perspective, and scores it."""

import json

import cv2
import numpy as np
import pytest

from tabletop.cli import main
from vision.synth.handwriting import render_letter
from vision.synth.scene import camera_homography

pytestmark = pytest.mark.vision


def photo_from_print(tmp_path, game, words, seed=0, tilt=25.0):
    assert main(["print-board", game, "--out", str(tmp_path / "board.png")]) == 0
    page = cv2.imread(str(tmp_path / "board.png")).astype(np.float32)
    side = json.loads((tmp_path / "board.json").read_text())
    rng = np.random.default_rng(seed)
    for text, row, col, across in words:
        for k, ch in enumerate(text):
            r, c = (row, col + k) if across else (row + k, col)
            x0, y0, x1, y1 = side["cells"][r * side["cols"] + c]
            ink = render_letter(ch, min(x1 - x0, y1 - y0), rng)[:, :, None]
            box = page[y0:y0 + ink.shape[0], x0:x0 + ink.shape[1]]
            box[:] = box * (1 - ink) + np.array([140, 50, 20]) * ink
    h = camera_homography(page.shape[1], page.shape[0], (1280, 960), tilt, rng, fill=0.95)
    photo = cv2.warpPerspective(page, h, (1280, 960), borderValue=(70, 90, 110))
    yy, xx = np.mgrid[0:960, 0:1280]
    # glare, clear of the squares that carry a word on (one washed out there is refused: tests/vision/test_readability.py)
    photo += 120 * np.exp(-((xx - 800) ** 2 + (yy - 650) ** 2) / (2 * 90.0 ** 2))[:, :, None]
    photo = cv2.GaussianBlur(photo, (0, 0), 1.0) + rng.normal(0, 3, photo.shape)
    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), np.clip(photo, 0, 255).astype(np.uint8))
    return path


@pytest.mark.slow
def test_score_json_on_a_photo_of_the_printed_png(tmp_path, capsys):
    path = photo_from_print(tmp_path, "extradiction", [("MARKET", 6, 3, True), ("TENT", 3, 8, False)])
    capsys.readouterr()
    assert main(["score", str(path), "--game", "extradiction", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"][6] == "...MARKET...."
    assert sorted(w["word"] for w in out["words"]) == ["MARKET", "TENT"]
    assert out["score"] == sum(w["score"] for w in out["words"]) > 0


def test_print_board_writes_png_and_sidecar(tmp_path, capsys):
    assert main(["print-board", "extradiction-sp", "--out", str(tmp_path / "b.png"), "--paper", "A3", "--dpi", "120"]) == 0
    side = json.loads((tmp_path / "b.json").read_text())
    assert side["rows"] == side["cols"] == 19 and len(side["cells"]) == 361


@pytest.mark.parametrize("argv, message", [
    (["score", "missing.jpg", "--game", "extradiction"], "no such photo"),
    (["score", "{toml}", "--game", "extradiction"], "not an image"),
    (["score", "{png}", "--game", "chess"], "no game 'chess'; the games are: extradiction"),
    (["score", "{png}", "--board", "nope.toml"], "no board"),
    (["score", "{blank}", "--game", "extradiction"], "board not found"),
    (["print-board", "chess", "--out", "x.png"], "no board for 'chess'; choose one of: extradiction"),
    (["print-board", "extradiction", "--out", "x.gif"], "must end in .png or .pdf"),
    (["calibrate", "{blank}", "--game", "extradiction", "--out", "c.json"], "give the grid's four corners"),
    (["calibrate", "{blank}", "--corners", "1,2", "3", "4", "5"], "--corners takes four"),
])
def test_readable_errors(tmp_path, capsys, argv, message):
    (tmp_path / "x.toml").write_text("not an image")
    cv2.imwrite(str(tmp_path / "blank.png"), np.full((300, 400, 3), 128, np.uint8))
    argv = [a.format(toml=tmp_path / "x.toml", png=tmp_path / "blank.png", blank=tmp_path / "blank.png") for a in argv]
    argv = [str(tmp_path / a) if a in ("x.png", "x.gif", "c.json") else a for a in argv]
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (2, 3) and message in err and "Traceback" not in err


@pytest.mark.slow
def test_calibrate_then_score_a_board_with_stick_on_markers(tmp_path, capsys, small_board):
    from vision.printing import aruco_dictionary, draw_board
    from vision.synth.scene import make_scene  # noqa: F401  (same camera model)

    cell = 48
    page = np.full((int(21 * cell), int(21 * cell), 3), 250, np.uint8)
    draw_board(small_board, cell, origin=(4 * cell, 4 * cell), canvas=page, markers=False)
    spots = {0: (0.5, 0.3), 1: (18.2, 0.8), 2: (18.6, 18.4), 3: (0.4, 18.9)}  # stuck on by hand, anywhere
    for i, (u, v) in spots.items():
        marker = cv2.aruco.generateImageMarker(aruco_dictionary(), i, int(1.8 * cell))
        y, x = int(v * cell), int(u * cell)
        page[y:y + marker.shape[0], x:x + marker.shape[1]] = marker[:, :, None]

    def shoot(image, seed, name):
        rng = np.random.default_rng(seed)
        h = camera_homography(image.shape[1], image.shape[0], (1280, 960), 15, rng, fill=0.95)
        photo = cv2.warpPerspective(image, h, (1280, 960), borderValue=(60, 80, 100))
        cv2.imwrite(str(tmp_path / name), photo)
        return tmp_path / name

    empty = shoot(page, 1, "empty.png")
    assert main(["calibrate", str(empty), "--game", "extradiction", "--out", str(tmp_path / "cal.json")]) == 0
    written = page.astype(np.float32)
    rng = np.random.default_rng(3)
    for k, ch in enumerate("DOG"):
        x0, y0 = 4 * cell + (5 + k) * cell, 4 * cell + 2 * cell
        ink = render_letter(ch, cell, rng)[:, :, None]
        written[y0:y0 + cell, x0:x0 + cell] = written[y0:y0 + cell, x0:x0 + cell] * (1 - ink) + 30 * ink
    photo = shoot(written.astype(np.uint8), 2, "dog.png")  # the camera moved: markers still tell
    capsys.readouterr()
    assert main(["score", str(photo), "--game", "extradiction", "--calibration", str(tmp_path / "cal.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"][2] == ".....DOG....."


@pytest.mark.slow
@pytest.mark.parametrize("tilt", [10, 30])
def test_calibrate_takes_the_grid_not_the_papers_edge(tmp_path, capsys, small_board, tilt):
    """A sheet on a dark table: the paper's edge is the largest outline, the grid is inside it."""
    from vision.calibration import calibrate
    from vision.errors import BoardNotFound
    from vision.printing import aruco_dictionary, draw_board

    cell = 40
    sheet = np.full((int(24 * cell), int(20 * cell), 3), 248, np.uint8)        # the paper, larger than the grid
    draw_board(small_board, cell, origin=(3.5 * cell, 5 * cell), canvas=sheet, markers=False)
    for i, (u, v) in {0: (0.5, 0.5), 1: (17.5, 0.8), 2: (17.6, 21.5), 3: (0.4, 21.8)}.items():
        marker = cv2.aruco.generateImageMarker(aruco_dictionary(), i, int(1.6 * cell))
        y, x = int(v * cell), int(u * cell)
        sheet[y:y + marker.shape[0], x:x + marker.shape[1]] = marker[:, :, None]
    h = camera_homography(sheet.shape[1], sheet.shape[0], (1280, 960), tilt, np.random.default_rng(tilt), fill=0.7)
    photo = cv2.warpPerspective(sheet, h, (1280, 960), borderValue=(40, 45, 50))
    record = calibrate(photo, small_board.rows, small_board.cols)
    grid = np.array([(3.5, 5), (3.5 + small_board.cols, 5), (3.5 + small_board.cols, 5 + small_board.rows),
                     (3.5, 5 + small_board.rows)], np.float64) * cell
    truth = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), h).reshape(4, 2)
    assert np.abs(np.array(record["grid_corners_px"]) - truth).max() < cell * 0.5   # the grid's corners, not the paper's

    blank = np.full_like(sheet, 248)                                            # a sheet with no grid on it
    blank[:sheet.shape[0] // 10] = sheet[:sheet.shape[0] // 10]                   # (markers at the top only)
    photo = cv2.warpPerspective(blank, h, (1280, 960), borderValue=(40, 45, 50))
    with pytest.raises(BoardNotFound, match="give the grid's four corners"):
        calibrate(photo, small_board.rows, small_board.cols)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.binary(max_size=2000), st.sampled_from([b"", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0"]))
def test_corrupt_photo_files_give_a_readable_error(tmp_path, capsys, data, header):
    path = tmp_path / "photo.jpg"
    path.write_bytes(header + data)
    words = tmp_path / "words.txt"
    words.write_text("CAT\n")
    code = main(["score", str(path), "--game", "extradiction", "--lexicon", str(words)])
    err = capsys.readouterr().err
    assert code in (2, 3) and "Traceback" not in err and err.startswith("tabletop score:")


def test_score_json_carries_confidence_and_names_the_other_games_board(tmp_path, capsys):
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2]
    assert main(["score", str(root / "docs" / "img" / "camera-photo.jpg"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["words"] and all(0 <= w["confidence"] <= 1 and isinstance(w["confirm"], bool) for w in out["words"])
    assert out["confirm"] == any(w["confirm"] for w in out["words"])
    assert main(["print-board", "extradiction", "--out", str(tmp_path / "ex.png")]) == 0
    capsys.readouterr()
    assert main(["score", str(tmp_path / "ex.png"), "--game", "extradiction-sp"]) == 3
    assert "this looks like the extradiction board" in capsys.readouterr().err


def test_score_keeps_the_boards_printed_look_in_the_cache_and_mends_it(tmp_path, capsys, monkeypatch):
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2]
    cache = tmp_path / "cache"
    monkeypatch.setenv("TABLETOP_CACHE", str(cache))
    words = tmp_path / "words.txt"
    words.write_text("market\npenetrate\ninvisible\n")
    argv = ["score", str(root / "docs" / "img" / "camera-photo.jpg"), "--lexicon", str(words), "--json"]
    outputs = []
    for damage in (None, None, "truncate"):            # built, mapped, mended
        kept = sorted(cache.glob("judge-*/ref_min.npy"))
        if damage:
            kept[0].write_bytes(kept[0].read_bytes()[:100])
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
        assert len(sorted(cache.glob("judge-*/ref_min.npy"))) == 1
        assert kept == [] or kept[0].stat().st_size > 1_000_000     # whole again after the damage
    assert outputs[0] == outputs[1] == outputs[2]
    assert json.loads(outputs[0])["score"] > 0
