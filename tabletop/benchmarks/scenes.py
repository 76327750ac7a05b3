"""The handwritten scenes more than one camera benchmark reads: a 15x15 test board, and words
written by held-out writers on a board and read in full (``bench vision``'s word accuracy, the
clue-card answers of :mod:`tabletop.benchmarks.answers`, ``scripts/fit_confirm.py``,
``scripts/fit_accept.py``), and boards far from the camera (:func:`far_scene`: the far boards of
:mod:`tabletop.benchmarks.farboards`, ``scripts/fit_readable.py``).

Like :mod:`tabletop.benchmarks.stats` it imports no other benchmark module
(``tests/test_import_graph.py``).

>>> board = board_15()
>>> board.rows, board.cols, board.name
(15, 15, 'test 15')
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from rules.board import Board, parse_board
from rules.squares import Square

COMMON_WORD_FREQUENCY = 1e-6  #: "everyday" words occur at least this often in English text

#: ``(right, right letter by letter, words, words flagged for confirmation, accepted and right)``
WordCounts = tuple[int, int, int, int, int]


def board_15() -> Board:
    """A 15x15 test board (values and zones like a classic word board) for the timing budget."""
    values = ["".join(str(1 + (r * 7 + c * 3) % 3 if (r + c) % 4 else 2) for c in range(15)) for r in range(15)]
    zones = ["".join("ABC"[min(2, max(abs(r - 7), abs(c - 7)) // 3)] for c in range(15)) for r in range(15)]
    return parse_board(f"name = 'test 15'\nrows = 15\ncols = 15\n[layers]\nvalues = {values}\nzones = {zones}".replace("'", '"'))


def word_scenes(board: Board, data: Any, words: list[str], n_scenes: int, rng: np.random.Generator, lexicon_index: Any,
                log: Callable[..., None], outcomes: list[tuple[float, bool]] | None = None,
                each: Callable[..., None] | None = None, refused: list[int] | None = None,
                language: str = "en", marker: Any = None, letters_read: list[int] | None = None) -> WordCounts:
    """Scenes of ``words`` written by ``data``'s writers (a word a row, every other row), read in
    full by a :class:`vision.reader.BoardReader` with ``lexicon_index``: the :data:`WordCounts`.
    Each word's ``(confidence, right)`` goes into ``outcomes``, and ``each(reader, read, word,
    squares)`` is called for every word read. With ``refused`` (a one-item list), the words of a
    read the reader judged unreadable (:attr:`vision.reader.BoardRead.unreadable`: the table
    writes nothing from it) are added to ``refused[0]`` and left out of everything else. With
    ``letters_read`` (a two-item list), each written square of a read taken adds one to
    ``letters_read[1]``, and to ``letters_read[0]`` when its letter as the board was read (the
    grid after the dictionary: :attr:`vision.reader.BoardRead.rows`, what ``score --json``
    prints) is the one written.

    ``data`` holds recorded pen strokes (:class:`vision.synth.realdata.StrokeSet`) or letter
    images (:class:`vision.synth.cyrillic.LetterImages`, written by
    :class:`~vision.synth.cyrillic.ImageQueue`, re-drawn at the width of ``marker``, a
    :class:`~vision.synth.handwriting.Hand`, unless it is None); ``language`` picks the reader's
    letter network.

    A word is asked about when the run read on its squares needs confirmation; a word not read
    as one run (a square read empty or joined to another) when any word read across its squares
    does (:func:`asked_across`: the table asks about that run, the writer sees it), else it is
    taken and wrong."""
    from vision.reader import BoardReader
    from vision.synth.letterdata import StrokeQueue
    from vision.synth.scene import make_scene

    reader = BoardReader(board, lexicon_index, language=language)
    samples_of = getattr(data, "strokes", None)
    if samples_of is None:
        from vision.synth.cyrillic import ImageQueue

        samples_of = data.images

        def queue(samples: list[Any]) -> Any:
            return ImageQueue(samples, marker)
    else:
        queue = StrokeQueue
    right = raw_right = total = confirm = accepted_right = 0
    by_letter_writer: dict[str, dict[str, list[int]]] = {}
    for i, (w, letter) in enumerate(zip(data.writer, data.labels)):
        by_letter_writer.setdefault(str(w), {}).setdefault(str(letter), []).append(i)
    writers = list(by_letter_writer)
    for k in range(n_scenes):
        letters: dict[Square, str] = {}
        samples: list[Any] = []
        placed: list[tuple[str, tuple[Square, ...]]] = []
        for row in range(1, board.rows - 1, 2):
            word = words[int(rng.integers(len(words)))]
            col = int(rng.integers(0, board.cols - len(word) + 1))
            writer = by_letter_writer[writers[int(rng.integers(len(writers)))]]
            squares = tuple(Square(row, col + j) for j in range(len(word)))
            for sq, ch in zip(squares, word):
                pool = writer.get(ch) or np.nonzero(data.labels == ch)[0].tolist()
                letters[sq] = ch
                samples.append(samples_of[pool[int(rng.integers(len(pool)))]])
            placed.append((word, squares))
        scene = make_scene(board, letters, seed=int(rng.integers(1 << 30)), ink_renderer=queue(samples), ink=None)
        try:
            read = reader.read(scene.frame)
        except Exception as error:  # noqa: BLE001
            log(f"  word scene {k}: {error}")
            total += len(placed)
            continue
        if refused is not None and read.unreadable:
            refused[0] += len(placed)
            continue
        found = {w.squares: w for w in read.words}
        for word, squares in placed:
            total += 1
            if letters_read is not None:
                letters_read[0] += sum(read.rows[sq.row][sq.col] == ch for sq, ch in zip(squares, word))
                letters_read[1] += len(word)
            w = found.get(squares)
            right += int(w is not None and w.text == word)
            raw_right += int(w is not None and w.raw == word)
            confirm += int(w.needs_confirmation if w is not None else asked_across(read.words, squares))
            accepted_right += int(w is not None and not w.needs_confirmation and w.text == word)
            if each is not None:
                each(reader, read, word, squares)
            if outcomes is not None:
                outcomes.append((w.confidence if w is not None else 0.0, w is not None and w.text == word))
    return right, raw_right, total, confirm, accepted_right


def asked_across(read_words: list[Any], squares: tuple[Square, ...]) -> bool:
    """Does any of ``read_words`` (:class:`vision.reader.ReadWord`) on a square of ``squares``
    need confirmation? How a written word not read as one run is counted: asked when the table
    asks about a run across it, taken and wrong when it takes every such run (or none is read).

    >>> from types import SimpleNamespace as Run
    >>> written = (Square(1, 0), Square(1, 1), Square(1, 2), Square(1, 3))
    >>> asked_across([Run(squares=written[2:], needs_confirmation=True)], written)
    True
    >>> asked_across([Run(squares=written[2:], needs_confirmation=False)], written), asked_across([], written)
    (False, False)
    """
    mine = set(squares)
    return any(w.needs_confirmation for w in read_words if mine.intersection(w.squares))


def common_draw(words: list[str], n: int, rng: np.random.Generator, language: str = "en") -> list[str] | None:
    """``n`` of ``words`` drawn uniformly from the common ones (at least once per million words
    of ordinary text in ``language``: the vocabulary people write at a game table). None without
    frequency data."""
    from tabletop.lexicons import word_frequencies

    frequency = word_frequencies(language)
    if frequency is None:
        return None
    common = [w for w in words if frequency(w) >= COMMON_WORD_FREQUENCY]
    return [common[i] for i in rng.choice(len(common), n, replace=False)]


#: the far, tilted, soft camera family (issue 25): the board fills this share of the frame's
#: shorter side (about 9-20 pixels a square on a 19x19 board at 1280x720) ...
FAR_FILL = (0.4, 0.8)
#: ... the camera tilted this many degrees, the picture blurred this much (Gaussian sigma, pixels)
FAR_TILT = (15.0, 40.0)
FAR_BLUR = (0.5, 2.0)
#: ... and saved as a JPEG of this quality (a phone's stream)
FAR_JPEG = (55, 90)


def far_scene(board: Board, data: Any, words: list[str], rng: np.random.Generator, n_words: int = 6):
    """A scene of the far camera family: ``n_words`` of ``words`` written across by ``data``'s
    writers (one writer a word, a word every other row), the board small in the frame, tilted,
    blurred, noisy and JPEG-compressed. Returns ``(frame, placed, camera)``: ``placed`` the
    ``(word, squares)`` written, ``camera`` the ``fill``, ``tilt``, ``blur`` and ``jpeg`` drawn.
    """
    import cv2

    from vision.synth.letterdata import StrokeQueue
    from vision.synth.scene import make_scene

    by_writer: dict[str, list[int]] = {}
    for i, w in enumerate(data.writer):
        by_writer.setdefault(str(w), []).append(i)
    writers = sorted(by_writer)
    rows = rng.choice(np.arange(1, board.rows - 1, 2), min(n_words, (board.rows - 1) // 2), replace=False)
    letters: dict[Square, str] = {}
    samples: list[Any] = []
    placed: list[tuple[str, tuple[Square, ...]]] = []
    for row in sorted(int(r) for r in rows):
        word = words[int(rng.integers(len(words)))]
        col = int(rng.integers(0, board.cols - len(word) + 1))
        own = by_writer[writers[int(rng.integers(len(writers)))]]
        squares = tuple(Square(row, col + j) for j in range(len(word)))
        for sq, ch in zip(squares, word):
            pool = [i for i in own if data.labels[i] == ch] or np.nonzero(data.labels == ch)[0].tolist()
            letters[sq] = ch
            samples.append(data.strokes[pool[int(rng.integers(len(pool)))]])
        placed.append((word, squares))
    camera: dict[str, float] = {"fill": float(rng.uniform(*FAR_FILL)), "tilt": float(rng.uniform(*FAR_TILT)),
              "blur": float(rng.uniform(*FAR_BLUR)), "jpeg": float(rng.integers(*FAR_JPEG))}
    frame = make_scene(board, letters, seed=int(rng.integers(1 << 30)), ink_renderer=StrokeQueue(samples), ink=None,
                       fill=camera["fill"], tilt_deg=camera["tilt"], blur=camera["blur"],
                       noise=float(rng.uniform(1.5, 6))).frame
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(camera["jpeg"])])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), placed, camera
