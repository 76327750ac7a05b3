"""The grid finder's shortcuts give what the plain computations they replace give, to the bit
(the refusals were made faster without changing an answer: docs/vision.md, the fourth round)."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.gridfind.check import _crossings, _widened
from vision.gridfind.geometry import drawn_grid
from vision.gridfind.lattice import PlaneView, _fold, _plane_edges, _sample
from vision.gridfind.lines import REACH, STANDS_OUT, STANDS_OUT_ABS, _edges, _line_peaks, _sobel_buffers
from vision.gridfind.pattern import _median_rows

pytestmark = pytest.mark.vision

floats = st.floats(-1e6, 1e6, width=32)


@settings(max_examples=200, deadline=None)
@given(arrays(np.float32, st.tuples(st.integers(1, 40), st.integers(1, 3)), elements=floats))
def test_median_rows_is_numpys_median(values):
    assert np.array_equal(_median_rows(values), np.median(values, axis=0))


@settings(max_examples=200, deadline=None)
@given(arrays(np.float32, st.tuples(st.integers(1, 6), st.integers(3, 30)), elements=floats), st.data())
def test_widened_columns_are_the_rolled_maximum(g, data):
    xs = np.array(data.draw(st.lists(st.integers(-3, g.shape[1] + 3), min_size=1, max_size=20)))
    rolled = np.maximum(np.maximum(np.roll(g, 1, 1), g), np.roll(g, -1, 1))
    assert np.array_equal(_widened(g, xs), rolled[:, np.clip(xs, 0, g.shape[1] - 1)])


def test_a_plane_view_keeps_its_edges_and_they_are_the_planes():
    small = np.random.default_rng(0).integers(0, 256, (120, 160, 3), dtype=np.uint8)
    plane = np.array([[1.1, 0.1, -5.0], [0.05, 0.9, 3.0], [0.0001, 0.0, 1.0]])
    view = PlaneView(small, "lines", plane, (150, 110))
    assert view.edges is view.edges
    for kept, fresh in zip(view.edges, _plane_edges(small, plane, (150, 110))):
        assert np.array_equal(kept, fresh)
    assert view.combs(15, 15)[0] is view.combs(15, 15)[0]               # worked out once


def _plain_edges(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The edges as the finder worked them out before its Sobel buffers."""
    gx = np.abs(cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3))
    if gx.ndim == 3:
        third = np.full((1, 3), 1 / 3, np.float32)
        gx, gy = cv2.transform(gx, third), cv2.transform(gy, third)
    return gx, gy


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 60), st.integers(3, 60), st.sampled_from([(), (3,)]), st.integers(0, 2**32 - 1))
def test_edges_through_kept_buffers_are_the_plain_edges(h, w, channels, seed):
    image = np.random.default_rng(seed).integers(0, 256, (h, w, *channels), dtype=np.uint8)
    first = _edges(image)
    again = _edges(image[::-1].copy())                                   # the buffers written over
    for got, plain in zip(first, _plain_edges(image)):
        assert got.dtype == np.float32 and np.array_equal(got, plain)
    for got, plain in zip(again, _plain_edges(image[::-1].copy())):
        assert np.array_equal(got, plain)


def test_edges_come_back_new_and_each_thread_has_its_buffers():
    top = drawn_grid()
    gx, _gy = _edges(top)
    kept = _sobel_buffers(top.shape)
    assert not np.shares_memory(gx, kept[0]) and not np.shares_memory(gx, kept[1])
    assert _sobel_buffers(top.shape)[0] is kept[0]
    other: list[np.ndarray] = []
    thread = threading.Thread(target=lambda: other.append(_sobel_buffers(top.shape)[0]))
    thread.start()
    thread.join()
    assert other[0] is not kept[0]


