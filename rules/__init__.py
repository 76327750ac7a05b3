"""The rules core: pure Python game logic (no I/O, no clock, no randomness not drawn from a seed).

Everything a game needs arrives as data: a :class:`~rules.board.Board` parsed from text, a
lexicon built from a set of words, and timestamped events.
"""

from __future__ import annotations

import importlib
from typing import Any

#: name -> module; imported on first use, so ``import rules`` costs next to nothing
_EXPORTS = {"Board": "board", "parse_board": "board", "Rejection": "errors", "RulesError": "errors",
            "Direction": "squares", "Square": "squares"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"rules.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'rules' has no attribute {name!r}")
