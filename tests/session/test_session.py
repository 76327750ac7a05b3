"""The session and its journal: append before apply, rejections kept, resume, undo, clock, export."""

from __future__ import annotations

import json
import sqlite3

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.record import replay
from tabletop.session import Journal, Session, SimClock, TableClock
from tabletop.session.core import EntryRefused
from tabletop.games import spec
from tabletop.session.refusals import BadEntry

WORDS = ["market", "penetrate", "thermostat", "invisible", "apple", "star", "rat", "cat"]
SP_TURN = [
    {"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls", "t": 1.0},
    {"type": "clue_read", "player": "Ann", "t": 4.0},
    {"type": "hand", "player": "Ben", "t": 5.0},
    {"type": "recognise", "player": "Ann", "target": "Ben", "t": 6.0},
    {"type": "answer", "player": "Ben", "text": "market", "t": 7.0},
    {"type": "write", "player": "Ben", "text": "MARKET", "row": 9, "col": 6, "dir": "across", "t": 15.0},
]


def new_session(tmp_path, game="extradiction-sp", variant="classic", players=("Ann", "Ben", "Cai"), clock=None):
    journal = Journal(tmp_path / "j.sqlite")
    return Session.create(journal, GameSetup(game, players, variant=variant, seed=1), game,
                          lexicon=Lexicon(WORDS), clock=clock or SimClock(), game_id="g")


def reopen(session, clock=None):
    path = session.journal.path
    session.journal.close()
    return Session.resume(Journal(path), "g", lexicon=Lexicon(WORDS), clock=clock or SimClock())


