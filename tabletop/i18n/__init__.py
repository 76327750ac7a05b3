"""The table in its players' language: the rules' and the table's English sentences, and the
pages' texts, translated where they are shown (docs/i18n.md).

The rules core stays English (:mod:`rules` never translates); the pages, their API answers and
the console put every sentence through :func:`translate` (a view: :func:`translate_view`), so
the same game can show in English on one page and in Ukrainian on another.

>>> translate("Ann's word for row 2 is in.", "uk")
'Слово гравця Ann для рядка 2 прийнято.'
>>> translate("Ann's word for row 2 is in.", "en")
"Ann's word for row 2 is in."
>>> translate_view({"status": "The game is over.", "players": ["Ann"]}, "uk")
{'status': 'Гру закінчено.', 'players': ['Ann']}
"""

from __future__ import annotations

import functools
from typing import Any

from tabletop.i18n.catalogue import Catalogue, CatalogueError, Template, names_in, plural_form
from tabletop.i18n.translator import Translator
from tabletop.i18n.views import texts_of
from tabletop.i18n import views as _views

#: the languages the pages and messages can be shown in ("en": as the rules say them)
LANGUAGES = ("en", "uk")

__all__ = ["LANGUAGES", "Catalogue", "CatalogueError", "Template", "Translator", "language_of", "names_in", "plural_form",
           "texts_of", "translate", "translate_view", "translator"]


@functools.lru_cache(maxsize=None)
def translator(language: str) -> Translator | None:
    """The translator into ``language`` (``None`` for English, or a language with no catalogue)."""
    if language == "en" or language not in LANGUAGES:
        return None
    return Translator(Catalogue.load(language))


def language_of(asked: object, default: str = "en") -> str:
    """``asked`` if it is one of :data:`LANGUAGES`, else ``default`` (a page's header, a query).

    >>> language_of("uk"), language_of("xx"), language_of(None, "uk")
    ('uk', 'en', 'uk')
    """
    return asked if isinstance(asked, str) and asked in LANGUAGES else default


def translate(text: str, language: str) -> str:
    """``text`` (an English message) in ``language``."""
    found = translator(language)
    return text if found is None else found.translate(text)


def translate_view(data: Any, language: str) -> Any:
    """A view, a result or an API answer with its sentences in ``language`` (a copy; English: itself)."""
    found = translator(language)
    return data if found is None else _views.translate_view(data, found.translate)
