"""A table's link and the room service through a real mosquitto: entries arrive once, in order,
the room's game equals the table's, the outbox keeps what the broker has not acknowledged, and
the room's commands reach the table."""

from __future__ import annotations


from rules.game import GameSetup
from tabletop.room.address import RoomAddress
from tabletop.room.link import TableLink
from tabletop.room.service import RoomService
from tabletop.session.clock import SimClock
from tabletop.session.core import Session
from tabletop.session.journal import Journal

from tests.room.conftest import wait_for


def _table(tmp_path, name: str, game: str = "letter-dice", players=("Ann", "Ben")) -> Session:
    journal = Journal(tmp_path / f"table-{name}.sqlite")
    return Session.create(journal, GameSetup(game, players, seed=3), "", clock=SimClock(), game_id=f"g{name}")


def _room(broker, tmp_path, name: str = "club") -> RoomService:
    return RoomService(RoomAddress.broker(broker.url, name), str(tmp_path / "room.sqlite")).start()


def _word_round(session: Session, words: dict[str, str]) -> None:
    session.submit({"type": "roll", "faces": ["C", "A", "T", "S", "E", "R", "O", "*"]})
    for row, (player, word) in enumerate(words.items(), start=1):
        session.submit({"type": "word", "player": player, "row": row, "word": word})
    session.clock.advance(200)
    session.tick()


def test_entries_reach_the_room_once_and_its_game_equals_the_tables(broker, tmp_path):
    room = _room(broker, tmp_path)
    session = _table(tmp_path, "1")
    link = TableLink(session, RoomAddress.broker(broker.url, "club"), "1").start()
    try:
        _word_round(session, {"Ann": "CATS", "Ben": "ROSE"})
        session.undo()
        session.submit({"type": "end"})
        last = session.journal.count("g1")
        wait_for(lambda: room.replicas.get(("1", "g1")) and room.replicas[("1", "g1")].applied_seq == last)
        replica = room.replicas[("1", "g1")]
        assert replica.totals == session.game.totals
        assert replica.game.state() == session.game.state()
        assert replica.counted == last
        wait_for(lambda: len(link.outbox) == 0, what="the outbox to empty")
        snapshot = room.snapshot()
        assert snapshot["tables"][0]["online"] and snapshot["leaderboard"]["letter-dice"]
    finally:
        link.close()
        room.close()


def test_the_table_plays_on_without_a_broker_and_catches_up(broker, tmp_path):
    session = _table(tmp_path, "2")
    broker.kill()
    link = TableLink(session, RoomAddress.broker(broker.url, "club"), "2").start()
    _word_round(session, {"Ann": "CAT", "Ben": "ROSE"})
    assert len(link.outbox) >= session.journal.count("g2")          # all kept, nothing sent
    broker.start()
    room = _room(broker, tmp_path)
    try:
        wait_for(lambda: len(link.outbox) == 0, what="the outbox to empty")
        wait_for(lambda: ("2", "g2") in room.replicas
                 and room.replicas[("2", "g2")].applied_seq == session.journal.count("g2"))
        assert room.replicas[("2", "g2")].totals == session.game.totals
    finally:
        link.close()
        room.close()


def test_the_rooms_commands_reach_the_table_duplicate_roll_pause_and_message(broker, tmp_path):
    room = _room(broker, tmp_path)
    said: list[str] = []
    tables = [_table(tmp_path, str(n)) for n in (1, 2)]
    links = [TableLink(s, RoomAddress.broker(broker.url, "club"), str(n), say=said.append).start()
             for n, s in zip((1, 2), tables)]
    try:
        wait_for(lambda: all(link.client.connected.is_set() for link in links))
        wait_for(lambda: room.client.connected.is_set())
        import time
        time.sleep(0.3)                 # the tables' subscriptions settle
        faces = room.roll_everywhere()
        wait_for(lambda: all(s.game.round is not None for s in tables), what="the duplicate roll")
        assert [list(s.game.round.faces) for s in tables] == [faces, faces]
        room.send("pause")
        wait_for(lambda: all(s.paused for s in tables), what="the pause")
        room.send("message", text="Ten minutes left")
        wait_for(lambda: sum("Ten minutes left" in line for line in said) == 2, what="the broadcast")
    finally:
        for link in links:
            link.close()
        room.close()


def test_a_restarted_room_counts_nothing_twice(broker, tmp_path):
    session = _table(tmp_path, "3")
    link = TableLink(session, RoomAddress.broker(broker.url, "club"), "3").start()
    room = _room(broker, tmp_path)
    try:
        _word_round(session, {"Ann": "CATS", "Ben": "SEA"})
        wait_for(lambda: ("3", "g3") in room.replicas and room.replicas[("3", "g3")].applied_seq
                 == session.journal.count("g3"))
        room.close()
        link._resend("g3", 0)            # the table sends everything again while the room is away
        session.submit({"type": "end"})
        room = _room(broker, tmp_path)
        wait_for(lambda: room.replicas[("3", "g3")].applied_seq == session.journal.count("g3"))
        assert room.replicas[("3", "g3")].totals == session.game.totals
        assert room.replicas[("3", "g3")].counted == session.journal.count("g3")
    finally:
        link.close()
        room.close()


def test_next_deck_seats_and_end_from_the_console(broker, tmp_path):
    from tabletop.decks import builtin_deck
    from tabletop.room.web import console_action

    room = RoomService(RoomAddress.broker(broker.url, "club"), str(tmp_path / "room.sqlite"),
                       export_dir=str(tmp_path / "export")).start()
    dice = _table(tmp_path, "1")
    sp = Session.create(Journal(tmp_path / "sp.sqlite"), GameSetup("extradiction-sp", ("Ann", "Ben", "Cai"),
                                                                   variant="classic", seed=1),
                        "extradiction-sp", clock=SimClock(), game_id="g2", deck=builtin_deck("en").shuffled(1))
    said: list[str] = []
    links = [TableLink(s, RoomAddress.broker(broker.url, "club"), str(n), say=said.append).start()
             for n, s in ((1, dice), (2, sp))]
    try:
        wait_for(lambda: room.client.connected.is_set() and all(link.client.connected.is_set() for link in links))
        import time
        time.sleep(0.3)
        console_action(room, "next", {})                     # letter dice: the table rolls for the players
        wait_for(lambda: dice.game.round is not None, what="the next round")
        answer = console_action(room, "deck", {"seed": 5})    # SP: the room's clue card order
        assert answer["seed"] == 5
        wait_for(lambda: [c.id for c in sp.deck] == [c.id for c in builtin_deck("en").shuffled(5)],
                 what="the room's deck")
        seating = console_action(room, "seats", {"kind": "swiss", "size": 2})["seating"]
        assert sorted(sum(seating.values(), [])) == ["Ann", "Ben", "Cai"]
        wait_for(lambda: any(line.startswith("room: next round at this table") for line in said))
        files = console_action(room, "end", {})["files"]
        wait_for(lambda: dice.game.over and sp.game.over, what="every game to end")
        assert any(f.endswith("standings.csv") for f in files)
        assert (tmp_path / "export" / "table-1-g1.json").exists()
    finally:
        for link in links:
            link.close()
        room.close()
