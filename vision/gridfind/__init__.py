"""Finding a boxed board's grid in a photo without markers and without corners typed by hand.

A boxed crossword board has no markers, but its grid is plain to see: two families of evenly
spaced lines (``rows + 1`` and ``cols + 1`` of them) and, on most boards, a pattern of coloured
premium squares. :func:`find_grid` looks for it in five steps, on the photo shrunk to
:data:`WORK_SIDE` pixels:

1. **Candidate planes.** The photo's line segments (OpenCV's LSD, on a contrast-evened copy)
   are grouped by their strongest vanishing points (RANSAC over pairs of segments); two points
   give a homography under which both families of lines are parallel and axis-aligned (the
   board's plane seen from straight above, up to a stretch). The two strongest families come
   first, then the board's outline where it stands out from the table as a four-sided shape,
   then a third family with either of the first two (stripes on the table can outshine a grid).
2. **The lattice.** Each candidate plane is warped top-down; the columns' and rows' edge
   profiles (the median along each: a grid line runs the whole way, labels do not) are folded
   over every spacing; at the best spacing, and two and three times it, the ``cols + 1``
   (``rows + 1``) consecutive lines that stand out most from the middles between them, and
   the runner-up windows, make candidate grids.
3. **Refinement.** Each candidate grid is warped at :data:`CELL` pixels a square and checked
   once; the likeliest few have each grid line found again side by side (at the middle of its two
   edges), fitted straight, and
   the lines' crossings fit a homography that takes out the first guess's small errors.
4. **Verification.** A grid is taken (:attr:`GridFound.convincing`) when it stops at its outer
   lines and its lines stand out from the squares' middles beside them along their length,
   and, where the board file has a premium layout, the squares' colours are grouped the way the
   layout groups them (any palette, best of four turns, tiles on some squares tolerated); a
   grid short of sure needs each of its four outer lines seen along a third of its length
   (:data:`~vision.gridfind.found.OUTER_SEEN`: a grid a square or two off has one on the
   board's frame). With none convincing, the likeliest grids are moved by up to :data:`SHIFT` squares each way and
   checked again; still none (or the one taken refused by step 5's checks), each plane is
   searched again in windows where lines run both ways (:data:`WINDOWS`: a small board on a
   busy table). The best is kept; a photo where no candidate is convincing, or where the
   grid's corners leave the photo, is refused (:class:`GridNotFound`), never guessed.
5. **The lens.** A grid whose lines straighten through a lens's radial distortion
   (:func:`lens_of`, :class:`vision.lens.Lens`) and whose outer lines' ends then fit better is
   refined again through that lens; its corners are reported where they are seen
   (:attr:`GridFound.lens`, :attr:`GridFound.straight`). A grid found that its lines do not
   bear out everywhere is refused: one quarter's lines found off where the grid puts them
   (:func:`quarter_off`: a corner pulled off), or the outer lines bent in or out at their ends
   (:func:`bent_in`: a lens the grid could not follow; an outer line found outside along its
   middle lies beside a frame or a margin's line, and the line next to it inside is measured).

The package, one idea a module: :mod:`.planes` (step 1), :mod:`.lattice` (step 2), :mod:`.check`
(steps 3-4, with :mod:`.lines`, the grid lines found square by square, and :mod:`.pattern`, the
premium squares' colours), :mod:`.search` (the first search, the shifts, the windows),
:mod:`.lensfit` (step 5's lens), :mod:`.sureness` (step 5's checks), :mod:`.found` (what a
grid found is, and when it is taken), :mod:`.geometry` (the canonical top-down image, corners)
and :mod:`.find` (:func:`find_grid`).

>>> import numpy as np
>>> try:
...     find_grid(np.full((480, 640, 3), 200, np.uint8), 15, 15)
... except GridNotFound as e:
...     print(e)
board not found: no grid of 15x15 squares was found in the photo (give its corners with --corners)
"""

from vision.gridfind.check import SQUARENESS
from vision.gridfind.found import GridFound, GridNotFound
from vision.gridfind.geometry import CELL, PAD, corner_error, squareness
from vision.gridfind.find import OUTSIDE, WORK_SIDE, find_grid
from vision.gridfind.lensfit import lens_of
from vision.gridfind.sureness import BENT_IN, QUARTER_OFF, bent_in, quarter_off

__all__ = ["find_grid", "GridFound", "GridNotFound", "bent_in", "corner_error", "lens_of", "quarter_off", "squareness",
           "BENT_IN", "CELL", "OUTSIDE", "PAD", "QUARTER_OFF", "SQUARENESS", "WORK_SIDE"]
