"""Generate the default English clue deck, ``tabletop/data/decks/en.toml``, from offline data.

    .venv/bin/python scripts/make_deck.py            # writes tabletop/data/decks/en.toml
    .venv/bin/python scripts/make_deck.py --stats    # also prints what was kept and why words were dropped
    .venv/bin/python scripts/make_deck.py --out /tmp/en.toml --seed 3

Sources, both installed by the project's set-up (no internet needed):

* WordNet 3.0, Debian package ``wordnet-base`` (``/usr/share/wordnet``, or
  ``$TABLETOP_WORDNET_DIR``): ``index.*`` lists a lemma's senses most frequent first,
  ``data.*`` holds each sense's gloss, ``cntlist.rev`` the sense's tag count in the
  semantically tagged corpora. The files are read directly (no nltk).
* ``wordfreq`` (a dev dependency in ``.venv``): ``zipf_frequency(word, 'en')`` picks the colour
  level, green for the most common words, red for the rarest kept.

A word is kept when it is a lower-case WordNet lemma of 3-12 letters (or one of a few common
two-word phrases), frequent enough, accepted by the built-in English lexicon, not on the block
list below, not a proper noun in its main sense, and *unambiguous*: its most frequent sense
(over nouns, verbs and adjectives) carries at least ``MIN_SHARE`` of the word's tagged uses.
The definition is that sense's gloss, cleaned: examples in quotes and asides in brackets
dropped, the first ``;``-separated part that reads as a clue and does not give the answer away
(:func:`rules.deck.mentions_answer`). Cards carry three clues of one level with three
different first letters, like an eXtraDICTION SP card. The output depends only on the input
files and ``--seed``: candidates are sorted before a seeded shuffle deals them onto cards.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.deck import Card, Clue, Deck, mentions_answer, parse_deck, stem  # noqa: E402

WORDNET = pathlib.Path(os.environ.get("TABLETOP_WORDNET_DIR", "/usr/share/wordnet"))
OUT = ROOT / "tabletop" / "data" / "decks" / "en.toml"
PARTS = {"noun": "n", "verb": "v", "adj": "a"}
SS_TYPE_NUMBER = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}

#: Zipf frequency bands (wordfreq, English): level -> lowest Zipf kept at that level.
LEVEL_FLOORS = {"green": 4.7, "blue": 4.0, "red": 3.3}
#: words above this are mostly function words (OTHER, SOME, JUST) that make poor clues.
ZIPF_CEILING = 5.8
#: the most frequent sense must carry this share of the word's tagged uses ...
MIN_SHARE = 0.7
#: ... and be tagged at least this often (a sense WordNet's corpora hardly saw is a guess).
MIN_TAGS = 5
#: two-word phrases are kept only when they are nouns (ICE CREAM, not phrasal verbs such as
#: TURN DOWN) and at least this common (wordfreq's Zipf for the phrase).
PHRASE_FLOOR = 4.0
#: ... and tagged at least this often (wordfreq's Zipf for a phrase is only an estimate).
MIN_PHRASE_TAGS = 10
#: at most this many cards per level; the clearest words (largest share of their main sense) win.
MAX_CARDS_PER_LEVEL = 150
#: a definition is between these many words long.
MIN_WORDS, MAX_WORDS = 3, 16
CLUES_PER_CARD = 3
DEFAULT_SEED = 2026

#: Our own block list: answers (and words in a definition) unsuitable for a family table —
#: sex and the body's private parts, drugs and drink, violence and weapons, death, insults,
#: slurs and bodily functions. A word is blocked with its forms (WEAPONS, SMOKING; see
#: :func:`blocked`), in an answer and in a definition.
BLOCKED = frozenset("""
    abortion abuse adult adultery alcohol amputate arse ass assault bastard beer bitch blood bloody
    bomb booze bra breast brothel bullet butt cannabis casino cigarette cocaine condom corpse crap
    crime criminal cult damn dead death devil die drug drunk erotic execute execution fart fetish
    fuck gamble gambling genital god gun hang hell heroin homicide hooker horny kill killer killing
    liquor lust marijuana massacre murder naked nazi nude nipple orgasm penis pimp piss poison porn
    pregnancy pregnant prostitute prostitution rape rifle semen sex sexual sexy shit shoot slave
    slavery slut smoke smoking steroid stripper suicide terror terrorist testicle tobacco torture
    toilet urine vagina violence violent vodka vomit war weapon whisky whiskey whore wine
    intercourse excrete excrement feces faeces buttocks anus rectum menstruation sperm
    racist racial negro lynch hostage gallows coffin funeral grave slaughter stab wound
    bleed satan demon witch gay lesbian bisexual transgender queer nigger ghetto diarrhea
    stupid stupidity dumb insane idiot moron firearm pistol revolver cannon ammunition explosive
    missile grenade bayonet infantry cavalry artillery slaughterhouse addict overdose hangover
