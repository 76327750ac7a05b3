"""Clue decks: the cards an asker reads from in eXtraDICTION and eXtraDICTION SP.

A :class:`Deck` holds :class:`Card` s; a card has an id, a colour level (``green`` easy,
``blue`` medium, ``red`` hard) and one or more :class:`Clue` s. A clue is an answer (a word or
a short phrase) and a definition; the first letter and the length the asker reads out are
derived from the answer. An eXtraDICTION SP card carries several clues (the asker picks one);
an original eXtraDICTION card carries one.

Decks are TOML files (the format is documented in ``docs/decks.md``); parsing is pure: it
takes the file's text, reading the file is the caller's business (:mod:`tabletop.decks`).

>>> deck = parse_deck('''
... name = "tiny"
... language = "en"
... [[cards]]
... id = "g1"
... level = "green"
... clues = [
...   { answer = "market", definition = "the place with many small stalls selling different goods" },
...   { answer = "ice cream", definition = "a frozen sweet made from milk" },
... ]
... ''', source="tiny.toml")
>>> card = deck.cards[0]
>>> card.level, [clue.answer for clue in card.clues]
('green', ['MARKET', 'ICE CREAM'])
>>> card.clues[0].card_text()
'm (6) the place with many small stalls selling different goods'
>>> card.clues[1].length_label
'3,5'
>>> deck.find("Market").answer
'MARKET'
"""

from __future__ import annotations

import random
import re
import tomllib
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

from rules.errors import RulesError
from rules.lexicon import normalise

#: colour levels, easiest first.
LEVELS = ("green", "blue", "red")
#: the longest definition a card may carry (it is read aloud in one breath).
MAX_DEFINITION = 200
#: keys a deck file may use; anything else is reported (it is most likely a typo).
DECK_KEYS = {"name", "language", "description", "cards"}
CARD_KEYS = {"id", "level", "clues"}
CLUE_KEYS = {"answer", "definition", "picture"}

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_LETTERS = re.compile(r"[^\W\d_]+")
_ANSWER_WORD = re.compile(r"^[^\W\d_]+(?:['-][^\W\d_]+)*$")
#: English suffixes stripped by :func:`stem`, longest first.
_SUFFIXES = (
    "ational", "ations", "ation", "ingly", "ness", "ment", "ings", "less", "ing", "ies", "ied",
    "ers", "est", "ful", "ly", "ed", "es", "er", "s", "y", "e",
)
_VOWELS = set("AEIOU")


class DeckFormatError(RulesError, ValueError):
    """A deck file that cannot be used; the message names the file and the card (id and line).

    >>> str(DeckFormatError("level must be green, blue or red", "my.toml", card="g1", line=7))
    "my.toml: card 'g1' (line 7): level must be green, blue or red"
    """

    def __init__(self, message: str, source: str = "<deck>", card: str | None = None, line: int | None = None):
        where = source
        if card is not None:
            where += f": card {card!r}"
        if line is not None:
            where += f" (line {line})" if card is not None else f": line {line}"
        super().__init__(f"{where}: {message}")
        self.source, self.card, self.line = source, card, line


def stem(word: str) -> str:
    """A crude English stem: one common suffix off, a doubled final consonant undone.

    Used only to spot a definition that gives its answer away, so it errs on the side of
    calling two words related.

    >>> [stem(w) for w in ("market", "marketing", "dance", "dancing", "happy", "happiness", "running", "run")]
    ['MARKET', 'MARKET', 'DANC', 'DANC', 'HAP', 'HAP', 'RUN', 'RUN']
    """
    word = normalise(word)
    for suffix in _SUFFIXES:
        suffix = suffix.upper()
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("I") and len(word) > 3:
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in _VOWELS:
        word = word[:-1]
    return word


