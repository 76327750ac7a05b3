"""Time to validate a Questique move (budget: 1 ms on one core, as every rules move).

Plays seeded four-player games with the table's own tiles and the demo's players on the
built-in board and English dictionary, and times every accepted ``Game.apply`` (placement,
start, ownership and separation checks, dictionary, stars, eliminations, rack refill), and
as many refused moves: a common word put down at random near a crossword, tried with
``Game.trial`` (the refusal and the roll-back).
"""

from __future__ import annotations

import random
import time

from rules import errors
from rules.game import GameSetup
from rules.games import new_game
from rules.questique import QuestiqueGame
from tabletop.benchmarks.stats import us_since
from tabletop.games.questique_players import choose_move, common_words
from tabletop.lexicons import builtin_lexicon
from tabletop.resources import load_board


def measure_questique(games: int, seed: int = 1) -> dict[str, list[float]]:
    """Microseconds per accepted and per refused move over ``games`` games."""
    board = load_board("questique", required=QuestiqueGame.board_layers)
    lexicon = builtin_lexicon("en")
    words = common_words("en")
    rng = random.Random(seed)
    accepted: list[float] = []
    rejected: list[float] = []
    for g in range(games):
        game = new_game(GameSetup("questique", ("Ann", "Ben", "Cai", "Dee"), variant="elimination", seed=g,
                                  options={"pieces": "virtual"}), board, lexicon)
        assert isinstance(game, QuestiqueGame)
        for _ in range(200):
            player = game.whose_turn()
            if game.over or player is None:
                break
            anchors = sorted(game.crossword[player]) or [game.layout.centre[rng.randrange(4)]]
            anchor = rng.choice(anchors)
            probe = {"type": "write", "player": player, "text": rng.choice(words),
                     "row": anchor.row + rng.randint(-3, 1), "col": anchor.col + rng.randint(-3, 1),
                     "dir": rng.choice(["across", "down"])}
            start = time.perf_counter_ns()
            try:
                game.trial(probe)
            except errors.Rejection:
                rejected.append(us_since(start))
            move = choose_move(game, player, rng)
            start = time.perf_counter_ns()
            game.apply(move)
            if move["type"] == "write":
                accepted.append(us_since(start))
    return {"accepted": accepted, "rejected": rejected}
