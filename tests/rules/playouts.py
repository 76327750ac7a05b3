"""What the rules' random playouts share: word lists and event strategies per game.

Imported as ``from tests.rules.playouts import ...`` (the test modules keep only tests).
"""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st

from rules.lexicon import Lexicon
from tabletop.lexicons import builtin_lexicon


# -- the crossword games (eXtraDICTION, eXtraDICTION SP) -------------------------------------------
@functools.lru_cache(maxsize=1)
def short_words() -> tuple[str, ...]:
    """Every 2-5 letter word of the built-in English dictionary (plenty of crossings and touches)."""
    return tuple(sorted(w for w in builtin_lexicon("en").words() if 2 <= len(w) <= 5 and w.isalpha()))


@functools.lru_cache(maxsize=1)
def short_lexicon() -> Lexicon:
    return Lexicon(short_words(), name="short words")


CROSSWORD_GAMES = [("extradiction", "level3"), ("extradiction", "speed"), ("extradiction", "level1"),
                   ("extradiction-sp", "classic"), ("extradiction-sp", "speed")]

attempt = st.tuples(
    st.sampled_from(["write", "write", "write", "write", "pass", "remove", "challenge"]),
    st.integers(0, 10 ** 6),      # word index
    st.integers(-1, 19),          # row
    st.integers(-1, 19),          # col
    st.sampled_from(["across", "down"]),
    st.integers(0, 3),            # player index
)


def event_for(game, kind, word_i, row, col, direction, player_i):
    """A crossword game's event from an :data:`attempt`: mostly writes of real words, near the
    centre for the first one."""
    players = game.setup.players
    player = players[player_i % len(players)]
    if game.setup.variant == "speed":
        player = game.next_player
    if kind == "write":
        words = short_words()
        if not game.turns and player_i % 2 == 0:      # help the first word find the centre
            row, col = game.board.center
        return {"type": "write", "player": player, "text": words[word_i % len(words)], "row": row, "col": col,
                "dir": direction}
    if kind == "challenge":
        return {"type": "challenge", "player": player, "reason": "not_a_word"}
    if kind == "remove":
        return {"type": "remove"}
    return {"type": "pass", "player": player}


# -- Questique ------------------------------------------------------------------------------------
# a vocabulary that the racks of a 150-tile bag spell often
QUESTIQUE_WORDS = (
    "at as an in on it is to so no go do be he we me my by or of if up us am ox ax "
    "art ate eat tea sea set sat tan ten net nit tin ton not tot rat tar ran ear era oar ore roe toe "
    "one eon son nod don end den red rod dot dog god log leg let lot lit lie tie tee see bee bet bat "
    "tab cab cat act arc car ace ice ire rye dye yes yet aye eye sun run gun nut rut hut hat ate mat "
    "ant tar star rats arts tars seat east eats teas sate rate tear tare near earn rant tarn note tone "
    "stone notes onset tones ration nation snort snore tenor toner train stain satin saint later alter "
    "alert irate retain retina strain trains").split()
QUESTIQUE_LEXICON = Lexicon(QUESTIQUE_WORDS, name="playout words")


def fuzzed_events(types: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Events of ``types`` with fields of every game, each of any plausible or absurd value."""
    return st.fixed_dictionaries({
        "type": st.sampled_from(types),
        "player": st.sampled_from(["Ann", "Ben", "Cai", "Zed", "", "host"]),
    }, optional={
        "text": st.text(min_size=0, max_size=12) | st.sampled_from(["CAT", "cat", "CATS", "AT", "ICE CREAM", "?"]),
        "letter": st.text(max_size=2),
        "tiles": st.text(max_size=9),
        "row": st.integers(-3, 22) | st.just("4"),
        "col": st.integers(-3, 22),
        "dir": st.sampled_from(["across", "down", "diagonal", 3]),
    })


QUESTIQUE_EVENT = fuzzed_events(["write", "place", "exchange", "take_blank", "pass", "end", "time", "draw"])


# -- letter dice ----------------------------------------------------------------------------------
LETTER_DICE_WORDS = Lexicon(
    ["cat", "act", "tea", "eat", "tan", "ant", "net", "ten", "east", "seat", "rate", "tear", "care",
     "race", "acre", "near", "earn", "crate", "trace", "react", "stare", "tears", "rates", "canter",
     "nectar", "recant", "traces", "reacts", "nectars", "canters", "ancestor", "sort", "rose", "iron"])
