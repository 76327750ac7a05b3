"""Questique as someone else plays it: random playouts with the table's own tiles (no tile made
or lost, a valid winner, the record replays to the same game), the shipped examples, and a
record written by hand on another board file."""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.questique import QuestiqueGame
from rules.questique_layout import standard_board
from rules.record import Record, record_of, replay
from tabletop.cli import main
from tabletop.games.questique_players import choose_move
from tests.helpers import POCKET_QUESTIQUE
from tests.rules.playouts import QUESTIQUE_EVENT, QUESTIQUE_LEXICON, QUESTIQUE_WORDS

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
WORDS, LEXICON = QUESTIQUE_WORDS, QUESTIQUE_LEXICON

def playout(players, variant, seed, board=None):
    options = {"pieces": "virtual"}
    game = QuestiqueGame(GameSetup("questique", players, variant=variant, seed=seed, options=options),
                         board or standard_board(), LEXICON)
    rng = random.Random(seed)
    for _ in range(300):
        player = game.whose_turn()
        if game.over or player is None:
            break
        assert game.supply.in_hand() + len(game.grid) == 150          # nothing made or lost
        game.apply(choose_move(game, player, rng, words=WORDS))
    if not game.over:
        game.apply({"type": "end"})
    return game


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from([
    (("Ann", "Ben"), None), (("Ann", "Ben", "Cai"), None), (("Ann", "Ben", "Cai", "Dee"), None),
    (("Ann", "Ben"), "elimination"), (("Ann", "Ben", "Cai", "Dee"), "partner+elimination"),
    (("Ann", "Ben", "Cai"), "extra+token"), (("Ann",), "solo")]))
def test_random_games_keep_every_tile_end_with_a_valid_winner_and_replay_to_themselves(seed, table):
    players, variant = table
    game = playout(players, variant, seed)
    assert game.supply.in_hand() + len(game.grid) == 150
    assert game.over
    winner = game.winner
    sides = {game.side_name(k) for k in range(len(game.sides))}
    assert winner is None or winner in sides
    if winner is not None and game.winning_side is None and not game.rules.solo:
        best = max(game.side_stars(k) for k in range(len(game.sides)) if game.side_name(k) not in game.eliminated)
        assert game.side_stars(next(k for k in range(len(game.sides)) if game.side_name(k) == winner)) == best
    again = replay(Record.from_json(record_of(game, "questique").to_json()), standard_board(), LEXICON)
    assert again == game and again.result_json() == game.result_json()


def test_a_physical_record_without_racks_replays_the_same_stars():
    game = playout(("Ann", "Ben", "Cai"), None, 4)
    data = record_of(game, "questique").to_json()
    data.pop("pieces")
    data["first"] = game.order[0]
    again = replay(Record.from_json(data), standard_board(), LEXICON)
    assert again.totals == game.totals and again.winner == game.winner


@pytest.mark.parametrize("name, winner, eliminated", [
    ("questique-two", "Ben", []), ("questique-three", "Ann", []), ("questique-elimination", "Dee", ["Cai"])])
def test_the_shipped_examples_replay_to_their_stars_and_winner(name, winner, eliminated, capsys):
    assert main(["replay", str(EXAMPLES / f"{name}.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winner"] == winner and out["eliminated"] == eliminated
    assert out["totals"][winner] == 4 and sum(t["score"] for t in out["turns"]) == sum(out["totals"].values())




def test_a_hand_written_record_on_its_own_board_file_replays_with_stars_eliminations_and_winner(tmp_path, capsys):
    (tmp_path / "pocket.toml").write_text(POCKET_QUESTIQUE)
    (tmp_path / "words.txt").write_text("cat\nscat\nstab\nas\nasks\nat\n")
    record = {
        "game": "questique", "board": "pocket.toml", "lexicon": "words.txt", "variant": "elimination",
        "players": ["Ann", "Ben", "Cai"], "excluded": [],
        "individual": [{"player": "Cai", "letter": "R", "row": 4, "col": 4}],
        "events": [
            {"type": "write", "player": "Ann", "text": "CAT", "row": 1, "col": 1, "dir": "down"},
            {"type": "write", "player": "Ben", "text": "AT", "row": 1, "col": 6, "dir": "across"},
            {"type": "write", "player": "Cai", "text": "AT", "row": 6, "col": 6, "dir": "across"},
            {"type": "write", "player": "Ann", "text": "STAB", "row": 3, "col": 0, "dir": "across"},
            {"type": "pass", "player": "Ben"},
            {"type": "write", "player": "Ann", "text": "SCAT", "row": 0, "col": 1, "dir": "down"},
            {"type": "end"},
        ]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"] == {"Ann": 2, "Ben": 0, "Cai": 0}
    assert out["eliminated"] == ["Cai"]         # STAB's B on D4 is diagonally next to Cai's R on E5
    assert out["winner"] == "Ann" and out["stars"]["Ann"] == ["A4", "D4"]


def test_an_illegal_event_in_a_record_stops_the_replay_naming_its_position_and_rule(tmp_path, capsys):
    record = {"game": "questique", "players": ["Ann", "Ben"], "events": [
        {"type": "write", "player": "Ann", "text": "CAT", "row": 4, "col": 3, "dir": "across"},
        {"type": "write", "player": "Ben", "text": "CAT", "row": 4, "col": 13, "dir": "across"}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) != 0
    err = capsys.readouterr().err
    assert "event 2 (write by Ben)" in err and "diagonally opposite" in err


EVENT = QUESTIQUE_EVENT


@settings(max_examples=150, deadline=None)
@given(st.lists(EVENT, max_size=12), st.sampled_from([None, "extra", "elimination+speed", "token"]),
       st.booleans())
def test_fuzzed_events_are_accepted_or_refused_with_a_rules_error_and_a_refusal_changes_nothing(events, variant, virtual):
    from rules import errors

    options = {"pieces": "virtual"} if virtual else {}
    game = QuestiqueGame(GameSetup("questique", ("Ann", "Ben", "Cai"), variant=variant, seed=1, options=options),
                         standard_board(), Lexicon(["cat", "cats", "at", "act"]))
    for event in events:
        before = game.state()
        try:
            game.apply(event)
        except (errors.Rejection, errors.EventFormatError) as refusal:
            assert str(refusal) and game.state() == before
    if game.supply is not None:
        assert game.supply.in_hand() + len(game.grid) == 150
