"""Private things stay private: a refused sealed word (letter dice), a rack (Questique, the table's
own tiles, a host's exchange included) and a hand of cards (Sequence Letters, the table's own
cards) reach the player who made the entry and the host, never the scoreboard, the public log,
the other seats or the voice."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from rules.game import GameSetup
from rules.games import game_class
from rules.lexicon import Lexicon
from tabletop.announce import Announcer
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.web import make_app


def table(game, players, board=None, **options):
    session = Session.create(Journal(":memory:"), GameSetup(game, players, options=options, seed=3), board or "",
                             board=load_board(board, required=game_class(game).board_layers) if board else None, lexicon=Lexicon(["cat", "cranes"]),
                             clock=SimClock())
    voice = Announcer(session, voice=False)
    return session, TestClient(make_app(session)), voice


def seen_by(client, session, seat=None):
    """Everything a page can read: the scoreboard, and ``seat``'s own state."""
    token = session.tokens["seats"][seat] if seat else None
    texts = [json.dumps(client.get("/api/state").json())]
    if seat:
        texts.append(json.dumps(client.get("/api/seat/state", headers={"X-Tabletop-Token": token}).json()))
    return "\n".join(texts)


def assert_private(session, client, voice, owner, secret):
    others = [p for p in session.setup.players if p != owner]
    for seat in [None, *others]:
        assert secret not in seen_by(client, session, seat), (seat, secret)
    assert all(secret not in line for line in voice.spoken)
    assert any(f"{owner}'s entry was refused" in line["message"] for line in session.log)
    assert secret in seen_by(client, session, owner)                     # her own page says why
    host = client.get("/api/host/state", headers={"X-Tabletop-Token": session.tokens["host"]}).json()
    assert any(secret in line["message"] for line in host["private_log"])


def test_a_refused_sealed_word_reaches_only_its_writer():
    session, client, voice = table("letter-dice", ("Ann", "Ben", "Cai"))
    session.submit({"type": "roll", "faces": ["C", "R", "A", "N", "E", "S", "T", "*"]})
    row = next(r for r, (squares, _points) in enumerate(session.game.sheet, start=1) if squares != 6)
    reply = client.post("/api/seat/entry", json={"text": "cranes", "row": row},
                        headers={"X-Tabletop-Token": session.tokens["seats"]["Ann"]}).json()
    assert reply["status"] == "rejected" and "CRANES" in reply["message"]      # told to Ann herself
    assert_private(session, client, voice, "Ann", "CRANES")


def test_a_rack_is_never_shown_to_the_others_even_on_a_host_exchange():
    session, client, voice = table("questique", ("Ann", "Ben"), board="questique", pieces="virtual")
    player = session.game.whose_turn()
    rack = " ".join(session.game.supply.racks[player])
    reply = client.post("/api/host/event", json={"event": {"type": "exchange", "player": player, "tiles": "QQQQ"}},
                        headers={"X-Tabletop-Token": session.tokens["host"]}).json()
    assert reply["status"] == "rejected" and rack in reply["message"]
    assert_private(session, client, voice, player, rack)


def test_a_hand_of_cards_is_never_shown_to_the_others():
    session, client, voice = table("sequence-letters", ("Ann", "Ben"), board="sequence-letters", pieces="virtual")
    player = session.game.whose_turn()
    hand = " ".join(session.game.hands[player])
    missing = next(c for c in "ABCDEFGHIJKLMNOPRSTUVW" if c not in session.game.hands[player])
    square = next((r, c) for r, row in enumerate(session.board.layers["letters"]) for c, ch in enumerate(row)
                  if ch == missing)
    result = session.submit({"type": "play", "player": player, "card": missing, "row": square[0], "col": square[1]})
    assert result.status == "rejected" and hand in result.message
    assert_private(session, client, voice, player, f"{player}'s cards: {hand}")


@pytest.mark.parametrize("game", ["letter-dice"])
def test_public_refusals_stay_public(game):
    session, client, voice = table(game, ("Ann", "Ben"))
    session.submit({"type": "roll", "faces": ["A"] * 30})                # not a roll of these dice
    assert "1 to 20 of them" in seen_by(client, session) and session.private_log == []
