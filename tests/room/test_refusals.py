"""A bad or foreign message on any topic is refused and logged, never crashes the room and
never reaches a standing: wrong shapes, unknown tables, replayed sequence numbers with other
content, 1 MB payloads (hypothesis), and the same through a real broker."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from rules.game import GameSetup
from tabletop.room.address import RoomAddress
from tabletop.room.link import TableLink
from tabletop.room.messages import encode, entry_message
from tabletop.room.service import RoomService
from tabletop.session.clock import SimClock
from tabletop.session.core import Session
from tabletop.session.journal import Journal

from tests.room.conftest import wait_for

ADDRESS = RoomAddress("127.0.0.1", 1, "club")


def _legit_messages() -> tuple[Session, list[tuple[str, bytes]]]:
    """A real table's game (letter dice, two rounds' worth) and the messages its link would send."""
    session = Session.create(Journal(":memory:"), GameSetup("letter-dice", ("Ann", "Ben"), seed=3), "",
                             clock=SimClock(), game_id="g1")
    session.submit({"type": "roll", "faces": ["C", "A", "T", "S", "E", "R", "O", "*"]})
    session.submit({"type": "word", "player": "Ann", "row": 1, "word": "CATS"})
    session.submit({"type": "word", "player": "Ben", "row": 2, "word": "ROSE"})
    session.clock.advance(200)
    session.tick()
    hello = encode({"v": 1, "table": "1", "game_id": "g1", "title": "x",
                    "setup": {k: v for k, v in session.setup_data.items() if k != "tokens"}})
    messages = [("tabletop/club/tables/1/hello", hello)]
    for entry in session.journal.entries("g1"):
        messages.append(("tabletop/club/tables/1/entries", encode(entry_message("1", "g1", entry.to_json(), 1.0))))
    return session, messages


SESSION, LEGIT = _legit_messages()
ENTRY = json.loads(LEGIT[1][1])

topics = st.sampled_from(["tabletop/club/tables/1/entries", "tabletop/club/tables/1/hello",
                          "tabletop/club/tables/1/state", "tabletop/club/tables/1/health",
                          "tabletop/club/tables/1/status", "tabletop/club/tables/9/entries",
                          "tabletop/club/tables/9/hello", "tabletop/other/tables/1/entries",
                          "tabletop/club/commands/all", "tabletop/club/tables/1/nonsense", "#", ""])
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=20)


@st.composite
def bad_payloads(draw) -> bytes:
    kind = draw(st.integers(0, 6))
    if kind == 0:
        return draw(st.binary(max_size=200))
    if kind == 1:
        return json.dumps(draw(json_values)).encode()
    if kind == 2:                                 # a real entry with one field broken
        data = dict(ENTRY)
        data[draw(st.sampled_from(sorted(data)))] = draw(json_values)
        return json.dumps(data).encode()
    if kind == 3:                                 # a replayed seq with other content
        data = dict(ENTRY)
        data["seq"] = draw(st.integers(1, 3))
        data["body"] = {"type": "roll", "faces": ["Z", "Z"]}
        return json.dumps(data).encode()
    if kind == 4:                                 # another table's entry on table 1's topic
        return json.dumps({**ENTRY, "table": "9"}).encode()
    if kind == 5:                                 # 1 MB
        return b'{"v": 1, "table": "1", "pad": "' + b"x" * 1_048_576 + b'"}'
    return b"[" * 5000 + b"]" * 5000              # deeper than anything allowed


def _is_copy(payload: bytes) -> bool:
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("table") == "1" and "seq" in data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(topics, bad_payloads()), max_size=12), st.randoms(use_true_random=False))
def test_nothing_bad_reaches_a_standing(tmp_path_factory, bad, rng):
    room = RoomService(ADDRESS, str(tmp_path_factory.mktemp("room") / "room.sqlite"), roster={"1"})
    try:
        legit = list(LEGIT)
        mixed = [legit.pop(0)]                    # the hello first: the table says which game it is
        # replays and tampered copies of an entry come after it (before it, on its own table's
        # topic, only the table itself may write: the broker's ACL)
        replays = [(t, p) for t, p in bad if t.endswith("/1/entries") and _is_copy(p)]
        rest = legit + [m for m in bad if m not in replays]
        rng.shuffle(rest)
        mixed += rest + replays
        for topic, payload in mixed:
            room.handle(topic, payload)           # never raises
        replica = room.replicas[("1", "g1")]
        assert replica.applied_seq == SESSION.journal.count("g1")
        assert replica.totals == SESSION.game.totals
        assert replica.game.state() == SESSION.game.state()
        assert set(room.replicas) == {("1", "g1")}
        assert {line["player"] for lines in room.snapshot()["leaderboard"].values() for line in lines} == {"Ann", "Ben"}
        bad_count = sum(1 for t, p in bad if p not in dict(LEGIT).values())
        assert room.refused + room.duplicates >= min(1, bad_count) or not bad
    finally:
        room.close()


def test_each_kind_of_bad_message_is_refused_with_a_logged_reason(tmp_path):
    room = RoomService(ADDRESS, str(tmp_path / "room.sqlite"), roster={"1"})
    try:
        for topic, payload in LEGIT:
            room.handle(topic, payload)
        replayed = json.dumps({**ENTRY, "body": {"type": "roll", "faces": ["Q"]}}).encode()
        cases = {"tabletop/club/tables/1/entries": b"x" * 1_048_576,
                 "tabletop/club/tables/9/entries": LEGIT[1][1],
                 "tabletop/elsewhere/tables/1/entries": LEGIT[1][1],
                 "tabletop/club/tables/1/state": b'{"v": 1, "table": "1", "totals": {"Ann": "lots"}}'}
        for topic, payload in cases.items():
            room.handle(topic, payload)
        room.handle("tabletop/club/tables/1/entries", replayed)
        room.handle("tabletop/club/tables/1/entries", LEGIT[1][1])          # a plain duplicate: dropped quietly
        reasons = [r["reason"] for r in room.store.refusals()]
        assert len(reasons) == 5 and room.duplicates == 1
        assert any("at most 262144 bytes" in r for r in reasons)
        assert any("not one of this room's tables" in r for r in reasons)
        assert any("not a table topic of this room" in r for r in reasons)
        assert any("different content" in r for r in reasons)
        assert room.replicas[("1", "g1")].totals == SESSION.game.totals
    finally:
        room.close()


def test_garbage_through_a_real_broker_leaves_the_room_counting(broker, tmp_path):
    import paho.mqtt.client as paho

    room = RoomService(RoomAddress.broker(broker.url, "club"), str(tmp_path / "room.sqlite"), roster={"1"}).start()
    session = Session.create(Journal(tmp_path / "t.sqlite"), GameSetup("letter-dice", ("Ann", "Ben"), seed=3), "",
                             clock=SimClock(), game_id="g1")
    link = TableLink(session, RoomAddress.broker(broker.url, "club"), "1").start()
    rogue = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="rogue")
    rogue.connect("127.0.0.1", broker.port)
    rogue.loop_start()
    try:
        session.submit({"type": "roll", "faces": ["C", "A", "T", "S", "E", "R", "O", "*"]})
        for topic, payload in [("tabletop/club/tables/1/entries", b"\xff" * 1_048_576),
                               ("tabletop/club/tables/1/entries", b'{"v": 1}'),
                               ("tabletop/club/tables/7/hello", LEGIT[0][1]),
                               ("tabletop/club/tables/1/state", b"[1, 2")]:
            rogue.publish(topic, payload, qos=1).wait_for_publish(5)
        session.submit({"type": "word", "player": "Ann", "row": 1, "word": "CATS"})
        session.clock.advance(200)
        session.tick()
        wait_for(lambda: ("1", "g1") in room.replicas
                 and room.replicas[("1", "g1")].applied_seq == session.journal.count("g1"))
        wait_for(lambda: room.refused >= 4, what="the refusals")
        assert room.replicas[("1", "g1")].totals == session.game.totals
        assert [t["table"] for t in room.snapshot()["tables"]] == ["1"]
    finally:
        rogue.loop_stop()
        link.close()
        room.close()


def test_room_wide_uniqueness_scores_a_word_only_one_table_wrote():
    from types import SimpleNamespace as NS

    from tabletop.room.duplicate import room_unique_points

    class Game:
        def __init__(self, rows):
            self.rows = rows

        def rounds_json(self):
            return [self.rows]

        def faces_of(self, n):
            return ("C", "A", "T", "S")

    tables = [NS(table="1", setup={"game": "letter-dice"}, game=Game({"Ann": [{"word": "CAT", "score": 3}],
                                                                        "Ben": [{"word": "ACTS", "score": 4}]})),
              NS(table="2", setup={"game": "letter-dice"}, game=Game({"Cai": [{"word": "CAT", "score": 3}],
                                                                        "Dan": [{"word": None, "score": 0}]}))]
    assert room_unique_points(tables, [["C", "A", "T", "S"]]) == {("1", "Ben"): 4}
    assert room_unique_points(tables, [["D", "O", "G"]]) == {}
