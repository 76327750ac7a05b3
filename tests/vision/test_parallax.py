"""The camera worked out from a board's grid (vision.parallax): its focal length, and where a
raised tile's face lands top-down, checked against known pinhole cameras and the renderer's."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.board import parse_board
from vision.parallax import USUAL_FOCAL, RaisedFaces, focal_length, told_focal_length
from vision.synth.tilescene import tile_scene, varied_look

pytestmark = pytest.mark.vision

BOXED = parse_board("rows = 15\ncols = 15\n[layers]\n", "boxed", required=())
SIZE = (960, 1280)


def camera(f: float, tilt: float, turn: float, yaw: float, distance: float) -> np.ndarray:
    """A pinhole camera's homography from the squares of a 15x15 board to the photo's pixels."""
    axis = np.array([np.cos(turn), np.sin(turn), 0.0])
    tilted, _ = cv2.Rodrigues(axis * np.radians(tilt))
    turned, _ = cv2.Rodrigues(np.array([0.0, 0.0, np.radians(yaw)]))
    rotation = tilted @ turned
    t = -rotation @ np.array([7.5, 7.5, 0.0]) + np.array([0.0, 0.0, distance])
    k = np.array([[f, 0, SIZE[1] / 2], [0, f, SIZE[0] / 2], [0, 0, 1]])
    return k @ np.column_stack([rotation[:, 0], rotation[:, 1], t])


@settings(max_examples=60, deadline=None)
@given(f=st.floats(700, 2500), tilt=st.floats(20, 50), turn=st.floats(0, 2 * np.pi), yaw=st.floats(-30, 30),
       distance=st.floats(25, 60))
def test_the_focal_length_is_recovered_from_an_oblique_grid(f, tilt, turn, yaw, distance):
    assert focal_length(camera(f, tilt, turn, yaw, distance), SIZE) == pytest.approx(f, rel=0.02)


@settings(max_examples=40, deadline=None)
@given(tilt=st.floats(0, 50), turn=st.floats(0, 2 * np.pi), distance=st.floats(25, 60), height=st.floats(0.05, 0.5))
def test_raised_faces_shift_away_from_the_camera_and_more_the_higher(tilt, turn, distance, height):
    faces = RaisedFaces(camera(1100.0, tilt, turn, 0.0, distance), SIZE, 15, 15, np.eye(3))
    assert np.abs(faces.offsets(0.0)).max() < 1e-9
    low, high = np.linalg.norm(faces.offsets(height), axis=1), np.linalg.norm(faces.offsets(2 * height), axis=1)
    assert (high >= low - 1e-9).all() and high.max() > 0


def test_a_straight_view_takes_a_phones_usual_focal_length():
    straight = camera(1500.0, 0.0, 0.0, 0.0, 40.0)
    assert focal_length(straight, SIZE) == pytest.approx(USUAL_FOCAL * 1280)
    assert told_focal_length(straight, SIZE) is None
    assert not RaisedFaces(straight, SIZE, 15, 15, np.eye(3)).told


@settings(max_examples=30, deadline=None)
@given(scale=st.floats(20, 80), turn=st.floats(-40, 40), x=st.floats(0, 400), y=st.floats(0, 300))
def test_a_photo_already_warped_top_down_does_not_tell_the_camera(scale, turn, x, y):
    """An affine map (a photo someone warped top-down: no perspective left) tells no focal length,
    so the tile reader tries even shifts of the whole board instead of tile heights."""
    a = np.radians(turn)
    affine = np.array([[scale * np.cos(a), -scale * np.sin(a), x], [scale * np.sin(a), scale * np.cos(a), y], [0, 0, 1]])
    assert told_focal_length(affine, SIZE) is None
    assert not RaisedFaces(affine, SIZE, 15, 15, np.eye(3)).told


def test_an_oblique_view_tells_the_camera():
    assert RaisedFaces(camera(1100.0, 35.0, 0.5, 10.0, 40.0), SIZE, 15, 15, np.eye(3)).told


@pytest.mark.parametrize("seed, tilt", [(1, 30), (2, 40), (3, 45)])
def test_the_faces_land_where_the_renderers_camera_puts_them(seed, tilt):
    """Through the corners of a rendered photo, each square's middle at the tiles' height lands
    within a few hundredths of a square of where the renderer's camera put it."""
    look = varied_look(np.random.default_rng(seed), "en")
    shot = tile_scene(BOXED, {}, seed=seed, style="commercial", look=look, tilt_deg=tilt)
    grid = np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32)
    squares_to_photo = cv2.getPerspectiveTransform(grid, shot.corners.astype(np.float32))
    faces = RaisedFaces(squares_to_photo, shot.frame.shape[:2], 15, 15, np.eye(3))
    assert shot.raised is not None
    truth = faces._to_top(shot.raised.reshape(-1, 2)) - faces.flat           # squares, top-down
    assert np.abs(faces.offsets(look.height) - truth).max() < 0.03
    assert np.abs(truth).max() > 0.05                                         # there was a lean to find