def _plain_crossings(verticals: np.ndarray, horizontals: np.ndarray) -> tuple[list, list]:
    """The crossings as the finder worked them out before, one pair of lines at a time."""
    from vision.gridfind.geometry import CELL, PAD
    src, dst = [], []
    for i, hl in enumerate(horizontals):
        for k, vl in enumerate(verticals):
            if np.isnan(hl).any() or np.isnan(vl).any():
                continue
            (a, b), (c, d) = (float(v) for v in vl), (float(v) for v in hl)
            den = 1 - b * d
            if abs(den) < 1e-6:
                continue
            x = (a + b * c) / den
            src.append((x, c + d * x))
            dst.append(((k + PAD) * CELL, (i + PAD) * CELL))
    return src, dst


line = st.one_of(st.tuples(st.floats(-500, 500), st.floats(-2, 2)), st.just((np.nan, np.nan)),
                 st.just((10.0, 1.0)), st.just((10.0, 1.0000001)))       # nearly parallel to a (.., 1.0) horizontal


@settings(max_examples=300, deadline=None)
@given(st.lists(line, min_size=1, max_size=17), st.lists(line, min_size=1, max_size=17))
def test_crossings_are_the_pairs_crossed_one_at_a_time(verticals, horizontals):
    v, h = np.array(verticals, np.float64), np.array(horizontals, np.float64)
    src, dst = _crossings(v, h)
    plain_src, plain_dst = _plain_crossings(v, h)
    assert src.shape == (len(plain_src), 2) and dst.shape == (len(plain_dst), 2)
    assert np.array_equal(src, np.array(plain_src, np.float64).reshape(-1, 2))
    assert np.array_equal(dst, np.array(plain_dst, np.float64).reshape(-1, 2))


def _plain_fold(prof: np.ndarray, n: int, spacings: np.ndarray, step: float = 1.0) -> tuple[float, float, float]:
    """The fold as the finder worked it out before: every phase up to the widest spacing."""
    phases = np.arange(0.0, np.ceil(spacings.max()), step)
    ks = np.arange(int(n / spacings.min()) + 1, dtype=np.float64)
    at = phases[None, :, None] + ks[None, None, :] * spacings[:, None, None]
    used = (ks[None, None, :] <= np.floor(n / spacings)[:, None, None]) & (phases[None, :, None] < spacings[:, None, None])
    contrast = np.where(used, _sample(prof, at) - _sample(prof, at + spacings[:, None, None] / 2), 0.0).sum(2)
    contrast[phases[None, :] >= spacings[:, None]] = -np.inf
    i, k = np.unravel_index(int(np.argmax(contrast)), contrast.shape)
    return float(contrast[i, k]), float(spacings[i]), float(phases[k])


@settings(max_examples=150, deadline=None)
@given(st.integers(60, 700), st.floats(0.5, 12.0), st.floats(1.5, 4.0), st.integers(2, 90), st.sampled_from([1.0, 2.0]),
       st.integers(0, 2**32 - 1))
def test_a_fold_of_the_phases_within_each_spacing_is_the_whole_fold(n, least, ratio, count, step, seed):
    rng = np.random.default_rng(seed)
    prof = np.append(rng.normal(0, 1, n).astype(np.float32), np.zeros(n, np.float32))
    spacings = np.geomspace(least, least * ratio, count)
    assert _fold(prof, n, spacings, step) == _plain_fold(prof, n, spacings, step)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5))
def test_a_lines_median_offset_is_numpys_median(seed, along):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 50, ((along + 6) * 16, 200)).astype(np.float32)
    for k in (0, 2, 4):                                                  # half the lines drawn, a little off
        g[:, (k + 3) * 16 + rng.integers(-REACH, REACH + 1)] += 80
    _offsets, _xs, prof, _j, peak, good = _line_peaks(g, 6, along)
    assert prof.shape[2] == 2 * REACH + 1
    assert good.any() and not good.all()
    assert np.array_equal(good, peak > STANDS_OUT * np.median(prof, axis=2) + STANDS_OUT_ABS)