def mentions_answer(definition: str, answer: str, language: str = "en") -> str | None:
    """The word of ``definition`` that gives ``answer`` away, or ``None`` if there is none.

    A definition word gives the answer away when it is one of the answer's words (3 letters or
    more), begins with one of 5 letters or more (MARKETPLACE for MARKET), shares with it a
    beginning of 5 letters or more that leaves at most 2 letters of the shorter word
    (REMOVING for REMOVAL), or, in English, has the same :func:`stem` (MARKETS, DANCING for
    DANCE, RUNNING for RUN). The check is deliberately cautious: a false alarm costs a
    rewording, a giveaway spoils a turn.

    >>> mentions_answer("a place where goods are marketed", "market")
    'marketed'
    >>> mentions_answer("the place with many small stalls selling different goods", "market") is None
    True
    >>> mentions_answer("a frozen dessert made with cream", "ice cream")
    'cream'
    >>> mentions_answer("the act of removing", "removal"), mentions_answer("a sky body", "planet")
    ('removing', None)
    """
    targets = [normalise(w) for w in _LETTERS.findall(answer)]
    targets = [w for w in targets if len(w) >= 3]
    stems = {stem(w) for w in targets} if language == "en" else set()
    word: str
    for word in _LETTERS.findall(definition):
        upper = normalise(word)
        for target in targets:
            if upper == target or (len(target) >= 5 and upper.startswith(target)):
                return word
            shared = _shared_prefix(upper, target)
            if shared >= 5 and shared >= min(len(upper), len(target)) - 2:
                return word
        if stems and len(upper) >= 3 and stem(upper) in stems:
            return word
    return None


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


@dataclass(frozen=True)
class Clue:
    """One question: an answer (normalised, upper case) and its definition.

    >>> clue = Clue("MARKET", "the place with many small stalls selling different goods")
    >>> clue.first_letter, clue.length, clue.length_label
    ('M', 6, '6')
    >>> clue.prompt()
    "6-letter word beginning with 'm': the place with many small stalls selling different goods"
    >>> Clue("ICE CREAM", "a frozen sweet made from milk").prompt()
    "2-word phrase of 3,5 letters beginning with 'i': a frozen sweet made from milk"
    """

    answer: str
    definition: str
    picture: str = ""             #: a picture for children (an emoji), on picture cards

    @property
    def words(self) -> tuple[str, ...]:
        """The answer's words (one for a single word)."""
        return tuple(self.answer.split(" "))

    @property
    def first_letter(self) -> str:
        """The answer's first letter, upper case."""
        return self.answer[0]

    @property
    def lengths(self) -> tuple[int, ...]:
        """Letters per word (a hyphen or apostrophe counts: it takes a square)."""
        return tuple(len(w) for w in self.words)

    @property
    def length(self) -> int:
        """Characters written on the board, the blanks between a phrase's words not counted."""
        return sum(self.lengths)

    @property
    def squares(self) -> int:
        """Squares the answer takes on the board, one blank square between words included."""
        return len(self.answer)

    @property
    def length_label(self) -> str:
        """The length as printed on a card: ``"6"``, or ``"3,5"`` for a phrase."""
        return ",".join(str(n) for n in self.lengths)

    @property
    def is_phrase(self) -> bool:
        return len(self.words) > 1

    def card_text(self) -> str:
        """The clue as printed on an SP card: ``m (6) the place ...``."""
        return f"{self.first_letter.lower()} ({self.length_label}) {self.definition}"

    def prompt(self) -> str:
        """What the asker says aloud (eXtraDICTION SP rules)."""
        first = self.first_letter.lower()
        if self.is_phrase:
            return (f"{len(self.words)}-word phrase of {self.length_label} letters beginning with "
                    f"'{first}': {self.definition}")
        return f"{self.length}-letter word beginning with '{first}': {self.definition}"


@dataclass(frozen=True)
class Card:
    """A physical clue card: an id, a colour level and one or more clues."""

    id: str
    level: str
    clues: tuple[Clue, ...]

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(clue.answer for clue in self.clues)


