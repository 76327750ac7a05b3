"""A language's catalogue: English templates and their translations (``tabletop/i18n/LANG.toml``).

A template is a sentence with named placeholders, ``"{player} passes."``; its translation uses
the same placeholders (``"{player} пасує."``). A translation may also choose a word by a
number: ``{points:очко|очки|очок}`` is the word for ``points`` (one, a few, many: Ukrainian's
three plural forms, :func:`plural_form`), without the number itself.

The file has three tables: ``messages`` (what the rules and the table say: whole sentences,
and the parts of sentences that are placeholders' values, like ``"across"``), ``words``
(single words inside a value that is not a sentence, like the dice's ``Joker``) and ``pages``
(the web pages' own texts, which :mod:`tabletop.web` serves to the pages' script).

>>> t = Template.parse("{player} scores {points} points.", "{player} отримує {points} {points:очко|очки|очок}.")
>>> t.names
('player', 'points')
>>> t.match("Ann scores 12 points.")
{'player': 'Ann', 'points': '12'}
>>> t.fill({"player": "Ann", "points": "12"})
'Ann отримує 12 очок.'
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

HERE = Path(__file__).resolve().parent

#: a placeholder: ``{name}``, or ``{name:one|few|many}`` (a word chosen by the number ``name``)
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([^{}]*))?\}")


class CatalogueError(ValueError):
    """A catalogue that cannot be used: the message names the file and the template."""


def plural_form(number: int, language: str = "uk") -> int:
    """Which of a word's forms goes with ``number``: 0 one, 1 a few, 2 many (Ukrainian's rule;
    English has only the first two).

    >>> [plural_form(n) for n in (1, 2, 5, 11, 21, 22, 25, 112)]
    [0, 1, 2, 2, 0, 1, 2, 2]
    >>> [plural_form(n, "en") for n in (1, 2, 0)]
    [0, 1, 1]
    """
    if language != "uk":
        return 0 if number == 1 else 1
    if number % 10 == 1 and number % 100 != 11:
        return 0
    if 2 <= number % 10 <= 4 and not 12 <= number % 100 <= 14:
        return 1
    return 2


def names_in(template: str) -> set[str]:
    """The placeholders a template uses (a plural choice counts as its number's).

    >>> sorted(names_in("{n} {n:очко|очки|очок} for {player}"))
    ['n', 'player']
    """
    return {m.group(1) for m in PLACEHOLDER.finditer(template)}


@dataclass(frozen=True)
class Template:
    """One English template and its translation, the English compiled to a regular expression."""

    english: str
    translation: str
    names: tuple[str, ...]
    pattern: re.Pattern[str] = field(repr=False, compare=False)

    @classmethod
    def parse(cls, english: str, translation: str, source: str = "<catalogue>") -> "Template":
        """The template ``english`` -> ``translation``; :class:`CatalogueError` if their placeholders differ."""
        names = [m.group(1) for m in PLACEHOLDER.finditer(english)]
        if any(m.group(2) is not None for m in PLACEHOLDER.finditer(english)):
            raise CatalogueError(f"{source}: {english!r}: an English template has no plural choices")
        if names_in(translation) != set(names):
            raise CatalogueError(f"{source}: {english!r} has the placeholders {sorted(names)}, but its "
                                 f"translation {translation!r} has {sorted(names_in(translation))}")
        parts, at, seen = [], 0, set()
        for m in PLACEHOLDER.finditer(english):           # a name used again must repeat its value
            parts.append(re.escape(english[at:m.start()]))
            parts.append(f"(?P={m.group(1)})" if m.group(1) in seen else f"(?P<{m.group(1)}>.+?)")
            seen.add(m.group(1))
            at = m.end()
        parts.append(re.escape(english[at:]))
        unique = tuple(dict.fromkeys(names))
        return cls(english, translation, unique, re.compile("".join(parts) + r"\Z", re.DOTALL))

    def match(self, text: str) -> dict[str, str] | None:
        """The placeholders' values if ``text`` is this template filled in, else ``None``."""
        found = self.pattern.match(text)
        return found.groupdict() if found else None

    def fill(self, values: Mapping[str, str], language: str = "uk") -> str:
        """The translation with ``values`` put in (plural choices made by their numbers)."""
        def put(m: re.Match[str]) -> str:
            value = values[m.group(1)]
            if m.group(2) is None:
                return value
            forms = m.group(2).split("|")
            try:
                number = abs(int(float(value)))
            except ValueError:
                return forms[-1]
            return forms[min(plural_form(number, language), len(forms) - 1)]
        return PLACEHOLDER.sub(put, self.translation)


@dataclass(frozen=True)
class Catalogue:
    """A language's templates (messages), single words and the pages' texts."""

    language: str
    messages: tuple[Template, ...]
    words: Mapping[str, str]
    pages: Mapping[str, str]

    @classmethod
    def load(cls, language: str, path: Path | None = None) -> "Catalogue":
        """The catalogue in ``path`` (default ``tabletop/i18n/LANGUAGE.toml``)."""
        path = path or HERE / f"{language}.toml"
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise CatalogueError(f"{path}: {error}") from None
        messages = tuple(Template.parse(english, str(translation), str(path))
                         for english, translation in data.get("messages", {}).items())
        for english, translation in data.get("pages", {}).items():   # (a page's English may choose plurals too)
            if names_in(english) != names_in(str(translation)):
                raise CatalogueError(f"{path}: the page text {english!r} has the placeholders "
                                     f"{sorted(names_in(english))}, but its translation {translation!r} has "
                                     f"{sorted(names_in(str(translation)))}")
        return cls(language, messages, dict(data.get("words", {})), dict(data.get("pages", {})))
