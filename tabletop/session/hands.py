"""Each player's hand: the letters of their confirmed camera reads, journalled so the reader can
learn their letter shapes (:mod:`vision.hands`) and a resumed game keeps what it learnt.

A *lesson* is ``{"letters": "CAT", "images": [base64 of a 28x28 uint8 image, ...]}``: the newly
written squares of a camera read that became an accepted ``write`` (read surely, or confirmed
by the host). It is journalled (kind ``hand-lesson``) before the table uses it; the host's reset is
journalled too (kind ``hand-reset``). A mixin of :class:`tabletop.session.core.Session`.
"""

from __future__ import annotations

from typing import Any

from tabletop.session.base import SessionBase
from tabletop.session.refusals import BadEntry, EntryRefused

#: a lesson holds at most this many letters (one word's new squares)
MOST_LETTERS = 40


class Hands(SessionBase):
    """The journalled lessons of each player's hand."""

    hand_lessons: dict[str, list[dict[str, Any]]]
    hand_resets: dict[str, int]  #: per player, how many times the host reset their hand

    def teach_hand(self, player: str, lesson: dict[str, Any], source: str | None = "camera") -> None:
        """Journal ``lesson`` as ``player``'s, then keep it. A malformed lesson is refused
        (:class:`EntryRefused`) and not journalled."""
        letters, images = lesson.get("letters"), lesson.get("images")
        if (player not in self.setup.players or not isinstance(letters, str) or not isinstance(images, list)
                or not 0 < len(letters) == len(images) <= MOST_LETTERS
                or not all(isinstance(i, str) and len(i) < 2000 for i in images)):
            raise EntryRefused(f"A lesson for {player!r}'s hand must be letters with one image each.")
        body = {"player": player, "letters": letters, "images": images}
        with self._lock:
            self.journal.append(self.game_id, "hand-lesson", body, t=self.clock.now(), source=source)
            self._keep_lesson(body)

    def reset_hand(self, player: str, source: str | None = "host") -> None:
        """Forget what the table learnt of ``player``'s hand (journalled: a resumed game forgets too)."""
        if player not in self.setup.players:
            raise BadEntry(f"{str(player)[:50]!r} does not play in this game (its players: "
                           f"{', '.join(self.setup.players)}).")
        with self._lock:
            self.journal.append(self.game_id, "hand-reset", {"player": player}, t=self.clock.now(), source=source)
            self._forget_hand(player)
            self._publish({"kind": "hand", "player": player, "letters": 0})

    def hand_letters(self, player: str) -> int:
        """How many of ``player``'s letters the table has learnt from."""
        return sum(len(lesson["letters"]) for lesson in self.hand_lessons.get(player, []))

    def _keep_lesson(self, body: dict[str, Any]) -> None:
        self.hand_lessons.setdefault(body["player"], []).append({"letters": body["letters"], "images": body["images"]})

    def _forget_hand(self, player: str) -> None:
        self.hand_lessons.pop(player, None)
        self.hand_resets[player] = self.hand_resets.get(player, 0) + 1