@dataclass(frozen=True)
class Deck:
    """A named deck of cards in one language; iterating gives the cards in deck order.

    >>> deck = Deck("d", "en", tuple(Card(f"c{i}", LEVELS[i % 3], (Clue(w, "x y z"),))
    ...                             for i, w in enumerate(["ANT", "BEE", "CAT", "DOG", "EEL"])))
    >>> [c.id for c in deck.by_level("green")]
    ['c0', 'c3']
    >>> [c.id for c in deck.shuffled(7)] == [c.id for c in deck.shuffled(7)], set(deck.shuffled(7)) == set(deck)
    (True, True)
    """

    name: str
    language: str
    cards: tuple[Card, ...]
    description: str = ""

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def clues(self) -> Iterator[tuple[Card, Clue]]:
        """Every (card, clue) pair in deck order."""
        for card in self.cards:
            for clue in card.clues:
                yield card, clue

    def shuffled(self, seed: int) -> Deck:
        """The same deck, cards in an order fixed by ``seed`` (a card's clues keep their order)."""
        cards = list(self.cards)
        random.Random(seed).shuffle(cards)
        return Deck(self.name, self.language, tuple(cards), self.description)

    def by_level(self, level: str) -> Deck:
        """The deck's cards of one colour level, in deck order."""
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}; levels are {', '.join(LEVELS)}")
        return Deck(self.name, self.language, tuple(c for c in self.cards if c.level == level), self.description)

    def card(self, card_id: str) -> Card | None:
        """The card with id ``card_id``, or ``None``."""
        return next((c for c in self.cards if c.id == card_id), None)

    def find(self, answer: str) -> Clue | None:
        """The clue whose answer is ``answer`` (compared after normalising), or ``None``."""
        key = normalise(answer)
        return next((clue for _, clue in self.clues() if clue.answer == key), None)

    def card_of(self, answer: str) -> Card | None:
        """The card carrying ``answer``, or ``None``."""
        key = normalise(answer)
        return next((card for card, clue in self.clues() if clue.answer == key), None)

    def counts(self) -> dict[str, tuple[int, int]]:
        """Level -> (cards, clues)."""
        return {
            level: (sum(1 for c in self.cards if c.level == level),
                    sum(len(c.clues) for c in self.cards if c.level == level))
            for level in LEVELS
        }

    def to_toml(self, notes: Mapping[str, str] | None = None) -> str:
        """The deck as a deck file (round-trips through :func:`parse_deck`); ``notes`` maps an
        answer to a comment written after its clue."""
        notes = notes or {}
        lines = [f"name = {_toml_string(self.name)}", f"language = {_toml_string(self.language)}"]
        if self.description:
            lines.append(f"description = {_toml_string(self.description)}")
        for card in self.cards:
            lines += ["", "[[cards]]", f"id = {_toml_string(card.id)}", f"level = {_toml_string(card.level)}",
                      "clues = ["]
            for clue in card.clues:
                entry = (f"  {{ answer = {_toml_string(clue.answer.lower())}, "
                         f"definition = {_toml_string(clue.definition)} }},")
                note = notes.get(clue.answer)
                lines.append(entry + (f"  # {note}" if note else ""))
            lines.append("]")
        return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(ch if ch >= " " and ch != "\x7f" else f"\\u{ord(ch):04x}" for ch in out) + '"'


def _line_of(text: str, card_id: object, occurrence: int = 1) -> int | None:
    """The line of the ``occurrence``-th ``id = "<card_id>"`` in the file, when it can be found."""
    if not isinstance(card_id, str):
        return None
    pattern = re.compile(r"""^\s*id\s*=\s*["']""" + re.escape(card_id) + r"""["']\s*(#.*)?$""")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            occurrence -= 1
            if occurrence == 0:
                return number
    return None


def _string(value: object, what: str, fail: Callable[[str], Exception]) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail(f"{what} must be a non-empty string, not {value!r}")
    return " ".join(value.split())


def _parse_clue(raw: object, number: int, language: str, fail: Callable[[str], Exception]) -> Clue:
    where = f"clue {number}"
    if not isinstance(raw, dict):
        raise fail(f"{where} must be a table {{ answer = ..., definition = ... }}, not {raw!r}")
    unknown = sorted(set(raw) - CLUE_KEYS)
    if unknown:
        raise fail(f"{where} has unknown key(s) {', '.join(unknown)}; a clue has answer, definition and picture")
    for key in ("answer", "definition"):
        if key not in raw:
            raise fail(f"{where} has no {key}")
    answer = normalise(_string(raw["answer"], f"{where}'s answer", fail))
    if not all(_ANSWER_WORD.match(word) for word in answer.split(" ")):
        raise fail(f"{where}'s answer {answer!r} must be letters (a hyphen or apostrophe inside a word, "
                   "single spaces between a phrase's words)")
    definition = _string(raw["definition"], f"{where}'s definition", fail)
    if len(definition) > MAX_DEFINITION:
        raise fail(f"{where}'s definition is {len(definition)} characters long; at most {MAX_DEFINITION}")
    giveaway = mentions_answer(definition, answer, language)
    if giveaway is not None:
        raise fail(f"{where}'s definition gives the answer {answer} away ({giveaway!r})")
    picture = raw.get("picture", "")
    if not isinstance(picture, str) or len(picture) > 16:
        raise fail(f"{where}'s picture must be a short text (an emoji), not {picture!r}")
    return Clue(answer, definition, picture)


