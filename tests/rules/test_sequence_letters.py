"""Sequence Letters: every rule of sequence-letters.txt, records on other boards, refusals that
name the square's picture and the rule, and random playouts of virtual games."""

from __future__ import annotations

import json
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import errors
from rules.board import parse_board
from rules.game import GameSetup
from rules.record import Record, record_of, replay
from rules.sequence_letters import SequenceLettersGame
from rules.snapshot import fixed_part, picture, undeclared_changes
from tabletop.cli import main
from tabletop.resources import load_board

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
BOARD = load_board("sequence-letters", required=("letters", "colors"))
# someone else's board: 5x5, a square without a picture in the middle, its own picture names
OTHER = parse_board("""
name = "Tiny zoo"
rows = 5
cols = 5
[layers]
letters = ["ABCDE", "FGHIA", "BC.DE", "FGHIJ", "KLMNJ"]
colors  = ["rrgbb", "ygbrr", "rg.bb", "yrbrp", "gyyop"]
[pictures]
A = ["ant", "alligator"]
J = ["jaguar", "jellyfish"]
""", required=("letters", "colors"))


def play(player, card, row, col, **extra):
    return {"type": "play", "player": player, "card": card, "row": row, "col": col, **extra}


def game_on(board=BOARD, players=("Ann", "Ben"), **options):
    return SequenceLettersGame(GameSetup("sequence-letters", players, seed=options.pop("seed", 0), options=options),
                               board, None)