""".split())
BLOCKED_PHRASES = frozenset({"birth control", "family planning"})
#: a word with any sense in one of these WordNet usage domains, or whose gloss says it is
#: offensive, is left out whatever its main sense (QUEER, and worse).
UNSUITABLE_DOMAINS = frozenset({"ethnic_slur", "disparagement", "obscenity", "vulgarism", "profanity", "slang"})
UNSUITABLE_GLOSS = re.compile(r"\b(slur|offensive|obscene|vulgar|derogatory|disparaging|insulting|contemptuous)", re.I)
_BLOCKED_STEMS = frozenset(stem(word) for word in BLOCKED)


def blocked(word: str) -> bool:
    """A block-listed word, or a form of one (WEAPONS, SMOKING)."""
    word = word.lower().strip(".,:-")
    return word in BLOCKED or (len(word) >= 3 and stem(word) in _BLOCKED_STEMS)


@dataclass(frozen=True)
class Synset:
    offset: str
    lex_file: str
    ss_type: str
    words: tuple[tuple[str, str], ...]  # (word as written in WordNet, lex_id as 2 hex digits)
    head: str | None                    # a satellite adjective's head synset
    usage: tuple[str, ...]              # usage-domain noun synsets (";u" pointers): slang, ethnic slur, ...
    gloss: str


@dataclass(frozen=True)
class Candidate:
    word: str
    zipf: float
    part: str
    definition: str
    share: float
    tags: int


def read_synsets(part: str) -> dict[str, Synset]:
    synsets = {}
    with (WORDNET / f"data.{part}").open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.startswith(" "):
                continue
            head_part, _, gloss = line.partition("| ")
            fields = head_part.split()
            offset, lex_file, ss_type, count = fields[0], fields[1], fields[2], int(fields[3], 16)
            words = tuple((re.sub(r"\(.*\)$", "", fields[4 + 2 * i]), f"{int(fields[5 + 2 * i], 16):02d}")
                          for i in range(count))
            rest = fields[4 + 2 * count:]
            pointers = int(rest[0])
            head, usage = None, []
            for p in range(pointers):
                symbol, target = rest[1 + 4 * p], rest[2 + 4 * p]
                if symbol == "&" and ss_type == "s" and head is None:
                    head = target
                if symbol == ";u":
                    usage.append(target)
            synsets[offset] = Synset(offset, lex_file, ss_type, words, head, tuple(usage), gloss.strip())
    return synsets


def read_index(part: str) -> dict[str, list[str]]:
    senses = {}
    with (WORDNET / f"index.{part}").open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma, synset_count = fields[0], int(fields[2])
            senses[lemma] = fields[-synset_count:]
    return senses


def read_tag_counts() -> dict[str, int]:
    counts = {}
    with (WORDNET / "cntlist.rev").open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            key, _, count = line.split()
            counts[key] = int(count)
    return counts


def sense_key(lemma: str, synset: Synset, adjectives: dict[str, Synset]) -> tuple[str, str] | None:
    """(WordNet sense key, the word as WordNet writes it) for ``lemma`` in ``synset``."""
    for word, lex_id in synset.words:
        if word.lower() != lemma:
            continue
        head_word = head_id = ""
        if synset.ss_type == "s" and synset.head in adjectives:
            head_word, head_id = adjectives[synset.head].words[0]
            head_word = head_word.lower()
        key = f"{lemma}%{SS_TYPE_NUMBER[synset.ss_type]}:{synset.lex_file}:{lex_id}:{head_word}:{head_id}"
        return key, word
    return None


def clean_gloss(gloss: str, answer: str) -> str | None:
    """The first part of a WordNet gloss that makes a fair clue for ``answer``, or ``None``."""
    text = gloss.split('"', 1)[0]
    text = re.sub(r"\s*\([^()]*\)", "", text)
    # Only the first part: later ones often lean on it ("its function is to lay eggs").
    part = " ".join(text.split(";", 1)[0].split()).strip(" ,:")
    words = part.split()
    if not (MIN_WORDS <= len(words) <= MAX_WORDS):
        return None
    if part.lower().startswith(("used in combination", "a combining form", "combining form")):
        return None
    if any(ch in part for ch in "`'()[]\"") or re.search(r"\d|\be\.g\.|\bi\.e\.|\betc\b", part):
        return None
    if any(blocked(w) for w in re.findall(r"[a-zA-Z]+", part)):
        return None
    if mentions_answer(part, answer) is not None:
        return None
    return part


def candidates(stats: Counter) -> list[Candidate]:
    from wordfreq import zipf_frequency

    from tabletop.lexicons import builtin_lexicon

    lexicon = builtin_lexicon("en")
    tag_counts = read_tag_counts()
    synsets = {part: read_synsets(part) for part in PARTS}
    indexes = {part: read_index(part) for part in PARTS}
    lemmas = sorted(set().union(*indexes.values()))
    unsuitable = {offset for offset, synset in synsets["noun"].items() if synset.words[0][0] in UNSUITABLE_DOMAINS}
    floor = min(LEVEL_FLOORS.values())
    kept = []
    for lemma in lemmas:
        words = lemma.split("_")
        if len(words) > 2 or not all(w.isascii() and w.isalpha() and w.islower() for w in words):
            stats["not plain letters"] += 1
            continue
        if not all(3 <= len(w) <= 12 for w in words) or (len(words) == 2 and sum(map(len, words)) > 14):
            stats["too short or long"] += 1
            continue
        if not all(set(w) & set("aeiouy") for w in words):
            stats["abbreviation"] += 1
            continue
        if any(blocked(w) for w in words) or " ".join(words) in BLOCKED_PHRASES:
            stats["blocked"] += 1
            continue
        answer = " ".join(words)
        zipf = zipf_frequency(answer, "en")
        if zipf < (PHRASE_FLOOR if len(words) == 2 else floor):
            stats["too rare"] += 1
            continue
        if zipf > ZIPF_CEILING:
            stats["function word"] += 1
            continue
        if not lexicon.accepts_entry(answer):
            stats["not in lexicon"] += 1
            continue
        senses = []  # (tag count, -rank, part, synset, written form)
        for part in PARTS:
            for rank, offset in enumerate(indexes[part].get(lemma, ())):
                synset = synsets[part][offset]
                found = sense_key(lemma, synset, synsets["adj"])
                if found is None:
                    continue
                key, written = found
                senses.append((tag_counts.get(key, 0), -rank, part, synset, written))
        if any(set(s[3].usage) & unsuitable or UNSUITABLE_GLOSS.search(s[3].gloss) for s in senses):
            stats["offensive or slang sense"] += 1
            continue
        total = sum(s[0] for s in senses)
        if not senses or total == 0:
            stats["no tagged sense"] += 1
            continue
        tags, _, part, synset, written = max(senses, key=lambda s: (s[0], s[1], s[2] == "noun"))
        share = tags / total
        if tags < MIN_TAGS or share < MIN_SHARE:
            stats["ambiguous"] += 1
            continue
        if written != written.lower():
            stats["proper noun"] += 1
            continue
        if len(words) == 2 and (part != "noun" or tags < MIN_PHRASE_TAGS):
            stats["phrase not a common noun"] += 1
            continue
        definition = clean_gloss(synset.gloss, answer)
        if definition is None:
            stats["no usable definition"] += 1
            continue
        kept.append(Candidate(answer, zipf, part, definition, share, tags))
    # Two answers with one definition (GOOD DEAL, GREAT DEAL): keep the more common answer.
    by_definition: dict[str, Candidate] = {}
    for candidate in sorted(kept, key=lambda c: (-c.zipf, c.word)):
        if candidate.definition in by_definition:
            stats["same definition as a commoner word"] += 1
        else:
            by_definition[candidate.definition] = candidate
    return sorted(by_definition.values(), key=lambda c: c.word)


def level_of(zipf: float) -> str | None:
    for level, lowest in LEVEL_FLOORS.items():
        if zipf >= lowest:
            return level
    return None


def deal(words: list[Candidate], rng: random.Random) -> list[list[Candidate]]:
    """Deal candidates onto cards of CLUES_PER_CARD clues with different first letters."""
    pool = sorted(words, key=lambda c: c.word)
    rng.shuffle(pool)
    cards = []
    while len(pool) >= CLUES_PER_CARD:
        card = [pool.pop(0)]
        for candidate in list(pool):
            if len(card) == CLUES_PER_CARD:
                break
            if all(candidate.word[0] != c.word[0] for c in card):
                card.append(candidate)
                pool.remove(candidate)
        if len(card) < CLUES_PER_CARD:
            break
        cards.append(card)
    return cards


def build(seed: int, stats: Counter) -> tuple[Deck, dict[str, str]]:
    rng = random.Random(seed)
    by_level: dict[str, list[Candidate]] = {level: [] for level in LEVEL_FLOORS}
    for candidate in candidates(stats):
        level = level_of(candidate.zipf)
        if level is not None:
            by_level[level].append(candidate)
    cards, notes = [], {}
    for level, words in by_level.items():
        words = sorted(words, key=lambda c: (-c.share, -c.tags, c.word))[: MAX_CARDS_PER_LEVEL * CLUES_PER_CARD]
        for number, dealt in enumerate(deal(words, rng), start=1):
            clues = tuple(Clue(c.word.upper(), c.definition) for c in dealt)
            cards.append(Card(f"{level[0]}{number:03d}", level, clues))
            for c in dealt:
                notes[c.word.upper()] = f"{c.part}, zipf {c.zipf:.2f}"
    description = (
        "Generated by scripts/make_deck.py from WordNet 3.0 glosses (Princeton University, WordNet "
        "licence) with levels from wordfreq's Zipf frequencies; do not edit by hand, re-run the script."
    )
    return Deck("Default English deck", "en", tuple(cards), description), notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=OUT, help="where to write the deck (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the shuffle that deals cards")
    parser.add_argument("--stats", action="store_true", help="print counts of kept and dropped words")
    args = parser.parse_args(argv)
    stats: Counter = Counter()
    deck, notes = build(args.seed, stats)
    text = deck.to_toml(notes)
    parse_deck(text, source=str(args.out))  # the file we write must parse
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    for level, (cards, clues) in deck.counts().items():
        print(f"{level:6} {cards:4} cards {clues:5} clues")
    print(f"wrote {args.out} ({len(deck)} cards)")
    if args.stats:
        for reason, count in stats.most_common():
            print(f"  dropped, {reason}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
