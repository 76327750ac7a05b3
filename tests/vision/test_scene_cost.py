"""What the camera scene costs the letters (issue 25): the letters' light of one colour, the bicubic
canonical image, the training crops cut exactly as the reader cuts them, and scripts/scene_cost.py's
measures of a scene."""

import cv2
import numpy as np
import pytest

from rules.squares import Square
from tests.helpers import script_module
from vision.cells import CellJudge, reference_image
from vision.reader import INTERPOLATION, BoardReader
from vision.synth.scene import make_scene

pytestmark = pytest.mark.vision


def _squares_with_ink(judge: CellJudge, canon: np.ndarray) -> int:
    analysis = judge.analyse(canon)
    board = judge.board
    return sum(int(analysis.ink_map(r, c, judge.cell).max() > 0) for r in range(board.rows) for c in range(board.cols))


def test_glare_washing_the_tints_out_leaves_no_bands_in_the_letter_images(sp_board):
    """An empty SP board (squares of five tints) under light that saturates its paper: the local
    light takes each tinted square's colour ratio across its border, which put a band into the
    letter image of most squares; light of one colour leaves (almost) none. Nothing is judged ink
    either way."""
    judge = CellJudge(sp_board, 30)
    washed = np.clip(reference_image(sp_board, 30).astype(np.float32) * 0.9 + 90, 0, 255).astype(np.uint8)
    judge.letter_light_colourless = False
    before = _squares_with_ink(judge, washed)
    judge.letter_light_colourless = True
    after = _squares_with_ink(judge, washed)
    squares = sp_board.rows * sp_board.cols
    assert before > squares // 2
    assert after < squares // 10
    assert not (judge.analyse(washed).states == 1).any()


def test_a_coloured_light_is_found_and_leaves_the_letters_clean(sp_board):
    """A warm lamp (blue channel at 55 % of the red one's light): the light's colour over the board
    is found from the paper, so light of one colour still shows empty squares empty."""
    judge = CellJudge(sp_board, 30)
    warm = (reference_image(sp_board, 30).astype(np.float32) * np.array([0.55, 0.8, 1.0], np.float32)).astype(np.uint8)
    obs = warm.astype(np.float32) / 255
    ratio = judge._paper_ratio(obs) / np.maximum(judge.bright_small, 1e-3)[:, :, None]
    assert np.allclose(judge._paper_colour(ratio), [1.0, 0.8 / 0.55, 1.0 / 0.55], rtol=0.03)
    assert _squares_with_ink(judge, warm) == 0


def test_the_canonical_image_is_resampled_as_the_reader_says(small_board):
    frame = make_scene(small_board, {Square(3, 3): "A"}, seed=4, tilt_deg=25).frame
    reader = BoardReader(small_board)
    located = reader.locate(frame)
    assert reader.interpolation == INTERPOLATION == cv2.INTER_CUBIC
    assert np.array_equal(reader.canonical(frame, located), located.warp(frame, cv2.INTER_CUBIC))
    assert not np.array_equal(located.warp(frame, cv2.INTER_CUBIC), located.warp(frame))  # bilinear by default


def test_the_training_crops_are_the_letters_the_reader_reads(small_board):
    """scripts/train_letters.py renders its crops with scene_letter_images: the very images a read
    of the same photo gives the letter network."""
    from vision.synth.letterdata import scene_letter_images

    reader = BoardReader(small_board)
    images, _labels = scene_letter_images(reader, "CAT", seed=3)
    rng = np.random.default_rng([3, 7])
    squares = list(small_board.squares())
    chosen = [squares[i] for i in rng.choice(len(squares), 3, replace=False)]
    read = reader.read(make_scene(small_board, dict(zip(chosen, "CAT")), seed=3).frame)
    for sq, image in zip(chosen, images):
        assert np.array_equal(read.images[sq], image)


def test_the_script_measures_each_squares_size_and_glare_in_the_photo(small_board):
    cost = script_module("scene_cost")
    scene = make_scene(small_board, {}, seed=2, tilt_deg=0, fill=0.9, glare=False)
    sizes = cost.square_sizes(scene, small_board)
    assert sizes.shape == (small_board.rows, small_board.cols)
    assert sizes.std() < 0.05 * sizes.mean()  # seen straight on: all squares alike
    plain = scene.frame // 2
    glare = cost.glare_over(scene, plain + 40, plain, small_board)
    assert np.allclose(glare, 40)


def test_the_loss_table_counts_each_condition_and_the_lost_letters():
    cost = script_module("scene_cost")

    def letter(clean, scene, glare):
        return cost.Letter(0, "b", "black", 25.0, 10.0, 0.5, glare, 0.1, clean, clean, {"before": scene, "shipped": 0})

    letters = [letter(0, 0, 0.0), letter(0, 3, 100.0), letter(0, -1, 100.0), letter(2, 0, 0.0)]
    rows = {line.split("|")[1].strip() + " " + line.split("|")[2].strip(): line for line in cost.table(letters, "before").splitlines()[2:]}
    assert rows["all "].split("|")[3:9] == [" 4 ", " 75.0 ", " 75.0 ", " 50.0 ", " +25.0 ", " 100 % "]
    glare_row = rows["glare over the square (grey levels) 70-+"].split("|")
    assert glare_row[3:10] == [" 2 ", " 100.0 ", " 100.0 ", " 0.0 ", " +100.0 ", " 100 % ", " 1 "]
    counts = cost.EmptyCount(10, 8, {"before": 0, "shipped": 1}, {"before": 0, "shipped": 0})
    assert "| shipped | 100.00 % of 4 | +2 / -0 | 1 of 10 (0 of 8) |" in cost.compare(letters, counts, ["before", "shipped"])
