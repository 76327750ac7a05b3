"""The grid finder's shortcuts give what the plain computations they replace give, to the bit
(the refusals were made faster without changing an answer: docs/vision.md, the fourth round)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.gridfind.check import _widened
from vision.gridfind.lattice import PlaneView, _plane_edges
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
