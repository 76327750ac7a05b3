"""The tile reader: printed tiles on the printed Questique board (found by its markers), raised
tiles on boxed boards without markers (found from the corners given), both alphabets, blanks,
words decoded with the dictionary, and clear refusals."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.board import parse_board
from rules.questique_tiles import alphabet
from rules.squares import Square
from tabletop.resources import load_board
from vision.errors import BoardNotFound
from vision.synth.tilefonts import HELD_OUT
from vision.synth.tilescene import HELD_OUT_BOARDS, HELD_OUT_PALETTES, tile_scene, varied_look
from vision.tiles import BATCH, CELL, CLASSES, GLYPHS, HEIGHT_SQUARES, MARGIN, STEADY_STEPS, WINDOW, TileModel, \
    TileReader, both_say, default_model, even_light, from_corners, glyph, relief, square_patches, windows
from vision.words import LexiconIndex

pytestmark = pytest.mark.vision

QUESTIQUE = load_board("questique", required=("marks",))
BOXED = parse_board("rows = 15\ncols = 15\n[layers]\n", "boxed", required=())


def word(text: str, row: int, col: int, across: bool = True) -> dict[Square, str]:
    return {Square(row, col + k) if across else Square(row + k, col): ch for k, ch in enumerate(text)}


def test_every_letter_of_both_sets_has_a_shape_class():
    for language in ("en", "uk"):
        assert all(glyph(ch) in GLYPHS for ch in alphabet(language))
    assert len(set(CLASSES)) == len(CLASSES)
    assert glyph("І") == "I" and glyph("Ї") == "Ї"


def test_an_empty_printed_board_reads_empty():
    read = TileReader(QUESTIQUE).read(tile_scene(QUESTIQUE, {}, seed=3).frame)
    assert read.rows == tuple("." * 19 for _ in range(19))
    assert read.words == ()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_printed_tiles_in_english(seed):
    tiles = {**word("QUESTION", 4, 2), **word("ZEBRA", 9, 12, across=False), Square(15, 15): "?", Square(0, 0): "J"}
    shot = tile_scene(QUESTIQUE, tiles, seed=seed)
    assert TileReader(QUESTIQUE, "en").read(shot.frame).rows == shot.rows


def test_printed_tiles_in_ukrainian_keep_the_cyrillic_letters():
    tiles = {**word("ЇЖАК", 2, 2), **word("ЩОЙҐЄ", 6, 8, across=False), Square(12, 3): "І", Square(12, 4): "Р"}
    shot = tile_scene(QUESTIQUE, tiles, seed=4, language="uk")
    read = TileReader(QUESTIQUE, "uk").read(shot.frame)
    assert read.rows == shot.rows
    assert read.rows[12][3:5] == "ІР"          # Cyrillic, though shaped like Latin I and P


def test_raised_tiles_on_a_boxed_board_through_its_corners():
    """Three photos at a 30 degree slant: nearly every tile right, no empty square read as a tile."""
    tiles = {**word("WOODEN", 7, 3), **word("TILES", 2, 9, across=False), **word("BOARD", 12, 1)}
    wrong = false_tiles = 0
    for seed in (5, 6, 7):
        shot = tile_scene(BOXED, tiles, seed=seed, style="commercial", faces=HELD_OUT, tilt_deg=30)
        read = TileReader(BOXED, "en", corners=shot.corners).read(shot.frame)
        pairs = [(want, got) for w_row, g_row in zip(shot.rows, read.rows) for want, got in zip(w_row, g_row)]
        wrong += sum(want != "." and want != got for want, got in pairs)
        false_tiles += sum(want == "." and got != "." for want, got in pairs)
    assert wrong <= 2 and false_tiles == 0            # 48 tiles


def test_tall_tiles_seen_from_low_down_are_read_where_their_faces_are():
    """Tiles a third of a square tall at a 40 degree slant: their faces lie far off their
    squares, each by its own amount (read flat, several tiles come out wrong); a height is found
    and every tile read where its face is."""
    import dataclasses

    from vision.synth.tilescene import commercial_look

    look = dataclasses.replace(commercial_look(np.random.default_rng(4), "en", HELD_OUT), height=0.33)
    tiles = {**word("RAISED", 3, 2), **word("TILES", 4, 10, across=False), **word("LEAN", 11, 4)}
    shot = tile_scene(BOXED, tiles, seed=8, style="commercial", faces=HELD_OUT, tilt_deg=40, look=look)
    reader = TileReader(BOXED, "en", corners=shot.corners)
    read = reader.read(shot.frame)
    assert read.rows == shot.rows
    assert shot.raised is not None
    faces = reader.faces(read.located, shot.frame.shape[:2])
    truth = faces._to_top(shot.raised.reshape(-1, 2)) - faces.flat
    assert np.abs(truth).max() > 0.35 * reader.cell                       # far off their squares
    assert read.shift > 0.05


@pytest.mark.parametrize("palette", range(len(HELD_OUT_PALETTES)))
def test_any_tile_colour_on_any_board_colour(palette):
    """Each held-out tile colour (dark tiles with light letters too) on a held-out board colour,
    at a 30-45 degree slant: nearly every tile right, at most two empty squares read as tiles
    (today's reader misses a tile or reads a premium square as a blank now and then: short of
    the issue's target, see docs/vision.md)."""
    rng = np.random.default_rng(palette)
    look = varied_look(rng, "en", HELD_OUT, HELD_OUT_PALETTES[palette:palette + 1])
    tiles = {**word("COLOUR", 3, 4), **word("PALETTE", 5, 9, across=False), **word("BOARD", 11, 2)}
    shot = tile_scene(BOXED, tiles, seed=40 + palette, style="commercial", look=look,
                      board_colour=HELD_OUT_BOARDS[palette % len(HELD_OUT_BOARDS)], tilt_deg=30 + 3 * palette)
    read = TileReader(BOXED, "en", corners=shot.corners).read(shot.frame)
    pairs = [(want, got) for w_row, g_row in zip(shot.rows, read.rows) for want, got in zip(w_row, g_row)]
    assert sum(want != "." and want != got for want, got in pairs) <= 2          # of 18 tiles
    assert sum(want == "." and got != "." for want, got in pairs) <= 2          # of 207 empty squares


def test_a_boxed_board_without_corners_is_found_by_its_grid():
    shot = tile_scene(BOXED, word("CAT", 7, 6), seed=7, style="commercial")
    read = TileReader(BOXED, "en").read(shot.frame)
    assert read.located.method == "grid" and read.rows == shot.rows


def test_a_photo_without_a_board_or_its_corners_is_refused():
    shot = tile_scene(BOXED, word("CAT", 7, 6), seed=7, style="commercial", offset=(5.0, 5.0))   # the table only
    with pytest.raises(BoardNotFound):
        TileReader(BOXED, "en").read(shot.frame)


def test_corners_that_frame_no_board_are_refused():
    with pytest.raises(BoardNotFound, match="outside"):
        from_corners((600, 800, 3), np.array([[0, 0], [9000, 0], [800, 600], [0, 600]]), 15, 15)
    with pytest.raises(BoardNotFound, match="clockwise"):
        from_corners((600, 800, 3), np.array([[0, 0], [0, 600], [800, 600], [800, 0]]), 15, 15)


def test_words_are_decoded_and_a_blank_is_a_wildcard():
    tiles = {**word("CA?", 9, 8), **word("DOG", 3, 3, across=False)}
    shot = tile_scene(QUESTIQUE, tiles, seed=8)
    index = LexiconIndex(["cat", "dog", "cow"])
    read = TileReader(QUESTIQUE, "en", index=index).read(shot.frame)
    assert read.rows[9][8:11] == "CA?"                    # the grid shows the blank as the photo does
    assert sorted((w.text, w.in_lexicon) for w in read.words) == [("CAT", True), ("DOG", True)]


def test_a_read_says_how_sure_it_is():
    """Over a few photos: every square read wrong is among the unsure ones (the host is asked
    about it), and few squares are unsure."""
    unsure = wrong_but_sure = 0
    for seed in (9, 10, 11):
        shot = tile_scene(QUESTIQUE, {**word("SURE", 5, 5), **word("READ", 12, 3, across=False)}, seed=seed)
        read = TileReader(QUESTIQUE).read(shot.frame)
        assert read.confidence.shape == (19, 19)
        asked = {(s.row, s.col) for s in read.unsure}
        unsure += len(asked)
        wrong_but_sure += sum((r, c) not in asked for r, (want, got) in enumerate(zip(shot.rows, read.rows))
                              for c, (a, b) in enumerate(zip(want, got)) if a != b)
    assert wrong_but_sure == 0 and unsure <= 3


def test_one_reader_reads_a_light_set_then_a_dark_set():
    """The network is chosen for each read: a reader that has just read light tiles with dark
    letters still reads dark tiles with light letters next (it once kept the light network)."""
    reader = TileReader(BOXED, "en")
    tiles = {**word("LIGHT", 4, 3), **word("DARK", 9, 6)}
    for palette, seed in ((5, 61), (1, 62)):                   # grey plastic, then navy with white letters
        look = varied_look(np.random.default_rng(seed), "en", HELD_OUT, HELD_OUT_PALETTES[palette:palette + 1])
        shot = tile_scene(BOXED, tiles, seed=seed, style="commercial", look=look, tilt_deg=20.0)
        reader.corners = shot.corners
        read = reader.read(shot.frame)
        right = sum(want == got for w_row, g_row in zip(shot.rows, read.rows)
                    for want, got in zip(w_row, g_row) if want != ".")
        assert right >= len(tiles) - 1, (palette, read.rows)


def test_a_blank_is_told_by_the_colour_of_the_tiles_faces():
    """A square the network takes for a blank but coloured like the board's premium squares, not
    like the tiles, is empty; a square it takes for empty with some chance of a blank, coloured
    like the tiles and not like the board, is a blank."""
    reader = TileReader(BOXED, "en")
    side = int((15 + 2 * MARGIN) * CELL)
    light = np.empty((side, side, 3), np.float32)
    light[:] = (0.3, 0.6, 0.3)                                     # a green board
    ivory, red = (0.8, 0.9, 0.95), (0.3, 0.3, 0.9)
    letters, premium, pale = [16, 17, 18, 19], 100, 140
    paint = {**{k: ivory for k in letters}, premium: red, pale: ivory}
    for k, colour in paint.items():
        x, y = reader.middles[k]
        light[int(y - CELL / 2):int(y + CELL / 2), int(x - CELL / 2):int(x + CELL / 2)] = colour
    probs = np.zeros((225, len(reader.codes)), np.float32)
    probs[:, 0] = 1.0
    probs[letters] = 0.0
    probs[letters, 2] = 0.99                                       # read surely as A
    probs[letters, 0] = 0.01
    probs[premium, :2] = (0.3, 0.7)                                # read as a blank
    probs[pale, :2] = (0.9, 0.1)                                   # read as empty, a blank not unlikely
    reader._check_blanks(probs, light, reader.middles)
    assert probs[premium].argmax() == 0 and probs[pale].argmax() == 1
    assert (probs[letters].argmax(1) == 2).all() and np.allclose(probs.sum(1), 1.0)


def test_a_blank_of_the_boards_own_colour_is_told_by_its_relief():
    """Pale wood on a light board: the tiles are the board's colour, and colour cannot tell a blank
    from an empty square. Where the faces lie off their squares (an oblique photo), a square read
    unsurely as a blank is one only when its own square shows a raised tile's relief (the edge of
    its face and its darker side); plain board read so is empty, unless the network is sure. Where
    the faces lie on their squares there is no relief to see, and where the blank's colour is not
    the board's (card tiles on paper) colour tells: no relief is asked for."""
    reader = TileReader(BOXED, "en")
    side = int((15 + 2 * MARGIN) * CELL)
    light = np.empty((side, side, 3), np.float32)
    light[:] = (0.75, 0.85, 0.9)                                   # board and tiles of one colour

    def square(k: int) -> tuple[slice, slice]:
        x, y = (int(v) for v in reader.middles[k])
        return slice(y - CELL // 2, y + CELL // 2), slice(x - CELL // 2, x + CELL // 2)

    letters, raised, plain, sure = [16, 17, 18, 19], 100, 140, 160
    for k in letters:
        light[square(k)][8:18, 12:14] = 0.1                        # a stroke of a letter
    light[square(raised)][:7] = (0.45, 0.5, 0.55)                  # the tile's side along its square's top
    light[square(raised)][:, :7] = (0.45, 0.5, 0.55)               # and left: its face lies down and right
    probs = np.zeros((225, len(reader.codes)), np.float32)
    probs[:, 0] = 1.0
    probs[letters, 0], probs[letters, 2] = 0.01, 0.99              # read surely as A
    for k, (empty, blank) in {raised: (0.4, 0.6), plain: (0.4, 0.6), sure: (0.03, 0.97)}.items():
        probs[k, :2] = (empty, blank)
    first = probs.copy()
    reader._check_blanks(probs, light, reader.middles + 4.0)       # faces found 4 pixels down and right
    assert probs[raised].argmax() == 1 and probs[sure].argmax() == 1
    assert probs[plain].argmax() == 0
    assert (probs[letters].argmax(1) == 2).all() and np.allclose(probs.sum(1), 1.0)
    reader._check_blanks(first, light, reader.middles)            # faces on their squares: no relief to see,
    assert first[plain].argmax() == 1                              # the network's word stands

    light[:] = (0.95, 0.97, 0.98)                                  # white paper; card tiles, flat
    for k in [*letters, plain]:
        light[square(k)] = (0.55, 0.8, 0.9)
    for k in letters:
        light[square(k)][8:18, 12:14] = 0.1
    probs[plain, :] = 0.0
    probs[plain, :2] = (0.4, 0.6)
    reader._check_blanks(probs, light, reader.middles + 4.0)
    assert probs[plain].argmax() == 1                              # a card blank: its colour tells


def test_a_rendered_blank_of_the_boards_colour_is_a_blank_and_plain_squares_read_as_one_are_empty():
    """A render of pale held-out wood on a light board of nearly its colour, 40° oblique (seed
    60055, found by a search over 60000-60149, none of them the bench's or a tuning set's): the
    network takes the empty squares (11, 2) and (11, 8) for blanks; they show no raised tile's
    relief at their own squares and are read empty, and the one blank, at (11, 3), is read as a
    blank. (The empty square (11, 12), beside a tile whose face shows in it, is read as a blank
    still.)"""
    from tabletop.benchmarks.tiles import _tiles

    rng = np.random.default_rng(60055)
    tiles = _tiles(BOXED, alphabet("en"), rng)
    wood = tuple(p for p in HELD_OUT_PALETTES if p.wooden)
    look = varied_look(rng, "en", HELD_OUT, wood)
    shot = tile_scene(BOXED, tiles, seed=60055, style="commercial", language="en", faces=HELD_OUT, look=look,
                      board_colour=HELD_OUT_BOARDS[2], tilt_deg=40.0)
    read = TileReader(BOXED, "en", corners=shot.corners).read(shot.frame.clip(0, 255).astype(np.uint8))
    assert [sq for sq, code in tiles.items() if code == "?"] == [Square(11, 3)] and read.rows[11][3] == "?"
    assert Square(11, 2) not in tiles and Square(11, 8) not in tiles
    assert read.rows[11][2] == "." and read.rows[11][8] == "."


@given(level=st.floats(0.1, 0.9), contrast=st.floats(0.02, 0.6), at=st.integers(-6, 6), down=st.booleans())
def test_relief_is_none_on_plain_board_and_grows_with_an_edges_contrast(level: float, contrast: float, at: int,
                                                                         down: bool):
    """A square of one even colour has no relief, whatever its brightness; a straight edge across
    its middle has the relief of its contrast (Sobel: 8 a unit step, over the 18 rows of the middle)."""
    middle = np.array([[30.0, 30.0]])
    plain = np.full((60, 60, 3), level, np.float32)
    assert relief(plain, middle)[0] == pytest.approx(0.0, abs=1e-5)
    edged = plain.copy()
    if down:
        edged[30 + at:] += contrast
    else:
        edged[:, 30 + at:] += contrast
    assert relief(edged, middle)[0] == pytest.approx(contrast * 8 / 18, rel=1e-3)
    assert relief(edged, np.zeros((0, 2))).shape == (0,)


def test_only_plain_board_squares_go_unread():
    """A square of the board's one colour is not worth a network's look; one with a letter, a
    blank tile of another colour or a premium square's label is."""
    reader = TileReader(BOXED, "en")
    side = int((15 + 2 * MARGIN) * CELL)
    light = np.empty((side, side, 3), np.float32)
    light[:] = (0.7, 0.8, 0.85)                                    # a light board
    def square(k: int) -> tuple[slice, slice]:
        x, y = (int(v) for v in reader.middles[k])
        return slice(y - CELL // 2, y + CELL // 2), slice(x - CELL // 2, x + CELL // 2)
    letter, blank, label = 30, 31, 32
    light[square(letter)] = (0.95, 0.95, 0.95)
    light[square(letter)][8:18, 12:14] = 0.1                       # a stroke of a letter
    light[square(blank)] = (0.6, 0.9, 1.0)                         # a yellow blank
    light[square(label)][10:13, 5:20] = (0.2, 0.2, 0.6)            # a line of a premium square's label
    plain, board = reader._plain(light)
    assert not plain[[letter, blank, label]].any()
    assert plain.sum() == 225 - 3
    assert np.allclose(board, (0.7, 0.8, 0.85))


class _Fixed:
    """A stand-in network that reads every window the same way and counts the windows."""

    def __init__(self, read: dict[str, float]):
        self.read, self.windows = read, 0

    def predict(self, windows: np.ndarray) -> np.ndarray:
        self.windows += len(windows)
        out = np.full((len(windows), len(CLASSES)), 1e-6, np.float32)
        for code, p in self.read.items():
            out[:, CLASSES.index(code)] = p
        return out / out.sum(1, keepdims=True)


class _Counted:
    """A network that counts the windows it reads."""

    def __init__(self, net):
        self.net, self.windows = net, 0

    def predict(self, windows: np.ndarray) -> np.ndarray:
        self.windows += len(windows)
        return self.net.predict(windows)


def test_both_networks_say_whether_a_tile_lies_where_they_disagree_either_way():
    """Where the light network reads A (a premium square's edge arrow, half a square off a raised
    tile) and the general network an empty square, both read it at the same place and their
    chances of a tile are multiplied, whatever the first read saw: empty here. The other way
    round (a real photo's wooden tile the light network takes for an empty square, the general
    network surely for a B) it is a tile, and the general network names it."""
    reader = TileReader(BOXED, "en")
    general, light = _Fixed({".": 0.9, "A": 0.1}), _Fixed({".": 0.2, "A": 0.8})
    reader.model = general                                         # type: ignore[assignment]
    probs = np.zeros((225, len(reader.codes)), np.float32)
    probs[:, 0] = 1.0
    probs[7, :] = 0.0
    probs[7, 2] = 1.0                                              # the first read saw an A at square 7
    image = np.full((int(16 * CELL), int(16 * CELL), 3), 0.8, np.float32)
    reader._read_again(probs, np.array([6, 7]), image, light, np.zeros_like(reader.middles))  # type: ignore[arg-type]
    chance = np.sqrt(0.2 * 0.9) / (np.sqrt(0.2 * 0.9) + np.sqrt(0.8 * 0.1))
    assert (probs[[6, 7]].argmax(1) == 0).all() and probs[6, 0] == pytest.approx(chance, abs=0.01)
    assert (light.windows, general.windows) == (2, 2)
    reader.model = _Fixed({".": 0.01, "B": 0.99})                 # type: ignore[assignment]
    reader._read_again(probs, np.array([6]), image, _Fixed({".": 0.9, "A": 0.1}), np.zeros_like(reader.middles))  # type: ignore[arg-type]
    assert probs[6].argmax() == 3 and probs[6, 0] == pytest.approx(0.232, abs=0.01)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4), min_size=2, max_size=2))
