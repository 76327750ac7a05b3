"""Labelled dice and chips read from photos someone has answered: ``tabletop bench dice --photos
DIR`` and ``tabletop bench chips --photos DIR``.

The solid-scene rows of ``bench dice`` and ``bench chips`` measure the readers on photos of the
project's own renderers; these measure them on anyone's photos (a renderer the project did not
write, real photos of a printed set), each with an answer file of the same name ending in
``.json`` beside it (photos ``.jpg``, ``.jpeg`` or ``.png``), counted the same way.

Labelled dice (the labels ``tabletop print-dice`` prints, stuck on the dice)::

    {"language": "en",
     "dice": [{"top": "E", "state": "seen"}, {"top": "A", "state": "hidden"}, ...]}

one entry a die of the language's set, in the set's order (the die numbers on the printed sheet):
``top`` the face on top, ``state`` whether a person sees its label (``seen``), sees none of it (a
hand or another die over it: ``hidden``, where the reader must return no face) or part of it
(``partly``: no face or the right one). Counted: faces right per die seen (a refusal counts
wrong; target >= 99 %), faces returned for hidden dice (target 0), wrong faces for partly hidden
ones, whole rolls right, ms a read.

Plain letter dice (``bench dice --photos DIR --plain``: a family's own dice, a Boggle-style tray),
each die's top face as the reader names them (upper case, ``QU``, ``*`` a wild face; a bare ``Q``
counts as ``QU``) and its box in the photo's pixels::

    {"dice": [{"face": "E", "box": [412, 300, 470, 361]}, ...]}

counted as ``bench dice`` counts the Boggle Boards photos (:mod:`tabletop.benchmarks.plaindice`):
dice found, finds that are dice, faces right (target >= 98 %), faces left ``?``, faces right
when read on the answer's boxes, ms a read (and at 1.9 and 3.1 MP).

Chips on the printed picture board (``tabletop print-board sequence-letters``)::

    {"board": "sequence-letters", "rows": ["r.........", "..b.......", ...]}

``rows`` as DESIGN.md's grid: ``.`` no chip, a chip's colour code (``r``, ``b``, ``g``), ``?`` a
square a person cannot make out (not counted). Counted: squares right (target >= 99.9 %), chips
right, photos whose board was not found (every square counted wrong), ms a read.

Photos without an answer file are listed and skipped; a malformed answer is an
:class:`~tabletop.benchmarks.answered.AnswerError` naming the file.

    >>> from pathlib import Path
    >>> measure_dice_photos(Path("/nonexistent"))["photos"], measure_chip_photos(Path("/nonexistent"))["photos"]
    (0, 0)
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any, Sequence

from tabletop.benchmarks.answered import AnswerError, answer_object, answered
from tabletop.benchmarks.stats import ms_since

DIE_STATES = ("seen", "hidden", "partly")
#: a chips answer's square a person cannot make out: not counted
UNKNOWN = "?"


def load_dice_answer(path: Path) -> dict[str, Any]:
    """A labelled-dice answer file checked against its language's set: one entry a die, each a
    ``top`` that die has and a ``state`` of :data:`DIE_STATES`."""
    from rules.letter_dice_sets import DICE

    answer = answer_object(path)
    language = str(answer.get("language", "en"))
    if language not in DICE:
        raise AnswerError(f"{path.name}: 'language' must be one of {', '.join(DICE)}, not {language!r}")
    dice, the_set = answer.get("dice"), DICE[language]
    if isinstance(dice, list) and dice and all(isinstance(d, dict) and "box" in d for d in dice):
        raise AnswerError(f"{path.name}: an answer of plain dice (faces and boxes): measure it with --plain")
    if not (isinstance(dice, list) and len(dice) == len(the_set) and all(isinstance(d, dict) for d in dice)):
        raise AnswerError(f"{path.name}: 'dice' must list the {len(the_set)} dice of the {language} set, in its order, "
                          "each {\"top\": FACE, \"state\": \"seen\"|\"hidden\"|\"partly\"}")
    for number, (die, faces) in enumerate(zip(dice, the_set), start=1):
        if die.get("state") not in DIE_STATES:
            raise AnswerError(f"{path.name}: die {number}'s 'state' must be one of {', '.join(DIE_STATES)}")
        if die.get("top") not in faces:
            raise AnswerError(f"{path.name}: die {number} has no face {die.get('top')!r} (its faces: {' '.join(faces)})")
    return {"language": language, "tops": [d["top"] for d in dice], "states": [d["state"] for d in dice]}


def load_plain_dice_answer(path: Path) -> Any:
    """A plain-dice answer file checked (each die a face the reader knows and a box of four
    pixel bounds, left < right, top < bottom), as the photo's labelled dice
    (:class:`vision.synth.realdice.LabelledPhoto`)."""
    from vision.plaindice import FACES
    from vision.synth.realdice import LabelledDie, LabelledPhoto

    answer = answer_object(path)
    dice = answer.get("dice")
    if not (isinstance(dice, list) and dice and all(isinstance(d, dict) for d in dice)):
        raise AnswerError(f"{path.name}: 'dice' must list the dice seen, each {{\"face\": FACE, \"box\": [x0, y0, x1, y1]}}")
    labelled = []
    for number, die in enumerate(dice, start=1):
        face, box = die.get("face"), die.get("box")
        if face not in FACES and face != "Q":
            raise AnswerError(f"{path.name}: die {number}'s face {face!r} is none the reader knows ({' '.join(FACES)})")
        if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box)
                and box[0] < box[2] and box[1] < box[3]):
            raise AnswerError(f"{path.name}: die {number}'s 'box' must be [x0, y0, x1, y1], left < right, top < bottom")
        labelled.append(LabelledDie(str(face), (int(box[0]), int(box[1]), int(box[2]), int(box[3]))))
    return LabelledPhoto(path.with_suffix("").name, tuple(labelled))


def load_chips_answer(path: Path) -> dict[str, Any]:
    """A chips answer file checked against its board: rows of the board's size, each square
    ``.``, a chip's code or ``?``."""
    from tabletop.errors import UserError
    from tabletop.resources import load_board
    from vision.chips import CHIP_COLOURS

    answer = answer_object(path)
    name = str(answer.get("board", "sequence-letters"))
    try:
        board = load_board(name, required=("letters", "colors"))
    except UserError as error:
        raise AnswerError(f"{path.name}: {error}") from None
    rows, codes = answer.get("rows"), {".", UNKNOWN, *CHIP_COLOURS}
    if not (isinstance(rows, list) and len(rows) == board.rows and
            all(isinstance(r, str) and len(r) == board.cols for r in rows)):
        raise AnswerError(f"{path.name}: 'rows' must be {board.rows} strings of {board.cols} squares ({name})")
    if bad := sorted({ch for r in rows for ch in r} - codes):
        raise AnswerError(f"{path.name}: 'rows' may hold only {' '.join(sorted(codes))}, not {' '.join(bad)}")
    return {"board": board, "rows": rows}


