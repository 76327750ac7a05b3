"""Never invent, measured: boards far from the camera (about 9-20 pixels a square), tilted
15-40 degrees, blurred and JPEG-compressed (:func:`tabletop.benchmarks.scenes.far_scene`), with
six words by held-out writers. The reader must either judge a board readable and write no letter
on its empty squares (and read its words), or judge it unreadable and say why
(:mod:`vision.readability`): the table then writes nothing from it. Part of ``tabletop bench vision``."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import numpy as np

from tabletop.benchmarks.scenes import far_scene
from tabletop.benchmarks.stats import report_line

SCENES = 60  #: far scenes, on the three boards in turn


def _reason_kind(reason: str) -> str:
    """A short name for a refusal's reason (its advice)."""
    for key, name in (("closer", "too small"), ("blurred", "too blurred"), ("dark", "too dark"), ("glare", "glare"),
                      ("not in the picture", "not in view")):
        if key in reason:
            return name
    return "other"


def measure_far(boards: list, data: Any, words: list[str], index: Any, n_scenes: int, rng: np.random.Generator,
                log: Callable[..., None]) -> dict[str, Any]:
    """Far scenes read in full: readable or not, letters on empty squares, words right."""
    from vision.cells import INK
    from vision.reader import BoardReader

    readers = {b.name: BoardReader(b, index) for b in boards}
    readable = not_found = invented = invented_refused = words_total = words_right = 0
    refused_with_letters = readable_with_letters = 0
    reasons: Counter[str] = Counter()
    for k in range(n_scenes):
        board = boards[k % len(boards)]
        frame, placed, _camera = far_scene(board, data, words, rng)
        try:
            read = readers[board.name].read(frame)
        except Exception as error:  # noqa: BLE001 - a board not found writes nothing: counted apart
            not_found += 1
            log(f"  far scene {k}: {error}")
            continue
        truth = np.zeros(read.states.shape, bool)
        for _word, squares in placed:
            for sq in squares:
                truth[sq] = True
        false = int(((read.states == INK) & ~truth).sum())
        if read.unreadable:
            reasons[_reason_kind(read.unreadable)] += 1
            invented_refused += false
            refused_with_letters += int(false > 0)
            continue
        readable += 1
        invented += false
        readable_with_letters += int(false > 0)
        found = {w.squares: w for w in read.words}
        for word, squares in placed:
            words_total += 1
            words_right += int(squares in found and found[squares].text == word)
    return {"scenes": n_scenes, "readable": readable, "not_found": not_found, "refused": dict(reasons),
            "letters_on_empty_readable": invented, "letters_on_empty_refused": invented_refused,
            "refused_would_have_invented": refused_with_letters, "readable_with_letters": readable_with_letters,
            "words": words_total, "words_right": words_right / max(1, words_total)}


def print_lines(result: dict[str, Any]) -> None:
    """The benchmark's lines for :func:`measure_far`' result."""
    n = result["scenes"]
    report_line(f"far boards (~9-20 px a square, tilted, soft; {n} scenes) judged readable", f"{result['readable']} of {n}")
    report_line("  letters written on empty squares of readable ones", result["letters_on_empty_readable"], "0", fmt="{}")
    report_line(f"  words right on the readable ones ({result['words']})", result["words_right"])
    refused = ", ".join(f"{kind} {count}" for kind, count in sorted(result["refused"].items())) or "none"
    report_line("  refused with a reason, not read", f"{sum(result['refused'].values())} ({refused})")
    report_line("  of them, boards whose letters would have been invented",
                f"{result['refused_would_have_invented']} ({result['letters_on_empty_refused']} letters)")
    report_line("  board not found (nothing written)", result["not_found"], fmt="{}")
