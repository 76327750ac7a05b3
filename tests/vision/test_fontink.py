"""Handwriting fonts as training letters (vision/fontink.py)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from tests.helpers import HUMOR_SANS
from vision.synth.fontink import HandwritingFonts, NoFontsFound, font_files, stroke_width, with_stroke_width

pytestmark = pytest.mark.vision


def test_web_font_packages_keep_latin_upright_faces_one_family_per_name(tmp_path):
    files = ["caveat-latin-400-normal.woff", "caveat-latin-700-normal.woff", "caveat-latin-ext-400-normal.woff",
             "caveat-cyrillic-400-normal.woff", "caveat-latin-400-italic.woff", "caveat-latin-400-normal.woff2",
             "amatic-sc-latin-400-normal.woff", "dokdo-12-400-normal.woff", "Humor-Sans.ttf", "README.md"]
    for name in files:
        (tmp_path / "sub" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "sub" / name).write_bytes(b"")
    found = sorted((f.family, f.path.name) for f in font_files([tmp_path, tmp_path / "missing"]))
    assert found == [("Humor-Sans", "Humor-Sans.ttf"), ("amatic-sc", "amatic-sc-latin-400-normal.woff"),
                     ("caveat", "caveat-latin-400-normal.woff"), ("caveat", "caveat-latin-700-normal.woff")]


def test_the_cyrillic_files_of_web_font_packages_are_kept_when_asked_for(tmp_path):
    for name in ("caveat-latin-400-normal.woff", "caveat-cyrillic-400-normal.woff", "caveat-cyrillic-ext-400-normal.woff",
                 "caveat-cyrillic-400-italic.woff", "neucha-cyrillic-400-normal.woff"):
        (tmp_path / name).write_bytes(b"")
    found = sorted((f.family, f.path.name) for f in font_files([tmp_path], subset="cyrillic"))
    assert found == [("caveat", "caveat-cyrillic-400-normal.woff"), ("neucha", "neucha-cyrillic-400-normal.woff")]


DEJAVU_SANS = pathlib.Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.mark.skipif(not (HUMOR_SANS.is_dir() and DEJAVU_SANS.is_file()), reason="fonts-humor-sans or fonts-dejavu missing")
def test_for_the_ukrainian_capitals_only_a_font_drawing_all_33_is_used():
    from vision.letters import UK_ALPHABET

    with pytest.raises(NoFontsFound, match="33 capitals"):
        HandwritingFonts.find([HUMOR_SANS], alphabet=UK_ALPHABET)  # Latin letters only
    fonts = HandwritingFonts.find([DEJAVU_SANS.parent], families=["DejaVuSans"], alphabet=UK_ALPHABET)
    ink = fonts("Ї", 48, np.random.default_rng(0))
    assert ink.shape == (48, 48) and (ink > 0.5).any()


def test_unreadable_or_missing_fonts_are_refused_with_a_clear_error(tmp_path):
    (tmp_path / "broken-latin-400-normal.woff").write_bytes(b"not a font")
    with pytest.raises(NoFontsFound, match="26 capitals"):
        HandwritingFonts.find([tmp_path])
    with pytest.raises(NoFontsFound):
        HandwritingFonts.find([tmp_path / "nowhere"])


def test_a_font_that_draws_one_placeholder_box_for_every_letter_is_not_used(tmp_path, monkeypatch):
    import vision.synth.fontink as fontink

    (tmp_path / "NoLatin.ttf").write_bytes(b"")
    box = np.ones((30, 20), np.float32)
    monkeypatch.setattr(fontink, "glyph_mask", lambda path, letter, px=96: box)
    with pytest.raises(NoFontsFound):
        HandwritingFonts.find([tmp_path])


@pytest.mark.parametrize("target", [3.0, 6.0, 12.0])
def test_strokes_are_thinned_or_thickened_to_the_marker_width(target):
    bar = np.zeros((60, 80), np.float32)
    bar[20:28, 5:75] = 1  # 8 px wide
    out = with_stroke_width(bar, target)
    assert (out[:, out.shape[1] // 2] > 0.5).sum() == pytest.approx(target, abs=1.0)
    assert stroke_width(bar) == pytest.approx(8, abs=1.0)


@pytest.mark.skipif(not HUMOR_SANS.is_dir(), reason="fonts-humor-sans is not installed (./tabletop.sh setup)")
def test_a_font_letter_is_marker_ink_inside_the_square():
    fonts = HandwritingFonts.find([HUMOR_SANS])
    assert len(fonts) == 1
    for seed in range(20):
        rng = np.random.default_rng(seed)
        ink = fonts("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[seed % 26], 48, rng)
        assert ink.shape == (48, 48) and ink.dtype == np.float32
        assert 0.0 <= ink.min() and ink.max() <= 1.0
        assert 0.03 < (ink > 0.5).mean() < 0.6
        assert ink[3:-3, 3:-3].sum() > 0.85 * ink.sum()  # mostly inside its square (a hand strays to the edge too)
    a = fonts("O", 48, np.random.default_rng(1))
    b = fonts("O", 48, np.random.default_rng(1))
    assert np.array_equal(a, b)  # the same seed draws the same letter


def test_the_training_hand_writes_from_small_letters_to_ones_filling_the_square():
    """Letter boxes at the table keep off the square's lines; for training they reach them."""
    from vision.synth.handwriting import TABLE_HAND, TRAINING_HAND, letter_box

    def heights(hand):
        rng = np.random.default_rng(0)
        return np.array([y1 - y0 for _, y0, _, y1 in (letter_box(100, rng, hand) for _ in range(500))])

    table, training = heights(TABLE_HAND), heights(TRAINING_HAND)
    assert 55 <= table.min() and table.max() <= 90
    assert training.min() < 45 and training.max() > 97 and training.max() <= 100


def test_font_fetcher_without_npm_says_what_to_install_and_makes_nothing(tmp_path):
    import shutil
    import subprocess

    root = pathlib.Path(__file__).resolve().parents[2]
    repo, bin_dir = tmp_path / "repo", tmp_path / "bin"
    (repo / "scripts").mkdir(parents=True)
    bin_dir.mkdir()
    for name in ("fetch_fonts.sh", "handwriting-fonts.txt", "handwriting-fonts-uk.txt"):
        shutil.copy(root / "scripts" / name, repo / "scripts" / name)
    (bin_dir / "dirname").symlink_to(shutil.which("dirname"))  # all the script runs before it looks for npm
    for which in ([], ["uk"]):  # the Latin fonts, and those with the Ukrainian capitals
        done = subprocess.run(["/bin/bash", str(repo / "scripts" / "fetch_fonts.sh"), *which], capture_output=True,
                              text=True, env={"PATH": str(bin_dir)}, timeout=30)
        assert done.returncode == 1
        assert "needs npm" in done.stderr and "apt-get install npm" in done.stderr
    assert not (repo / ".fonts").exists() and not (repo / ".fonts-uk").exists()