def test_both_say_weighs_both_networks_chances_of_a_tile(rows):
    """Each square's read stays a distribution whose chance of an empty square lies between the
    two networks'; a tile both networks see is named by the light network; a blank only the
    general network sees where the light one reads empty leaves the light network's read."""
    reads = np.array(rows, np.float64) + 1e-3
    light, general = reads[:1] / reads[:1].sum(), reads[1:] / reads[1:].sum()
    out = both_say(light, general)
    assert out.sum() == pytest.approx(1.0)
    if light.argmax() == 0 and general.argmax() == 1:
        assert np.allclose(out, light)
        return
    low, high = sorted((light[0, 0], general[0, 0]))
    assert low - 1e-9 <= out[0, 0] <= high + 1e-9
    if light.argmax() != 0 and general.argmax() != 0 and out.argmax() != 0:
        assert np.allclose(out[0, 1:] / out[0, 1:].sum(), light[0, 1:] / light[0, 1:].sum())


class _ByMark:
    """A stand-in network whose read depends on whether its window's middle is on a dark dot (a
    square's middle, where a tile lies flat) or off it (where an even shift moves the window)."""

    def __init__(self, on: dict[str, float], off: dict[str, float]):
        self.on, self.off = _Fixed(on), _Fixed(off)

    def predict(self, windows: np.ndarray) -> np.ndarray:
        marked = windows[:, :, WINDOW // 2 - 1:WINDOW // 2 + 1, WINDOW // 2 - 1:WINDOW // 2 + 1].mean((1, 2, 3)) < -0.3
        return np.where(marked[:, None], self.on.predict(windows), self.off.predict(windows))


@pytest.mark.parametrize("general_off, shifted", [({".": 0.95, "A": 0.05}, False), ({"A": 0.999}, True)])
def test_a_blind_even_shift_stands_only_where_it_makes_the_networks_agree_more(general_off, shifted):
    """On a straight view the faces' place is searched as even shifts of the whole board; the
    light network reads the tiles surer 0.15 square off their squares. The shift stands only if
    the general network agrees with it there more than flat; else flat stands."""
    reader = TileReader(BOXED, "en")
    light_net = _ByMark(on={".": 0.2, "A": 0.8}, off={"A": 0.999})
    reader.model = _ByMark(on={"A": 0.9, ".": 0.1}, off=general_off)  # type: ignore[assignment]
    image = np.full((int(16 * CELL), int(16 * CELL), 3), 0.8, np.float32)
    for x, y in reader.middles.astype(int):
        image[y - 2:y + 3, x - 2:x + 3] = 0.0                       # a dark dot at every square's middle
    located = from_corners((800, 800, 3), np.array([[100, 100], [700, 100], [700, 700], [100, 700]]), 15, 15)
    middle = np.array([r * 15 + c for r in (6, 7, 8) for c in (6, 7, 8)])   # raised faces barely move here
    seen = reader._classify(windows(image, reader.middles[middle]), light_net)  # type: ignore[arg-type]
    first = reader._classify(windows(image, reader.middles[middle]), reader.model)
    offsets, _, found = reader._raised(image, middle, seen, located, (800, 800), light_net, first)  # type: ignore[arg-type]
    moved = float(np.abs(offsets).max()) / CELL
    assert (moved == pytest.approx(0.15)) if shifted else (moved == 0.0)
    assert found[:, 2].min() > (0.99 if shifted else 0.75)


def test_plain_squares_beside_tiles_are_read_only_when_a_blank_could_look_plain():
    """A blank has its set's colour: on a board whose colour is far from the tiles' (the printed
    board's white paper, cream card tiles) no blank looks like plain board."""
    reader = TileReader(BOXED, "en")
    light = np.empty((int(16 * CELL), int(16 * CELL), 3), np.float32)
    light[:] = (0.95, 0.97, 0.98)                                  # white paper
    tiles = np.arange(40, 45)
    for k in tiles:
        x, y = (int(v) for v in reader.middles[k])
        light[y - 12:y + 12, x - 12:x + 12] = (0.55, 0.8, 0.9)     # cream card, no letters drawn
    plain, board = reader._plain(light)
    assert not reader._blank_may_look_plain(light, tiles, board)
    light[:] = (0.6, 0.82, 0.9)                                    # a board of the tiles' own colour
    plain, board = reader._plain(light)
    assert reader._blank_may_look_plain(light, tiles, board)
    assert reader._blank_may_look_plain(light, tiles[:2], board)   # too few tiles to tell


def test_card_tiles_on_the_printed_board_need_no_height_search():
    """The printed board's own tiles are card: read surely where they lie, no tile height is
    tried (a read of a 19x19 board stays under 250 windows; it was about 500)."""
    reader = TileReader(QUESTIQUE, "en")
    general, light = _Counted(reader.model), _Counted(reader.light)
    reader.model, reader.light = general, light                    # type: ignore[assignment]
    shot = tile_scene(QUESTIQUE, {**word("QUESTION", 4, 2), **word("ZEBRA", 9, 12, across=False)}, seed=5)
    read = reader.read(shot.frame)
    assert read.rows == shot.rows and read.shift == 0.0
    assert general.windows + light.windows < 250


def test_only_unsure_letters_are_read_again_a_pixel_each_way_and_the_reads_averaged():
    """A letter read less surely than STEADY_BELOW is read four more times, its window moved a
    pixel each way, and the five reads averaged; sure letters and empty squares are left alone."""
    reader = TileReader(BOXED, "en")
    again = _Fixed({"B": 0.9, "A": 0.1})
    probs = np.zeros((225, len(reader.codes)), np.float32)
    probs[:, 0] = 1.0                                              # empty squares
    probs[5, :] = 0.0
    probs[5, 2], probs[5, 3] = 0.6, 0.4                            # an unsure A (B close behind)
    probs[9, :] = 0.0
    probs[9, 2] = 0.99                                             # a sure A
    image = np.full((int(16 * CELL), int(16 * CELL), 3), 0.8, np.float32)
    reader._steady_letters(probs, image, again, np.zeros_like(reader.middles))  # type: ignore[arg-type]
    assert again.windows == len(STEADY_STEPS)
    assert probs[5].argmax() == 3 and probs[5, 3] == pytest.approx((0.4 + 4 * 0.9) / 5, abs=0.01)
    assert probs[9, 2] == pytest.approx(0.99) and (probs[[0, 1, 200], 0] == 1.0).all()


# the cheaper paths (issue 24, speed): the same reads as the plain ones


def _windows(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).random((n, 3, WINDOW, WINDOW), dtype=np.float32) - np.float32(0.5)


@settings(max_examples=10, deadline=None)
@given(batch=st.integers(1, 40))
def test_a_windows_read_is_the_same_whatever_the_batch(batch: int):
    cut = _windows(45, seed=3)
    assert np.array_equal(TileModel(batch=batch).predict(cut), default_model().predict(cut))


def test_a_batch_reads_at_least_one_window():
    with pytest.raises(ValueError, match="at least one window"):
        TileModel(batch=0)


@settings(max_examples=25)
@given(seed=st.integers(0, 999), n=st.integers(0, 12), size=st.sampled_from([5, 18, WINDOW]),
       eight_bit=st.booleans())
def test_windows_are_cut_as_one_by_one(seed: int, n: int, size: int, eight_bit: bool):
    """Cut in place, the windows are those getRectSubPix gives one at a time (8-bit images too)."""
    rng = np.random.default_rng(seed)
    light = rng.random((60, 70, 3), dtype=np.float32)
    centres = rng.uniform(-5, 75, (n, 2))
    image = (light * 255).astype(np.uint8) if eight_bit else light
    want = np.array([cv2.getRectSubPix(image, (size, size), (float(x), float(y))) for x, y in centres],
                    np.float32).reshape(n, size, size, 3)
    assert np.array_equal(windows(image, centres, size), want.transpose(0, 3, 1, 2) - np.float32(0.5))


@given(rows=st.integers(1, 5), cols=st.integers(1, 5), spacing=st.integers(1, 9), size=st.integers(1, 8),
       x0=st.integers(-3, 8), y0=st.integers(-3, 8), jitter=st.booleans(), seed=st.integers(0, 99))
def test_square_patches_are_the_pixels_round_each_square(rows: int, cols: int, spacing: int, size: int, x0: int,
                                                          y0: int, jitter: bool, seed: int):
    """Even grid or not, inside the image or reaching past it: the same pixels as gathered one by one."""
    rng = np.random.default_rng(seed)
    image = rng.random((40, 50, 3), dtype=np.float32)
    x, y = np.meshgrid(x0 + spacing * np.arange(cols), y0 + spacing * np.arange(rows))
    if jitter:
        x = x + rng.integers(0, 2, x.shape)
    x, y = np.clip(x, -30, 40), np.clip(y, -30, 30)
    steps = np.arange(size) - size // 2
    want = image[(y.ravel()[:, None] + steps)[:, :, None], (x.ravel()[:, None] + steps)[:, None, :]]
    got = square_patches(image, x, y, size)
    assert got.flags["C_CONTIGUOUS"] and np.array_equal(got, want)


@given(seed=st.integers(0, 99), h=st.integers(40, 120), w=st.integers(40, 120))
def test_the_evened_light_is_the_float_image_over_its_brightness(seed: int, h: int, w: int):
    top_down = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    small = cv2.resize(cv2.cvtColor(top_down, cv2.COLOR_BGR2GRAY), (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    bright = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (9, 9)))
    bright = cv2.resize(cv2.GaussianBlur(bright.astype(np.float32), (0, 0), 26 * 0.75 / 4), (w, h),
                        interpolation=cv2.INTER_LINEAR)
    want = top_down.astype(np.float32) / np.maximum(bright, 8.0)[..., None]
    got = even_light(top_down)
    assert got.dtype == np.float32 and np.array_equal(got, want)


class _Reads:
    """A stand-in light network reading every window as ``code`` and counting them."""

    def __init__(self, code: str):
        self.code, self.windows = code, 0

    def predict(self, cut: np.ndarray) -> np.ndarray:
        self.windows += len(cut)
        out = np.full((len(cut), len(CLASSES)), 1e-6, np.float32)
        out[:, CLASSES.index(self.code)] = 1.0
        return out


@pytest.mark.parametrize("code, windows, light", [(".", BATCH, False), ("A", HEIGHT_SQUARES, True)])
def test_the_light_network_stops_once_it_cannot_be_chosen(code: str, windows: int, light: bool):
    """Seeing the 30 likeliest tiles as empty squares, the light network stops after its first
    batch (half can no longer be tiles) and the general network reads the board; seeing tiles, it
    reads all 30 and is chosen."""
    reader = TileReader(BOXED, "en")
    stand_in = _Reads(code)
    reader.light = stand_in                                        # type: ignore[assignment]
    probs = np.zeros((225, len(reader.codes)), np.float32)
    probs[:, 2] = 1.0                                              # the general network read A everywhere
    image = np.full((420, 420, 3), 0.8, np.float32)
    tile_like = np.arange(HEIGHT_SQUARES)
    model, seen = reader._network_for(probs, image, tile_like)
    assert stand_in.windows == windows
    assert (model is stand_in) == light and len(seen) == HEIGHT_SQUARES
    assert np.array_equal(seen, probs[tile_like]) != light
