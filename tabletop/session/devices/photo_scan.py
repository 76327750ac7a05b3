"""A phone as the camera: a photo of the board, uploaded from the host console or a seat page,
is read and the new word it shows is offered to the host for confirmation (camera scoring for a
family with no camera over the table).

The photo is compared with the board as the journal holds it; each new word becomes a pending
camera read (:meth:`tabletop.session.core.Session.camera_read`, always asking the host), with
the writing player's hand used and taught as for the camera. Anything that cannot be used says
why in a sentence (:class:`ScanRefused`) and changes nothing.

>>> ScanRefused("That file is not a photo.").args[0]
'That file is not a photo.'
"""

from __future__ import annotations

import threading
from typing import Any

from tabletop.session.camera_reads import WRITER_SECONDS, CameraMove
from tabletop.session.core import Session
from tabletop.session.devices.hand_memories import HandMemories
from tabletop.session.refusals import EntryRefused

#: the largest photo accepted (a phone's full-resolution JPEG is 2-8 MB)
MAX_PHOTO_BYTES = 15 * 1024 * 1024
#: photos are shrunk to at most this many pixels on their longer side before reading
READ_SIDE = 2000


def reads_photos(session: Session) -> bool:
    """Whether ``session``'s game is read from a phone's photo (its kind of piece has a scanner)."""
    from tabletop import pieces

    kind = pieces.of_game(session.setup.game)
    return kind is not None and kind.scanner is not None and session.board is not None


class ScanRefused(EntryRefused):
    """The photo cannot be used (not an image, too large, no board, nothing new); nothing changed."""


def photo_image(session: Session, data: bytes) -> Any:
    """The uploaded photo ``data`` as a BGR image at most :data:`READ_SIDE` pixels on its longer
    side; :class:`ScanRefused` saying why when it cannot be (too large, not an image, a game not
    read from photos)."""
    import cv2

    from vision import imagegate

    if len(data) > MAX_PHOTO_BYTES:
        raise ScanRefused(f"The photo is too large ({len(data) // (1024 * 1024)} MB): at most "
                          f"{MAX_PHOTO_BYTES // (1024 * 1024)} MB.")
    if not reads_photos(session):
        raise ScanRefused(f"{session.setup.game} is not read from a phone's photo yet: only the "
                          "handwritten boards and the letter tiles are.")
    try:                          # the one image gate: pixels from the header first, decodes bounded
        image = imagegate.decode(data, "photo", max_side=READ_SIDE, max_bytes=MAX_PHOTO_BYTES)
    except imagegate.NotAnImage:
        raise ScanRefused("That file is not a photo the table can read (send a JPEG or PNG of the board).") from None
    except imagegate.ImageRefused as refused:            # too many pixels, or every decoder busy
        raise ScanRefused(str(refused)) from None
    if min(image.shape[:2]) < 32:
        raise ScanRefused("That file is not a photo the table can read (send a JPEG or PNG of the board).")
    side = max(image.shape[:2])
    if side > READ_SIDE:
        image = cv2.resize(image, None, fx=READ_SIDE / side, fy=READ_SIDE / side, interpolation=cv2.INTER_AREA)
    return image


class PhotoScanner:
    """Reads uploaded photos of ``session``'s board (one reader, built on the first photo)."""

    def __init__(self, session: Session):
        self.session = session
        self._made: tuple[Any, HandMemories] | None = None
        self._lock = threading.Lock()

    def _reader_and_hands(self) -> tuple[Any, HandMemories]:
        """The board's reader and the players' hand memories, made for the first photo."""
        if self._made is None:
            from tabletop.lexicons import reading_index
            from vision.reader import BoardReader

            board = self.session.board
            assert board is not None  # reads_photos() was checked first
            reader = BoardReader(board, lexicon=reading_index(self.session.lexicon, self.session.setup.language),
                                 language=self.session.setup.language)
            self._made = (reader, HandMemories(self.session.hands, reader.model))
        return self._made

    def scan(self, data: bytes, source: str = "scan") -> dict[str, Any]:
        """Read the photo in ``data`` (JPEG, PNG, ...) and offer its new words to the host.
        Returns ``{"status": "offered", "message": ..., "words": [...]}``; raises :class:`ScanRefused`."""
        image = photo_image(self.session, data)
        from vision.errors import VisionError
        from vision.reader import known_letters
        from vision.tracker import Tracker

        with self._lock:
            reader, hands = self._reader_and_hands()
            writer = self.session.table.writer(self.session.game)
            if writer is None:
                raise ScanRefused("Nobody is writing on the board now, so there is no word to offer.")
            tracker = Tracker(reader, baseline=self.session.game.state().get("grid"))
            try:
                read = reader.read(image, hand=hands.of(writer), known=known_letters(self.session.game.state().get("grid")))
            except VisionError as error:
                raise ScanRefused(f"The board is not in the photo ({error}): take it again with the whole "
                                  "board and its four corner markers in view.") from None
            if read.unreadable:
                raise ScanRefused(f"The photo cannot be read: {read.unreadable}.")
            if read.occluded:
                raise ScanRefused("Something covers part of the board in the photo (a hand?): take it again.")
            detections = tracker.commit(read, self.session.clock.now())
            if not detections:
                raise ScanRefused("No new word in the photo: the board reads as the table already has it.")
            words, notes = [], []
            for detection in detections:
                event, note = self._best_reading(detection, read, writer)
                others = tuple(r for r in detection.readings(read) if r != event["text"])
                self.session.camera_move(CameraMove(event, event.get("t"), sure=False, lesson=detection.lesson(),
                                                    readings=(event["text"], *others)[:3]), source)
                words.append({key: event[key] for key in ("text", "row", "col", "dir", "confidence")})
                if note:
                    notes.append(note)
        board = self.session.board
        assert board is not None
        from rules.squares import Square

        shown = ", ".join(f"{w['text']} ({board.label(Square(w['row'], w['col']))} {w['dir']})" for w in words)
        return {"status": "offered", "words": words,
                "message": " ".join([f"Read {shown} for {writer}: {writer} confirms it on their own page (the host, "
                                      f"if it is not answered within {WRITER_SECONDS:g} s).", *notes])}

    def _best_reading(self, detection: Any, read: Any, writer: str) -> tuple[dict[str, Any], str]:
        """The reading of ``detection`` to offer: its own if the rules would take it, else the next-best
        reading of the same squares that they would take (saying why the first was refused); with
        none, its own, and why the rules would refuse it (the host decides)."""
        from rules import errors

        event = detection.to_event()
        readings = list(detection.readings(read, most=6))
        game = self.session.game
        first_refusal = ""
        for text in readings:
            try:
                game.trial({**event, "text": text, "player": writer, "t": self.session.clock.now()})
            except errors.RulesError as refusal:
                first_refusal = first_refusal or str(refusal)
                continue
            if text == event["text"]:
                return event, ""
            return {**event, "text": text}, (f"The rules refuse {event['text']} ({first_refusal}); the next-best "
                                             f"reading, {text}, is offered instead.")
        return event, f"The rules would refuse {event['text']}: {first_refusal} The host decides."
