"""``tabletop score PHOTO`` of a handwritten board: the grid as read, the words and their scores
(the ``letters`` kind of piece, :mod:`tabletop.pieces.letters`)."""

from __future__ import annotations

import json
import sys
from typing import Any

from tabletop.errors import UserError


def _other_board(image, game: str) -> str | None:
    """The registered game whose built-in board the photo's markers fit, if not ``game``'s."""
    from tabletop.games import games
    from tabletop.resources import load_board
    from vision.errors import VisionError
    from vision.locate import locate

    for spec in games():
        if spec.game_id == game or spec.board is None or spec.pieces is None:
            continue
        other = load_board(spec.board, required=spec.rules.board_layers)
        markers = None
        if "letters" in spec.rules.board_layers:        # the picture board's closer markers
            from vision.chips import ChipReader
            markers = ChipReader.markers_for(other)
        try:
            locate(image, other.rows, other.cols, marker_corners=markers)
        except VisionError:
            continue
        return spec.game_id
    return None


def score_letters(args: Any, game: Any) -> int:
    """Read the handwritten letters of ``args.photo`` on ``game``'s board (or ``--board``) and print
    the grid, the words and their scores (``--json``: one object)."""
    from rules.scoring import score_board
    from vision.errors import VisionError
    from vision.reader import BoardReader

    from tabletop.files import read_image
    from tabletop.resources import load_board

    if getattr(args, "board", None):
        board = load_board(args.board)
    elif game.board is None:
        raise UserError(f"{args.game} has no board; give --board FILE.toml")
    else:
        board = load_board(game.board)
    image = read_image(args.photo)
    markers = None
    if args.calibration:
        from vision import calibration

        try:
            markers = calibration.marker_corners(calibration.load(args.calibration))
        except (OSError, ValueError, KeyError) as error:
            raise UserError(f"cannot use calibration {args.calibration}: {error}") from None
    from tabletop.lexicons import builtin_lexicon, load_wordlist, reading_index

    lexicon = load_wordlist(args.lexicon) if args.lexicon else builtin_lexicon(args.language)
    from tabletop.lexicons import cache_dir

    from vision.letters import LANGUAGES

    if args.language not in LANGUAGES:
        raise UserError(f"handwriting is read in {', '.join(LANGUAGES)}, not {args.language!r}")
    reader = BoardReader(board, reading_index(lexicon, args.language), marker_corners=markers, cache=cache_dir(),
                         language=args.language)
    try:
        read = reader.read(image)
    except VisionError as error:
        other = None if getattr(args, "board", None) or markers else _other_board(image, args.game)
        if other:
            raise UserError(f"{error}: this looks like the {other} board, not {board.name}; "
                            f"try --game {other}", exit_code=3) from None
        raise UserError(str(error), exit_code=3) from None
    if read.unreadable:
        raise UserError(f"the photo cannot be read: {read.unreadable}", exit_code=3)
    grid = read.grid()
    scores = score_board(board, grid)
    total = sum(s.score for s in scores)
    rows = [row.replace("?", ".") for row in read.rows]
    if args.json:
        confidence = {w.text: w for w in read.words}

        def word_json(s):
            data = s.to_json()
            w = confidence.get(s.word)
            if w is not None:
                data.update(confidence=round(float(w.confidence), 3), confirm=bool(w.needs_confirmation))
            return data

        print(json.dumps({"grid": rows, "words": [word_json(s) for s in scores], "score": total,
                          "confirm": any(confidence[s.word].needs_confirmation for s in scores if s.word in confidence)},
                         ensure_ascii=False))
    else:
        print(f"{board.name}: read by {read.located.method} ({len(read.located.markers_seen)} markers)")
        for r, row in enumerate(read.rows):
            print(f"{r + 1:>3} {' '.join(row)}")
        confidence = {w.text: w for w in read.words}
        for s in scores:
            w = confidence.get(s.word)
            note = f"  confidence {w.confidence:.2f}" + ("  (please confirm)" if w.needs_confirmation else "") if w else ""
            print(f"  {s.explain()}{note}")
        print(f"total {total}")
    if read.occluded:
        names = ", ".join(sq.name for sq in read.occluded[:12]) + (" ..." if len(read.occluded) > 12 else "")
        print(f"warning: {len(read.occluded)} squares covered (hand or object?): {names}", file=sys.stderr)
    return 0
