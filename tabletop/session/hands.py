"""Each player's hand: the letters of their confirmed camera reads, journalled so the reader can
learn their letter shapes (:mod:`vision.hands`) and a resumed game keeps what it learnt.

A *lesson* is ``{"letters": "CAT", "images": [base64 of a 28x28 uint8 image, ...]}``: the newly
written squares of a camera read that became an accepted ``write`` (read surely, or confirmed
by the host). It is journalled (kind ``hand-lesson``) before the table uses it; the host's reset is
journalled too (kind ``hand-reset``).

>>> class Core:  # the little of the session's core this part uses
...     setup = type("Setup", (), {"players": ("Ann",)})()
>>> Hands(Core()).hand_letters("Ann")
0
"""

from __future__ import annotations

from typing import Any, Mapping

from tabletop.session.parts import Part, Replayer
from tabletop.session.refusals import BadEntry, EntryRefused

#: a lesson holds at most this many letters (one word's new squares)
MOST_LETTERS = 40


class Hands(Part):
    """The journalled lessons of each player's hand, and the host's resets."""

    kinds = ("hand-lesson", "hand-reset")

    def __init__(self, core: Any):
        super().__init__(core)
        self.lessons: dict[str, list[dict[str, Any]]] = {}
        self.resets: dict[str, int] = {}   #: per player, how many times the host reset their hand

    def replayers(self) -> Mapping[str, Replayer]:
        return {"hand-lesson": lambda entry: self._keep(entry.body),
                "hand-reset": lambda entry: self._forget(entry.body["player"])}

    def teach(self, player: str, lesson: dict[str, Any], source: str | None = "camera") -> None:
        """Journal ``lesson`` as ``player``'s, then keep it. A malformed lesson is refused
        (:class:`EntryRefused`) and not journalled."""
        letters, images = lesson.get("letters"), lesson.get("images")
        if (player not in self.core.setup.players or not isinstance(letters, str) or not isinstance(images, list)
                or not 0 < len(letters) == len(images) <= MOST_LETTERS
                or not all(isinstance(i, str) and len(i) < 2000 for i in images)):
            raise EntryRefused(f"A lesson for {player!r}'s hand must be letters with one image each.")
        body = {"player": player, "letters": letters, "images": images}
        with self.core.lock:
            self.core.append("hand-lesson", body, source)
            self._keep(body)

    def reset(self, player: str, source: str | None = "host") -> None:
        """Forget what the table learnt of ``player``'s hand (journalled: a resumed game forgets too)."""
        if player not in self.core.setup.players:
            raise BadEntry(f"{str(player)[:50]!r} does not play in this game (its players: "
                           f"{', '.join(self.core.setup.players)}).")
        with self.core.lock:
            self.core.append("hand-reset", {"player": player}, source)
            self._forget(player)
            self.core.publish({"kind": "hand", "player": player, "letters": 0})

    def hand_letters(self, player: str) -> int:
        """How many of ``player``'s letters the table has learnt from."""
        return sum(len(lesson["letters"]) for lesson in self.lessons.get(player, []))

    def _keep(self, body: dict[str, Any]) -> None:
        with self.core.lock:
            self.lessons.setdefault(body["player"], []).append({"letters": body["letters"], "images": body["images"]})

    def _forget(self, player: str) -> None:
        with self.core.lock:
            self.lessons.pop(player, None)
            self.resets[player] = self.resets.get(player, 0) + 1
