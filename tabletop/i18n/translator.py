"""Translating the table's English sentences: :class:`Translator`.

The rules and the table speak English; a sentence is translated when it is shown. The
translator finds the catalogue's template the whole message fills in, or else splits the
message into sentences (after ``.``, ``!``, ``?``, ``:`` or ``;`` and a space) and translates
each: from the left, the longest run of sentences that one template fills. A placeholder's
value is translated too when it is itself a catalogue message (``"across"``, a fragment like
``"Ann wins the round with 12"``); else its single words are (``words``: the dice's
``Joker``); else it stays as it is (a name, a word, a number).

A sentence no template fills stays English (the page never breaks) and is counted in
:attr:`Translator.missed`, which the coverage tests read.

>>> from tabletop.i18n.catalogue import PLACEHOLDER, Catalogue, Template
>>> cat = Catalogue("uk", (Template.parse("{player} passes.", "{player} пасує."),
...                        Template.parse("Scores: {scores}.", "Рахунок: {scores}."),
...                        Template.parse("{n} points", "{n} {n:очко|очки|очок}")), {}, {})
>>> t = Translator(cat)
>>> t.translate("Ann passes. Scores: Ann 3, Ben 5.")
'Ann пасує. Рахунок: Ann 3, Ben 5.'
>>> t.translate("Ann sings.")
'Ann sings.'
>>> dict(t.missed)
{'Ann sings.': 1}
"""

from __future__ import annotations

import collections
import functools
import re

from tabletop.i18n.catalogue import PLACEHOLDER, Catalogue, Template

#: how many different untranslated sentences :attr:`Translator.missed` keeps (a table runs for hours)
MOST_MISSED = 10_000

#: where a message may be cut into sentences: after these marks and a space
BOUNDARY = re.compile(r"(?<=[.!?:;])\s+")


class Translator:
    """Translates English messages with one catalogue (see the module docstring)."""

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.language = catalogue.language
        #: the sentences no template filled, and how often each was asked for
        self.missed: collections.Counter[str] = collections.Counter()
        #: the templates that filled a message (their English), and how often (not counting the cache)
        self.used: collections.Counter[str] = collections.Counter()
        self._by_start: dict[str, list[Template]] = collections.defaultdict(list)
        self._open: list[Template] = []           # templates that start with a placeholder
        # the most specific first: "Undone: the last {kind} by {player}." before "Undone: the last {kind}."
        literal = lambda t: len(PLACEHOLDER.sub("", t.english))      # noqa: E731
        for template in sorted(catalogue.messages, key=literal, reverse=True):
            head = template.english.split("{", 1)[0]
            (self._by_start[head[:3]] if len(head) >= 3 else self._open).append(template)
        self._words = re.compile(r"\b(" + "|".join(map(re.escape, sorted(catalogue.words, key=len, reverse=True)))
                                 + r")\b") if catalogue.words else None
        self._cached = functools.lru_cache(maxsize=4096)(self._translate)

    def translate(self, text: str) -> str:
        """``text`` in the catalogue's language (as far as the catalogue knows its sentences)."""
        if not text or not text.strip():
            return text
        translated, missed = self._cached(text)
        for sentence in missed:
            if sentence in self.missed or len(self.missed) < MOST_MISSED:
                self.missed[sentence] += 1
        return translated

    def untranslated(self, text: str) -> list[str]:
        """The sentences of ``text`` that no template fills (``[]``: it translates fully)."""
        return list(self._cached(text)[1]) if text and text.strip() else []

    # -- the work -------------------------------------------------------------------------------
    def _candidates(self, text: str) -> list[Template]:
        return self._by_start.get(text[:3], []) + self._open

    def _fill(self, text: str) -> str | None:
        """``text`` translated by one template that it fills entirely, or ``None``."""
        for template in self._candidates(text):
            values = template.match(text)
            if values is not None:
                self.used[template.english] += 1
                return template.fill({name: self._value(value) for name, value in values.items()}, self.language)
        return None

    def _value(self, value: str) -> str:
        """A placeholder's value: translated if it is a catalogue message, its words if not."""
        translated, missed = self._cached(value)
        if not missed:
            return translated
        if self._words is not None:
            return self._words.sub(lambda m: self.catalogue.words[m.group(1)], value)
        return value

    def _translate(self, text: str) -> tuple[str, tuple[str, ...]]:
        whole = self._fill(text)
        if whole is not None:
            return whole, ()
        cuts = [0] + [m.end() for m in BOUNDARY.finditer(text)] + [len(text)]
        out: list[str] = []
        missed: list[str] = []
        i = 0
        while i < len(cuts) - 1:
            for j in range(len(cuts) - 1, i, -1):            # the longest run of sentences first
                piece = text[cuts[i]:cuts[j]].rstrip()
                filled = self._fill(piece)
                if filled is not None:
                    out.append(filled)
                    i = j
                    break
            else:
                piece = text[cuts[i]:cuts[i + 1]].rstrip()
                out.append(piece)
                missed.append(piece)
                i += 1
        return " ".join(out), tuple(missed)