def count_dice(row: dict[str, Any], faces: Sequence[str | None], tops: Sequence[str], states: Sequence[str]) -> bool:
    """Add one roll's dice to ``row``'s counts (``dice_seen``, ``right``, ``hidden``,
    ``faces_for_hidden``, ``partly``, ``wrong_for_partly``); whether the whole roll was read right.

    >>> row = dict.fromkeys(("dice_seen", "right", "hidden", "faces_for_hidden", "partly", "wrong_for_partly"), 0)
    >>> count_dice(row, ["A", None, "B"], ["A", "C", "D"], ["seen", "hidden", "partly"]), row["wrong_for_partly"]
    (False, 1)
    """
    whole = True
    for face, top, state in zip(faces, tops, states):
        if state == "seen":
            row["dice_seen"] += 1
            row["right"] += face == top
            whole &= face == top
        elif state == "hidden":
            row["hidden"] += 1
            row["faces_for_hidden"] += face is not None
            whole &= face is None
        else:
            row["partly"] += 1
            row["wrong_for_partly"] += face is not None and face != top
            whole &= face is None or face == top
    return whole


def count_chips(row: dict[str, Any], wanted: Sequence[str], read: Sequence[str]) -> None:
    """Add one board's squares to ``row``'s counts (``squares``, ``right``, ``chips``,
    ``chips_right``, ``confusions``), the squares answered ``?`` left out.

    >>> row = {"squares": 0, "right": 0, "chips": 0, "chips_right": 0, "confusions": {}}
    >>> count_chips(row, ["r.?"], ["rb."]); row["squares"], row["right"], row["confusions"]
    (2, 1, {'.->b': 1})
    """
    for want_row, got_row in zip(wanted, read):
        for want, got in zip(want_row, got_row):
            if want == UNKNOWN:
                continue
            row["squares"] += 1
            row["right"] += want == got
            row["chips"] += want != "."
            row["chips_right"] += want != "." and want == got
            if want != got:
                row["confusions"][f"{want}->{got}"] = row["confusions"].get(f"{want}->{got}", 0) + 1