def test_journal_is_wal_with_full_sync(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2     # FULL


def test_event_is_committed_before_the_rules_see_it(tmp_path):
    session = new_session(tmp_path)
    seen = []
    real_apply = session.game.apply

    def spy(event):
        other = sqlite3.connect(session.journal.path)          # another connection sees only committed rows
        seen.append(other.execute("SELECT seq, status, body FROM entries").fetchall())
        other.close()
        return real_apply(event)

    session.game.apply = spy
    session.submit(SP_TURN[0])
    assert len(seen[0]) == 1 and seen[0][0][1] == "pending" and json.loads(seen[0][0][2])["type"] == "clue"
    assert session.journal.entries("g")[0].status == "accepted"


def test_rejected_events_stay_in_the_journal_and_resume_skips_them(tmp_path):
    session = new_session(tmp_path)
    session.submit(SP_TURN[0])
    bad = session.submit({"type": "hand", "player": "Ben", "t": 2.0})           # before the clue is read
    assert bad.status == "rejected" and "before the clue was finished" in bad.message
    with pytest.raises(BadEntry, match="needs 'text'"):                       # malformed: never journaled
        session.submit({"type": "write", "player": "Ben"})
    for event in SP_TURN[1:]:
        assert session.submit(event).accepted
    statuses = [e.status for e in session.journal.entries("g")]
    assert statuses.count("rejected") == 1 and len(statuses) == 7
    state = session.game.state()
    again = reopen(session)
    assert again.game.state() == state and again.game.totals["Ben"] == 21


def test_a_crash_between_journal_and_rules_is_applied_on_resume(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN[:-1]:
        session.submit(event)
    seq = session.journal.append("g", "event", SP_TURN[-1], t=15.0, source="camera")   # journaled, then the power went
    assert session.journal.entries("g")[-1].status == "pending"
    again = reopen(session)
    assert again.journal.entries("g")[-1].status == "accepted" and again.journal.entries("g")[-1].seq == seq
    assert again.game.totals["Ben"] == 21


def test_undo_takes_back_the_last_event_and_survives_resume(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN:
        session.submit(event)
    assert session.game.totals["Ben"] == 21
    undone = session.undo()
    assert "write by Ben" in undone.message and session.game.totals["Ben"] == 0
    assert session.game.turn.phase == "writing"
    again = reopen(session)
    assert again.game.totals["Ben"] == 0 and len(again.game.events) == 5
    assert again.submit({**SP_TURN[-1], "t": 16.0}).accepted and again.game.totals["Ben"] == 21


def test_the_table_clock_continues_after_resume_and_pauses(tmp_path):
    now = [100.0]
    clock = TableClock(source=lambda: now[0])
    session = new_session(tmp_path, clock=clock)
    now[0] += 12.5
    assert session.submit({"type": "clue", "player": "Ann"}).event["t"] == 12.5
    now[0] += 3
    session.checkpoint()
    session.pause()
    now[0] += 100
    assert session.clock.now() == 15.5
    resumed_clock = TableClock(source=lambda: now[0])
    again = reopen(session, clock=resumed_clock)
    assert again.paused and again.clock.now() == 15.5
    again.unpause()
    now[0] += 2
    assert again.clock.now() == 17.5


def test_the_clock_closes_windows_sp(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN[:4]:
        session.submit(event)
    session.clock.set(11.5)                                   # Ben's 5 s ran out at 11
    [timeout] = session.tick()
    assert timeout.event["type"] == "answer" and timeout.event["timeout"] and "were up" in timeout.message
    session.clock.set(34.5)                                   # the 30 s from 4 s ran out
    [closed] = session.tick()
    assert closed.event["type"] == "time" and "Ann writes" in closed.message
    assert session.tick() == []
    assert session.game.turn.writer == "Ann"


def test_view_hides_the_answer_and_host_view_shows_it(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN[:3]:
        session.submit(event)
    view = session.view()
    assert "market" not in json.dumps(view).lower()
    assert view["hands"] == ["Ben"] and view["timers"][0]["name"] == "answers" and view["timers"][0]["ends"] == 34.0
    host = session.host_view()
    assert host["clue"]["answer"] == "market"
    assert any(a["label"] == "Recognise Ben" for a in host["actions"])


def test_player_entries_become_events_within_their_window(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN[:4]:
        session.submit(event)
    with pytest.raises(EntryRefused):
        session.enter("Cai", {"text": "market"})               # not Cai's turn to answer
    result = session.enter("Ben", {"text": "market"})
    assert result.accepted and result.source == "seat:Ben" and session.game.turn.writer == "Ben"
    session.clock.set(50.0)                                   # late: taken, and open to challenge (SP rules)
    late = session.enter("Ben", {"text": "MARKET", "row": 9, "col": 6, "dir": "across"})
    assert late.accepted and session.game.turns[-1].late and "may be challenged" in late.message


def test_host_windows_hide_entries_until_the_deadline_and_survive_resume(tmp_path):
    session = new_session(tmp_path)
    window = session.open_window(None, 30, "words")
    session.enter("Ann", {"text": "cat"})
    session.enter("Ben", {"text": "rat"})
    [seen_by_ben] = session.entries_for("Ben")
    assert seen_by_ben["entries"] == {"Ben": [{"text": "rat", "t": 0.0}]} and seen_by_ben["counts"]["Ann"] == 1
    session.clock.advance(31)
    with pytest.raises(EntryRefused, match="Too late"):
        session.enter("Cai", {"text": "star"})
    assert set(session.entries_for("Ben")[0]["entries"]) == {"Ann", "Ben"}
    again = reopen(session)
    again.clock.set(31)
    assert again.entries_for("Cai")[0]["entries"]["Ann"][0]["text"] == "cat" and window.id in again.host_windows


def test_record_replays_to_the_same_totals(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN:
        session.submit(event)
    session.submit({"type": "challenge", "player": "Cai", "t": 16.0})          # fails: journaled, not recorded
    record = session.record()
    assert len(record.events) == 6
    assert replay(record, session.board, session.lexicon).totals == session.game.totals


def test_off_board_writes_are_refused_without_hanging(tmp_path):
    session = new_session(tmp_path, variant="speed")
    result = session.submit({"type": "write", "player": "Ann", "text": "CAT", "row": 3, "col": -4, "dir": "across"})
    assert result.status == "rejected" and "off the board" in result.message


def test_level1_speech_spells_the_word():
    from rules.games import new_game
    from tabletop.resources import load_board
    game = new_game(GameSetup("extradiction", ("Ann",), variant="level1"), load_board("extradiction"), Lexicon(WORDS))
    lines = spec("extradiction").table.speech(game, {"type": "clue", "player": "Ann", "answer": "cat"}, "")
    assert lines == ["The picture shows cat.", "cat is spelt C, A, T."]


def test_announcer_says_the_clue_the_score_and_refusals_with_the_voice_off(tmp_path):
    from tabletop.announce import Announcer, scoreboard_table
    session = new_session(tmp_path)
    announcer = Announcer(session, voice=False)
    for event in SP_TURN:
        session.submit(event)
    session.submit({"type": "challenge", "player": "Cai", "t": 16.0})
    spoken = announcer.spoken
    assert spoken[0] == "Ann asks: 6-letter word beginning with 'm': stalls"
    assert "Ben: MARKET: 7 x 3 zones = 21 -> 21." in spoken and "Scores: Ann 0, Ben 21, Cai 0." in spoken
    assert "challenge fails" in spoken[-1]
    assert scoreboard_table(session.view()).row_count == 3


def test_unsure_camera_reads_wait_for_the_host(tmp_path):
    session = new_session(tmp_path)
    for event in SP_TURN[:-1]:
        session.submit(event)
    read = {"type": "write", "text": "MARKET", "row": 9, "col": 6, "dir": "across", "confidence": 0.6, "t": 14.0}
    assert session.camera_read(read, needs_confirmation=True) is None
    assert session.pending_reads[0]["player"] == "Ben"
    assert session.seat_view("Ben")["readings"][0]["readings"] == ["MARKET"]   # Ben may settle it on his phone
    assert len(session.game.events) == 5                       # nothing reached the rules yet
    result = session.confirm_read(0)
    assert result.accepted and result.source == "camera+host" and session.game.totals["Ben"] == 21
    with pytest.raises(EntryRefused):
        session.confirm_read(0)


def test_concurrent_inputs_are_numbered_once_each(tmp_path):
    import threading
    session = new_session(tmp_path, variant="speed")
    barrier = threading.Barrier(6)

    def hammer(k):
        barrier.wait()
        for i in range(15):
            session.submit({"type": "time", "n": k * 100 + i})
            session.view()

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries = session.journal.entries("g")
    assert [e.seq for e in entries] == list(range(1, 91))
    assert sorted(e.body["n"] for e in entries) == sorted(k * 100 + i for k in range(6) for i in range(15))
    assert all(e.status == "accepted" for e in entries) and session.applied == list(range(1, 91))


def test_a_typed_answer_without_the_cards_answer_is_left_to_the_host(tmp_path):
    session = new_session(tmp_path)
    for event in [{"type": "clue", "player": "Ann", "t": 1.0}, *SP_TURN[1:4]]:
        session.submit(event)
    with pytest.raises(EntryRefused, match="host judges"):
        session.enter("Ben", {"text": "market"})
    with pytest.raises(EntryRefused, match="needs row"):
        session.submit({"type": "answer", "player": "Ben", "correct": True, "t": 7.0}) and \
            session.enter("Ben", {"text": "MARKET", "col": 6})
