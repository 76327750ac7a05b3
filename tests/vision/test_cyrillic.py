"""The Ukrainian letters' data: the held-out writers are never in the training letters, and the
four constructed letters are made as documented (vision/synth/cyrillic.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.letters import UK_ALPHABET
from vision.synth import cyrillic

needs_data = pytest.mark.skipif(not cyrillic.COMNIST_PATH.is_file(), reason="CoMNIST is not on this machine")


def test_split_file_lists_held_out_and_guard_sessions_apart():
    held, guard = cyrillic.split_sessions()
    assert len(held) >= 20 and not held & guard
    assert all(s.startswith("comnist/s") for s in held | guard)


def test_split_file_refuses_an_unknown_role(tmp_path):
    path = tmp_path / "split.txt"
    path.write_text("comnist/s0001 held-out\ncomnist/s0002 training\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not 'training'"):
        cyrillic.split_sessions(path)


@given(st.lists(st.integers(0, 40), min_size=12, max_size=200))
@settings(max_examples=40, deadline=None)
def test_make_split_guards_each_held_out_run(sessions):
    writers = np.array([f"s{v:04d}" for v in sorted(sessions)])
    roles = cyrillic.make_split(writers, blocks=4, held_blocks=(1,))
    ordered = sorted(set(writers))
    for k, s in enumerate(ordered):
        if roles.get(s) == "held-out":  # its neighbours are held out too, or guards: never training
            for j in (k - 1, k + 1):
                if 0 <= j < len(ordered):
                    assert roles.get(ordered[j]) in ("held-out", "guard")


@needs_data
def test_no_held_out_or_guard_writer_is_in_the_training_letters():
    from vision.synth.realdata import HELD_OUT_CONTRIBUTORS, TRAINING_CONTRIBUTORS

    held, guard = cyrillic.split_sessions()
    learn = cyrillic.ukrainian_letters(held_out=False)
    assert not set(learn.writer) & (held | guard)
    latin = {w.split("/")[0] for w in learn.writer if not w.startswith("comnist/")}
    assert latin and latin <= set(TRAINING_CONTRIBUTORS)
    test = cyrillic.ukrainian_letters(held_out=True)
    assert set(w for w in test.writer if w.startswith("comnist/")) <= held
    assert {w.split("/")[0] for w in test.writer if not w.startswith("comnist/")} <= set(HELD_OUT_CONTRIBUTORS)


@needs_data
def test_the_tuning_run_is_apart_from_the_letters_learnt_and_from_the_held_out_writers():
    from vision.synth.realdata import TRAINING_CONTRIBUTORS

    held, guard = cyrillic.split_sessions()
    learn, tuning = cyrillic.tuning_split()
    comnist = {str(w) for w in tuning.writer if w.startswith("comnist/")}
    assert len(comnist) >= 5 and set(tuning.labels) == set(UK_ALPHABET)
    assert not set(learn.writer) & set(tuning.writer)  # neither its sessions nor its Latin writers' I
    assert not (set(learn.writer) | set(tuning.writer)) & (held | guard)
    assert {w.split("/")[0] for w in tuning.writer if not w.startswith("comnist/")} <= set(TRAINING_CONTRIBUTORS)
    order = sorted(set(cyrillic.load_comnist().writer) - held - guard)
    for k in [order.index(s) for s in comnist]:  # the sessions either side: tuning too, or used for nothing
        assert all(order[j] in comnist or order[j] not in set(learn.writer) for j in (k - 1, k + 1) if 0 <= j < len(order))


@needs_data
def test_every_ukrainian_letter_is_there_and_only_four_are_constructed():
    test = cyrillic.ukrainian_letters(held_out=True)
    assert set(test.labels) == set(UK_ALPHABET)
    assert set(test.labels[test.made != ""]) == set(cyrillic.CONSTRUCTED)
    assert "Э" not in set(test.labels)
    assert test.images.shape[1:] == (cyrillic.SIDE, cyrillic.SIDE) and test.images.dtype == np.uint8


def _g_shape() -> np.ndarray:
    g = np.zeros((70, 70), np.uint8)
    g[5:65, 20:26] = 255
    g[5:11, 20:55] = 255
    return g


def test_ye_is_the_mirrored_e():
    e = np.zeros((70, 70), np.uint8)
    e[10:60, 40:46] = 255
    assert np.array_equal(cyrillic.mirrored(e)[:, ::-1], e)


def test_ghe_with_upturn_has_ink_above_the_right_end_of_its_bar():
    out = cyrillic.with_upturn(_g_shape(), np.random.default_rng(1))
    ys, xs = np.nonzero(out > 127)
    top = ys.min()
    assert xs[ys <= top + 3].mean() > 40  # the highest ink is the up-stroke, at the bar's right end


def test_yi_has_two_dots_above_the_i():
    i = np.zeros((70, 70), np.uint8)
    i[8:62, 32:38] = 255
    out = cyrillic.with_dots(i, np.random.default_rng(2))
    import cv2

    count, _, stats, _ = cv2.connectedComponentsWithStats((out > 127).astype(np.uint8))
    parts = sorted(stats[1:, cv2.CC_STAT_AREA])
    assert count - 1 == 3 and parts[0] < parts[-1] / 5  # the bar and two small dots


def test_stroke_width_is_the_line_thickness():
    img = np.zeros((70, 70), np.uint8)
    img[10:60, 30:38] = 255
    assert 6.5 < cyrillic.stroke_width(img) < 9


def test_image_queue_writes_the_images_in_order_inside_the_square():
    a, b = np.zeros((70, 70), np.uint8), np.zeros((70, 70), np.uint8)
    a[10:60, 30:36] = 255
    b[30:36, 10:60] = 255
    queue = cyrillic.ImageQueue([a, b])
    rng = np.random.default_rng(0)
    first, second = queue("І", 48, rng), queue("Г", 48, rng)
    assert first.shape == (48, 48) and first.max() > 0.9
    tall = np.ptp(np.nonzero(first > 0.5)[0]), np.ptp(np.nonzero(first > 0.5)[1])
    wide = np.ptp(np.nonzero(second > 0.5)[0]), np.ptp(np.nonzero(second > 0.5)[1])
    assert tall[0] > tall[1] and wide[1] > wide[0]


@given(st.integers(2, 5), st.floats(3.0, 14.0))
@settings(max_examples=25, deadline=None)
def test_at_width_redraws_a_line_near_the_width_asked(own, want):
    img = np.zeros((70, 70), np.uint8)
    img[10:60, 33:33 + own] = 255
    got = cyrillic.stroke_width(cyrillic.at_width(img, want))
    assert abs(got - want) <= 1.0 + 0.2 * want  # the width measure (area over outline) reads a short thick bar low
    assert (cyrillic.at_width(img, want) > 127).any()  # never drawn away


def test_image_queue_at_a_markers_width_draws_thicker_lines_than_comnists_brush():
    from vision.synth.handwriting import TABLE_HAND

    thin = np.zeros((70, 70), np.uint8)
    thin[5:65, 33:37] = 255  # CoMNIST's brush: about 4 of the letter's 60 pixels
    plain = cyrillic.ImageQueue([thin] * 20)
    marker = cyrillic.ImageQueue([thin] * 20, TABLE_HAND)
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    ink_plain = [plain("І", 48, rng_a) for _ in range(20)]
    ink_marker = [marker("І", 48, rng_b) for _ in range(20)]
    width = [np.median([(i > 0.5).sum(axis=1).max() for i in inks]) for inks in (ink_plain, ink_marker)]
    assert width[1] > 1.5 * width[0]