def _image(photo: Path) -> Any:
    import cv2

    return cv2.imread(str(photo))


def measure_dice_photos(folder: Path) -> dict[str, Any]:
    """Read every answered photo of labelled dice in ``folder`` and count as the solid scenes do."""
    import cv2

    from rules.letter_dice_sets import DICE
    from vision.dice import DiceReader
    from vision.errors import VisionError

    cv2.setNumThreads(1)
    pairs, unanswered = answered(folder)
    readers: dict[str, DiceReader] = {}
    total = dict.fromkeys(("dice_seen", "right", "hidden", "faces_for_hidden", "partly", "wrong_for_partly",
                           "rolls_right", "not_read"), 0)
    per_photo, ms = [], []
    for photo, answer_path in pairs:
        answer = load_dice_answer(answer_path)
        reader = readers.setdefault(answer["language"], DiceReader(DICE[answer["language"]]))
        image = _image(photo)
        start = time.perf_counter()
        try:
            if image is None:
                raise VisionError(f"{photo.name} is not an image OpenCV can read")
            faces: Sequence[str | None] = reader.look(image).faces
        except VisionError:
            faces, total["not_read"] = [None] * len(answer["tops"]), total["not_read"] + 1
        ms.append(ms_since(start))
        mine = dict.fromkeys(("dice_seen", "right", "hidden", "faces_for_hidden", "partly", "wrong_for_partly"), 0)
        whole = count_dice(mine, faces, answer["tops"], answer["states"])
        for key, value in mine.items():
            total[key] += value
        total["rolls_right"] += whole
        per_photo.append({"photo": photo.name, **mine, "whole": whole, "ms": ms[-1],
                          "errors": [f"die {n + 1}: {top}->{face or 'none'}" for n, (face, top, state)
                                     in enumerate(zip(faces, answer["tops"], answer["states"]))
                                     if state == "seen" and face != top or state == "hidden" and face is not None]})
    return {"folder": str(folder), "photos": len(per_photo), "unanswered": unanswered, **total,
            "per_die": total["right"] / max(1, total["dice_seen"]),
            "ms_per_read": statistics.median(ms) if ms else None, "per_photo": per_photo}


def measure_plain_dice_photos(folder: Path) -> dict[str, Any]:
    """Read every answered photo of plain dice in ``folder``, counted as ``bench dice`` counts the
    Boggle Boards photos (:func:`tabletop.benchmarks.plaindice.measure_photo`)."""
    import cv2

    from tabletop.benchmarks.plaindice import measure_photo, summary
    from vision.plaindice import PlainDiceReader

    cv2.setNumThreads(1)
    pairs, unanswered = answered(folder)
    reader, rows, unreadable = PlainDiceReader(), [], []
    for photo, answer_path in pairs:
        labelled = load_plain_dice_answer(answer_path)
        image = _image(photo)
        if image is None:
            unreadable.append(photo.name)
            continue
        rows.append({**measure_photo(reader, labelled, image), "photo": photo.name})
    return {"folder": str(folder), "photos": len(rows), "unanswered": unanswered, "unreadable": unreadable,
            "summary": summary(rows) if rows else None, "per_photo": rows}


def measure_chip_photos(folder: Path) -> dict[str, Any]:
    """Read every answered photo of the chips board in ``folder`` and count as the solid scenes do."""
    import cv2

    from vision.chips import ChipReader
    from vision.errors import VisionError

    cv2.setNumThreads(1)
    pairs, unanswered = answered(folder)
    readers: dict[str, ChipReader] = {}
    total: dict[str, Any] = {"squares": 0, "right": 0, "chips": 0, "chips_right": 0, "confusions": {},
                             "board_not_found": 0}
    per_photo, ms = [], []
    for photo, answer_path in pairs:
        answer = load_chips_answer(answer_path)
        board = answer["board"]
        reader = readers.setdefault(board.name, ChipReader(board))
        image = _image(photo)
        start = time.perf_counter()
        try:
            if image is None:
                raise VisionError(f"{photo.name} is not an image OpenCV can read")
            rows: Sequence[str] = reader.read(image).rows
            found = True
        except VisionError:
            rows, found = (UNKNOWN * board.cols,) * board.rows, False
        ms.append(ms_since(start))
        mine: dict[str, Any] = {"squares": 0, "right": 0, "chips": 0, "chips_right": 0, "confusions": {}}
        count_chips(mine, answer["rows"], rows)
        for key in ("squares", "right", "chips", "chips_right"):
            total[key] += mine[key]
        for key, n in mine["confusions"].items():
            total["confusions"][key] = total["confusions"].get(key, 0) + n
        total["board_not_found"] += not found
        per_photo.append({"photo": photo.name, "found": found, **mine, "ms": ms[-1]})
    return {"folder": str(folder), "photos": len(per_photo), "unanswered": unanswered, **total,
            "per_square": total["right"] / max(1, total["squares"]),
            "ms_per_read": statistics.median(ms) if ms else None, "per_photo": per_photo}


