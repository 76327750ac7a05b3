"""The seats' short join codes: a phone that opens ``/join/CODE`` (or scans its QR code) becomes
that seat.

A code is 5 characters from an alphabet with no look-alikes (no 0/O, 1/I/L), made with
:mod:`secrets` when the game starts and kept with the tokens in the journal, so a resumed game
keeps its codes. A game journaled before codes existed gets codes derived from its seat tokens
(the same after every resume).

How hard is a code to guess? 31^5 is about 28.6 million codes, of which a game uses one per
seat; the web layer refuses wrong codes beyond a few a minute (:mod:`tabletop.web.join`), so
finding any seat's code by trying takes months. Enough for a living room, not for a secret:
anyone who can see the scoreboard or the host console can read the codes there.

>>> code = new_code()
>>> len(code), set(code) <= set(ALPHABET)
(5, True)
>>> normal(" ab2c-d ")
'AB2CD'
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, Iterable, Mapping

#: the characters of a code: capitals and digits that cannot be mistaken for one another
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: a code's length
LENGTH = 5


def new_code(taken: Iterable[str] = ()) -> str:
    """A fresh random code, none of ``taken``."""
    used = set(taken)
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if code not in used:
            return code


def new_codes(players: Iterable[str]) -> dict[str, str]:
    """One fresh code a seat, all different.

    >>> sorted(new_codes(["Ann", "Ben"]))
    ['Ann', 'Ben']
    """
    codes: dict[str, str] = {}
    for player in players:
        codes[player] = new_code(codes.values())
    return codes


def derived_code(token: str) -> str:
    """The code of a seat journaled without one: made from its token, so always the same.

    >>> derived_code("abc") == derived_code("abc") and len(derived_code("abc")) == LENGTH
    True
    """
    number = int.from_bytes(hashlib.sha256(f"join-code:{token}".encode()).digest()[:8], "big")
    chars = []
    for _ in range(LENGTH):
        number, k = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[k])
    return "".join(chars)


def codes_of(tokens: Mapping[str, Any]) -> dict[str, str]:
    """Each seat's code: the journaled ones, else derived from the seat tokens.

    >>> codes_of({"seats": {"Ann": "t1"}, "codes": {"Ann": "ABCDE"}})
    {'Ann': 'ABCDE'}
    """
    seats = tokens.get("seats") or {}
    kept = tokens.get("codes") or {}
    return {seat: str(kept.get(seat) or derived_code(token)) for seat, token in seats.items()}


def normal(text: str) -> str:
    """A code as typed, made comparable: capitals, no spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def seat_of_code(tokens: Mapping[str, Any], code: str) -> str | None:
    """The seat whose code ``code`` is (as typed: any case, spaces), or ``None``.

    >>> seat_of_code({"seats": {"Ann": "t"}, "codes": {"Ann": "ABCDE"}}, "abc de")
    'Ann'
    """
    wanted = normal(code)
    found = None
    for seat, seat_code in codes_of(tokens).items():
        if secrets.compare_digest(wanted.encode(), seat_code.encode()):
            found = seat
    return found
