"""Play the Questique example games of ``examples/`` with the demo's players and write their
records as a table with real tiles would (no ``pieces``: the record says what went down).

    .venv/bin/python scripts/make_questique_examples.py

Each game is played with the table's own tiles (a seeded bag) so that the players have racks;
the record keeps the seed-drawn first player as ``first``, the individual letters as
``individual`` and the events, and replays without the bag.
"""

from __future__ import annotations

import json
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from rules.game import GameSetup  # noqa: E402
from rules.games import new_game  # noqa: E402
from tabletop.games.questique_players import choose_move  # noqa: E402
from tabletop.lexicons import builtin_lexicon  # noqa: E402
from tabletop.resources import load_board  # noqa: E402

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
GAMES = {
    "questique-two": (("Ann", "Ben"), None, 3),
    "questique-three": (("Ann", "Ben", "Cai"), None, 5),
    "questique-elimination": (("Ann", "Ben", "Cai", "Dee"), "elimination", 11),
}


def play(players: tuple[str, ...], variant: str | None, seed: int) -> dict:
    board = load_board("questique", required=("marks", "quadrants"))
    game = new_game(GameSetup("questique", players, variant=variant, seed=seed, options={"pieces": "virtual"}),
                    board, builtin_lexicon("en"))
    rng = random.Random(seed)
    for _ in range(400):
        player = game.whose_turn()
        if game.over or player is None:
            break
        game.apply(choose_move(game, player, rng))
    record = {"game": "questique", "board": "questique", "players": list(players)}
    if variant:
        record["variant"] = variant
    record["first"] = game.order[0]
    if game.individual:
        record["individual"] = [{"player": owner, "letter": game.grid[sq], "row": sq.row, "col": sq.col}
                                for sq, owner in sorted(game.individual.items())]
    record["events"] = [e.to_json() for e in game.events]
    print(f"{' '.join(players)} ({variant or 'standard'}): {game.standings()} eliminated {game.eliminated}")
    return record


def main() -> None:
    for name, (players, variant, seed) in GAMES.items():
        record = play(players, variant, seed)
        (EXAMPLES / f"{name}.json").write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