def print_dice_photo_lines(m: dict[str, Any], per_die: float) -> None:
    """The lines of ``bench dice --photos``."""
    if _opening("labelled dice", m):
        print(f"    faces right per die seen ({m['dice_seen']} dice)   {m['per_die']:>10.4f}   target >= {per_die}")
        print(f"    faces returned for hidden dice ({m['hidden']})   {m['faces_for_hidden']:>6}       target 0")
        print(f"    wrong faces for partly hidden dice      {m['wrong_for_partly']:>6} of {m['partly']}")
        print(f"    whole rolls right                       {m['rolls_right']:>6} of {m['photos']}   "
              f"(not read: {m['not_read']}); ms per read (median) {m['ms_per_read']:.1f}")
        for p in m["per_photo"]:
            print(f"    {p['photo']:<40} {p['right']:>3} of {p['dice_seen']:<3} seen right; "
                  f"{p['faces_for_hidden']} faces for {p['hidden']} hidden; {p['ms']:.0f} ms"
                  + (f"; {', '.join(p['errors'])}" if p["errors"] else ""))
    _closing(m)


def print_plain_dice_photo_lines(m: dict[str, Any], right: float) -> None:
    """The lines of ``bench dice --photos DIR --plain``."""
    if _opening("plain dice", m):
        s = m["summary"]
        print(f"    dice {s['dice']}: found {s['recall']:.4f}, finds that are dice {s['precision']:.4f}, "
              f"faces right {s['faces_right']:.4f} (target >= {right}), left ? {s['faces_unsure']:.4f}, "
              f"right on the answer's boxes {s['faces_right_on_boxes']:.4f}")
        print(f"    ms a read (median): as taken {s['ms_per_read']:.1f}, at 1.9 MP {s['ms_per_read_2mp']:.1f} "
              f"(p95 {s['ms_per_read_2mp_p95']:.1f}), at 3.1 MP {s['ms_per_read_3mp']:.1f} (p95 {s['ms_per_read_3mp_p95']:.1f})")
        for r in m["per_photo"]:
            print(f"    {r['photo']:<40} {r['right']:>3} of {r['dice']:<3} right, {r['found']} found, {r['unsure']} ?; "
                  f"{r['ms']:.0f} ms" + (f"; {' '.join(r['errors'])}" if r["errors"] else ""))
    _closing(m)


def print_chip_photo_lines(m: dict[str, Any], per_square: float) -> None:
    """The lines of ``bench chips --photos``."""
    if _opening("chips", m):
        print(f"    squares right ({m['squares']} squares)   {m['per_square']:>10.4f}   target >= {per_square}")
        print(f"    chips right                   {m['chips_right']:>6} of {m['chips']}   "
              f"(board not found: {m['board_not_found']}); ms per read (median) {m['ms_per_read']:.1f}")
        for p in m["per_photo"]:
            print(f"    {p['photo']:<40} {p['right']:>4} of {p['squares']:<4} squares right"
                  + ("" if p["found"] else " (board not found)") + f"; {p['ms']:.0f} ms"
                  + (f"; {p['confusions']}" if p["confusions"] else ""))
    _closing(m)


def _opening(what: str, m: dict[str, Any]) -> bool:
    """A ``--photos`` report's first line; whether there are photos to report on."""
    print(f"  {what}, answered photos in {m['folder']} ({m['photos']} photos)")
    if not m["photos"]:
        print("    no answered photos there (each photo needs an answer file NAME.json beside it)")
    return bool(m["photos"])


def _closing(m: dict[str, Any]) -> None:
    """A ``--photos`` report's last lines: the photos left out, and why."""
    for what, names in (("without an answer file (skipped)", m["unanswered"]),
                        ("not images OpenCV can read", m.get("unreadable", []))):
        if names:
            print(f"    {what}: {', '.join(names)}")