def parse_deck(text: str, source: str = "<deck>") -> Deck:
    """Parse a deck file (TOML, see ``docs/decks.md``); ``source`` names it in error messages.

    Raises :class:`DeckFormatError` naming the file, the card's id and line, and the clue:
    invalid TOML, missing or unknown keys, an unknown level, a card without clues, a duplicate
    card id or answer, an answer that is not letters, a definition that gives its answer away.

    >>> parse_deck('name = "x"\\nlanguage = "en"\\n[[cards]]\\nid = "a"\\nlevel = "pink"\\n'
    ...            'clues = [{answer = "cat", definition = "a small pet"}]', source="x.toml")
    Traceback (most recent call last):
      ...
    rules.deck.DeckFormatError: x.toml: card 'a' (line 4): level must be one of green, blue, red, not 'pink'
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DeckFormatError(f"not valid TOML ({error})", source) from None
    unknown = sorted(set(data) - DECK_KEYS)
    if unknown:
        raise DeckFormatError(f"unknown key(s) {', '.join(unknown)}; a deck has {', '.join(sorted(DECK_KEYS))}",
                              source)

    def top(message: str) -> DeckFormatError:
        return DeckFormatError(message, source)

    if "name" not in data:
        raise top("missing 'name'")
    if "language" not in data:
        raise top("missing 'language'")
    name = _string(data["name"], "'name'", top)
    language = _string(data["language"], "'language'", top)
    description = _string(data["description"], "'description'", top) if "description" in data else ""
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise top("no cards: add at least one [[cards]] table")

    cards: list[Card] = []
    seen_ids: dict[str, int] = {}
    occurrences: dict[object, int] = {}
    seen_answers: dict[str, str] = {}
    for index, raw in enumerate(raw_cards, start=1):
        card_id = raw.get("id") if isinstance(raw, dict) else None
        label = card_id if isinstance(card_id, str) and card_id else f"#{index}"
        if isinstance(card_id, str):
            occurrences[card_id] = occurrences.get(card_id, 0) + 1
        line = _line_of(text, card_id, occurrences.get(card_id, 1))

        def fail(message: str, label: str = label, line: int | None = line) -> DeckFormatError:
            return DeckFormatError(message, source, card=label, line=line)

        if not isinstance(raw, dict):
            raise fail("a card must be a table ([[cards]])")
        unknown = sorted(set(raw) - CARD_KEYS)
        if unknown:
            raise fail(f"unknown key(s) {', '.join(unknown)}; a card has id, level and clues")
        if "id" not in raw:
            raise fail("missing 'id'")
        if not isinstance(card_id, str) or not _ID.match(card_id):
            raise fail(f"id must be letters, digits, '-', '_' or '.', not {card_id!r}")
        if card_id in seen_ids:
            raise fail(f"duplicate id: card {seen_ids[card_id]} has it too")
        seen_ids[card_id] = index
        level = raw.get("level")
        if level not in LEVELS:
            raise fail(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        raw_clues = raw.get("clues")
        if not isinstance(raw_clues, list) or not raw_clues:
            raise fail("no clues: a card needs 'clues = [ { answer = ..., definition = ... } ]'")
        clues = tuple(_parse_clue(c, n, language, fail) for n, c in enumerate(raw_clues, start=1))
        for n, clue in enumerate(clues, start=1):
            if clue.answer in seen_answers:
                raise fail(f"clue {n}'s answer {clue.answer} is already on card {seen_answers[clue.answer]!r}")
            seen_answers[clue.answer] = card_id
        cards.append(Card(card_id, level, clues))
    return Deck(name, language, tuple(cards), description)
