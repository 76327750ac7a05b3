"""The room waits a moment for an entry that is late, then asks its table for the gap, and asks
again only when nothing has come."""

from __future__ import annotations

import json

from tabletop.room.address import RoomAddress
from tabletop.room.messages import encode
from tabletop.room.service import GAP_PATIENCE, RoomService

from tests.room.test_refusals import LEGIT, SESSION


def test_a_gap_is_asked_for_after_a_moment_and_again_only_when_nothing_came(tmp_path):
    room = RoomService(RoomAddress("127.0.0.1", 1, "club"), str(tmp_path / "room.sqlite"))
    try:
        hello, *entries = LEGIT
        room.handle(*hello)
        for topic, payload in entries[:1] + entries[2:]:          # entry 2 is lost on the way
            room.handle(topic, payload)
        replica = room.replicas[("1", "g1")]
        assert replica.applied_seq == 1 and len(replica.waiting) == len(entries) - 2
        room.handle("tabletop/club/tables/1/state", encode({"v": 1, "table": "1", "game_id": "g1", "at": 1.0,
                                                            "last_seq": len(entries), "totals": {}}))
        assert room.ask_for_gaps(now=100.0) == []                 # it may still come
        assert room.ask_for_gaps(now=100.0 + GAP_PATIENCE) == []  # no broker: nothing asked, nothing noted
        room.client.connected.set()                               # (as if connected: paho keeps what it cannot send)
        assert room.ask_for_gaps(now=100.0 + GAP_PATIENCE) == ["1"]
        asked = [c for c in room.store.commands() if c["command"] == "resend"]
        assert asked[-1]["after"] == 1 and asked[-1]["table"] == "1"
        assert room.ask_for_gaps(now=100.1 + GAP_PATIENCE) == []          # asked just now
        assert room.ask_for_gaps(now=100.0 + 2.5 * GAP_PATIENCE) == ["1"]  # still nothing: again
        room.handle(*entries[1])                                  # the table resends it
        assert replica.applied_seq == len(entries) and replica.totals == SESSION.game.totals
        assert room.ask_for_gaps(now=200.0) == []
        assert json.loads(entries[1][1])["seq"] == 2
    finally:
        room.close()


def test_entries_before_their_hello_wait_for_it_and_are_counted_once(tmp_path):
    room = RoomService(RoomAddress("127.0.0.1", 1, "club"), str(tmp_path / "room.sqlite"))
    try:
        hello, *entries = LEGIT
        for topic, payload in entries:                            # the broker's queue, then the retained hello
            room.handle(topic, payload)
        assert room.replicas == {} and room.refused == 0
        room.handle(*hello)
        replica = room.replicas[("1", "g1")]
        assert replica.applied_seq == len(entries) == replica.counted
        assert replica.totals == SESSION.game.totals
    finally:
        room.close()


def test_an_entry_the_rules_fail_on_changes_nothing_and_the_next_ones_are_applied(monkeypatch):
    from tabletop.room.tables import TableReplica

    replica = TableReplica("1", "g1", {"game": "letter-dice", "players": ["Ann", "Ben"], "board": "", "seed": 3})
    entries = [json.loads(payload) for _topic, payload in LEGIT[1:]]
    replica.offer(entries[0])
    before = replica.game.state()
    real = type(replica.game).apply

    def broken(self, event):
        if event.get("type") == "word" and event.get("player") == "Ann":
            raise RuntimeError("a bug in the rules")
        return real(self, event)
    monkeypatch.setattr(type(replica.game), "apply", broken)
    assert replica.offer(entries[1]) == 1                 # counted, applied as nothing
    assert replica.game.state() == before
    monkeypatch.setattr(type(replica.game), "apply", real)
    for entry in entries[2:]:
        replica.offer(entry)
    assert replica.applied_seq == len(entries)