@pytest.mark.parametrize("name, winner, line", [
    ("sequence-letters-two", "Ben", [[3, 0], [3, 1], [3, 2], [3, 3]]),
    ("sequence-letters-teams", "Ann+Cai", [[0, 0], [1, 1], [2, 2], [3, 3]]),
])
def test_examples_replay_to_their_winner_and_line(name, winner, line, capsys):
    assert main(["replay", str(EXAMPLES / f"{name}.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winner"] == winner and out["sequence"] == line


def test_a_letter_card_covers_one_of_its_two_pictures_and_names_them_when_wrong():
    g = game_on()
    with pytest.raises(errors.NotPlayable, match=r"That is the drum \(D4\); B is for balloon or bike"):
        g.apply(play("Ann", "B", 3, 3))
    g.apply(play("Ann", "B", 4, 2))                       # the bike, B's second picture
    assert g.picture(next(iter(g.chips))) == "bike"


def test_a_covered_picture_a_square_without_one_and_off_the_board_are_refused():
    g = game_on(OTHER)
    g.apply(play("Ann", "A", 0, 0))
    with pytest.raises(errors.NotPlayable, match=r"A1 has Ann's chip on it already"):
        g.apply(play("Ben", "A", 0, 0))
    with pytest.raises(errors.NotPlayable, match=r"C3 has no picture"):
        g.apply(play("Ben", "Z", 2, 2))
    with pytest.raises(errors.OffBoard, match=r"There is no picture at row 6, column 1 \(off the board, whose squares run from A1 to E5\)\."):
        g.apply(play("Ben", "Z", 5, 0))
    with pytest.raises(errors.NotYourTurn, match="It is Ben's turn, not Ann's"):
        g.apply(play("Ann", "A", 1, 4))


def test_x_takes_off_another_sides_chip_never_your_own_or_nothing():
    g = game_on(players=("Ann", "Ben", "Cai", "Dee"))
    g.apply(play("Ann", "A", 0, 0))
    g.apply(play("Ben", "B", 0, 1))
    with pytest.raises(errors.NotPlayable, match=r"the apple \(A1\) is Ann\+Cai's own"):
        g.apply(play("Cai", "X", 0, 0))
    with pytest.raises(errors.NotPlayable, match=r"No chip is on the candle"):
        g.apply(play("Cai", "X", 0, 2))
    assert g.apply(play("Cai", "X", 0, 1)).message == "X! Cai takes Ben+Dee's chip off the balloon."
    assert g.totals == {"Ann": 1, "Ben": 0, "Cai": 1, "Dee": 0}


def test_a_card_is_dead_only_when_both_its_pictures_are_covered_and_once_a_turn():
    g = game_on()
    with pytest.raises(errors.Rejection, match=r"The N card is not dead: the nose \(F2\) and the net \(A4\) is still open"):
        g.apply({"type": "dead", "player": "Ann", "card": "N"})
    g.apply(play("Ann", "N", 1, 5))
    g.apply(play("Ben", "N", 3, 0))
    g.apply({"type": "dead", "player": "Ann", "card": "N"})
    with pytest.raises(errors.Rejection, match="one a turn"):
        g.apply({"type": "dead", "player": "Ann", "card": "N"})
    g.apply(play("Ann", "Z", 0, 0))
    g.apply({"type": "dead", "player": "Ben", "card": "N"})           # a new turn: allowed again


def test_four_in_a_row_wins_at_once_in_every_direction():
    for cells in ([(0, 0), (0, 1), (0, 2), (0, 3)], [(0, 4), (1, 4), (2, 4), (3, 4)],
                  [(0, 0), (1, 1), (2, 2), (3, 3)], [(0, 3), (1, 2), (2, 1), (3, 0)]):
        g = game_on()
        spare = iter([(5, 7), (5, 6), (5, 5), (5, 4)])
        for k, (r, c) in enumerate(cells):
            g.apply(play("Ann", "Z", r, c))
            if k < 3:
                g.apply(play("Ben", "Z", *next(spare)))
        assert g.winner == "Ann" and sorted(map(tuple, g.result_json()["sequence"])) == sorted(cells)
        with pytest.raises(errors.GameOver, match="Ann made a sequence"):
            g.apply(play("Ben", "Z", 4, 4))


def test_a_card_colour_must_match_the_pictures_square():
    g = game_on(OTHER)
    with pytest.raises(errors.NotPlayable, match="the colours must match"):
        g.apply(play("Ann", "A", 0, 0, color="b"))
    g.apply(play("Ann", "A", 1, 4, color="r"))


def test_three_players_have_three_colours_and_four_are_two_teams():
    assert game_on(players=("Ann", "Ben", "Cai")).chip_colours == "rbg"
    teams = game_on(players=("Ann", "Ben", "Cai", "Dee"))
    assert teams.sides == (("Ann", "Cai"), ("Ben", "Dee"))
    with pytest.raises(errors.RecordFormatError, match="2 to 4 players"):
        game_on(players=("A", "B", "C", "D", "E"))


def test_an_illegal_play_stops_the_replay_naming_the_event_and_the_picture(tmp_path, capsys):
    record = json.loads((EXAMPLES / "sequence-letters-two.json").read_text())
    record["events"][4] = play("Ben", "K", 3, 1)              # the table, not a kite or a kangaroo
    (tmp_path / "bad.json").write_text(json.dumps(record))
    assert main(["replay", str(tmp_path / "bad.json")]) != 0
    err = capsys.readouterr().err
    assert "event 5" in err and "the table (B4); K is for kite or kangaroo" in err and "Traceback" not in err


def test_virtual_cards_are_dealt_and_must_be_held():
    g = game_on(pieces="virtual", seed=3)
    assert [len(h) for h in g.hands.values()] == [5, 5] and len(g.pile) == 52 - 10
    missing = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWY" if c not in g.hands["Ann"])
    with pytest.raises(errors.NotPlayable, match=f"Ann has no {missing} card"):
        g.apply(play("Ann", missing, 0, 0))


def card_count(g: SequenceLettersGame) -> int:
    return sum(len(h) for h in g.hands.values()) + len(g.pile) + len(g.discards)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([("Ann", "Ben"), ("Ann", "Ben", "Cai"), ("Ann", "Ben", "Cai", "Dee")]))
def test_random_virtual_games_end_lose_no_card_try_moves_without_trace_and_replay_to_themselves(seed, players):
    import random

    from tabletop.games.sequence_letters import choose_play

    g = game_on(players=players, pieces="virtual", seed=seed)
    rng = random.Random(seed)
    total = card_count(g)
    stuck = False
    for _ in range(400):
        player = g.whose_turn()
        if player is None:
            break
        dead = [c for c in g.hands[player] if g.is_dead(c)]
        if dead and not g.dead_this_turn and rng.random() < 0.8:
            g.apply({"type": "dead", "player": player, "card": dead[0]})
        move = choose_play(g, player, rng) if rng.random() < 0.7 else None
        if move is None:
            cards = [c for c in g.hands[player] if c == "X" and any(o != g.side_of[player] for o in g.chips.values())
                     or c != "X" and g.open_pictures(c)]
            if not cards:                        # nothing playable: every card dead, no chip to take
                stuck = True
                g.apply({"type": "end"})
                break
            card = rng.choice(cards)
            if card == "X":
                sq = rng.choice([s for s, o in g.chips.items() if o != g.side_of[player]])
            else:
                sq = rng.choice(g.open_pictures(card))
            move = {"card": card, "row": sq.row, "col": sq.col}
        event = {"type": "play", "player": player, **move}
        before, fixed = picture(g), fixed_part(g)
        g.trial(event)                           # reshuffles of the discards included
        assert picture(g) == before
        g.apply(event)
        assert not undeclared_changes(fixed, fixed_part(g))
        assert card_count(g) == total
        assert len(g.chips) <= len(g.pictures)
    assert g.over and (g.winner is not None) != stuck
    again = replay(Record.from_json(record_of(g, "sequence-letters").to_json()), BOARD, None)
    assert again == g and again.state() == g.state()
