"""Each player's :class:`vision.hands.HandMemory`, kept in step with the session's journalled
lessons (:mod:`tabletop.session.hands`): new lessons are learnt as they come, and a host's reset
starts that player's memory again. The camera and the phone scan read through one of these."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletop.session.hands import Hands
    from vision.hands import HandMemory
    from vision.letters import LetterModel


class HandMemories:
    """``of(player)``: that player's memory, up to date with the lessons ``hands`` keeps."""

    def __init__(self, hands: Hands, model: LetterModel):
        self.hands, self.model = hands, model
        self._known: dict[str, tuple[int, int, HandMemory]] = {}  # player -> (resets, lessons used, memory)

    def of(self, player: str) -> HandMemory:
        """``player``'s memory, having learnt every lesson journalled since their last reset."""
        from vision.hands import HandMemory

        resets = self.hands.resets.get(player, 0)
        lessons = self.hands.lessons.get(player, [])
        known = self._known.get(player)
        if known is None or known[0] != resets:
            known = (resets, 0, HandMemory(self.model))
        memory = known[2]
        for lesson in lessons[known[1]:]:
            memory.learn_json(lesson)
        self._known[player] = (resets, len(lessons), memory)
        return memory
