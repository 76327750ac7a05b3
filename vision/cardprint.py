"""Printable Sequence Letters cards (``tabletop print-cards sequence-letters``): the whole deck of
:mod:`rules.sequence_cards`, 50x70 mm cards, twelve to an A4 page: each letter card in its
letter's colour with the letter and its two pictures, the X and Z cards with what they do.

>>> from tabletop.resources import load_board
>>> board = load_board("sequence-letters", required=("letters", "colors"))
>>> pages, sidecar = card_pages(board, dpi=50)
>>> len(pages), len(sidecar["cards"]), sidecar["cards"][0]["card"], sidecar["cards"][-1]["card"]
(5, 52, 'A', 'Z')
"""

from __future__ import annotations

import cv2
import numpy as np

from rules.board import Board
from rules.sequence_cards import deck_for
from vision.picture_board import SQUARE_COLOURS, picture_image
from vision.printing import PAPER_MM

CARD_MM = (50.0, 70.0)
GAP_MM, MARGIN_MM = 2.0, 5.0
SPECIAL_TEXT = {"X": ("take another", "side's chip off"), "Z": ("a chip on", "any picture")}


def _card(card: str, colour: tuple[int, int, int], pictures: list[str], w: int, h: int) -> np.ndarray:
    img = np.full((h, w, 3), 255, np.uint8)
    band = max(2, w // 14)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), colour, band)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = w / 60
    weight = max(2, w // 40)
    (tw, th), _ = cv2.getTextSize(card, font, scale, weight)
    cv2.putText(img, card, ((w - tw) // 2, int(h * 0.12) + th), font, scale, colour, weight, cv2.LINE_AA)
    if card in SPECIAL_TEXT:
        for k, line in enumerate(SPECIAL_TEXT[card]):
            small = w / 260
            (tw, _), _ = cv2.getTextSize(line, font, small, 1)
            cv2.putText(img, line, ((w - tw) // 2, int(h * (0.72 + 0.09 * k))), font, small, (40, 40, 40), 1, cv2.LINE_AA)
        return img
    size = int(w * 0.36)
    for k, name in enumerate(pictures[:2]):
        x = int(w * (0.1 + 0.44 * k))
        picture = picture_image(name, size)
        if picture is not None:
            region = img[int(h * 0.6):int(h * 0.6) + size, x:x + size].astype(np.float32)
            alpha = picture[:, :, 3:4].astype(np.float32) / 255
            img[int(h * 0.6):int(h * 0.6) + size, x:x + size] = (region * (1 - alpha) + picture[:, :, :3] * alpha).astype(np.uint8)
        small = w / 340
        (tw, _), _ = cv2.getTextSize(name, font, small, 1)
        cv2.putText(img, name, (x + (size - tw) // 2, int(h * 0.95)), font, small, (40, 40, 40), 1, cv2.LINE_AA)
    return img


def card_pages(board: Board, *, dpi: int = 200, paper: str = "A4") -> tuple[list[np.ndarray], dict]:
    """The deck's pages (BGR) and a sidecar ``{"cards": [{"card", "color", "page", "box"}, ...]}``."""
    from rules.sequence_letters import letter_cards, picture_names

    names = picture_names(board)
    letters = letter_cards(board)
    px_mm = dpi / 25.4
    paper_w, paper_h = PAPER_MM[paper]
    # laid out in millimetres (the same cards a page at any resolution), 5 mm printer margins
    per_row = int((paper_w - 2 * MARGIN_MM + GAP_MM) // (CARD_MM[0] + GAP_MM))
    per_col = int((paper_h - 2 * MARGIN_MM + GAP_MM) // (CARD_MM[1] + GAP_MM))
    page_w, page_h = round(paper_w * px_mm), round(paper_h * px_mm)
    w, h, gap = round(CARD_MM[0] * px_mm), round(CARD_MM[1] * px_mm), round(GAP_MM * px_mm)
    x_off, y_off = (page_w - per_row * (w + gap) + gap) // 2, (page_h - per_col * (h + gap) + gap) // 2
    pages: list[np.ndarray] = []
    cards = []
    for n, card in enumerate(deck_for(board)):
        slot = n % (per_row * per_col)
        if slot == 0:
            pages.append(np.full((page_h, page_w, 3), 255, np.uint8))
        x, y = x_off + (slot % per_row) * (w + gap), y_off + (slot // per_row) * (h + gap)
        code, squares = letters.get(card, ("", []))
        colour = SQUARE_COLOURS.get(code, (40, 40, 40))
        pages[-1][y:y + h, x:x + w] = _card(card, colour, [names[sq] for sq in squares], w, h)
        cv2.rectangle(pages[-1], (x - 1, y - 1), (x + w, y + h), (200, 200, 200), 1)
        cards.append({"card": card, "color": code or None, "page": len(pages), "box": [x, y, x + w, y + h]})
    return pages, {"board": board.name, "dpi": dpi, "paper": paper, "card_mm": list(CARD_MM), "cards": cards}
